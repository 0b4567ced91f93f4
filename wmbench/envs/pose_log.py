"""Pose log: where the protagonist and every NPC stood, sampled through the episode, kept in the trace.

Card
----
- Sampled at :data:`POSE_LOG_HZ` (every ``round(frame_rate / POSE_LOG_HZ)``-th motion frame, at least every
  frame) and at each phase's start; stored in ``trace.meta["poses"]`` as plain lists, so it round-trips
  through ``episodes.jsonl`` with the rest of the trace:
  ``{"hz": <samples per sim second>, "frames": [[t, phase, x, y, heading, [[name, kind, x, y, yaw], ...]], ...],
  "walls": {"<phase>": [[name, cx, cy, size_x, size_y, height], ...]}}`` (positions in m, angles in rad,
  rounded to 1 mm / 1 mrad); the walls are those the env built, so a replay needs no scenario record.
- Cheap (a few microseconds per sample: Python attributes only, no PyBullet query beyond the body state the
  frame already read), so a live run pays nothing measurable for it; videos are rendered from it after the
  run (:mod:`wmbench.harness.video.replay`) instead of inside the frame loop.
- Simplified: the protagonist is logged as a root pose (no joint angles), so a replay draws a stand-in
  figure, not the articulated character.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from wmbench.body.base import BodyState
from wmbench.scenarios.records import Wall

POSE_LOG_HZ = 15.0


class PoseLog:
    """Collects samples into ``data`` (the dict the trace's meta holds)."""

    def __init__(self, frame_rate: int) -> None:
        self.stride = max(1, round(frame_rate / POSE_LOG_HZ))
        self.data: dict[str, Any] = {"hz": round(frame_rate / self.stride, 6), "frames": [], "walls": {}}

    def phase_walls(self, phase: int, walls: Iterable[Wall]) -> None:
        """Log the walls the env built for ``phase`` (a drawn scenario instance may differ from its record)."""
        self.data["walls"][str(phase)] = [
            [w.name, round(w.center[0], 4), round(w.center[1], 4), round(w.size[0], 4), round(w.size[1], 4),
             round(w.height, 4)] for w in walls]

    def sample(self, frame: int, t: float, phase: int, body: BodyState, npcs: list[Any], *,
               force: bool = False) -> None:
        """Log this frame if it is due (``frame`` is the episode's motion-frame count) or ``force``."""
        if not force and frame % self.stride:
            return
        self.sample_pose(frame, t, phase, body.position[0], body.position[1], body.heading, npcs, force=True)

    def sample_pose(self, frame: int, t: float, phase: int, x: float, y: float, heading: float,
                    npcs: list[Any], *, force: bool = False) -> None:
        """:meth:`sample` from the protagonist's planar position and heading (what a frame pose gives)."""
        if not force and frame % self.stride:
            return
        others = [[n.name, n.kind, round(n.x, 3), round(n.y, 3), round(n.yaw, 3)] for n in npcs]
        self.data["frames"].append([round(t, 6), phase, round(x, 3), round(y, 3), round(heading, 3), others])
