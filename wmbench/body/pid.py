"""PID control: a scalar PID with anti-windup, and the quadrotor's cascade (velocity -> attitude -> rates).

Card
----
- :class:`PID` — ``u = kp e + ki ∫e + kd de/dt``; the integral is clamped to ``integral_limit`` (anti-windup)
  and the output to ``output_limit``. The derivative is taken on the measurement when a rate is passed in
  (no derivative kick when the set-point jumps).
- :class:`QuadrotorCascade` — the classic cascade, outer to inner, every physics step:
  1. **Altitude** ``vz_sp = kp_z (z_sp - z)`` (clamped) and **horizontal velocity** set-point (given, or a
     position hold ``v_sp = kp_xy (p_hold - p)``).
  2. **Velocity PID** per axis -> desired acceleration; the horizontal part is limited so the tilt stays
     below ``max_tilt``; ``F = m (a + g z)`` is the desired thrust vector.
  3. **Attitude**: the desired body z axis is ``F / |F|``, the desired yaw completes the frame; the
     attitude error is the geometric one ``e_R = vee(R_dᵀR - RᵀR_d) / 2`` (Lee et al. 2010); desired body
     rates ``ω_d = -k_att e_R`` (clamped). The yaw used here is the set-point *led* by the current yaw:
     never more than ``max_yaw_lead`` (50°) ahead of it (:func:`led_yaw`). ``e_R`` vanishes at exactly 180°
     of error (``R_dᵀR`` is then symmetric) and shrinks like ``sin`` beyond 90°, so an about-turn asked in
     one go would neither yaw nor tilt; led, the drone turns at its full yaw rate, the shorter way, and
     counter-clockwise when the error is ±180° (within :data:`YAW_TIE_TOLERANCE`).
  4. **Rates** PID -> body torques ``τ = I (PID(ω_d - ω))``; collective thrust ``T = F · z_body``.
  The mixer (airframe) turns ``T, τ`` into rotor commands: :mod:`wmbench.body.drone_urdf`.

Written with plain floats (3-vectors as tuples) because it runs 240 times per simulated second.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

GRAVITY = 9.81
#: Yaw errors within this (rad) of ±pi count as exactly pi: the turn then goes counter-clockwise (+yaw).
YAW_TIE_TOLERANCE = 1e-6


def led_yaw(current: float, target: float, max_lead: float) -> float:
    """The yaw to steer to now: ``target`` if it is within ``max_lead`` of ``current`` (either way round,
    the shorter one), else ``current ± max_lead`` towards it. An error of ±pi turns counter-clockwise, so
    the choice never depends on how either angle happens to be wrapped."""
    error = math.remainder(target - current, 2.0 * math.pi)   # in [-pi, pi]
    if abs(error) >= math.pi - YAW_TIE_TOLERANCE:
        error = math.pi
    return current + max(-max_lead, min(max_lead, error))


@dataclass(frozen=True)
class PIDGains:
    kp: float
    ki: float = 0.0
    kd: float = 0.0
    integral_limit: float = math.inf
    output_limit: float = math.inf


class PID:
    """A scalar PID (see the module card)."""

    def __init__(self, gains: PIDGains) -> None:
        self.gains = gains
        self.integral = 0.0
        self._last_error: float | None = None

    def reset(self) -> None:
        self.integral = 0.0
        self._last_error = None

    def update(self, error: float, dt: float, rate: float | None = None) -> float:
        """One step. ``rate`` = d(measurement)/dt if known (the D term then uses ``-rate``)."""
        g = self.gains
        if g.ki:
            lim = g.integral_limit
            self.integral = max(-lim, min(lim, self.integral + error * dt))
        if rate is not None:
            derivative = -rate
        elif self._last_error is None:
            derivative = 0.0
        else:
            derivative = (error - self._last_error) / dt
        self._last_error = error
        u = g.kp * error + g.ki * self.integral + g.kd * derivative
        return max(-g.output_limit, min(g.output_limit, u))


@dataclass(frozen=True)
class CascadeGains:
    """Gains and saturations of :class:`QuadrotorCascade` (SI units, angles in rad)."""

    altitude_kp: float = 2.5
    max_climb_rate: float = 1.5
    hold_kp: float = 1.5
    velocity_xy: PIDGains = PIDGains(kp=6.0, ki=0.1, integral_limit=0.5)
    velocity_z: PIDGains = PIDGains(kp=6.0, ki=2.0, integral_limit=1.0)
    max_tilt: float = math.radians(40.0)
    #: How far (rad) the yaw used by the attitude loop may run ahead of the current yaw. 50° is about the
    #: least that still saturates the yaw rate (``attitude_kp[2] sin(lead) >= max_rate[2]``); anything up
    #: to 90° avoids the 180° singularity, but the larger the lead, the more the geometric error couples
    #: yaw into tilt (at 90° a sprinting about-turn drifts 0.4 m/s sideways, at 50° 0.2 m/s).
    max_yaw_lead: float = math.radians(50.0)
    attitude_kp: tuple[float, float, float] = (12.0, 12.0, 8.0)
    max_rate: tuple[float, float, float] = (8.0, 8.0, 6.0)
    rate: tuple[PIDGains, PIDGains, PIDGains] = field(default_factory=lambda: (
        PIDGains(kp=40.0, ki=20.0, integral_limit=0.5),
        PIDGains(kp=40.0, ki=20.0, integral_limit=0.5),
        PIDGains(kp=20.0, ki=5.0, integral_limit=0.5),
    ))


@dataclass(frozen=True)
class FlightState:
    """What the controller reads each step (world frame; ``rotation`` row-major body->world 3x3)."""

    position: tuple[float, float, float]
    velocity: tuple[float, float, float]
    rotation: tuple[float, ...]
    body_rates: tuple[float, float, float]


@dataclass(frozen=True)
class Setpoint:
    """What the controller tracks: horizontal velocity (or a position to hold when ``hold`` is set), an
    altitude and a yaw."""

    velocity_xy: tuple[float, float] = (0.0, 0.0)
    altitude: float = 1.2
    yaw: float = 0.0
    hold: tuple[float, float] | None = None


@dataclass(frozen=True)
class ControlOutput:
    thrust: float                               # collective thrust (N) along body z
    torque: tuple[float, float, float]          # body torques (N·m)
    tilt: float                                 # angle of the desired thrust from vertical (rad)


class QuadrotorCascade:
    """The cascaded PID of the module card, for a vehicle of ``mass`` and principal ``inertia``."""

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
        # 1. outer loops -> velocity set-point
        if sp.hold is not None:
            vx_sp, vy_sp = g.hold_kp * (sp.hold[0] - px), g.hold_kp * (sp.hold[1] - py)
        else:
            vx_sp, vy_sp = sp.velocity_xy
        vz_sp = max(-g.max_climb_rate, min(g.max_climb_rate, g.altitude_kp * (sp.altitude - pz)))
        # 2. velocity PIDs -> acceleration, tilt-limited
        ax = self._vel[0].update(vx_sp - vx, dt)
        ay = self._vel[1].update(vy_sp - vy, dt)
        az = max(-0.8 * GRAVITY, self._vel[2].update(vz_sp - vz, dt)) + GRAVITY
        horizontal = math.hypot(ax, ay)
        max_horizontal = az * math.tan(g.max_tilt)
        if horizontal > max_horizontal:
            ax, ay = ax * max_horizontal / horizontal, ay * max_horizontal / horizontal
        fx, fy, fz = self.mass * ax, self.mass * ay, self.mass * az
        # 3. attitude: desired body axes from the thrust direction and the yaw
        norm = math.sqrt(fx * fx + fy * fy + fz * fz)
        zd = (fx / norm, fy / norm, fz / norm)
        r = state.rotation
        yaw = led_yaw(math.atan2(r[3], r[0]), sp.yaw, g.max_yaw_lead)   # current yaw: body x in the world
        xc = (math.cos(yaw), math.sin(yaw), 0.0)
        yd = _normalise(_cross(zd, xc))
        xd = _cross(yd, zd)
        # e_R = vee(Rd^T R - R^T Rd) / 2, with R columns = body axes in the world
        bx, by, bz = (r[0], r[3], r[6]), (r[1], r[4], r[7]), (r[2], r[5], r[8])
        e = (0.5 * (_dot(zd, by) - _dot(yd, bz)),
             0.5 * (_dot(xd, bz) - _dot(zd, bx)),
             0.5 * (_dot(yd, bx) - _dot(xd, by)))
        rates_sp = tuple(max(-m, min(m, -k * ei)) for k, m, ei in zip(g.attitude_kp, g.max_rate, e))
        # 4. rate PIDs -> torques; collective thrust along the current body z
        tx, ty, tz = (i * pid.update(w_sp - w, dt) for i, pid, w_sp, w in
                      zip(self.inertia, self._rate, rates_sp, state.body_rates))
        thrust = max(0.0, fx * bz[0] + fy * bz[1] + fz * bz[2])
        return ControlOutput(thrust, (tx, ty, tz), math.acos(max(-1.0, min(1.0, zd[2]))))


def _cross(a: tuple, b: tuple) -> tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a: tuple, b: tuple) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _normalise(a: tuple) -> tuple[float, float, float]:
    n = math.sqrt(_dot(a, a)) or 1.0
    return (a[0] / n, a[1] / n, a[2] / n)
