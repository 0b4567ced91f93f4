"""Quadrotor: a Crazyflie-class drone flown by a cascaded PID on per-rotor thrusts.

Card
----
- **What it is.** The airframe of :mod:`wmbench.body.drone.airframe` (27 g, real Crazyflie 2.x parameters,
  drawn 4x larger). Name ``"drone"``; dynamic (``needs_physics = True``); the sensor height is the flight
  altitude (cruise 1.2 m); wall clearance radius 0.25 m. It is spawned airborne at the cruise altitude,
  level and still (take-off is not part of any scenario).
- **Speed envelope.** Every speed class scaled so that sprint = 3 m/s (:data:`DRONE_SPEED_ENVELOPE`: walk
  0.65, jog 1.38, run 2.08, sprint 3 m/s); ``speed_class`` is read against it.
- **Intent -> set-point.** A moving intent fixes a world travel heading (the drone's yaw + the intent's
  relative heading) and a horizontal speed; with ``face_travel`` the yaw set-point turns to the travel
  heading (otherwise the yaw is kept: a back-step keeps watching). The velocity is tracked at once while
  the yaw catches up: the cascade steers to a yaw at most 50° ahead of the current one, so an about-turn
  ("turns around and sprints away") flies back immediately and yaws counter-clockwise at the full rate.
  No translation (stand, freeze, hover): brake, then hold the position where it slowed below 0.2 m/s.
  ``crouch`` descends to 0.8 m, ``climb`` rises to 1.7 m (walls are 2 m), anything else flies at 1.2 m.
- **Physics every step.** Read pose and velocities once, run :class:`~wmbench.body.drone.pid.QuadrotorCascade`
  (velocity -> acceleration -> attitude + thrust -> body rates -> torques), mix into four rotor thrusts
  (saturated), apply each with ``applyExternalForce`` in LINK_FRAME at its rotor, plus the rotors' summed
  drag torque about body z. The step runs on plain floats with nothing built per step but the
  arguments PyBullet takes; rotor rpm and tilt are derived from the last step only when ``state()`` asks.
- **Walls.** It collides physically, and it never flies into one: each frame the braking distance ahead
  (0.25 s of control lag + speed² / 2·3 m/s² + one frame + 5 cm) is swept with the clearance radius; if
  a wall is in it, the speed set-point is cut to what still stops 5 cm short. When the requested step itself
  is blocked (or the airframe touches a wall) the set-point speed is 0 and the frame reports ``collided``
  -> ``collision:wall``.
- **Extras**: altitude, altitude set-point, rotor rpm, tilt (rad).

- **Aerodynamics** (off by default): rotor drag, ground effect and downwash from
  :mod:`wmbench.body.drone.aero`, switched on with ``Quadrotor(aero=AeroOptions(drag=True, ...))``.

Simplified: no motor dynamics (rotor speeds change instantly), and no air unless asked (above); NPCs pass
through it (the env switches off their contacts with a dynamic body) and a beast's catch is decided in the
ground plane, like for any body, even while the drone flies above the beast.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import pybullet as p

from wmbench.body.base import BodyState, FrameReport, Vec3, WorldHandle
from wmbench.body.drone import flight_kernel as fk
from wmbench.body.drone.aero import (
    CRAZYFLIE_2X_AERO,
    AeroCoefficients,
    AeroOptions,
    downwash_force,
    drag_force,
    ground_effect_gain,
)
from wmbench.body.drone.airframe import CRAZYFLIE_2X, Airframe, QuadrotorParams, drone_urdf_path
from wmbench.body.drone.pid import CascadeGains, QuadrotorCascade, Setpoint, tilt_of
from wmbench.body.envelope import SpeedClassifier, classifier_for, scaled_envelope
from wmbench.body.intent.record import MotionIntent
from wmbench.body.multibody import UrdfBody, quaternion_yaw, wall_contact, yaw_quaternion
from wmbench.core.directions import wrap_angle

CRUISE_ALTITUDE = 1.2
CROUCH_ALTITUDE = 0.8
CLIMB_ALTITUDE = 1.7
CLEARANCE_RADIUS = 0.25
DRONE_TOP_SPEED = 3.0
#: Speed class -> the drone's horizontal speed (m/s).
DRONE_SPEED_ENVELOPE = scaled_envelope(DRONE_TOP_SPEED)
#: Deceleration (m/s²) the wall look-ahead plans with (well inside the 40° tilt limit, ~8.2 m/s²).
BRAKE_ACCEL = 3.0
#: Seconds the velocity loop takes to start braking in earnest (the look-ahead adds speed * this).
CONTROL_LAG_S = 0.25
#: How far short of the clearance boundary the drone plans to stop (m).
STOP_MARGIN = 0.05
#: Below this speed (m/s) a braking drone starts holding its position.
HOLD_SPEED = 0.2
_ORIGIN = (0.0, 0.0, 0.0)


def stopping_distance(speed: float) -> float:
    """Distance (m) the drone needs to stop from ``speed``: the controller's lag, then braking."""
    return speed * CONTROL_LAG_S + speed * speed / (2.0 * BRAKE_ACCEL) + STOP_MARGIN


def stoppable_speed(distance: float) -> float:
    """The highest speed (m/s) that still stops within ``distance`` (inverse of the lag + braking part)."""
    if distance <= 0.0:
        return 0.0
    a_lag = BRAKE_ACCEL * CONTROL_LAG_S
    return -a_lag + math.sqrt(a_lag * a_lag + 2.0 * BRAKE_ACCEL * distance)


class Quadrotor(UrdfBody):
    """The quadrotor drone body (see the module card)."""

    name = "drone"
    needs_physics = True
    clearance_radius = CLEARANCE_RADIUS

    def __init__(self, params: QuadrotorParams = CRAZYFLIE_2X, gains: CascadeGains | None = None,
                 top_speed: float = DRONE_TOP_SPEED, cruise_altitude: float = CRUISE_ALTITUDE,
                 aero: AeroOptions | None = None, aero_coefficients: AeroCoefficients = CRAZYFLIE_2X_AERO) -> None:
        self.params = params
        #: Optional aerodynamics (:mod:`wmbench.body.drone.aero`); None or all off: none simulated.
        self.aero = aero if aero is not None and aero.any else None
        self.aero_coefficients = aero_coefficients
        #: Downwash sources: a callable giving the positions of other rotorcraft (None: there are none).
        self.rotorcraft_above: Callable[[], Iterable[Vec3]] | None = None
        self.airframe = Airframe(params)
        #: The cascade's gains and typed API; the body flies through :mod:`~wmbench.body.drone.flight_kernel`
        #: (the same cascade and mixer, compiled when numba is installed), whose PID integrals live in
        #: ``_mem``, not in this object.
        self.controller = QuadrotorCascade(params.mass, params.inertia, gains)
        self._kernel = fk.kernel()
        self._k = fk.kernel_constants(self.controller, self.airframe)
        self._mem = fk.new_memory()
        self.envelope = scaled_envelope(top_speed)
        self._classifier: SpeedClassifier | None = None
        self.cruise_altitude = float(cruise_altitude)
        self._world: WorldHandle | None = None
        self._id = -1
        self._intent = MotionIntent.still()
        self._travel_heading = 0.0
        self._cruise_speed = 0.0
        self._setpoint = Setpoint(altitude=self.cruise_altitude)
        self._hold: tuple[float, float] | None = None
        self._direct = False
        self._rpm = (0.0, 0.0, 0.0, 0.0)
        self._tilt = 0.0
        #: Whether a physics step ran since the rotor rpm / the tilt above were derived: state() derives
        #: them from the kernel's last rotor thrusts and desired-thrust z only when asked.
        self._rpm_stale = self._tilt_stale = False
        self._rotors = tuple(self.airframe.rotor_positions)

    @property
    def _setpoint(self) -> Setpoint:
        return self._sp

    @_setpoint.setter
    def _setpoint(self, sp: Setpoint) -> None:
        """Every set-point change is written into the kernel's buffer at once (the steps only read it)."""
        self._sp = sp
        mem = self._mem
        hold = sp.hold
        mem[fk.M_HELD] = 0.0 if hold is None else 1.0
        mem[fk.M_HOLD_X], mem[fk.M_HOLD_Y] = (0.0, 0.0) if hold is None else hold
        mem[fk.M_VX], mem[fk.M_VY] = sp.velocity_xy
        mem[fk.M_ALTITUDE], mem[fk.M_YAW] = sp.altitude, sp.yaw

    # ------------------------------------------------------------------ Body protocol
    @property
    def sensor_height(self) -> float:
        """The current altitude (the camera flies with the drone); the cruise altitude before spawning."""
        if self._world is None or self._id < 0:
            return self.cruise_altitude
        return max(0.05, self._pose()[0][2])

    def spawn(self, world: WorldHandle, position: Vec3, heading: float) -> None:
        if self._world is world:
            self.remove()
        self._world = world
        self._id = p.loadURDF(str(drone_urdf_path(self.params)),
                              [position[0], position[1], self.cruise_altitude], yaw_quaternion(heading),
                              flags=p.URDF_USE_INERTIA_FROM_FILE, physicsClientId=world.client)
        p.changeDynamics(self._id, -1, linearDamping=0.0, angularDamping=0.0, physicsClientId=world.client)
        self.reset_pose(position, heading)

    def respawn(self, position: Vec3, heading: float) -> None:
        """A new episode in the same world without reloading the URDF (a reused env calls it instead of
        ``spawn``): ``reset_pose`` restores everything ``spawn`` sets up after the load."""
        self.reset_pose(position, heading)

    def reset_pose(self, position: Vec3, heading: float) -> None:
        world = self._require_world("reset_pose")
        heading = wrap_angle(float(heading))
        p.resetBasePositionAndOrientation(self._id, [position[0], position[1], self.cruise_altitude],
                                          yaw_quaternion(heading), physicsClientId=world.client)
        p.resetBaseVelocity(self._id, [0, 0, 0], [0, 0, 0], physicsClientId=world.client)
        self.controller.reset()
        self._mem[fk.M_INTEGRALS] = [0.0] * 6
        self._mem[fk.M_DT] = world.physics_dt
        self._intent = MotionIntent.still()
        self._travel_heading = heading
        self._cruise_speed = 0.0
        self._hold = (float(position[0]), float(position[1]))
        self._direct = False
        self._setpoint = Setpoint(altitude=self.cruise_altitude, yaw=heading, hold=self._hold)
        self._rpm = (self.params.hover_rpm,) * 4
        self._tilt = 0.0
        self._rpm_stale = self._tilt_stale = False

    def apply_intent(self, intent: MotionIntent) -> None:
        self._require_world("apply_intent")
        self._intent = intent
        self._direct = False
        yaw = self._yaw()
        altitude = self.altitude_for(intent)
        if intent.moving:
            self._travel_heading = wrap_angle(yaw + intent.heading)
            self._cruise_speed = self.envelope[intent.speed_class.value]
            self._hold = None
            face = self._travel_heading if intent.face_travel else self._setpoint.yaw
            self._setpoint = Setpoint(altitude=altitude, yaw=face)
        else:
            self._cruise_speed = 0.0
            self._setpoint = Setpoint(altitude=altitude, yaw=self._setpoint.yaw, hold=self._hold)

    def on_frame(self) -> FrameReport:
        world = self._require_world("on_frame")
        (x, y, _), _ = self._pose()
        report = wall_contact(world, self._id)
        sp = self._setpoint
        if self._direct:
            return report
        if self._cruise_speed <= 0.0:
            if self._hold is None and self._horizontal_speed() < HOLD_SPEED:
                self._hold = (x, y)
            self._setpoint = Setpoint(altitude=sp.altitude, yaw=sp.yaw, hold=self._hold)
            return report
        speed = self._cruise_speed
        c, s = math.cos(self._travel_heading), math.sin(self._travel_heading)
        # The requested step first: it is also the only safe test once the disc is inside a clearance zone
        # (a long look-ahead from there could pass clean through the wall).
        step = max(speed * world.frame_dt, STOP_MARGIN)
        near = world.sweep((x, y, 0.0), (x + step * c, y + step * s, 0.0), CLEARANCE_RADIUS)
        if near.blocked:
            speed = 0.0
            report = FrameReport(collided=True, wall_name=near.wall_name)
        else:
            look = stopping_distance(speed) + step
            ahead = world.sweep((x, y, 0.0), (x + look * c, y + look * s, 0.0), CLEARANCE_RADIUS)
            if ahead.blocked:
                free = math.hypot(ahead.end[0] - x, ahead.end[1] - y)
                speed = min(speed, stoppable_speed(free - STOP_MARGIN))
        self._setpoint = Setpoint(velocity_xy=(speed * c, speed * s), altitude=sp.altitude, yaw=sp.yaw)
        return report

    def on_physics_step(self) -> None:
        world = self._world
        if world is None or self._id < 0:
            return
        cid, uid = world.client, self._id
        # read the state once: pose and velocities; the kernel derives the rotation matrix itself
        pos, quat = p.getBasePositionAndOrientation(uid, cid)   # positional client id: ~1 us less per call
        lin, ang = p.getBaseVelocity(uid, cid)
        self._mem[fk.M_DT] = world.physics_dt
        thrust, t0, t1, t2 = self._kernel(self._k, self._mem, *pos, *quat, *lin, *ang)
        self._rpm_stale = self._tilt_stale = True
        if self.aero is not None:
            self._apply_aero(self.aero, uid, cid, pos, lin, p.getMatrixFromQuaternion(quat))
            return
        # the four rotor thrusts and their drag torque as one wrench: a force along body z, a world torque
        p.applyExternalForce(uid, -1, (0.0, 0.0, thrust), _ORIGIN, p.LINK_FRAME, cid)
        p.applyExternalTorque(uid, -1, (t0, t1, t2), p.WORLD_FRAME, cid)

    def run_physics_steps(self, substeps: int, step_physics: Callable[[], None]) -> None:
        """``substeps`` times :meth:`on_physics_step` then ``step_physics()`` in one call (the env's hot path,
        :class:`~wmbench.body.base.FusedPhysics`): the same calls and floating-point operations in the same
        order, with the PyBullet functions, ids and the kernel bound once per frame instead of once per step.
        With aerodynamics on, or in a subclass that overrides :meth:`on_physics_step`, it simply runs the
        plain loop."""
        world = self._world
        if (world is None or self._id < 0 or self.aero is not None
                or type(self).on_physics_step is not Quadrotor.on_physics_step):
            for _ in range(substeps):
                self.on_physics_step()
                step_physics()
            return
        cid, uid = world.client, self._id
        get_pose, get_velocity = p.getBasePositionAndOrientation, p.getBaseVelocity
        force, torque = p.applyExternalForce, p.applyExternalTorque
        link_frame, world_frame = p.LINK_FRAME, p.WORLD_FRAME
        control, k, mem = self._kernel, self._k, self._mem
        mem[fk.M_DT] = world.physics_dt
        for _ in range(substeps):
            pos, quat = get_pose(uid, cid)
            lin, ang = get_velocity(uid, cid)
            thrust, t0, t1, t2 = control(k, mem, *pos, *quat, *lin, *ang)
            force(uid, -1, (0.0, 0.0, thrust), _ORIGIN, link_frame, cid)
            torque(uid, -1, (t0, t1, t2), world_frame, cid)
            step_physics()
        if substeps > 0:
            self._rpm_stale = self._tilt_stale = True

    def _apply_aero(self, aero: AeroOptions, uid: int, cid: int, pos: Vec3, lin: Vec3, rot: Sequence[float]) -> None:
        """The rotor thrusts of the kernel's last step as four forces at the rotors plus their drag torque
        (the ground effect changes each rotor's thrust, so the one-wrench shortcut does not apply), with the
        optional effects of :mod:`wmbench.body.drone.aero`: drag and downwash as extra forces, the ground
        effect riding on the rotor force calls (no extra PyBullet call)."""
        c = self.aero_coefficients
        r0, r1, r2, r3, r4, r5, r6, r7, r8 = rot
        mem = self._mem
        forces = fk.rotor_thrusts(mem)
        if aero.drag:
            kf = self.params.kf
            rpm_sum = sum(math.sqrt(f / kf) for f in forces)
            v0, v1, v2 = lin
            v_body = (r0 * v0 + r3 * v1 + r6 * v2, r1 * v0 + r4 * v1 + r7 * v2, r2 * v0 + r5 * v1 + r8 * v2)
            p.applyExternalForce(uid, -1, drag_force(c, rpm_sum, v_body), (0.0, 0.0, 0.0), p.LINK_FRAME, cid)
        if aero.downwash and self.rotorcraft_above is not None:
            push = downwash_force(c, (pos[0], pos[1], pos[2]), self.rotorcraft_above())
            if push > 0.0:
                p.applyExternalForce(uid, -1, (0.0, 0.0, -push), pos, p.WORLD_FRAME, cid)
        f0, f1, f2, f3 = forces
        if aero.ground_effect and r8 > 0.0:  # less than 90 degrees from upright
            z = pos[2]   # each rotor's world height: z + (row 3 of R) . rotor position; ground top at z = 0
            f0, f1, f2, f3 = (f + f * ground_effect_gain(c, z + r6 * at[0] + r7 * at[1])
                              for f, at in zip(forces, self._rotors))
        at0, at1, at2, at3 = self._rotors
        p.applyExternalForce(uid, -1, (0.0, 0.0, f0), at0, p.LINK_FRAME, cid)
        p.applyExternalForce(uid, -1, (0.0, 0.0, f1), at1, p.LINK_FRAME, cid)
        p.applyExternalForce(uid, -1, (0.0, 0.0, f2), at2, p.LINK_FRAME, cid)
        p.applyExternalForce(uid, -1, (0.0, 0.0, f3), at3, p.LINK_FRAME, cid)
        tz = float(mem[fk.M_YAW_TORQUE])  # about body z, applied in the world frame
        p.applyExternalTorque(uid, -1, (r2 * tz, r5 * tz, r8 * tz), p.WORLD_FRAME, cid)

    def state(self) -> BodyState:
        world = self._world
        if world is None or self._id < 0:
            world = self._require_world("state")
        uid, cid = self._id, world.client
        (x, y, z), quat = p.getBasePositionAndOrientation(uid, cid)   # one read for position and heading
        vx, vy, vz = p.getBaseVelocity(uid, cid)[0]
        speed = math.hypot(vx, vy)
        styles = self._intent.styles
        posture = "crouch" if "crouch" in styles else "freeze" if "freeze" in styles else "upright"
        r0, r1, r2, r3 = self.rotor_rpm
        return BodyState(
            (x, y, z), quaternion_yaw(quat), (vx, vy, vz), speed, posture, self._speed_class(speed),
            {"altitude": round(z, 6), "altitude_setpoint": self._sp.altitude,
             "rotor_rpm": [round(r0, 1), round(r1, 1), round(r2, 1), round(r3, 1)], "tilt_rad": round(self.tilt, 6)},
        )

    def frame_pose(self) -> tuple[float, float, float, str]:
        """``(x, y, heading, posture)`` of :meth:`state` with one PyBullet read and nothing else
        (:class:`~wmbench.body.base.FramePose`: velocity, rotor speeds, tilt and extras are left for ``state``)."""
        world = self._world
        if world is None or self._id < 0:
            world = self._require_world("frame_pose")
        (x, y, _), quat = p.getBasePositionAndOrientation(self._id, world.client)
        styles = self._intent.styles
        return x, y, quaternion_yaw(quat), "crouch" if "crouch" in styles else "freeze" if "freeze" in styles \
            else "upright"

    # ------------------------------------------------------------------ helpers
    def _speed_class(self, speed: float) -> str:
        """``classify_speed(speed, self.envelope)`` with the envelope's thresholds sorted once."""
        self._classifier = classifier = classifier_for(self.envelope, self._classifier)
        return classifier(speed)

    @property
    def rotor_rpm(self) -> tuple[float, float, float, float]:
        """The rotor speeds (rpm) of the last physics step (hover rpm after a reset)."""
        if self._rpm_stale:
            self._rpm = self.airframe.rotor_rpm(*fk.rotor_thrusts(self._mem))
            self._rpm_stale = False
        return self._rpm

    @property
    def tilt(self) -> float:
        """The angle (rad) from vertical of the last physics step's desired thrust (0 after a reset)."""
        if self._tilt_stale:
            self._tilt = tilt_of(float(self._mem[fk.M_ZD_Z]))
            self._tilt_stale = False
        return self._tilt

    def altitude_for(self, intent: MotionIntent) -> float:
        """The altitude an intent asks for: crouch -> low, climb -> high, otherwise cruise."""
        if "crouch" in intent.styles:
            return CROUCH_ALTITUDE
        if "climb" in intent.styles:
            return CLIMB_ALTITUDE
        return self.cruise_altitude

    def command_velocity(self, velocity_xy: tuple[float, float], altitude: float | None = None) -> None:
        """Track a horizontal velocity set-point directly (tests, tuning); the next intent replaces it."""
        self._require_world("command_velocity")
        sp = self._setpoint
        self._cruise_speed = 0.0
        self._hold = None
        self._direct = True
        vx, vy = float(velocity_xy[0]), float(velocity_xy[1])
        target = sp.altitude if altitude is None else float(altitude)
        self._setpoint = Setpoint(velocity_xy=(vx, vy), altitude=target, yaw=sp.yaw)

    def _pose(self):
        assert self._world is not None
        return p.getBasePositionAndOrientation(self._id, self._world.client)

    def _yaw(self) -> float:
        return quaternion_yaw(self._pose()[1])

    def _horizontal_speed(self) -> float:
        assert self._world is not None
        v = p.getBaseVelocity(self._id, physicsClientId=self._world.client)[0]
        return math.hypot(v[0], v[1])
