"""Test-only reference copy of the drone's flight controller as it was before issue 23 (wmbench 0.3.0).

The scalar :class:`~wmbench.body.drone.pid.PID` objects, the generic cascade, the numpy mixer and the
``on_physics_step`` that glued them, kept verbatim so that ``test_drone_equivalence`` can fly the rewritten
(inlined, allocation-free) controller against it. Not used by the package.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pybullet as p

from wmbench.body.base import Vec3
from wmbench.body.drone.airframe import Airframe
from wmbench.body.drone.pid import GRAVITY, PID, CascadeGains, Setpoint, led_yaw
from wmbench.body.drone.quadrotor import Quadrotor


@dataclass(frozen=True)
class FlightState:
    position: tuple[float, float, float]
    velocity: tuple[float, float, float]
    rotation: tuple[float, ...]
    body_rates: tuple[float, float, float]


@dataclass(frozen=True)
class ControlOutput:
    thrust: float
    torque: tuple[float, float, float]
    tilt: float


@dataclass(frozen=True)
class RotorCommand:
    forces: tuple[float, float, float, float]
    rpm: tuple[float, float, float, float]
    yaw_torque: float


class ReferenceCascade:
    """The 0.3.0 ``QuadrotorCascade`` (six scalar PIDs, tuples, generator expressions)."""

    def __init__(self, mass: float, inertia: tuple[float, float, float],
                 gains: CascadeGains | None = None) -> None:
        self.mass = float(mass)
        self.inertia = inertia
        self.gains = gains or CascadeGains()
        g = self.gains
        self._vel = (PID(g.velocity_xy), PID(g.velocity_xy), PID(g.velocity_z))
        self._rate = tuple(PID(r) for r in g.rate)

    def reset(self) -> None:
        for pid in (*self._vel, *self._rate):
            pid.reset()

    def update(self, state: FlightState, sp: Setpoint, dt: float) -> ControlOutput:
        g = self.gains
        px, py, pz = state.position
        vx, vy, vz = state.velocity
        if sp.hold is not None:
            vx_sp, vy_sp = g.hold_kp * (sp.hold[0] - px), g.hold_kp * (sp.hold[1] - py)
        else:
            vx_sp, vy_sp = sp.velocity_xy
        vz_sp = max(-g.max_climb_rate, min(g.max_climb_rate, g.altitude_kp * (sp.altitude - pz)))
        ax = self._vel[0].update(vx_sp - vx, dt)
        ay = self._vel[1].update(vy_sp - vy, dt)
        az = max(-0.8 * GRAVITY, self._vel[2].update(vz_sp - vz, dt)) + GRAVITY
        horizontal = math.hypot(ax, ay)
        max_horizontal = az * math.tan(g.max_tilt)
        if horizontal > max_horizontal:
            ax, ay = ax * max_horizontal / horizontal, ay * max_horizontal / horizontal
        fx, fy, fz = self.mass * ax, self.mass * ay, self.mass * az
        norm = math.sqrt(fx * fx + fy * fy + fz * fz)
        zd = (fx / norm, fy / norm, fz / norm)
        r = state.rotation
        yaw = led_yaw(math.atan2(r[3], r[0]), sp.yaw, g.max_yaw_lead)
        xc = (math.cos(yaw), math.sin(yaw), 0.0)
        yd = _normalise(_cross(zd, xc))
        xd = _cross(yd, zd)
        bx, by, bz = (r[0], r[3], r[6]), (r[1], r[4], r[7]), (r[2], r[5], r[8])
        e = (0.5 * (_dot(zd, by) - _dot(yd, bz)),
             0.5 * (_dot(xd, bz) - _dot(zd, bx)),
             0.5 * (_dot(yd, bx) - _dot(xd, by)))
        rates_sp = tuple(max(-m, min(m, -k * ei)) for k, m, ei in zip(g.attitude_kp, g.max_rate, e))
        tx, ty, tz = (i * pid.update(w_sp - w, dt) for i, pid, w_sp, w in
                      zip(self.inertia, self._rate, rates_sp, state.body_rates))
        thrust = max(0.0, fx * bz[0] + fy * bz[1] + fz * bz[2])
        return ControlOutput(thrust, (tx, ty, tz), math.acos(max(-1.0, min(1.0, zd[2]))))


def reference_unmix(airframe: Airframe) -> np.ndarray:
    """The 0.3.0 inverse mixing matrix."""
    prm = airframe.params
    ratio = prm.km / prm.kf
    return np.linalg.inv(np.array([
        [1.0, 1.0, 1.0, 1.0],
        [y for _, y, _ in airframe.rotor_positions],
        [-x for x, _, _ in airframe.rotor_positions],
        [s * ratio for s in airframe.torque_signs],
    ]))


def reference_mix(airframe: Airframe, unmix: np.ndarray, thrust: float,
                  torque: tuple[float, float, float]) -> RotorCommand:
    """The 0.3.0 ``Airframe.mix`` (numpy matmul with the inverse mixing matrix)."""
    prm = airframe.params
    f_max = prm.max_rotor_force
    raw = unmix @ np.array([thrust, torque[0], torque[1], torque[2]])
    f0, f1, f2, f3 = (min(max(float(f), 0.0), f_max) for f in raw)
    rpm = (math.sqrt(f0 / prm.kf), math.sqrt(f1 / prm.kf), math.sqrt(f2 / prm.kf), math.sqrt(f3 / prm.kf))
    yaw = sum(s * prm.km * r * r for s, r in zip(airframe.torque_signs, rpm))
    return RotorCommand((f0, f1, f2, f3), rpm, yaw)


class ReferenceQuadrotor(Quadrotor):
    """A :class:`Quadrotor` flown by the 0.3.0 controller (everything else is the current body)."""

    def __init__(self) -> None:
        super().__init__()
        self.reference = ReferenceCascade(self.params.mass, self.params.inertia)
        self.unmix = reference_unmix(self.airframe)

    def reset_pose(self, position: Vec3, heading: float) -> None:
        super().reset_pose(position, heading)
        self.reference.reset()

    def on_physics_step(self) -> None:
        if self._world is None or self._id < 0:
            return
        cid = self._world.client
        (pos, quat) = p.getBasePositionAndOrientation(self._id, physicsClientId=cid)
        lin, ang = p.getBaseVelocity(self._id, physicsClientId=cid)
        rot = p.getMatrixFromQuaternion(quat)
        body_rates = (rot[0] * ang[0] + rot[3] * ang[1] + rot[6] * ang[2],
                      rot[1] * ang[0] + rot[4] * ang[1] + rot[7] * ang[2],
                      rot[2] * ang[0] + rot[5] * ang[1] + rot[8] * ang[2])
        out = self.reference.update(FlightState(pos, lin, rot, body_rates), self._setpoint, self._world.physics_dt)
        command = reference_mix(self.airframe, self.unmix, out.thrust, out.torque)
        for force, at in zip(command.forces, self.airframe.rotor_positions):
            p.applyExternalForce(self._id, -1, (0.0, 0.0, force), at, p.LINK_FRAME, physicsClientId=cid)
        tz = command.yaw_torque
        p.applyExternalTorque(self._id, -1, (rot[2] * tz, rot[5] * tz, rot[8] * tz), p.WORLD_FRAME,
                              physicsClientId=cid)


def _cross(a: tuple, b: tuple) -> tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a: tuple, b: tuple) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _normalise(a: tuple) -> tuple[float, float, float]:
    n = math.sqrt(_dot(a, a)) or 1.0
    return (a[0] / n, a[1] / n, a[2] / n)
