"""``demo-echo``: echoes the scene's walls back as a PREDICT line and always walks forward.

Entry point target is a *function* ``(spec, **options) -> Brain``, the form wmbench's brain registry calls
with the full spec (``demo-echo`` or ``demo-echo:<motion>``; the part after ``:`` replaces the MOTION).
"""

from __future__ import annotations

import time
from typing import Any

from wmbench.brain.base import BrainReply

DIRECTIONS = (("left", "left"), ("right", "right"), ("fwd", "front"), ("back", "back"))


class EchoBrain:
    """Walls in the scene become danger(wall), everything else safe(open); the MOTION is fixed."""

    def __init__(self, name: str, motion: str) -> None:
        self.name = name
        self.motion = motion
        self.decisions = 0

    def reset(self, seed: int | None = None) -> None:
        self.decisions = 0

    def decide(self, scene: dict[str, Any]) -> BrainReply:
        start = time.perf_counter()
        walls = scene.get("walls") or {}
        items = [f"{d}=danger(wall)" if walls.get(key) is not None else f"{d}=safe(open)"
                 for d, key in DIRECTIONS]
        self.decisions += 1
        text = f"PREDICT: {', '.join(items)}\nMOTION: {self.motion}"
        return BrainReply(text=text, latency_s=time.perf_counter() - start, provider="demo-echo")

    def close(self) -> None:
        pass


def make_echo_brain(spec: str, **options: Any) -> EchoBrain:
    _, _, motion = spec.partition(":")
    return EchoBrain(name=spec, motion=motion or options.get("motion", "a person walks forward calmly"))
