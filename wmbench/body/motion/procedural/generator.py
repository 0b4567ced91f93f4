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

Modules: :mod:`~wmbench.body.motion.procedural.gait` (gait table, feet, leg IK),
:mod:`~wmbench.body.motion.procedural.posture` (style postures), :mod:`~wmbench.body.motion.procedural.pose` (one
pose) and
:mod:`~wmbench.body.motion.stream` (what both generators share); this module blends them over time.

Simplifications: joint frames are composed as yaw-pitch-roll Euler angles whose pitch adds up along a chain
(exact for hinge chains such as knee/elbow, an approximation for twisted spines); the foot roll assumes
forward travel (it fades out for sideways/backward steps); the generator does not see the body's turn rate,
so a planted foot slides a little while the body turns on the spot.
"""

from __future__ import annotations

from dataclasses import fields
from functools import cached_property

import numpy as np

from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.contract import MotionFrame
from wmbench.body.motion.procedural.gait import GaitParams
from wmbench.body.motion.procedural.pose import PoseBuilder, trunk_lean
from wmbench.body.motion.procedural.posture import Posture, posture_for
from wmbench.body.motion.stream import (
    Rhythm,
    RhythmPhase,
    StreamGenerator,
    posture_label,
    smoothstep,
)
from wmbench.body.skeleton import Skeleton

#: Public names (the pieces the generator was split into are imported from their own modules).
__all__ = [
    "BLEND_SECONDS", "CLIP_TURN_RATE", "GAIT_SPEED_RATE", "ProceduralGenerator",
]

#: Seconds over which a new intent's posture blends in.
BLEND_SECONDS = 0.2
#: Turn rate (rad/s) of the root in :meth:`ProceduralGenerator.clip` while it turns to face its travel.
CLIP_TURN_RATE = 3.0
#: The gait follows the body's speed at most this fast (m/s^2): a body ramping to a sprint in 0.15 s is
#: followed exactly, an instant stop at a wall eases out over a few frames instead of snapping the feet.
GAIT_SPEED_RATE = 45.0

_POSTURE_FIELDS = tuple(f.name for f in fields(Posture))


class PosedOnRead(MotionFrame):
    """A procedural frame whose 22 joints are posed when first read.

    A bench episode on the character reads only each frame's pelvis height and posture label (the joints are
    for pictures, videos, datasets and the robot's servos), so posing every frame at once spent a quarter of
    such an episode's CPU on joints nobody read. The pose is a pure function of the arguments kept here (the
    rhythm is frozen with :meth:`~wmbench.body.motion.stream.Rhythm.now`), so the joints, when read, are the
    same numbers as posing at once, and the pelvis height is computed by the same arithmetic
    (:meth:`PoseBuilder.pelvis_height`)."""

    _args: tuple[PoseBuilder, Posture, GaitParams, float, float, RhythmPhase]

    def __init__(self, builder: PoseBuilder, posture: Posture, gait: GaitParams, speed: float, phase: float,
                 rhythm: RhythmPhase, label: str) -> None:
        object.__setattr__(self, "gait_phase", phase)
        object.__setattr__(self, "posture", label)
        object.__setattr__(self, "_args", (builder, posture, gait, speed, phase, rhythm))

    @cached_property
    def joints(self) -> np.ndarray:  # MotionFrame's field, computed on first read
        builder, posture, gait, speed, phase, rhythm = self._args
        joints, _lean = builder.pose(posture, gait, speed, phase, rhythm)
        joints.setflags(write=False)
        return joints

    @property
    def pelvis_height(self) -> float:
        builder, posture, gait, speed, phase, _rhythm = self._args
        return builder.pelvis_height(posture, gait, speed, phase)


class _Stream:
    """A stream of frames: gait phase, rhythm and posture blending over time."""

    def __init__(self, builder: PoseBuilder, fps: float, seed: int) -> None:
        self.builder = builder
        self.dt = 1.0 / fps
        self.rhythm = Rhythm(seed)
        self.phase = 0.0
        self.styles_from = self.styles_to = frozenset[str]()
        self.vec_from = self.vec_to = np.array([getattr(Posture(), f) for f in _POSTURE_FIELDS])
        self.blend = 1.0
        self.posture = Posture()
        self.speed = 0.0
        self.gait = builder.gait_at(0.0)
        self.gait_speed = 0.0
        self.started = False

    def set_intent(self, intent: MotionIntent, immediate: bool = False) -> None:
        target = posture_for(intent)
        self.rhythm.on_intent(intent.styles, self.styles_to)
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
            w = smoothstep(self.blend)
            self.posture = Posture(*(self.vec_from + (self.vec_to - self.vec_from) * w).tolist())
        if speed != self.gait_speed:
            self.gait, self.gait_speed = self.builder.gait_at(speed), speed
        frame = PosedOnRead(self.builder, self.posture, self.gait, speed, self.phase, self.rhythm.now(),
                            posture_label(self._label_styles(), trunk_lean(self.posture, speed)))
        step_hz = self.gait.step_hz / self.posture.stride_scale
        self.phase = (self.phase + 0.5 * step_hz * self.dt) % 1.0
        self.rhythm.advance(self.posture.breath_hz, self.dt)
        return frame


class ProceduralGenerator(StreamGenerator):
    """The default motion generator (see the module card). Implements ``MotionGenerator``."""

    name = "procedural"
    clip_turn_rate = CLIP_TURN_RATE

    def _prepare(self, skeleton: Skeleton) -> None:
        self._builder = PoseBuilder(skeleton)

    def _new_stream(self) -> _Stream:
        return _Stream(self._builder, self.fps, self._seed)
