"""Gait of the procedural generator: gait shape against speed, where the feet go, and the leg IK.

Card
----
- **Gait table** (:func:`table_gait`): cadence, stance fraction (duty), swing lift and its peak, pelvis bob
  and drop, arm swing, elbow bend, foot strike and toe-off pitch, heel-off, swing follow-through, pelvis
  twist and obliquity, linear between speed knots (0 to :data:`~wmbench.body.motion.stream.MAX_SPEED`).
- **Stride** (:func:`stride_for`): per-frame quantities both legs share: the stance travel (so a planted
  foot moves back at exactly the ground speed), lift, foot pitches and the travel direction.
- **Feet** (:func:`foot_target`): in stance a heel-strike / flat / heel-off roll (pivoting about the ankle,
  then the toe tip); in swing a cubic Hermite path along the ground that leaves and lands still moving back,
  lifted by a sine arc whose apex comes at the gait's ``lift_peak``.
- **Legs** (:func:`two_bone_ik`): knee and ankle from hip and target, the knee bending towards a pole; both
  bones keep their lengths exactly. :func:`reach_drops` finds, per speed, the pelvis drop that keeps a
  stance leg within reach.

Simplified: the foot roll assumes forward travel (it fades out for sideways and backward steps).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, fields
from functools import lru_cache

import numpy as np

from wmbench.body.motion.procedural.posture import Posture
from wmbench.body.motion.stream import MAX_SPEED, smoothstep

# ------------------------------------------------------------------------------------------------------------
# Gait parameters against ground speed (linear between knots).

_SPEED_KNOTS = (0.0, 0.5, 1.4, 3.0, 4.5, 6.5, 10.0)


@dataclass(frozen=True)
class GaitParams:
    """Gait shape at one speed. Angles in radians, lengths in metres."""

    step_hz: float        # steps per second (a cycle is two steps)
    duty: float           # fraction of the cycle a foot is on the ground
    lift: float           # swing-foot (ankle) apex above its planted height
    lift_peak: float      # where in the swing (0..1) the apex comes; earlier when running (heel kick)
    bob: float            # pelvis vertical amplitude; + = highest at mid-stance (walk), - = lowest (run)
    drop: float           # pelvis lowered from standing height (at least what keeps stance legs in reach)
    arm_swing: float      # shoulder swing amplitude
    elbow_bend: float     # extra elbow flexion with speed (arms bent when running)
    strike_pitch: float   # foot pitch at contact (+ toes up = heel strike, - = forefoot strike)
    toe_off_pitch: float  # heel raise at the end of stance
    heel_off: float       # fraction of stance at which the heel starts to rise
    follow: float         # swing-foot speed at toe-off/touchdown, in stance lengths per swing (heel kick)
    twist: float          # pelvis yaw amplitude
    obliquity: float      # pelvis roll amplitude


_GAIT_TABLE: dict[str, tuple[float, ...]] = {
    #                 0.0    0.5    1.4    3.0     4.5     6.5     10.0   m/s
    "step_hz":       (1.3,   1.45,  1.8,   2.6,    2.8,    3.0,    3.6),
    "duty":          (0.64,  0.63,  0.60,  0.40,   0.33,   0.25,   0.21),
    "lift":          (0.0,   0.05,  0.09,  0.20,   0.30,   0.40,   0.46),
    "lift_peak":     (0.5,   0.5,   0.5,   0.4,    0.35,   0.33,   0.3),
    "bob":           (0.0,   0.008, 0.018, -0.025, -0.03,  -0.035, -0.035),
    "drop":          (0.005, 0.01,  0.02,  0.05,   0.06,   0.07,   0.08),
    "arm_swing":     (0.0,   0.12,  0.32,  0.5,    0.65,   0.85,   0.95),
    "elbow_bend":    (0.0,   0.0,   0.1,   1.0,    1.2,    1.35,   1.4),
    "strike_pitch":  (0.0,   0.1,   0.22,  0.12,   0.05,   -0.08,  -0.15),
    "toe_off_pitch": (0.0,   0.4,   0.85,  0.85,   0.9,    0.95,   0.95),
    "heel_off":      (0.6,   0.6,   0.55,  0.45,   0.4,    0.35,   0.3),
    "follow":        (0.15,  0.15,  0.17,  0.7,    0.9,    1.1,    1.2),
    "twist":         (0.0,   0.04,  0.08,  0.10,   0.12,   0.14,   0.15),
    "obliquity":     (0.0,   0.02,  0.05,  0.04,   0.035,  0.03,   0.03),
}
_GAIT_ROWS = np.array([_GAIT_TABLE[f.name] for f in fields(GaitParams)]).T  # (knots, params)


def table_gait(speed: float) -> GaitParams:
    """Gait parameters at ``speed`` straight from the table (the ``drop`` column not yet reach-checked)."""
    v = min(max(speed, 0.0), MAX_SPEED)
    i = min(bisect.bisect_right(_SPEED_KNOTS, v), len(_SPEED_KNOTS) - 1)
    v0, v1 = _SPEED_KNOTS[i - 1], _SPEED_KNOTS[i]
    w = (v - v0) / (v1 - v0)
    return GaitParams(*((1.0 - w) * _GAIT_ROWS[i - 1] + w * _GAIT_ROWS[i]).tolist())


# ------------------------------------------------------------------------------------------------------------
# Feet: where each ankle should be and how the foot is pitched, per leg phase.


@dataclass(frozen=True)
class FootGeometry:
    """Where a foot sits on a skeleton (metres, radians)."""

    ankle_height: float          # planted ankle above the floor
    foot_y: float                # flat foot vector ankle -> ball (y, z), in the foot's own frame
    foot_z: float
    tip_z: float                 # toe tip (the heel-off pivot, on the floor) ahead of the ankle
    foot_width: float            # |x| of a planted ankle
    toe_out: float               # foot yaw outwards


@dataclass(frozen=True)
class Stride:
    """Per-frame stride quantities shared by both legs."""

    stance_travel: float   # metres the body moves while one foot is planted
    duty: float
    lift: float
    lift_exp: float        # swing-height exponent placing the apex at GaitParams.lift_peak
    strike: float          # contact pitch, already scaled by amplitude and forward-roll
    toe_off: float
    heel_off: float
    follow: float          # swing-foot speed at its ends, in stance lengths per swing
    dx: float              # travel unit vector (root-local)
    dz: float


def foot_vector(y: float, z: float, pitch: float, yaw: float) -> tuple[float, float, float]:
    """A vector (0, y, z) of the foot's frame pitched (+ toes up) and then yawed (+ towards +x)."""
    c, s = math.cos(pitch), math.sin(pitch)
    y2, z2 = c * y + s * z, c * z - s * y
    return math.sin(yaw) * z2, y2, math.cos(yaw) * z2


def stance_foot_xyz(ankle_height: float, tip_z: float, foot_width: float, toe_out: float,
                    stance_travel: float, strike: float, toe_off: float, heel_off: float, dx: float, dz: float,
                    side: float, s: float) -> tuple[float, float, float, float]:
    """(ankle x, y, z, pitch) at stance fraction ``s``. The flat foot is fixed on the floor while the body passes
    over it; at heel strike it pivots about the ankle (toes coming down), at heel-off about the toe tip.
    Plain floats in and out: the pose kernel (:mod:`~wmbench.body.motion.procedural.pose_kernel`) compiles
    this very function when numba is installed."""
    along = stance_travel * (_STANCE_AHEAD - s)
    ax, ay, az = side * foot_width + dx * along, ankle_height, dz * along
    if s < 0.15:
        pitch = strike * (1.0 - s / 0.15)
    elif s < heel_off:
        pitch = 0.0
    else:
        pitch = -toe_off * smoothstep((s - heel_off) / (1.0 - heel_off))
    if pitch >= 0.0:
        return ax, ay, az, pitch
    yaw = side * toe_out
    tip0, tip1, tip2 = foot_vector(-ankle_height, tip_z, 0.0, yaw)           # ankle -> toe tip, flat
    back0, back1, back2 = foot_vector(ankle_height, -tip_z, pitch, yaw)      # toe tip -> ankle, heel raised
    return ax + tip0 + back0, ay + tip1 + back1, az + tip2 + back2, pitch


#: Where a foot lands, as a fraction of the stance travel ahead of the pelvis (the rest is behind it); the
#: heel-off roll lets the trailing ankle end closer to the body, so a little less than half is ahead.
_STANCE_AHEAD = 0.35


def foot_target(geo: FootGeometry, st: Stride, side: float, leg_phase: float) -> tuple[tuple, float]:
    """(ankle target, foot pitch) of one leg at ``leg_phase`` in [0, 1) (0 = contact)."""
    x, y, z, pitch = foot_target_xyz(geo.ankle_height, geo.tip_z, geo.foot_width, geo.toe_out, st.stance_travel,
                                     st.duty, st.lift, st.lift_exp, st.strike, st.toe_off, st.heel_off,
                                     st.follow, st.dx, st.dz, side, leg_phase)
    return (x, y, z), pitch


def foot_target_xyz(ankle_height: float, tip_z: float, foot_width: float, toe_out: float,
                    stance_travel: float, duty: float, lift: float, lift_exp: float, strike: float,
                    toe_off: float, heel_off: float, follow: float, dx: float, dz: float, side: float,
                    leg_phase: float) -> tuple[float, float, float, float]:
    """:func:`foot_target` on plain floats: (ankle x, y, z, foot pitch) (compiled by the pose kernel)."""
    if leg_phase < duty:
        return stance_foot_xyz(ankle_height, tip_z, foot_width, toe_out, stance_travel, strike, toe_off,
                               heel_off, dx, dz, side, leg_phase / duty)
    u = (leg_phase - duty) / (1.0 - duty)
    x0, y0, z0, p0 = stance_foot_xyz(ankle_height, tip_z, foot_width, toe_out, stance_travel, strike, toe_off,
                                     heel_off, dx, dz, side, 1.0)
    x1, y1, z1, p1 = stance_foot_xyz(ankle_height, tip_z, foot_width, toe_out, stance_travel, strike, toe_off,
                                     heel_off, dx, dz, side, 0.0)
    # Cubic Hermite along the ground, leaving and arriving while still moving back: the foot follows through
    # after toe-off (a heel kick when running) and is already pulled back as it lands.
    vel = -follow * stance_travel
    u2, u3 = u * u, u * u * u
    h00, h10, h01, h11 = 2.0 * u3 - 3.0 * u2 + 1.0, u3 - 2.0 * u2 + u, -2.0 * u3 + 3.0 * u2, u3 - u2
    x = h00 * x0 + h01 * x1 + (h10 + h11) * vel * dx
    z = h00 * z0 + h01 * z1 + (h10 + h11) * vel * dz
    w = smoothstep(u)
    y = y0 + (y1 - y0) * w + lift * math.sin(math.pi * u ** lift_exp)
    return x, y, z, p0 + (p1 - p0) * w


def two_bone_ik(hip, target, thigh: float, shin: float, pole_x: float, pole_z: float):
    """Knee and ankle for a leg from ``hip`` reaching for ``target``; the knee bends towards the pole.

    The ankle lands exactly on the target when it is in reach, otherwise as close as a straight leg allows;
    both bones keep their lengths exactly (:func:`two_bone_ik_xyz` on tuples).
    """
    kx, ky, kz, ax, ay, az = two_bone_ik_xyz(hip[0], hip[1], hip[2], target[0], target[1], target[2], thigh,
                                             shin, pole_x, pole_z)
    return (kx, ky, kz), (ax, ay, az)


def two_bone_ik_xyz(hx: float, hy: float, hz: float, tx: float, ty: float, tz: float, thigh: float,
                    shin: float, pole_x: float, pole_z: float) -> tuple[float, float, float, float, float, float]:
    """:func:`two_bone_ik` on plain floats: (knee x, y, z, ankle x, y, z) (compiled by the pose kernel)."""
    ex, ey, ez = tx - hx, ty - hy, tz - hz
    d = math.sqrt(ex * ex + ey * ey + ez * ez)
    d = min(max(d, abs(thigh - shin) + 1e-6, 1e-6), (thigh + shin) * (1.0 - 1e-9))
    n = math.sqrt(ex * ex + ey * ey + ez * ez)
    if n == 0.0:
        n = 1.0
    ux, uy, uz = ex / n, ey / n, ez / n
    cos_a = (thigh * thigh + d * d - shin * shin) / (2.0 * thigh * d)
    sin_a = math.sqrt(max(0.0, 1.0 - cos_a * cos_a))
    dot = pole_x * ux + pole_z * uz
    wx, wy, wz = pole_x - dot * ux, -dot * uy, pole_z - dot * uz
    wn = math.sqrt(wx * wx + wy * wy + wz * wz)
    if wn < 1e-9:  # leg pointing straight along the pole: any perpendicular will do
        wx, wy, wz, wn = 0.0, 1.0, 0.0, 1.0
    wx, wy, wz = wx / wn, wy / wn, wz / wn
    return (hx + thigh * (cos_a * ux + sin_a * wx), hy + thigh * (cos_a * uy + sin_a * wy),
            hz + thigh * (cos_a * uz + sin_a * wz), hx + d * ux, hy + d * uy, hz + d * uz)


@lru_cache(maxsize=8)
def reach_drops(thigh: float, shin: float, hip_drop: float, hip_width: float, stand: float,
                geo: FootGeometry) -> tuple:
    """On a fine speed grid: the pelvis drop that keeps a stance leg within reach (99 % extended) for the
    neutral posture, so the IK never has to give up on a planted foot. ``stand`` = standing pelvis height."""
    grid = tuple(np.linspace(0.0, MAX_SPEED, 81).tolist())
    reach = 0.99 * (thigh + shin)
    drops = []
    for v in grid:
        gait = table_gait(v)
        st = stride_for(gait, v, Posture(), 1.0)
        need = gait.drop
        for k in range(41):
            phase = st.duty * k / 41.0
            ankle, _ = foot_target(geo, st, 1.0, phase)
            horiz2 = (ankle[0] - hip_width) ** 2 + ankle[2] ** 2
            hip_max = ankle[1] + math.sqrt(max(reach * reach - horiz2, 0.0))
            pelvis = stand - gait.drop + gait.bob * math.cos(4.0 * math.pi * (phase - 0.5 * st.duty))
            need = max(need, gait.drop + pelvis - (hip_max + hip_drop))
        drops.append(need)
    return grid, tuple(drops)


def stride_for(gait: GaitParams, speed: float, posture: Posture, amp: float) -> Stride:
    """The stride at ``speed`` for a posture, with the gait faded to amplitude ``amp`` (0..1)."""
    tx, tz = travel_direction(posture)
    travel, lift, strike, toe_off = stride_terms(gait.step_hz, posture.stride_scale, gait.duty, posture.gait_scale,
                                                 gait.lift, gait.strike_pitch, gait.toe_off_pitch, max(tz, 0.0),
                                                 speed, amp)
    return Stride(
        stance_travel=travel, duty=gait.duty, lift=lift, lift_exp=lift_exponent(gait), strike=strike,
        toe_off=toe_off, heel_off=gait.heel_off, follow=gait.follow, dx=tx, dz=tz,
    )


def travel_direction(posture: Posture) -> tuple[float, float]:
    """The posture's travel direction as a root-local unit vector (x, z); straight ahead when it is ~0."""
    tx, tz = posture.travel_x, posture.travel_z
    n = math.hypot(tx, tz)
    return (tx / n, tz / n) if n > 1e-6 else (0.0, 1.0)


def lift_exponent(gait: GaitParams) -> float:
    """The swing-height exponent that puts the swing's apex at ``gait.lift_peak``."""
    return math.log(0.5) / math.log(gait.lift_peak)


def stride_terms(step_hz: float, stride_scale: float, duty: float, gait_scale: float, lift: float,
                 strike_pitch: float, toe_off_pitch: float, ahead: float, speed: float, amp: float
                 ) -> tuple[float, float, float, float]:
    """(stance travel, lift, strike, toe-off) of :func:`stride_for` on plain floats (the pose kernel compiles
    it with its own code): ``ahead`` is the travel direction's forward part, at least 0."""
    step = step_hz / stride_scale
    stride = 2.0 * speed / step
    roll = amp * ahead
    return duty * stride * gait_scale, lift * amp, strike_pitch * roll, toe_off_pitch * roll
