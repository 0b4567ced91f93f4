"""KeyframeGenerator — the second motion generator: authored key poses, spline-interpolated, then forward
kinematics. Built independently of the procedural sine gait so MOTION text is read by two generators.

Card
----
- **Pose = named joint angles** (:data:`CHANNELS`: hip/knee/ankle flexion, shoulder flexion and abduction,
  elbow flexion per side; trunk lean, upper-back slump, chest and neck yaw, neck pitch, shoulder raise,
  vertical lift). Forward kinematics rotates the skeleton's own rest offsets (rotation matrices down the
  tree), so every bone keeps its length exactly. The pelvis height is *found*, not authored: the lower foot
  (ankle or ball) is put on the floor, then the key's ``lift`` raises the body (the flight phase of a run).
- **Gaits as data** (:data:`WALK_KEYS`, :data:`RUN_KEYS`): four key poses per half cycle — walk: contact,
  down, passing, up; run: contact, compression, push-off, flight — written for the leading (left) leg; the
  second half cycle is the mirror image. Channels are interpolated with a uniform cyclic Catmull-Rom spline;
  walk and run blend by speed (run weight 0 below 1.9 m/s, 1 above 2.7 m/s).
- **Speed -> cadence table** (:data:`CADENCE_TABLE`, steps/min): 90 at 0.5 m/s, 110 walk, 160 jog, 170 run,
  182 sprint; amplitude grows from standing to a full walk by 1.2 m/s and by another quarter up to sprint.
- **Styles as overlays** (:data:`STYLE_OVERLAYS`): additive channel offsets (crouch bends hips, knees and
  ankles and the grounding lowers the pelvis; defensive raises the forearms; relief slumps ...) and knobs
  (gait scale, arm swing, lean per m/s, head scan, glance, breathing). Offsets of several styles add; a knob
  comes from the first style in :data:`STYLE_ORDER` that sets it. A new intent blends the whole overlay in
  over :data:`BLEND_SECONDS` with a cosine ease (angles blend linearly: one axis each, so this is slerp).
- **Travel.** Back-steps (``face_travel`` False, heading behind) play the cycle backwards.
- **Determinism.** Breathing and scan phases and the glance side come from ``reset(seed)``.

Simplified: stride length follows the key poses, not the speed, so feet slide a little at speeds far from
~1.4 and ~4.5 m/s; sideways steps are played as forward steps; no pelvis twist or tilt.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field

import numpy as np

from wmbench.body.intent_types import MotionIntent
from wmbench.body.motion_generator import MotionFrame
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES, Skeleton

CHANNELS: tuple[str, ...] = (
    "hip_l", "hip_r", "knee_l", "knee_r", "ankle_l", "ankle_r", "shoulder_l", "shoulder_r",
    "abduct_l", "abduct_r", "elbow_l", "elbow_r", "trunk", "slump", "chest_yaw", "neck_yaw", "neck_pitch",
    "raise", "lift",
)
_C = {name: i for i, name in enumerate(CHANNELS)}
BLEND_SECONDS = 0.25
CLIP_TURN_RATE = 4.0

# ------------------------------------------------------------------------------------------------ key data
# Half-cycle keys for the leading (left) leg; "lead"/"trail" become _l/_r (and swap in the mirrored half).
# "lift" raises the grounded pose (only the run's flight phase uses it: compression comes from the knees).
_KEY_FIELDS = ("hip", "knee", "ankle", "arm", "elbow")
WALK_KEYS: tuple[dict[str, tuple[float, float]], ...] = (
    # field: (lead, trail)                       contact
    {"hip": (0.42, -0.30), "knee": (0.05, 0.20), "ankle": (0.20, -0.20), "arm": (-0.30, 0.30),
     "elbow": (0.15, 0.35), "trunk": (0.03, 0.0), "lift": (0.0, 0.0)},
    {"hip": (0.35, -0.15), "knee": (0.25, 0.55), "ankle": (0.0, -0.30), "arm": (-0.20, 0.20),   # down
     "elbow": (0.20, 0.30), "trunk": (0.03, 0.0), "lift": (0.0, 0.0)},
    {"hip": (0.05, 0.30), "knee": (0.12, 1.05), "ankle": (0.05, 0.10), "arm": (0.0, 0.0),       # passing
     "elbow": (0.20, 0.20), "trunk": (0.03, 0.0), "lift": (0.0, 0.0)},
    {"hip": (-0.20, 0.50), "knee": (0.05, 0.45), "ankle": (-0.15, 0.15), "arm": (0.20, -0.20),  # up
     "elbow": (0.30, 0.15), "trunk": (0.03, 0.0), "lift": (0.0, 0.0)},
)
RUN_KEYS: tuple[dict[str, tuple[float, float]], ...] = (
    {"hip": (0.45, -0.20), "knee": (0.30, 1.00), "ankle": (0.05, -0.20), "arm": (-0.60, 0.60),  # contact
     "elbow": (1.20, 1.30), "trunk": (0.12, 0.0), "lift": (0.0, 0.0)},
    {"hip": (0.25, 0.25), "knee": (0.65, 1.80), "ankle": (0.25, 0.0), "arm": (-0.30, 0.30),     # compression
     "elbow": (1.25, 1.25), "trunk": (0.12, 0.0), "lift": (0.0, 0.0)},
    {"hip": (-0.30, 0.85), "knee": (0.25, 1.50), "ankle": (-0.45, 0.10), "arm": (0.40, -0.40),  # push-off
     "elbow": (1.30, 1.20), "trunk": (0.12, 0.0), "lift": (0.0, 0.0)},
    {"hip": (-0.35, 0.75), "knee": (0.60, 0.60), "ankle": (-0.30, 0.15), "arm": (0.60, -0.60),  # flight
     "elbow": (1.30, 1.20), "trunk": (0.12, 0.0), "lift": (0.05, 0.0)},
)
#: (speed m/s, cadence steps/min), linear between knots.
CADENCE_TABLE: tuple[tuple[float, float], ...] = (
    (0.0, 80.0), (0.5, 90.0), (1.4, 110.0), (2.0, 130.0), (3.0, 160.0), (4.5, 170.0), (6.5, 182.0),
    (10.0, 200.0))
RUN_BLEND = (1.9, 2.7)


def _expand(key: dict[str, tuple[float, float]], mirrored: bool) -> np.ndarray:
    v = np.zeros(len(CHANNELS))
    lead, trail = ("r", "l") if mirrored else ("l", "r")
    names = {"hip": "hip", "knee": "knee", "ankle": "ankle", "arm": "shoulder", "elbow": "elbow"}
    for f in _KEY_FIELDS:
        v[_C[f"{names[f]}_{lead}"]], v[_C[f"{names[f]}_{trail}"]] = key[f]
    v[_C["trunk"]] = key["trunk"][0]
    v[_C["lift"]] = key["lift"][0]
    return v


def _cycle(keys: tuple[dict, ...]) -> np.ndarray:
    """(8, channels): the half-cycle keys then their mirror images."""
    return np.array([_expand(k, False) for k in keys] + [_expand(k, True) for k in keys])


_WALK = _cycle(WALK_KEYS)
_RUN = _cycle(RUN_KEYS)


def catmull_rom_cyclic(keys: np.ndarray, phase: float) -> np.ndarray:
    """Uniform Catmull-Rom through cyclic ``keys`` (K, channels) at ``phase`` in [0, 1)."""
    k = keys.shape[0]
    x = (phase % 1.0) * k
    i = int(x)
    t = x - i
    p0, p1, p2, p3 = keys[(i - 1) % k], keys[i % k], keys[(i + 1) % k], keys[(i + 2) % k]
    return 0.5 * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t * t
                  + (3 * p1 - p0 - 3 * p2 + p3) * t * t * t)


def cadence(speed: float) -> float:
    """Steps per minute at ``speed`` (m/s) from :data:`CADENCE_TABLE`."""
    speeds = [s for s, _ in CADENCE_TABLE]
    v = min(max(speed, 0.0), speeds[-1])
    i = min(max(bisect.bisect_right(speeds, v), 1), len(speeds) - 1)
    (s0, c0), (s1, c1) = CADENCE_TABLE[i - 1], CADENCE_TABLE[i]
    return c0 + (c1 - c0) * (v - s0) / (s1 - s0)


def _smooth(x: float) -> float:
    x = min(max(x, 0.0), 1.0)
    return x * x * (3.0 - 2.0 * x)


# ------------------------------------------------------------------------------------------------ styles

@dataclass(frozen=True)
class StyleOverlay:
    """What a style adds to the pose: channel offsets and knobs (None = this style leaves the knob alone)."""

    offsets: dict[str, float] = field(default_factory=dict)
    gait_scale: float | None = None
    arm_swing: float | None = None
    lean_per_speed: float | None = None
    scan: float | None = None
    glance: float | None = None
    breath_hz: float | None = None
    breath_depth: float | None = None


#: Knob defaults when no style sets them.
KNOB_DEFAULTS = {"gait_scale": 1.0, "arm_swing": 1.0, "lean_per_speed": 0.02, "scan": 0.0, "glance": 0.0,
                 "breath_hz": 0.25, "breath_depth": 0.02}
_KNOBS = tuple(KNOB_DEFAULTS)
STYLE_ORDER: tuple[str, ...] = ("freeze", "defensive", "crouch", "terror", "desperate", "fear", "hurry",
                                "tense", "caution", "vigilant", "relief", "calm", "backstep", "glance_back")


def _sides(**both: float) -> dict[str, float]:
    """Channel offsets with per-side channels given once: ``_sides(knee=0.1)`` -> knee_l and knee_r."""
    out: dict[str, float] = {}
    for name, value in both.items():
        if f"{name}_l" in _C:
            out[f"{name}_l"] = out[f"{name}_r"] = value
        else:
            out[name] = value
    return out


STYLE_OVERLAYS: dict[str, StyleOverlay] = {
    "freeze": StyleOverlay(_sides(elbow=0.8, shoulder=0.15, neck_pitch=0.1) | {"raise": 0.2},
                           gait_scale=0.0, arm_swing=0.0, breath_hz=0.6, breath_depth=0.004),
    "defensive": StyleOverlay(_sides(shoulder=0.9, elbow=1.9, trunk=-0.1, knee=0.15, hip=0.1),
                              arm_swing=0.2, lean_per_speed=0.0),
    "crouch": StyleOverlay(_sides(hip=0.75, knee=1.4, ankle=0.6, trunk=0.45, neck_pitch=-0.35, shoulder=0.3,
                                  elbow=0.6), arm_swing=0.5),
    "terror": StyleOverlay({"raise": 0.12}, arm_swing=1.4, lean_per_speed=0.07, breath_hz=0.6,
                           breath_depth=0.035),
    "desperate": StyleOverlay({"raise": 0.1}, arm_swing=1.4, lean_per_speed=0.07, breath_hz=0.6),
    "fear": StyleOverlay({"raise": 0.08}, arm_swing=1.3, lean_per_speed=0.06, breath_hz=0.5),
    "hurry": StyleOverlay(arm_swing=1.15, lean_per_speed=0.045),
    "tense": StyleOverlay(_sides(elbow=0.3) | {"raise": 0.12}, arm_swing=0.7, breath_hz=0.45),
    "caution": StyleOverlay(_sides(knee=0.1, hip=0.05, elbow=0.25, trunk=0.05), gait_scale=0.8, arm_swing=0.5,
                            scan=0.55),
    "vigilant": StyleOverlay(_sides(elbow=0.15) | {"raise": 0.05}, gait_scale=0.85, arm_swing=0.6, scan=0.7),
    "relief": StyleOverlay({"slump": 0.25, "neck_pitch": 0.35, "raise": -0.1}, arm_swing=0.8, breath_hz=0.16,
                           breath_depth=0.05),
    "calm": StyleOverlay(arm_swing=0.8, breath_hz=0.22),
    "backstep": StyleOverlay({"trunk": -0.05}, gait_scale=0.7, arm_swing=0.5),
    "glance_back": StyleOverlay(glance=1.0),
}


def overlay_vector(styles: frozenset[str]) -> np.ndarray:
    """Channel offsets followed by the knobs (:data:`KNOB_DEFAULTS` order) for a set of style tags."""
    offsets = np.zeros(len(CHANNELS))
    knobs = dict(KNOB_DEFAULTS)
    chosen: set[str] = set()
    for style in STYLE_ORDER:
        if style not in styles:
            continue
        overlay = STYLE_OVERLAYS[style]
        for name, value in overlay.offsets.items():
            offsets[_C[name]] += value
        for knob in _KNOBS:
            value = getattr(overlay, knob)
            if value is not None and knob not in chosen:
                knobs[knob] = value
                chosen.add(knob)
    return np.concatenate([offsets, [knobs[k] for k in _KNOBS]])


def posture_word(styles: frozenset[str], trunk: float) -> str:
    """The frame's posture label (vocabulary of ``motion_generator.POSTURES``)."""
    labels = (("freeze", "freeze"), ("crouch", "crouch"), ("defensive", "defensive"), ("relief", "slump"))
    for style, word in labels:
        if style in styles:
            return word
    if trunk >= 0.2:
        return "lean_forward"
    return "cautious" if {"caution", "vigilant"} & styles else "upright"


# ------------------------------------------------------------------------------------------------ kinematics

def _rx(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _ry(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _rz(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


#: Upper arms hang this far out from the body (rad) with every channel at 0.
ARM_ABDUCTION = 0.1
_J = {name: i for i, name in enumerate(JOINT_NAMES)}


class KeyframeKinematics:
    """Channels -> (22, 3) root-local joints on a skeleton (rest offsets rotated down the tree, then the lower
    foot grounded). Motion space: y up, facing +z, left +x; rx(+) tips up-vectors forward and down-vectors
    back, ry(+) turns left, rz(+) lifts a left-pointing vector."""

    def __init__(self, skeleton: Skeleton = DEFAULT_SKELETON) -> None:
        self.offsets = skeleton.rest_offsets
        rest = skeleton.rest_pose()
        self.contact_heights = {
            side: (float(rest[_J[f"{side}_ankle"], 1]), float(rest[_J[f"{side}_foot"], 1]))
            for side in ("left", "right")}

    def joints(self, ch: np.ndarray) -> np.ndarray:
        o = self.offsets
        P = np.zeros((len(JOINT_NAMES), 3))
        R: dict[str, np.ndarray] = {}

        def place(child: str, parent: str, rot: np.ndarray) -> None:
            P[_J[child]] = P[_J[parent]] + rot @ o[_J[child]]

        g = ch.__getitem__
        trunk, slump, yaw = g(_C["trunk"]), g(_C["slump"]), g(_C["chest_yaw"]) / 3.0
        ident = np.eye(3)
        place("spine1", "pelvis", ident)
        R["spine1"] = _ry(yaw) @ _rx(0.3 * trunk)
        place("spine2", "spine1", R["spine1"])
        R["spine2"] = R["spine1"] @ _ry(yaw) @ _rx(0.3 * trunk + 0.5 * slump)
        place("spine3", "spine2", R["spine2"])
        R["spine3"] = R["spine2"] @ _ry(yaw) @ _rx(0.4 * trunk + 0.5 * slump)
        place("neck", "spine3", R["spine3"])
        neck = R["spine3"] @ _ry(g(_C["neck_yaw"])) @ _rx(g(_C["neck_pitch"]) - 0.5 * trunk)
        place("head", "neck", neck)
        for side, sign in (("left", 1.0), ("right", -1.0)):
            k = side[0]
            collar = R["spine3"] @ _rz(sign * g(_C["raise"]))
            place(f"{side}_collar", "spine3", R["spine3"])
            place(f"{side}_shoulder", f"{side}_collar", collar)
            hang = -sign * (0.5 * math.pi - ARM_ABDUCTION - g(_C[f"abduct_{k}"]))
            upper = R["spine3"] @ _rx(-g(_C[f"shoulder_{k}"])) @ _rz(hang)
            place(f"{side}_elbow", f"{side}_shoulder", upper)
            place(f"{side}_wrist", f"{side}_elbow", upper @ _ry(-sign * g(_C[f"elbow_{k}"])))
            thigh = _rx(-g(_C[f"hip_{k}"]))
            place(f"{side}_hip", "pelvis", ident)
            place(f"{side}_knee", f"{side}_hip", thigh)
            shin = thigh @ _rx(g(_C[f"knee_{k}"]))
            place(f"{side}_ankle", f"{side}_knee", shin)
            place(f"{side}_foot", f"{side}_ankle", shin @ _rx(-g(_C[f"ankle_{k}"])))
        # Ground the lower foot: the lowest contact point (ankle or ball) comes to its rest height.
        height = max(max(self.contact_heights[s][0] - P[_J[f"{s}_ankle"], 1],
                         self.contact_heights[s][1] - P[_J[f"{s}_foot"], 1]) for s in ("left", "right"))
        P[:, 1] += height + g(_C["lift"])
        return P


# ------------------------------------------------------------------------------------------------ generator

class _KeyStream:
    def __init__(self, kin: KeyframeKinematics, fps: float, seed: int) -> None:
        self.kin = kin
        self.dt = 1.0 / fps
        rng = np.random.default_rng(seed)
        self.rng = rng
        self.phase = 0.0
        self.breath = float(rng.random())
        self.scan = float(rng.random())
        self.glance_side = 1.0 if rng.random() < 0.5 else -1.0
        self.vec_from = self.vec_to = self.vec = overlay_vector(frozenset())
        self.blend = 1.0
        self.styles_from = self.styles_to = frozenset()
        self.reverse = False

    def set_intent(self, intent: MotionIntent, immediate: bool = False) -> None:
        if "glance_back" in intent.styles and "glance_back" not in self.styles_to:
            self.glance_side = 1.0 if self.rng.random() < 0.5 else -1.0
        self.vec_from, self.vec_to = self.vec, overlay_vector(intent.styles)
        self.styles_from = self.styles_to if self.blend >= 0.5 else self.styles_from
        self.styles_to = intent.styles
        self.blend = 0.0
        if immediate:
            self.vec, self.blend, self.styles_from = self.vec_to, 1.0, intent.styles
        self.reverse = intent.moving and not intent.face_travel and math.cos(intent.heading) < 0.0

    def step(self, speed: float) -> MotionFrame:
        if self.blend < 1.0:
            self.blend = min(self.blend + self.dt / BLEND_SECONDS, 1.0)
            w = 0.5 - 0.5 * math.cos(math.pi * self.blend)
            self.vec = self.vec_from + (self.vec_to - self.vec_from) * w
        n = len(CHANNELS)
        offsets = self.vec[:n]
        knobs = dict(zip(_KNOBS, self.vec[n:].tolist()))
        v = speed
        amp = _smooth(v / 1.2) * (1.0 + 0.25 * min(max((v - 3.0) / 3.5, 0.0), 1.0)) * knobs["gait_scale"]
        run = _smooth((v - RUN_BLEND[0]) / (RUN_BLEND[1] - RUN_BLEND[0]))
        walk_pose, run_pose = catmull_rom_cyclic(_WALK, self.phase), catmull_rom_cyclic(_RUN, self.phase)
        gait = (1.0 - run) * walk_pose + run * run_pose
        gait[[_C["shoulder_l"], _C["shoulder_r"]]] *= knobs["arm_swing"]
        ch = offsets + amp * gait
        ch[_C["trunk"]] += knobs["lean_per_speed"] * v
        breath = knobs["breath_depth"] * math.sin(2.0 * math.pi * self.breath)
        ch[_C["raise"]] += 0.5 * breath
        ch[_C["trunk"]] -= 0.5 * breath
        glance = knobs["glance"] * self.glance_side
        ch[_C["neck_yaw"]] += knobs["scan"] * math.sin(2.0 * math.pi * self.scan) + 1.2 * glance
        ch[_C["chest_yaw"]] += 0.4 * glance
        joints = self.kin.joints(ch)
        joints.setflags(write=False)
        styles = self.styles_to if self.blend >= 0.5 else self.styles_from
        frame = MotionFrame(joints, self.phase, posture_word(styles, float(ch[_C["trunk"]])))
        step = cadence(v) / 120.0 * self.dt  # a cycle is two steps
        self.phase = (self.phase - step if self.reverse else self.phase + step) % 1.0
        self.breath += knobs["breath_hz"] * self.dt
        self.scan += 0.35 * self.dt
        return frame


class KeyframeGenerator:
    """The keyframe motion generator (see the module card). Implements ``MotionGenerator``."""

    name = "keyframe"

    def __init__(self, fps: float = 30.0, skeleton: Skeleton = DEFAULT_SKELETON, seed: int = 0) -> None:
        if not (isinstance(fps, (int, float)) and math.isfinite(fps) and fps > 0):
            raise ValueError(f"fps must be a positive number, got {fps!r}")
        if skeleton.parents != DEFAULT_SKELETON.parents:
            raise ValueError("KeyframeGenerator needs the 22-joint HumanML3D tree (skeleton.PARENTS), "
                             f"got parents {skeleton.parents}")
        self.fps = float(fps)
        self.skeleton = skeleton
        self._kin = KeyframeKinematics(skeleton)
        self._seed = int(seed)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._seed = int(seed)
        self._stream = _KeyStream(self._kin, self.fps, self._seed)

    def set_intent(self, intent: MotionIntent) -> None:
        if not isinstance(intent, MotionIntent):
            raise TypeError(f"set_intent expects a MotionIntent, got {type(intent).__name__}")
        self._stream.set_intent(intent)

    def next_frame(self, speed: float) -> MotionFrame:
        return self._stream.step(_safe_speed(speed))

    def clip(self, intent: MotionIntent, n_frames: int) -> np.ndarray:
        """Global frames of ``intent`` from a standing start: the root travels along the intent's heading at
        its speed from the first frame; the facing turns towards it at :data:`CLIP_TURN_RATE` (rad/s) when
        ``face_travel``."""
        if not isinstance(intent, MotionIntent):
            raise TypeError(f"clip expects a MotionIntent, got {type(intent).__name__}")
        if int(n_frames) != n_frames or n_frames < 1:
            raise ValueError(f"n_frames must be a positive integer, got {n_frames!r}")
        stream = _KeyStream(self._kin, self.fps, self._seed)
        stream.set_intent(intent, immediate=True)
        speed = _safe_speed(intent.speed) if intent.moving else 0.0
        travel = intent.heading if intent.moving else 0.0
        goal = travel if intent.moving and intent.face_travel else 0.0
        facing, root_x, root_z = 0.0, 0.0, 0.0
        max_turn = CLIP_TURN_RATE / self.fps
        out = np.empty((int(n_frames), len(JOINT_NAMES), 3))
        for i in range(int(n_frames)):
            local = stream.step(speed).joints
            c, s = math.cos(facing), math.sin(facing)
            out[i, :, 0] = c * local[:, 0] + s * local[:, 2] + root_x
            out[i, :, 1] = local[:, 1]
            out[i, :, 2] = c * local[:, 2] - s * local[:, 0] + root_z
            root_x += speed / self.fps * math.sin(travel)
            root_z += speed / self.fps * math.cos(travel)
            facing += min(max(goal - facing, -max_turn), max_turn)
        return out


def _safe_speed(speed: float) -> float:
    try:
        v = float(speed)
    except (TypeError, ValueError):
        return 0.0
    return min(v, 10.0) if math.isfinite(v) and v > 0.0 else 0.0
