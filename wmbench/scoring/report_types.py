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
from typing import Any, TypedDict

from wmbench.core.taxonomy import SCENARIO_MAX_POINTS


class Evidence(TypedDict, total=False):
    """Why one seed of a scenario earned its points (``ScenarioScore.evidence``): the rule's branch name,
    the raw score and caps, the keyword and sim evidence and the per-decision points; an unmeasured or failed
    episode carries ``reason``/``mode``/``error`` instead; ``failure_label`` says why points were lost. The
    harness-measured rules add theirs: C09 ``live`` (the run's numbers) and ``harness`` (pipeline properties,
    reported, never scored); C10 ``source_body``, ``bodies``, ``carried``, ``ratios``, ``variants``,
    ``diagnostics`` (the brain-transfer rule) and ``transfer``, ``bands``, ``replies``, ``moving_decisions``
    (the S46–S50 pipeline diagnostics)."""

    rule: str
    raw: float
    caps: list[dict[str, Any]]
    keyword: dict[str, Any]
    sim: dict[str, Any]
    decisions: list[dict[str, Any]]
    reason: str
    mode: str
    error: str
    failure_label: str
    live: dict[str, Any]
    harness: dict[str, Any]
    source_body: str
    bodies: dict[str, Any]
    carried: float
    ratios: dict[str, float]
    variants: list[str]
    diagnostics: dict[str, Any]
    transfer: dict[str, Any]
    bands: object
    replies: int
    moving_decisions: int


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
    evidence: Evidence = field(default_factory=lambda: Evidence())
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
