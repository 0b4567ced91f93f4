"""Decision memory: ``recent_decisions`` and ``last_prediction`` as the brain sees them.

Card
----
Each finished decision adds ``{t, motion, direction, outcome}``: ``t`` its start time, ``motion`` the MOTION
text (clipped to :data:`MAX_MOTION_CHARS` so the observation stays bounded), ``direction`` the direction the
MOTION asked for (scene words: front/left/right/back, null when standing) and ``outcome`` from
:func:`decision_outcome`. The scene shows the last ``RECENT_DECISIONS_SHOWN``. A phase with
``carry_memory=False`` starts from a clean slate (``last_prediction`` too); a phase's ``prior_decisions`` are
seeded in as if they had happened.
"""

from __future__ import annotations

from collections.abc import Iterable

from wmbench.core.directions import GRAMMAR_TO_SCENE
from wmbench.protocol.scene import RECENT_DECISIONS_SHOWN, RecentDecision
from wmbench.scenarios.records import PriorDecision

MAX_MOTION_CHARS = 240
MAX_PREDICTION_CHARS = 400


def scene_direction(word: str | None) -> str | None:
    """A grammar or scene direction word in scene spelling (``fwd`` -> ``front``); None stays None."""
    if word is None:
        return None
    return GRAMMAR_TO_SCENE.get(word, word)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def decision_outcome(
    *, caught: bool, blocked: bool, escaped: bool, asked: str | None, moved: str | None
) -> str:
    """The outcome phrase of a decision (scene words), first match wins:
    ``caught`` > ``blocked by wall on <dir>`` > ``escaped`` > ``moved <dir>`` > ``stood still``.

    ``escaped`` (decided by the env): a beast nearby at the decision's start is still present but out of
    range (or out of sight) at its end, and no beast is nearby; a beast that despawned was not escaped from.
    """
    if caught:
        return "caught"
    if blocked:
        return f"blocked by wall on {asked or moved or 'front'}"
    if escaped:
        return "escaped"
    if moved:
        return f"moved {moved}"
    return "stood still"


class DecisionMemory:
    """What the env remembers between decisions (see the module card)."""

    def __init__(self) -> None:
        self.entries: list[RecentDecision] = []
        self.last_prediction: str | None = None

    def clear(self) -> None:
        self.entries.clear()
        self.last_prediction = None

    def seed(self, priors: Iterable[PriorDecision]) -> None:
        for prior in priors:
            self.add(prior.t, prior.motion, prior.direction, prior.outcome)

    def add(self, t: float, motion: str, direction: str | None, outcome: str) -> None:
        self.entries.append(RecentDecision(
            t=round(float(t), 3), motion=clip(motion, MAX_MOTION_CHARS), direction=scene_direction(direction),
            outcome=outcome,
        ))
        del self.entries[:-RECENT_DECISIONS_SHOWN]

    def remember_prediction(self, line: str | None) -> None:
        self.last_prediction = clip(line, MAX_PREDICTION_CHARS) if line else None

    def recent(self) -> list[RecentDecision]:
        """Copies of the last ``RECENT_DECISIONS_SHOWN`` entries, oldest first."""
        return [e.copy() for e in self.entries[-RECENT_DECISIONS_SHOWN:]]
