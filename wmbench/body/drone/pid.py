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
  The mixer (airframe) turns ``T, τ`` into rotor commands: :mod:`wmbench.body.drone.airframe`.

Written with plain floats because it runs 240 times per simulated second: on 3-vectors, numpy's per-call
overhead (~1 us) costs more than the arithmetic, so the cascade is inlined scalar code (issue 23).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from wmbench.core.errors import ConfigError

GRAVITY = 9.81
#: Yaw errors within this (rad) of ±pi count as exactly pi: the turn then goes counter-clockwise (+yaw).
YAW_TIE_TOLERANCE = 1e-6
_TWO_PI = 2.0 * math.pi
_YAW_TIE = math.pi - YAW_TIE_TOLERANCE


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
    """The cascaded PID of the module card, for a vehicle of ``mass`` and principal ``inertia``.

    :meth:`step` is the hot path (240 calls per simulated second): the six PIDs, the clamps and the vector
    algebra are written out on plain floats held in the instance, with no objects built per call; it performs
    the same floating-point operations in the same order as the scalar :class:`PID` objects and tuple helpers
    it replaced (``tests/body/drone/test_equivalence.py`` flies both). :meth:`update` is the typed wrapper.
    The PID states are readable as :attr:`velocity_integrals` and :attr:`rate_integrals`.
    """

    def __init__(self, mass: float, inertia: tuple[float, float, float],
                 gains: CascadeGains | None = None) -> None:
        self.mass = float(mass)
        self.inertia = inertia
        self.gains = gains or CascadeGains()
        g = self.gains
        for pid in (g.velocity_xy, g.velocity_z, *g.rate):
            if pid.kd:  # the hot path drops the D term of these loops (all default gains have kd = 0)
                raise ConfigError(f"QuadrotorCascade: the velocity and rate loops are P+I only (kd = 0), got {pid}")
        ix, iy, iz = inertia
        rates = tuple(v for pid in g.rate for v in (pid.kp, pid.ki, pid.integral_limit, pid.output_limit))
        #: Every constant :meth:`step` reads, unpacked in one go (the gains are frozen).
        self._constants = (
            g.hold_kp, g.max_climb_rate, g.altitude_kp, math.tan(g.max_tilt), -0.8 * GRAVITY, g.max_yaw_lead,
            self.mass, ix, iy, iz,
            g.velocity_xy.kp, g.velocity_xy.ki, g.velocity_xy.integral_limit, g.velocity_xy.output_limit,
            g.velocity_z.kp, g.velocity_z.ki, g.velocity_z.integral_limit, g.velocity_z.output_limit,
            *g.attitude_kp, *g.max_rate, *rates)
        self.reset()

    def reset(self) -> None:
        """Integrals to zero (a new flight)."""
        # x, y, z velocity integrals and roll, pitch, yaw rate integrals
        self._ivx = self._ivy = self._ivz = 0.0
        self._iwx = self._iwy = self._iwz = 0.0

    @property
    def velocity_integrals(self) -> tuple[float, float, float]:
        return (self._ivx, self._ivy, self._ivz)

    @property
    def rate_integrals(self) -> tuple[float, float, float]:
        return (self._iwx, self._iwy, self._iwz)

    def update(self, state: FlightState, sp: Setpoint, dt: float) -> ControlOutput:
        """One control step from a :class:`FlightState` (see :meth:`step`)."""
        px, py, pz = state.position
        vx, vy, vz = state.velocity
        wx, wy, wz = state.body_rates
        thrust, tx, ty, tz, zd_z = self.step(px, py, pz, vx, vy, vz, state.rotation, wx, wy, wz, sp, dt)
        return ControlOutput(thrust, (tx, ty, tz), tilt_of(zd_z))

    def step(self, px: float, py: float, pz: float, vx: float, vy: float, vz: float,
             r: Sequence[float], wx: float, wy: float, wz: float, sp: Setpoint,
             dt: float) -> tuple[float, float, float, float, float]:
        """One control step on plain floats: position, velocity (world), rotation ``r`` (row-major
        body->world 3x3), body rates. Returns ``(thrust, tx, ty, tz, zd_z)``; ``zd_z`` is the z component
        of the desired thrust direction (:func:`tilt_of` turns it into the tilt)."""
        (hold_kp, max_climb, alt_kp, tan_tilt, az_floor, max_lead, mass, ix, iy, iz,
         xy_kp, xy_ki, xy_il, xy_ol, z_kp, z_ki, z_il, z_ol,
         akx, aky, akz, mrx, mry, mrz,
         rx_kp, rx_ki, rx_il, rx_ol, ry_kp, ry_ki, ry_il, ry_ol, rz_kp, rz_ki, rz_il, rz_ol) = self._constants
        # 1. outer loops -> velocity set-point
        hold = sp.hold
        if hold is not None:
            vx_sp, vy_sp = hold_kp * (hold[0] - px), hold_kp * (hold[1] - py)
        else:
            vx_sp, vy_sp = sp.velocity_xy
        u = alt_kp * (sp.altitude - pz)
        u = u if u < max_climb else max_climb
        vz_sp = u if u > -max_climb else -max_climb
        # 2. velocity PIDs -> acceleration (P + I, clamped integral and output), tilt-limited
        e = vx_sp - vx
        if xy_ki:
            i = self._ivx + e * dt
            i = i if i < xy_il else xy_il
            self._ivx = i if i > -xy_il else -xy_il
        u = xy_kp * e + xy_ki * self._ivx + 0.0
        u = u if u < xy_ol else xy_ol
        ax = u if u > -xy_ol else -xy_ol
        e = vy_sp - vy
        if xy_ki:
            i = self._ivy + e * dt
            i = i if i < xy_il else xy_il
            self._ivy = i if i > -xy_il else -xy_il
        u = xy_kp * e + xy_ki * self._ivy + 0.0
        u = u if u < xy_ol else xy_ol
        ay = u if u > -xy_ol else -xy_ol
        e = vz_sp - vz
        if z_ki:
            i = self._ivz + e * dt
            i = i if i < z_il else z_il
            self._ivz = i if i > -z_il else -z_il
        u = z_kp * e + z_ki * self._ivz + 0.0
        u = u if u < z_ol else z_ol
        u = u if u > -z_ol else -z_ol
        az = (u if u > az_floor else az_floor) + GRAVITY
        # sqrt of the squares, not math.hypot: the flight kernel's numba build must give the same bits
        horizontal = math.sqrt(ax * ax + ay * ay)
        max_horizontal = az * tan_tilt
        if horizontal > max_horizontal:
            ax, ay = ax * max_horizontal / horizontal, ay * max_horizontal / horizontal
        fx, fy, fz = mass * ax, mass * ay, mass * az
        # 3. attitude: desired body axes from the thrust direction and the (led) yaw
        norm = math.sqrt(fx * fx + fy * fy + fz * fz)
        z0, z1, z2 = fx / norm, fy / norm, fz / norm
        r0, r1, r2, r3, r4, r5, r6, r7, r8 = r
        # yaw = led_yaw(current, sp.yaw, max_yaw_lead), written out; current yaw: body x in the world
        current = math.atan2(r3, r0)
        error = math.remainder(sp.yaw - current, _TWO_PI)
        if abs(error) >= _YAW_TIE:
            error = math.pi
        error = error if error < max_lead else max_lead
        yaw = current + (error if error > -max_lead else -max_lead)
        c0, c1 = math.cos(yaw), math.sin(yaw)
        # yd = normalise(zd x xc), xc = (c0, c1, 0)
        y0, y1, y2 = z1 * 0.0 - z2 * c1, z2 * c0 - z0 * 0.0, z0 * c1 - z1 * c0
        n = math.sqrt(y0 * y0 + y1 * y1 + y2 * y2) or 1.0
        y0, y1, y2 = y0 / n, y1 / n, y2 / n
        # xd = yd x zd
        x0, x1, x2 = y1 * z2 - y2 * z1, y2 * z0 - y0 * z2, y0 * z1 - y1 * z0
        # e_R = vee(Rd^T R - R^T Rd) / 2; body axes = columns of r
        e0 = 0.5 * ((z0 * r1 + z1 * r4 + z2 * r7) - (y0 * r2 + y1 * r5 + y2 * r8))
        e1 = 0.5 * ((x0 * r2 + x1 * r5 + x2 * r8) - (z0 * r0 + z1 * r3 + z2 * r6))
        e2 = 0.5 * ((y0 * r0 + y1 * r3 + y2 * r6) - (x0 * r1 + x1 * r4 + x2 * r7))
        # 4. rate set-points (clamped) -> rate PIDs (P + I) -> torques
        u = -akx * e0
        u = u if u < mrx else mrx
        e = (u if u > -mrx else -mrx) - wx
        if rx_ki:
            i = self._iwx + e * dt
            i = i if i < rx_il else rx_il
            self._iwx = i if i > -rx_il else -rx_il
        u = rx_kp * e + rx_ki * self._iwx + 0.0
        u = u if u < rx_ol else rx_ol
        tx = ix * (u if u > -rx_ol else -rx_ol)
        u = -aky * e1
        u = u if u < mry else mry
        e = (u if u > -mry else -mry) - wy
        if ry_ki:
            i = self._iwy + e * dt
            i = i if i < ry_il else ry_il
            self._iwy = i if i > -ry_il else -ry_il
        u = ry_kp * e + ry_ki * self._iwy + 0.0
        u = u if u < ry_ol else ry_ol
        ty = iy * (u if u > -ry_ol else -ry_ol)
        u = -akz * e2
        u = u if u < mrz else mrz
        e = (u if u > -mrz else -mrz) - wz
        if rz_ki:
            i = self._iwz + e * dt
            i = i if i < rz_il else rz_il
            self._iwz = i if i > -rz_il else -rz_il
        u = rz_kp * e + rz_ki * self._iwz + 0.0
        u = u if u < rz_ol else rz_ol
        tz = iz * (u if u > -rz_ol else -rz_ol)
        # collective thrust along the current body z
        t = fx * r2 + fy * r5 + fz * r8
        return (t if t > 0.0 else 0.0), tx, ty, tz, z2


def tilt_of(zd_z: float) -> float:
    """The angle (rad) from vertical of a unit thrust direction whose z component is ``zd_z``."""
    return math.acos(max(-1.0, min(1.0, zd_z)))


def _cross(a: tuple, b: tuple) -> tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a: tuple, b: tuple) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _normalise(a: tuple) -> tuple[float, float, float]:
    n = math.sqrt(_dot(a, a)) or 1.0
    return (a[0] / n, a[1] / n, a[2] / n)
