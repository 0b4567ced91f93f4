"""``forecaster`` — the reference brain plus a ``FORECAST:`` line: a demonstration of forecasts, not a rival brain.

Card
----
- Replies are the reference brain's two lines, then ``FORECAST:`` items at +1 s
  (:mod:`wmbench.protocol.forecast`). The forecast is read from the scene alone: every direction keeps the
  verdict the scene gives it now (walls stay; a beast that is standing stays where it is), except that a beast
  described as *crossing* from a side is forecast in front (``fwd=danger(beast)@+1s``: it crosses the path) and
  its side is forecast clear, and a beast *approaching* or *charging* from any side is forecast still there.
- It exists so that the forecast scoring (:mod:`wmbench.scoring.forecast`) can be shown on a brain that gives
  forecasts, e.g. S15's crossing beast, with and without the anticipation; its PREDICT and MOTION, and so its WM
  Score, are exactly the reference brain's.
"""

from __future__ import annotations

from collections.abc import Mapping

from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome
from wmbench.brain.reference.brain import ReferenceBrain
from wmbench.core.directions import DIRECTION_READINGS, GRAMMAR_ORDER
from wmbench.protocol.observation import BrainInput

HORIZON_S = 1.0


class ForecasterBrain(ProviderBrain):
    """The reference brain's reply with a one-second FORECAST line (see the module card)."""

    name = "forecaster"
    provider = "forecaster"

    def __init__(self) -> None:
        super().__init__()
        self._inner = ReferenceBrain()

    def reset(self, seed: int | None = None) -> None:
        self._inner.reset(seed)

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        reply = self._inner.decide(scene)
        if reply.error:
            return ProviderOutcome(text="", error=reply.error)
        return ProviderOutcome(text=f"{reply.text}\nFORECAST: {forecast_line(scene)}")


def forecast_line(scene: BrainInput) -> str:
    """The +1 s forecast items for a scene (see the module card)."""
    walls: Mapping[str, object] = scene.get("walls") or {}
    verdicts: dict[str, tuple[str, str]] = {}
    for scene_word, distance in walls.items():
        direction = DIRECTION_READINGS.get(str(scene_word))
        if direction is not None:
            verdicts[direction] = ("danger", "wall") if distance is not None else ("safe", "open")
    for npc in scene.get("npcs") or []:
        if npc.get("type") != "beast":
            continue
        side = DIRECTION_READINGS.get(str(npc.get("direction")))
        if side is None:
            continue
        if npc.get("behavior") == "cross" and side in ("left", "right"):
            verdicts["fwd"] = ("danger", "beast")
            if side not in verdicts or verdicts[side][1] == "beast":
                verdicts[side] = ("safe", "open")
        else:
            verdicts[side] = ("danger", "beast")
    items = [f"{d}={v}({r})@+{HORIZON_S:g}s" for d in GRAMMAR_ORDER for v, r in [verdicts.get(d, ("safe", "open"))]]
    return ", ".join(items)
