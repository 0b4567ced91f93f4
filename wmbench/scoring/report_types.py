"""Frozen result records of the C01–C08 scorers.

A :class:`ScenarioScore` is what one episode of one scenario earned (0–20 points) and why. ``evidence`` keeps
both kinds of evidence apart so a report can show them side by side::

    {"rule": "<branch name>",
     "keyword": {...},            # what the words said (levels, matched terms, descriptor counts)
     "sim": {...},                # what the sim measured (collisions, caught, realized directions, speeds,
                                  #   hidden_inconsistency {count, safe_decisions, rate})
     "decisions": [{"index", "points", "why"}, ...]}

Everything in it is plain JSON (str, int, float, bool, None, lists, dicts).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wmbench.core.taxonomy import SCENARIO_MAX_POINTS


@dataclass(frozen=True)
class ScenarioScore:
    """One episode's score for one scenario. ``measured`` False means "could not be scored" — never a silent
    0.

    ``seed`` is an additive field (default None) so per-seed listings can say which seed earned what."""

    scenario_id: str
    category: str
    score: float
    max: float = SCENARIO_MAX_POINTS
    measured: bool = True
    explanation: str = ""
    evidence: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario_id": self.scenario_id, "category": self.category, "score": self.score, "max": self.max,
            "measured": self.measured, "explanation": self.explanation, "evidence": self.evidence,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class DecisionPoints:
    """Points one decision earned under a scenario's rule, with the branch that gave them. ``points`` is None
    for a decision that is only a reading in a pattern the scenario is scored on (e.g. one step of a
    gradient)."""

    index: int
    points: float | None
    why: str

    def to_dict(self) -> dict[str, Any]:
        points = None if self.points is None else round(float(self.points), 3)
        return {"index": self.index, "points": points, "why": self.why}
