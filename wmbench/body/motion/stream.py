"""StreamGenerator: what both motion generators share around their own pose code.

Card
----
- **The frame.** A generator keeps one *frame stream* (an object with ``set_intent(intent, immediate)`` and
  ``step(speed) -> MotionFrame``); :class:`StreamGenerator` checks the arguments, restarts the stream on
  ``reset(seed)``, forwards ``set_intent`` / ``next_frame`` to it and renders :meth:`StreamGenerator.clip`
  from a fresh stream. A subclass builds its per-skeleton kinematics in ``_prepare`` and its stream in
  ``_new_stream``.
- **Clip root.** The root travels along the intent's heading from the first frame (as the character body's
  root does); only the facing turns towards it, at ``clip_turn_rate`` rad/s, so an about-turn goes straight
  back.
- **Speeds.** :func:`sanitize_speed`: non-numbers and negatives are 0, very large ones :data:`MAX_SPEED`.
- **Rhythm.** :class:`Rhythm` holds the slow oscillators (breathing and head-scan cycles, glance side), drawn
  from the seed in a fixed order, so a generator's output depends on ``reset(seed)`` only.
- **Posture words.** :func:`posture_label` names a frame's posture from its style tags and trunk lean (the
  vocabulary of ``motion_generator.POSTURES``).
"""

from __future__ import annotations

import math
from typing import NamedTuple, Protocol

import numpy as np

from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.contract import MotionFrame
from wmbench.body.skeleton import DEFAULT_SKELETON, Skeleton

#: Speeds above this (m/s) are treated as this.
MAX_SPEED = 10.0
#: Head-scan cycles per second.
SCAN_HZ = 0.35
#: Trunk pitch (rad) at or above which a frame is labelled ``lean_forward``.
LEAN_FORWARD_LABEL = 0.2


def smoothstep(x: float) -> float:
    """Hermite ease of ``x`` clamped to [0, 1]: 0 -> 0, 1 -> 1, flat at both ends."""
    x = min(max(x, 0.0), 1.0)
    return x * x * (3.0 - 2.0 * x)


def sanitize_speed(speed: float) -> float:
    """Speeds the body reports, made safe: non-numbers and negatives are 0, very large ones MAX_SPEED."""
    try:
        v = float(speed)
    except (TypeError, ValueError):
        return 0.0
    if not math.isfinite(v) or v <= 0.0:
        return 0.0
    return min(v, MAX_SPEED)


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


class RhythmPhase(NamedTuple):
    """The rhythm's oscillators at one frame (what a pose reads; see :class:`Rhythm`)."""

    breath: float
    scan: float
    glance_side: float


class Rhythm:
    """Slow oscillators of a pose stream: ``breath`` and ``scan`` (cycles elapsed) and ``glance_side`` (+1
    over the left shoulder, -1 over the right). Start phases and glance sides come from ``seed``."""

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)
        self.breath = float(self._rng.random())
        self.scan = float(self._rng.random())
        self.glance_side = self._draw_side()

    def _draw_side(self) -> float:
        return 1.0 if self._rng.random() < 0.5 else -1.0

    def on_intent(self, styles: frozenset[str], previous: frozenset[str]) -> None:
        """A new glance back (one the previous intent did not have) picks its shoulder afresh."""
        if "glance_back" in styles and "glance_back" not in previous:
            self.glance_side = self._draw_side()

    def now(self) -> RhythmPhase:
        """The oscillators at this frame, frozen (the rhythm itself moves on)."""
        return RhythmPhase(self.breath, self.scan, self.glance_side)

    def advance(self, breath_hz: float, dt: float) -> None:
        """Move the oscillators on by ``dt`` seconds, breathing at ``breath_hz``."""
        self.breath += breath_hz * dt
        self.scan += SCAN_HZ * dt


class FrameStream(Protocol):
    """One running pose stream of a generator."""

    def set_intent(self, intent: MotionIntent, immediate: bool = False) -> None: ...

    def step(self, speed: float) -> MotionFrame: ...


class StreamGenerator:
    """Base of the motion generators (see the module card); implements ``MotionGenerator`` around a stream."""

    name = "stream"
    #: Turn rate (rad/s) of the root in :meth:`clip` while it turns to face its travel.
    clip_turn_rate = 3.0

    def __init__(self, fps: float = 30.0, skeleton: Skeleton = DEFAULT_SKELETON, seed: int = 0) -> None:
        if not (isinstance(fps, (int, float)) and math.isfinite(fps) and fps > 0):
            raise ValueError(f"fps must be a positive number, got {fps!r}")
        if skeleton.parents != DEFAULT_SKELETON.parents:
            raise ValueError(f"{type(self).__name__} needs the 22-joint HumanML3D tree (skeleton.PARENTS), "
                             f"got parents {skeleton.parents}")
        self.fps = float(fps)
        self.skeleton = skeleton
        self._prepare(skeleton)
        self._seed = int(seed)
        self.reset(seed)

    def _prepare(self, skeleton: Skeleton) -> None:
        """Build what every stream on ``skeleton`` shares (called once, before the first stream)."""

    def _new_stream(self) -> FrameStream:
        """A fresh stream at ``self.fps`` seeded with ``self._seed``."""
        raise NotImplementedError

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._seed = int(seed)
        self._stream = self._new_stream()

    def set_intent(self, intent: MotionIntent) -> None:
        if not isinstance(intent, MotionIntent):
            raise TypeError(f"set_intent expects a MotionIntent, got {type(intent).__name__}")
        self._stream.set_intent(intent)

    def next_frame(self, speed: float) -> MotionFrame:
        return self._stream.step(sanitize_speed(speed))

    def clip(self, intent: MotionIntent, n_frames: int) -> np.ndarray:
        """Global frames of ``intent`` from a standing start: the root travels along the intent's heading at
        its speed from the first frame; the facing turns towards it at ``clip_turn_rate`` (rad/s) when
        ``face_travel``."""
        if not isinstance(intent, MotionIntent):
            raise TypeError(f"clip expects a MotionIntent, got {type(intent).__name__}")
        if int(n_frames) != n_frames or n_frames < 1:
            raise ValueError(f"n_frames must be a positive integer, got {n_frames!r}")
        stream = self._new_stream()
        stream.set_intent(intent, immediate=True)
        speed = sanitize_speed(intent.speed) if intent.moving else 0.0
        travel = intent.heading if intent.moving else 0.0
        facing_goal = travel if intent.face_travel else 0.0
        step_x, step_z = speed / self.fps * math.sin(travel), speed / self.fps * math.cos(travel)
        facing, root_x, root_z = 0.0, 0.0, 0.0
        max_turn = self.clip_turn_rate / self.fps
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
