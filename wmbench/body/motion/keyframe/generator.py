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

Modules: :mod:`~wmbench.body.motion.keyframe.poses` (channels, key poses, cadence),
:mod:`~wmbench.body.motion.keyframe.styles` (style overlays), :mod:`~wmbench.body.motion.keyframe.kinematics` (forward
kinematics) and :mod:`~wmbench.body.motion.stream` (what both generators share); this module blends them
over time.

Simplified: stride length follows the key poses, not the speed, so feet slide a little at speeds far from
~1.4 and ~4.5 m/s; sideways steps are played as forward steps; no pelvis twist or tilt.
"""

from __future__ import annotations

import math

from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.contract import MotionFrame
from wmbench.body.motion.keyframe.kinematics import KeyframeKinematics
from wmbench.body.motion.keyframe.poses import (
    CHANNEL_INDEX,
    CHANNELS,
    RUN_BLEND,
    RUN_CYCLE,
    WALK_CYCLE,
    cadence,
    catmull_rom_cyclic,
)
from wmbench.body.motion.keyframe.styles import (
    KNOBS,
    overlay_vector,
)
from wmbench.body.motion.stream import Rhythm, StreamGenerator, posture_label, smoothstep
from wmbench.body.skeleton import Skeleton

#: Public names (the pieces the generator was split into are imported from their own modules).
__all__ = [
    "BLEND_SECONDS", "CLIP_TURN_RATE", "KeyframeGenerator", "posture_word",
]

BLEND_SECONDS = 0.25
CLIP_TURN_RATE = 4.0
#: The frame's posture label (the same words and rules as the procedural generator's).
posture_word = posture_label
_C = CHANNEL_INDEX


class _KeyStream:
    """A stream of frames: gait phase, rhythm and the style overlay blending over time."""

    def __init__(self, kin: KeyframeKinematics, fps: float, seed: int) -> None:
        self.kin = kin
        self.dt = 1.0 / fps
        self.rhythm = Rhythm(seed)
        self.phase = 0.0
        self.vec_from = self.vec_to = self.vec = overlay_vector(frozenset())
        self.blend = 1.0
        self.styles_from = self.styles_to = frozenset[str]()
        self.reverse = False

    def set_intent(self, intent: MotionIntent, immediate: bool = False) -> None:
        self.rhythm.on_intent(intent.styles, self.styles_to)
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
        knobs = dict(zip(KNOBS, self.vec[n:].tolist()))
        v = speed
        amp = smoothstep(v / 1.2) * (1.0 + 0.25 * min(max((v - 3.0) / 3.5, 0.0), 1.0)) * knobs["gait_scale"]
        run = smoothstep((v - RUN_BLEND[0]) / (RUN_BLEND[1] - RUN_BLEND[0]))
        walk_pose = catmull_rom_cyclic(WALK_CYCLE, self.phase)
        run_pose = catmull_rom_cyclic(RUN_CYCLE, self.phase)
        gait = (1.0 - run) * walk_pose + run * run_pose
        gait[[_C["shoulder_l"], _C["shoulder_r"]]] *= knobs["arm_swing"]
        ch = offsets + amp * gait
        ch[_C["trunk"]] += knobs["lean_per_speed"] * v
        rhythm = self.rhythm
        breath = knobs["breath_depth"] * math.sin(2.0 * math.pi * rhythm.breath)
        ch[_C["raise"]] += 0.5 * breath
        ch[_C["trunk"]] -= 0.5 * breath
        glance = knobs["glance"] * rhythm.glance_side
        ch[_C["neck_yaw"]] += knobs["scan"] * math.sin(2.0 * math.pi * rhythm.scan) + 1.2 * glance
        ch[_C["chest_yaw"]] += 0.4 * glance
        joints = self.kin.joints(ch)
        joints.setflags(write=False)
        styles = self.styles_to if self.blend >= 0.5 else self.styles_from
        frame = MotionFrame(joints, self.phase, posture_label(styles, float(ch[_C["trunk"]])))
        step = cadence(v) / 120.0 * self.dt  # a cycle is two steps
        self.phase = (self.phase - step if self.reverse else self.phase + step) % 1.0
        rhythm.advance(knobs["breath_hz"], self.dt)
        return frame


class KeyframeGenerator(StreamGenerator):
    """The keyframe motion generator (see the module card). Implements ``MotionGenerator``."""

    name = "keyframe"
    clip_turn_rate = CLIP_TURN_RATE

    def _prepare(self, skeleton: Skeleton) -> None:
        self._kin = KeyframeKinematics(skeleton)

    def _new_stream(self) -> _KeyStream:
        return _KeyStream(self._kin, self.fps, self._seed)
