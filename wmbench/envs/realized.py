"""Realized motion: what the body actually did during one decision, measured from its root.

Card
----
- ``direction``: sector (grammar words fwd/left/right/back) of the net displacement relative to the heading at
  the decision's start; None when the root moved less than :data:`~wmbench.core.thresholds.MOVED_DISTANCE_M`.
- ``distance``: net displacement (m); ``mean_speed``: path length / elapsed time (m/s).
- ``speed_class``: the class whose speed is nearest in the *body's own* speed envelope (thresholds halfway
  between class speeds), so a robot's 2.5 m/s sprint reads as a sprint.
- ``posture``: the posture seen in most frames (ties: the later one).
- ``min_threat_distance``: smallest ground-plane distance to any present beast during the decision (None if no
  beast was present).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wmbench.body.base import BodyState
from wmbench.body.envelope import classify_speed as classify_in_envelope
from wmbench.core.directions import SCENE_TO_GRAMMAR
from wmbench.core.speed import SPEED_CLASS_SPEEDS
from wmbench.core.thresholds import MOVED_DISTANCE_M
from wmbench.protocol.scene import sector_of


def classify_speed(speed: float, envelope: Mapping[str, float] = SPEED_CLASS_SPEEDS) -> str:
    """Speed class name for a ground speed: nearest class speed of ``envelope`` (default: the character's)."""
    return classify_in_envelope(speed, envelope)


def relative_sector(angle: float) -> str:
    """Grammar sector word (fwd/left/right/back) of a relative angle (same sectors as the scene's)."""
    return SCENE_TO_GRAMMAR[sector_of(angle)]


@dataclass(frozen=True)
class RealizedMotion:
    direction: str | None
    distance: float
    mean_speed: float
    speed_class: str
    posture: str
    min_threat_distance: float | None

    def to_dict(self) -> dict[str, Any]:
        threat = self.min_threat_distance
        return {
            "direction": self.direction, "distance": round(self.distance, 4),
            "mean_speed": round(self.mean_speed, 4), "speed_class": self.speed_class, "posture": self.posture,
            "min_threat_distance": None if threat is None else round(threat, 4),
        }


class RealizedTracker:
    """Accumulates one decision's frames; :meth:`result` gives the :class:`RealizedMotion`."""

    def __init__(self, start: BodyState, threat_distance: float | None,
                 envelope: Mapping[str, float] = SPEED_CLASS_SPEEDS) -> None:
        self.envelope = envelope
        self.start_x, self.start_y = start.position[0], start.position[1]
        self.start_heading = start.heading
        self.x, self.y = self.start_x, self.start_y
        self.path = 0.0
        self.elapsed = 0.0
        self.postures: dict[str, int] = {}
        self.frames = 0
        self._last_seen: dict[str, int] = {}  # posture -> the latest frame (1-based) it was seen in
        self.last_posture = start.posture
        self.min_threat = threat_distance

    def observe(self, x: float, y: float, posture: str, dt: float, threat_distance: float | None) -> None:
        self.path += math.hypot(x - self.x, y - self.y)
        self.x, self.y = x, y
        self.elapsed += dt
        self.postures[posture] = self.postures.get(posture, 0) + 1
        self.frames += 1
        self._last_seen[posture] = self.frames
        self.last_posture = posture
        if threat_distance is not None and (self.min_threat is None or threat_distance < self.min_threat):
            self.min_threat = threat_distance

    def result(self) -> RealizedMotion:
        dx, dy = self.x - self.start_x, self.y - self.start_y
        distance = math.hypot(dx, dy)
        direction = (relative_sector(math.atan2(dy, dx) - self.start_heading)
                     if distance >= MOVED_DISTANCE_M else None)
        mean_speed = self.path / self.elapsed if self.elapsed > 0 else 0.0
        if self.postures:  # most frames; a tie goes to the posture seen later
            posture = max(self.postures, key=lambda name: (self.postures[name], self._last_seen[name]))
        else:
            posture = self.last_posture
        speed_class = classify_speed(mean_speed, self.envelope)
        return RealizedMotion(direction, distance, mean_speed, speed_class, posture, self.min_threat)
