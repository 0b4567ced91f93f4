"""The motion-generator contract: a MotionIntent in, 22-joint frames out.

A generator is a stream: the body calls :meth:`MotionGenerator.set_intent` once per decision and
:meth:`MotionGenerator.next_frame` once per motion frame with its *current* ground speed, so stride and
cadence follow the speed the body really has. Frames are root-local; the body owns the root's translation
and heading. :meth:`MotionGenerator.clip` renders a whole intent with the root travelling in motion space,
for HumanML3D features and for comparing generators (C10 S49). Learned text-to-motion models plug in behind
this interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from wmbench.body.intent.record import MotionIntent

#: Posture labels a frame may carry (what the body reports and the C08 scorer reads).
POSTURES: tuple[str, ...] = ("upright", "crouch", "freeze", "defensive", "lean_forward", "slump", "cautious")


@dataclass(frozen=True, eq=False)
class MotionFrame:
    """One motion frame.

    ``joints``: (22, 3) motion-space positions, *root-local*: the pelvis's floor projection is at
    x = z = 0, the character faces +z, left is +x, the floor is y = 0 (a read-only array).
    ``gait_phase``: position in the gait cycle, [0, 1) (0 = left foot strikes). ``posture``: one of
    :data:`POSTURES`.
    """

    joints: np.ndarray
    gait_phase: float
    posture: str

    @property
    def pelvis_height(self) -> float:
        """The pelvis's height above the floor (m): ``joints[0][1]``."""
        return float(self.joints[0][1])


@runtime_checkable
class MotionGenerator(Protocol):
    """Turns intents into 22-joint frames (see the module docstring for the calling pattern)."""

    name: str
    fps: float

    def reset(self, seed: int | None = None) -> None:
        """Back to standing still; all randomness restarts from ``seed``."""
        ...

    def set_intent(self, intent: MotionIntent) -> None:
        """The next frames blend smoothly from the current pose into this intent's."""
        ...

    def next_frame(self, speed: float) -> MotionFrame:
        """Advance one frame (1 / fps seconds) at the body's current ground speed (m/s)."""
        ...

    def clip(self, intent: MotionIntent, n_frames: int) -> np.ndarray:
        """(n_frames, 22, 3) *global* motion-space joints performing ``intent`` from a standing start at the
        origin facing +z, the root travelling along its travel direction at the intent's speed. Does not
        disturb the stream of :meth:`next_frame`."""
        ...
