"""ProceduralGenerator: the default motion generator, a parametric gait plus style postures (no model).

Card
----
- **Gait.** One cycle = two steps; phase 0 = left foot strikes. Cadence and stride come from the body's
  current speed (walk 1.4 m/s: 1.8 steps/s, jog 2.6, run 2.8, sprint 6.5 m/s: 3.0), so a planted foot moves
  back at exactly the ground speed and does not slide. The stance fraction falls from 0.6 (walk) to 0.25
  (sprint), which leaves a flight phase when running. Feet follow a heel-strike / flat / heel-off roll in
  stance and a lifted swing arc (higher, earlier and with more heel kick as speed grows, so knee flexion
  grows); knee and ankle come from two-bone IK, so every bone keeps its length exactly. The pelvis bobs
  (up at mid-stance when walking, down when running), twists and tilts with the stride; shoulders
  counter-rotate; arms swing in counter-phase with the legs, elbows bend more as speed grows.
- **Styles** (``MotionIntent.styles``) set a posture: crouch (pelvis 0.3 m lower, flexed knees, torso
  forward), freeze (no gait, raised tense shoulders, arms close, shallow breath), defensive (forearms up in
  front of the chest, slight backward lean), fear/terror/desperate/hurry (forward lean growing with speed,
  bigger arm pumping), glance_back (head and chest turned back over one shoulder), relief (slumped shoulders,
  head down, slow deep breathing sway), caution/vigilant (head scanning left-right, shorter steps), tense,
  calm (relaxed arms), backstep (short steps). When several styles set the same field the one earlier in
  :data:`STYLE_PRIORITY` wins. ``climb`` has no character posture (it is for the drone).
- **Transitions.** A new intent blends the posture parameters (not the joint positions) over 0.2 s. The
  gait follows the body's speed exactly up to :data:`GAIT_SPEED_RATE` (a sprint start in 0.15 s is
  followed); a faster change, like a dead stop at a wall, eases out over a few frames.
- **Travel.** Feet step along the intent's travel direction relative to the facing: ahead when the body
  faces its travel, or e.g. backwards for a back-step that keeps ``face_travel`` False.
- **Determinism.** Breathing and head-scan phases and the glance side come from ``reset(seed)``.

Simplifications: joint frames are composed as yaw-pitch-roll Euler angles whose pitch adds up along a chain
(exact for hinge chains such as knee/elbow, an approximation for twisted spines); the foot roll assumes
forward travel (it fades out for sideways/backward steps); the generator does not see the body's turn rate,
so a planted foot slides a little while the body turns on the spot.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, fields, replace
from functools import lru_cache

import numpy as np

from wmbench.body.intent_types import MotionIntent
from wmbench.body.motion_generator import MotionFrame
from wmbench.body.skeleton import DEFAULT_SKELETON, Skeleton

#: Seconds over which a new intent's posture blends in.
BLEND_SECONDS = 0.2
#: Turn rate (rad/s) of the root in :meth:`ProceduralGenerator.clip` while it turns to face its travel.
CLIP_TURN_RATE = 3.0
#: Speeds above this (m/s) are treated as this; the gait table ends here.
MAX_SPEED = 10.0
#: Below this speed (m/s) the gait fades out into standing.
GAIT_FADE_SPEED = 0.35
#: The gait follows the body's speed at most this fast (m/s^2): a body ramping to a sprint in 0.15 s is
#: followed exactly, an instant stop at a wall eases out over a few frames instead of snapping the feet.
GAIT_SPEED_RATE = 45.0

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


def _table_gait(speed: float) -> GaitParams:
    """Gait parameters at ``speed`` straight from the table (the ``drop`` column not yet reach-checked)."""
    v = min(max(speed, 0.0), MAX_SPEED)
    i = min(bisect.bisect_right(_SPEED_KNOTS, v), len(_SPEED_KNOTS) - 1)
    v0, v1 = _SPEED_KNOTS[i - 1], _SPEED_KNOTS[i]
    w = (v - v0) / (v1 - v0)
    return GaitParams(*((1.0 - w) * _GAIT_ROWS[i - 1] + w * _GAIT_ROWS[i]).tolist())


# ------------------------------------------------------------------------------------------------------------
# Posture parameters and the style table.


@dataclass(frozen=True)
class Posture:
    """Posture knobs a style sets. Angles in radians (pitch + = forward/down), lengths in metres."""

    gait_scale: float = 1.0        # 0 = no gait at all (freeze)
    stride_scale: float = 1.0      # < 1: shorter, quicker steps at the same speed
    pelvis_drop: float = 0.0       # pelvis lowered (knees flex through IK)
    torso_lean: float = 0.03       # static trunk pitch (- leans back)
    lean_per_speed: float = 0.02   # extra trunk pitch per m/s of speed
    slump: float = 0.0             # upper-back rounding
    head_pitch: float = 0.0        # head down (+) / up (-), on top of keeping the gaze level
    shoulder_raise: float = 0.0    # collars up (+, tense) / down (-, slumped)
    shoulder_protract: float = 0.0  # shoulders rolled forward
    arm_abduction: float = 0.10    # upper arms away from the body
    arm_forward: float = 0.0       # static upper-arm forward flexion
    elbow_flex: float = 0.2        # static elbow flexion
    forearm_inward: float = 0.0    # forearms turned towards the midline
    arm_swing_scale: float = 1.0   # multiplies the gait's arm swing
    head_scan: float = 0.0         # head left-right scanning amplitude
    glance: float = 0.0            # 1 = head and chest turned back over a shoulder
    breath_hz: float = 0.27        # breathing rate
    breath_depth: float = 0.02     # chest/shoulder breathing amplitude
    sway: float = 0.01             # idle trunk side-sway amplitude
    travel_x: float = 0.0          # travel direction relative to the facing (unit vector, +x = left)
    travel_z: float = 1.0


#: Which style wins a field two styles both set: earlier wins.
STYLE_PRIORITY: tuple[str, ...] = (
    "freeze", "defensive", "crouch", "terror", "desperate", "fear", "hurry", "tense", "caution", "vigilant",
    "relief", "calm", "backstep", "glance_back", "climb", "normal",
)

_STYLE_POSTURES: dict[str, dict[str, float]] = {
    "freeze": dict(gait_scale=0.0, pelvis_drop=0.03, torso_lean=0.02, shoulder_raise=0.22,
                   shoulder_protract=0.08, arm_abduction=0.0, arm_forward=0.15, elbow_flex=0.7,
                   forearm_inward=0.4, arm_swing_scale=0.0, breath_hz=0.5, breath_depth=0.002, sway=0.0),
    "defensive": dict(pelvis_drop=0.05, torso_lean=-0.12, lean_per_speed=0.0, arm_forward=0.6,
                      arm_abduction=0.1, elbow_flex=2.0, forearm_inward=0.8, arm_swing_scale=0.15,
                      shoulder_raise=0.08, shoulder_protract=0.1, head_pitch=0.08),
    "crouch": dict(pelvis_drop=0.30, torso_lean=0.45, head_pitch=-0.3, arm_forward=0.35, elbow_flex=0.7,
                   arm_abduction=0.2, stride_scale=0.8, arm_swing_scale=0.5),
    "terror": dict(lean_per_speed=0.07, arm_swing_scale=1.4, shoulder_raise=0.15, breath_hz=0.6,
                   breath_depth=0.035),
    "desperate": dict(lean_per_speed=0.07, arm_swing_scale=1.5, shoulder_raise=0.1, breath_hz=0.6),
    "fear": dict(lean_per_speed=0.06, arm_swing_scale=1.3, shoulder_raise=0.1, breath_hz=0.5,
                 breath_depth=0.03),
    "hurry": dict(lean_per_speed=0.045, arm_swing_scale=1.15),
    "tense": dict(shoulder_raise=0.12, elbow_flex=0.45, arm_abduction=0.05, sway=0.003, arm_swing_scale=0.7,
                  breath_hz=0.45),
    "caution": dict(stride_scale=0.78, pelvis_drop=0.03, head_scan=0.55, torso_lean=0.06, lean_per_speed=0.01,
                    arm_forward=0.12, elbow_flex=0.45, arm_swing_scale=0.5),
    "vigilant": dict(stride_scale=0.85, head_scan=0.7, shoulder_raise=0.05, arm_swing_scale=0.6,
                     elbow_flex=0.35),
    "relief": dict(shoulder_raise=-0.12, shoulder_protract=0.18, slump=0.25, head_pitch=0.5, breath_hz=0.16,
                   breath_depth=0.05, sway=0.03, arm_abduction=0.04, elbow_flex=0.08, arm_swing_scale=0.8,
                   lean_per_speed=0.01),
    "calm": dict(arm_swing_scale=0.8, elbow_flex=0.12, arm_abduction=0.09, breath_hz=0.22, breath_depth=0.025,
                 sway=0.015, shoulder_raise=-0.03),
    "backstep": dict(torso_lean=-0.04, stride_scale=0.7, arm_swing_scale=0.5),
    "glance_back": dict(glance=1.0),
    "climb": {},
    "normal": {},
}

#: Trunk pitch (rad) at or above which a frame is labelled ``lean_forward``.
LEAN_FORWARD_LABEL = 0.2


def posture_for(intent: MotionIntent) -> Posture:
    """The posture an intent asks for (unknown style tags are ignored)."""
    values: dict[str, float] = {}
    for style in reversed(STYLE_PRIORITY):  # later (weaker) first, stronger ones overwrite
        if style in intent.styles:
            values.update(_STYLE_POSTURES[style])
    if intent.moving and not intent.face_travel:
        values.update(travel_x=math.sin(intent.heading), travel_z=math.cos(intent.heading))
    return Posture(**values)


def posture_label(styles: frozenset[str], trunk_lean: float) -> str:
    """The posture word for a frame (see ``motion_generator.POSTURES``)."""
    for style, label in (("freeze", "freeze"), ("crouch", "crouch"), ("defensive", "defensive"),
                         ("relief", "slump")):
        if style in styles:
            return label
    if trunk_lean >= LEAN_FORWARD_LABEL:
        return "lean_forward"
    if "caution" in styles or "vigilant" in styles:
        return "cautious"
    return "upright"


def _smoothstep(x: float) -> float:
    x = min(max(x, 0.0), 1.0)
    return x * x * (3.0 - 2.0 * x)


# ------------------------------------------------------------------------------------------------------------
# Feet: where each ankle should be and how the foot is pitched, per leg phase.


@dataclass(frozen=True)
class _FootGeometry:
    ankle_height: float          # planted ankle above the floor
    foot_y: float                # flat foot vector ankle -> ball (y, z), in the foot's own frame
    foot_z: float
    tip_z: float                 # toe tip (the heel-off pivot, on the floor) ahead of the ankle
    foot_width: float            # |x| of a planted ankle
    toe_out: float               # foot yaw outwards


@dataclass(frozen=True)
class _Stride:
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


def _turn(y: float, z: float, pitch: float, yaw: float) -> tuple[float, float, float]:
    """A vector (0, y, z) of the foot's frame pitched (+ toes up) and then yawed (+ towards +x)."""
    c, s = math.cos(pitch), math.sin(pitch)
    y2, z2 = c * y + s * z, c * z - s * y
    return math.sin(yaw) * z2, y2, math.cos(yaw) * z2


def _stance_foot(geo: _FootGeometry, st: _Stride, side: float, s: float) -> tuple[tuple, float]:
    """(ankle, pitch) at stance fraction ``s``. The flat foot is fixed on the floor while the body passes over
    it; at heel strike it pivots about the ankle (toes coming down), at heel-off about the toe tip."""
    along = st.stance_travel * (_STANCE_AHEAD - s)
    ax, ay, az = side * geo.foot_width + st.dx * along, geo.ankle_height, st.dz * along
    if s < 0.15:
        pitch = st.strike * (1.0 - s / 0.15)
    elif s < st.heel_off:
        pitch = 0.0
    else:
        pitch = -st.toe_off * _smoothstep((s - st.heel_off) / (1.0 - st.heel_off))
    if pitch >= 0.0:
        return (ax, ay, az), pitch
    yaw = side * geo.toe_out
    tip = _turn(-geo.ankle_height, geo.tip_z, 0.0, yaw)           # ankle -> toe tip, flat
    back = _turn(geo.ankle_height, -geo.tip_z, pitch, yaw)        # toe tip -> ankle, heel raised
    return (ax + tip[0] + back[0], ay + tip[1] + back[1], az + tip[2] + back[2]), pitch


#: Where a foot lands, as a fraction of the stance travel ahead of the pelvis (the rest is behind it); the
#: heel-off roll lets the trailing ankle end closer to the body, so a little less than half is ahead.
_STANCE_AHEAD = 0.35


def _foot_target(geo: _FootGeometry, st: _Stride, side: float, leg_phase: float) -> tuple[tuple, float]:
    """(ankle target, foot pitch) of one leg at ``leg_phase`` in [0, 1) (0 = contact)."""
    if leg_phase < st.duty:
        return _stance_foot(geo, st, side, leg_phase / st.duty)
    u = (leg_phase - st.duty) / (1.0 - st.duty)
    (x0, y0, z0), p0 = _stance_foot(geo, st, side, 1.0)
    (x1, y1, z1), p1 = _stance_foot(geo, st, side, 0.0)
    # Cubic Hermite along the ground, leaving and arriving while still moving back: the foot follows through
    # after toe-off (a heel kick when running) and is already pulled back as it lands.
    vel = -st.follow * st.stance_travel
    u2, u3 = u * u, u * u * u
    h00, h10, h01, h11 = 2 * u3 - 3 * u2 + 1, u3 - 2 * u2 + u, -2 * u3 + 3 * u2, u3 - u2
    x = h00 * x0 + h01 * x1 + (h10 + h11) * vel * st.dx
    z = h00 * z0 + h01 * z1 + (h10 + h11) * vel * st.dz
    w = _smoothstep(u)
    y = y0 + (y1 - y0) * w + st.lift * math.sin(math.pi * u ** st.lift_exp)
    return (x, y, z), p0 + (p1 - p0) * w


def _two_bone_ik(hip, target, thigh: float, shin: float, pole_x: float, pole_z: float):
    """Knee and ankle for a leg from ``hip`` reaching for ``target``; the knee bends towards the pole.

    The ankle lands exactly on the target when it is in reach, otherwise as close as a straight leg allows;
    both bones keep their lengths exactly.
    """
    ex, ey, ez = target[0] - hip[0], target[1] - hip[1], target[2] - hip[2]
    d = math.sqrt(ex * ex + ey * ey + ez * ez)
    d = min(max(d, abs(thigh - shin) + 1e-6, 1e-6), (thigh + shin) * (1.0 - 1e-9))
    n = math.sqrt(ex * ex + ey * ey + ez * ez) or 1.0
    ux, uy, uz = ex / n, ey / n, ez / n
    cos_a = (thigh * thigh + d * d - shin * shin) / (2.0 * thigh * d)
    sin_a = math.sqrt(max(0.0, 1.0 - cos_a * cos_a))
    dot = pole_x * ux + pole_z * uz
    wx, wy, wz = pole_x - dot * ux, -dot * uy, pole_z - dot * uz
    wn = math.sqrt(wx * wx + wy * wy + wz * wz)
    if wn < 1e-9:  # leg pointing straight along the pole: any perpendicular will do
        wx, wy, wz, wn = 0.0, 1.0, 0.0, 1.0
    wx, wy, wz = wx / wn, wy / wn, wz / wn
    knee = (hip[0] + thigh * (cos_a * ux + sin_a * wx), hip[1] + thigh * (cos_a * uy + sin_a * wy),
            hip[2] + thigh * (cos_a * uz + sin_a * wz))
    ankle = (hip[0] + d * ux, hip[1] + d * uy, hip[2] + d * uz)
    return knee, ankle


@lru_cache(maxsize=8)
def _reach_drops(thigh: float, shin: float, hip_drop: float, hip_width: float, stand: float,
                 geo: _FootGeometry) -> tuple:
    """On a fine speed grid: the pelvis drop that keeps a stance leg within reach (99 % extended) for the
    neutral posture, so the IK never has to give up on a planted foot. ``stand`` = standing pelvis height."""
    grid = tuple(np.linspace(0.0, MAX_SPEED, 81).tolist())
    reach = 0.99 * (thigh + shin)
    drops = []
    for v in grid:
        gait = _table_gait(v)
        st = _stride(gait, v, Posture(), 1.0)
        need = gait.drop
        for k in range(41):
            phase = st.duty * k / 41.0
            ankle, _ = _foot_target(geo, st, 1.0, phase)
            horiz2 = (ankle[0] - hip_width) ** 2 + ankle[2] ** 2
            hip_max = ankle[1] + math.sqrt(max(reach * reach - horiz2, 0.0))
            pelvis = stand - gait.drop + gait.bob * math.cos(4.0 * math.pi * (phase - 0.5 * st.duty))
            need = max(need, gait.drop + pelvis - (hip_max + hip_drop))
        drops.append(need)
    return grid, tuple(drops)


#: A relaxed standing pelvis is this much (m) below the rest T-pose: a hint of knee flexion.
STANDING_SAG = 0.005


def _stride(gait: GaitParams, speed: float, posture: Posture, amp: float) -> _Stride:
    step_hz = gait.step_hz / posture.stride_scale
    stride = 2.0 * speed / step_hz
    tx, tz = posture.travel_x, posture.travel_z
    n = math.hypot(tx, tz)
    tx, tz = (tx / n, tz / n) if n > 1e-6 else (0.0, 1.0)
    roll = amp * max(tz, 0.0)
    return _Stride(
        stance_travel=gait.duty * stride * posture.gait_scale, duty=gait.duty, lift=gait.lift * amp,
        lift_exp=math.log(0.5) / math.log(gait.lift_peak), strike=gait.strike_pitch * roll,
        toe_off=gait.toe_off_pitch * roll, heel_off=gait.heel_off, follow=gait.follow, dx=tx, dz=tz,
    )


# ------------------------------------------------------------------------------------------------------------
# One pose: trunk and arms from Euler frames, legs from IK, positions by summing bone vectors down the tree.

# Joints whose frames rotate the offsets of non-leg children, and for each such child the slot of its parent.
_FRAME_JOINTS = (0, 3, 6, 9, 12, 13, 14, 16, 17, 18, 19)
_TRUNK_ROWS = (1, 2, 3, 6, 9, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21)
_LEG_ROWS = (4, 5, 7, 8, 10, 11)  # left/right knee, ankle, foot


@dataclass(frozen=True)
class _Rhythm:
    """Slow oscillators of the pose, in cycles (phases) or signs."""

    breath: float   # breathing cycles elapsed
    scan: float     # head-scan cycles elapsed
    glance_side: float  # +1 over the left shoulder, -1 over the right


class _PoseBuilder:
    """Builds root-local joint positions from gait phase, speed and posture for one skeleton."""

    def __init__(self, skeleton: Skeleton) -> None:
        offsets = skeleton.rest_offsets
        lengths = skeleton.bone_lengths()
        self.chain = skeleton.chain_matrix
        slot = {joint: k for k, joint in enumerate(_FRAME_JOINTS)}
        self.trunk_slots = np.array([slot[skeleton.parents[r]] for r in _TRUNK_ROWS])
        self.trunk_offsets = offsets[list(_TRUNK_ROWS)].T.copy()  # (3, rows)
        self.trunk_rows = np.array(_TRUNK_ROWS)
        self.leg_rows = np.array(_LEG_ROWS)
        self.thigh = float(lengths[4])
        self.shin = float(lengths[7])
        self.geo = _FootGeometry(
            ankle_height=float(skeleton.rest_pose()[7, 1]), foot_y=float(offsets[10, 1]),
            foot_z=float(offsets[10, 2]), tip_z=float(offsets[10, 2]) + 0.06,
            foot_width=float(offsets[1, 0]) + 0.01, toe_out=0.08,
        )
        self.stand_height = float(offsets[0, 1]) - STANDING_SAG
        hip_drop, hip_width = float(-offsets[1, 1]), float(offsets[1, 0])
        grid, drops = _reach_drops(self.thigh, self.shin, hip_drop, hip_width, self.stand_height, self.geo)
        self.drop_grid = np.array(grid)
        self.drop_values = np.array(drops)
        self.bones = np.zeros((skeleton.n_joints, 3))

    def gait_at(self, speed: float) -> GaitParams:
        """Gait parameters at ``speed`` with the pelvis drop raised to what keeps the feet within reach."""
        table = _table_gait(speed)
        return replace(table, drop=float(np.interp(speed, self.drop_grid, self.drop_values)))

    def pose(self, posture: Posture, gait: GaitParams, speed: float, phase: float, rhythm: _Rhythm
             ) -> tuple[np.ndarray, float]:
        """(joints (22, 3) root-local, trunk lean) for one frame."""
        p = posture
        amp = p.gait_scale * _smoothstep(speed / GAIT_FADE_SPEED)
        st = _stride(gait, speed, p, amp)
        cyc = math.cos(2.0 * math.pi * phase)
        stance_mid = phase - 0.5 * gait.duty
        breath = p.breath_depth * math.sin(2.0 * math.pi * rhythm.breath)
        sway = p.sway * math.sin(math.pi * rhythm.breath)
        glance = p.glance * rhythm.glance_side
        lean = min(p.torso_lean + p.lean_per_speed * speed, 0.6)

        pelvis_y = (self.stand_height - p.pelvis_drop - gait.drop * p.gait_scale
                    + gait.bob * amp * math.cos(4.0 * math.pi * stance_mid))
        pelvis_roll = gait.obliquity * amp * math.cos(2.0 * math.pi * stance_mid)
        pelvis_yaw = -gait.twist * amp * cyc
        chest_yaw = 0.6 * gait.twist * amp * cyc + 0.4 * glance
        trunk_roll = -0.4 * pelvis_roll + sway
        chest_pitch = lean + p.slump - breath
        swing = gait.arm_swing * p.arm_swing_scale * amp
        swing_l, swing_r = -swing * cyc, swing * cyc
        bend = gait.elbow_bend * amp
        arm_pitch = 0.3 * chest_pitch - p.arm_forward
        raise_l = p.shoulder_raise + 0.5 * breath
        half_pi = 0.5 * math.pi
        ua_l = (chest_yaw, arm_pitch - swing_l, trunk_roll - half_pi + p.arm_abduction)
        ua_r = (chest_yaw, arm_pitch - swing_r, trunk_roll + half_pi - p.arm_abduction)
        flex_l = p.elbow_flex + bend + 0.15 * max(swing_l, 0.0)
        flex_r = p.elbow_flex + bend + 0.15 * max(swing_r, 0.0)
        frames = (
            pelvis_yaw, 0.35 * lean, pelvis_roll + 0.5 * sway,                          # pelvis
            0.3 * pelvis_yaw + 0.15 * glance, 0.6 * lean, 0.8 * trunk_roll,             # spine1
            0.5 * chest_yaw + 0.1 * glance, 0.8 * lean + 0.5 * p.slump, trunk_roll,     # spine2
            chest_yaw, chest_pitch, trunk_roll,                                          # spine3
            1.3 * glance + p.head_scan * math.sin(2.0 * math.pi * rhythm.scan),          # neck
            0.45 * (lean + p.slump) + p.head_pitch, 0.5 * trunk_roll,
            chest_yaw - p.shoulder_protract, chest_pitch, trunk_roll + raise_l,          # left collar
            chest_yaw + p.shoulder_protract, chest_pitch, trunk_roll - raise_l,          # right collar
            *ua_l, *ua_r,                                                                # upper arms
            ua_l[0] - p.forearm_inward, ua_l[1] - flex_l, ua_l[2],                       # forearms
            ua_r[0] + p.forearm_inward, ua_r[1] - flex_r, ua_r[2],
        )
        angles = np.array(frames).reshape(len(_FRAME_JOINTS), 3).T[:, self.trunk_slots]
        cos, sin = np.cos(angles), np.sin(angles)
        ox, oy, oz = self.trunk_offsets
        x1 = cos[2] * ox - sin[2] * oy            # roll about z
        y1 = sin[2] * ox + cos[2] * oy
        y2 = cos[1] * y1 - sin[1] * oz            # pitch about x
        z2 = sin[1] * y1 + cos[1] * oz
        x3 = cos[0] * x1 + sin[0] * z2            # yaw about y
        z3 = cos[0] * z2 - sin[0] * x1
        bones = self.bones
        bones[0] = (0.0, pelvis_y, 0.0)
        bones[self.trunk_rows] = np.stack((x3, y2, z3), axis=1)

        hips = bones[1:3].tolist()
        pole_x, pole_z = math.sin(pelvis_yaw), math.cos(pelvis_yaw)  # knees point where the pelvis does
        legs = []
        for side, hip, leg_phase in ((1.0, hips[0], phase), (-1.0, hips[1], (phase + 0.5) % 1.0)):
            hip = (hip[0], hip[1] + pelvis_y, hip[2])
            target, pitch = _foot_target(self.geo, st, side, leg_phase)
            knee, ankle = _two_bone_ik(hip, target, self.thigh, self.shin, pole_x, pole_z)
            foot = _turn(self.geo.foot_y, self.geo.foot_z, pitch, side * self.geo.toe_out)
            legs.append(((knee[0] - hip[0], knee[1] - hip[1], knee[2] - hip[2]),
                         (ankle[0] - knee[0], ankle[1] - knee[1], ankle[2] - knee[2]), foot))
        (knee_l, ankle_l, foot_l), (knee_r, ankle_r, foot_r) = legs
        bones[self.leg_rows] = (knee_l, knee_r, ankle_l, ankle_r, foot_l, foot_r)
        return self.chain @ bones, lean


# ------------------------------------------------------------------------------------------------------------
# A stream of frames: phase, breathing and posture blending over time.

_SCAN_HZ = 0.35
_POSTURE_FIELDS = tuple(f.name for f in fields(Posture))


class _Stream:
    def __init__(self, builder: _PoseBuilder, fps: float, seed: int) -> None:
        self.builder = builder
        self.dt = 1.0 / fps
        self.rng = np.random.default_rng(seed)
        self.phase = 0.0
        self.breath = float(self.rng.random())
        self.scan = float(self.rng.random())
        self.glance_side = 1.0 if self.rng.random() < 0.5 else -1.0
        self.styles_from = self.styles_to = frozenset()
        self.vec_from = self.vec_to = np.array([getattr(Posture(), f) for f in _POSTURE_FIELDS])
        self.blend = 1.0
        self.posture = Posture()
        self.speed = 0.0
        self.gait = builder.gait_at(0.0)
        self.gait_speed = 0.0
        self.started = False

    def set_intent(self, intent: MotionIntent, immediate: bool = False) -> None:
        target = posture_for(intent)
        if "glance_back" in intent.styles and "glance_back" not in self.styles_to:
            self.glance_side = 1.0 if self.rng.random() < 0.5 else -1.0
        self.vec_from = np.array([getattr(self.posture, f) for f in _POSTURE_FIELDS])
        self.vec_to = np.array([getattr(target, f) for f in _POSTURE_FIELDS])
        self.styles_from = self._label_styles()
        self.styles_to = intent.styles
        immediate = immediate or not self.started  # nothing shown yet: nothing to blend from
        self.blend = 1.0 if immediate else 0.0
        self.posture = target if immediate else self.posture

    def _label_styles(self) -> frozenset[str]:
        return self.styles_to if self.blend >= 0.5 else self.styles_from

    def step(self, body_speed: float) -> MotionFrame:
        max_change = GAIT_SPEED_RATE * self.dt
        speed = min(max(body_speed, self.speed - max_change), self.speed + max_change) if self.started \
            else body_speed
        self.speed = speed
        self.started = True
        if self.blend < 1.0:
            self.blend = min(self.blend + self.dt / BLEND_SECONDS, 1.0)
            w = _smoothstep(self.blend)
            self.posture = Posture(*(self.vec_from + (self.vec_to - self.vec_from) * w).tolist())
        if speed != self.gait_speed:
            self.gait, self.gait_speed = self.builder.gait_at(speed), speed
        rhythm = _Rhythm(self.breath, self.scan, self.glance_side)
        joints, lean = self.builder.pose(self.posture, self.gait, speed, self.phase, rhythm)
        joints.setflags(write=False)
        frame = MotionFrame(joints, self.phase, posture_label(self._label_styles(), lean))
        step_hz = self.gait.step_hz / self.posture.stride_scale
        self.phase = (self.phase + 0.5 * step_hz * self.dt) % 1.0
        self.breath += self.posture.breath_hz * self.dt
        self.scan += _SCAN_HZ * self.dt
        return frame


# ------------------------------------------------------------------------------------------------------------


class ProceduralGenerator:
    """The default motion generator (see the module card). Implements ``MotionGenerator``."""

    name = "procedural"

    def __init__(self, fps: float = 30.0, skeleton: Skeleton = DEFAULT_SKELETON, seed: int = 0) -> None:
        if not (isinstance(fps, (int, float)) and math.isfinite(fps) and fps > 0):
            raise ValueError(f"fps must be a positive number, got {fps!r}")
        if skeleton.parents != DEFAULT_SKELETON.parents:
            raise ValueError("ProceduralGenerator needs the 22-joint HumanML3D tree (skeleton.PARENTS), "
                             f"got parents {skeleton.parents}")
        self.fps = float(fps)
        self.skeleton = skeleton
        self._builder = _PoseBuilder(skeleton)
        self._seed = int(seed)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._seed = int(seed)
        self._stream = _Stream(self._builder, self.fps, self._seed)

    def set_intent(self, intent: MotionIntent) -> None:
        if not isinstance(intent, MotionIntent):
            raise TypeError(f"set_intent expects a MotionIntent, got {type(intent).__name__}")
        self._stream.set_intent(intent)

    def next_frame(self, speed: float) -> MotionFrame:
        return self._stream.step(_sanitize_speed(speed))

    def clip(self, intent: MotionIntent, n_frames: int) -> np.ndarray:
        if not isinstance(intent, MotionIntent):
            raise TypeError(f"clip expects a MotionIntent, got {type(intent).__name__}")
        if int(n_frames) != n_frames or n_frames < 1:
            raise ValueError(f"n_frames must be a positive integer, got {n_frames!r}")
        stream = _Stream(self._builder, self.fps, self._seed)
        stream.set_intent(intent, immediate=True)
        speed = _sanitize_speed(intent.speed) if intent.moving else 0.0
        # The root travels along the intent's heading from the first frame (as the character body's root
        # does); only the facing turns towards it over time, so an about-turn goes straight back.
        travel = intent.heading if intent.moving else 0.0
        facing_goal = travel if intent.face_travel else 0.0
        step_x, step_z = speed / self.fps * math.sin(travel), speed / self.fps * math.cos(travel)
        facing, root_x, root_z = 0.0, 0.0, 0.0
        max_turn = CLIP_TURN_RATE / self.fps
        out = np.empty((int(n_frames), self.skeleton.n_joints, 3))
        for i in range(int(n_frames)):
            local = stream.step(speed).joints
            c, s = math.cos(facing), math.sin(facing)
            out[i, :, 0] = c * local[:, 0] + s * local[:, 2] + root_x
            out[i, :, 1] = local[:, 1]
            out[i, :, 2] = c * local[:, 2] - s * local[:, 0] + root_z
            root_x += step_x
            root_z += step_z
            facing += min(max(facing_goal - facing, -max_turn), max_turn)
        return out


def _sanitize_speed(speed: float) -> float:
    """Speeds the body reports, made safe: non-numbers and negatives are 0, very large ones MAX_SPEED."""
    try:
        v = float(speed)
    except (TypeError, ValueError):
        return 0.0
    if not math.isfinite(v) or v <= 0.0:
        return 0.0
    return min(v, MAX_SPEED)
