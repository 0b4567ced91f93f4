"""Building a :class:`ScenarioScore` from per-decision points, with the evidence and a readable explanation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from wmbench.core.taxonomy import SCENARIO_MAX_POINTS
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scoring.evidence import hidden_inconsistency, mean
from wmbench.scoring.expression import decision_intensity
from wmbench.scoring.keywords import KeywordBanks
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore


def branch_of(why: str) -> str:
    """The branch name a ``why`` starts with (``"optimal: ..."`` -> ``"optimal"``)."""
    return why.split(":", 1)[0].strip()


def make_score(
    trace: Trace,
    category: str,
    rule: str,
    points: Sequence[DecisionPoints],
    *,
    score: float | None = None,
    summary: str = "",
    caps: Sequence[tuple[float, str]] = (),
    keyword: dict[str, Any] | None = None,
    sim: dict[str, Any] | None = None,
) -> ScenarioScore:
    """Score = ``score`` if given, else the mean of the decision points; then every applicable cap
    ``(limit, reason)`` in ``caps``; clipped to 0..20."""
    if score is None:
        scored = [p.points for p in points if p.points is not None]
        raw = mean(scored)
    else:
        raw = float(score)
    applied = [(limit, reason) for limit, reason in caps if raw > limit]
    final = min([raw, *(limit for limit, _ in applied)])
    final = round(max(0.0, min(SCENARIO_MAX_POINTS, final)), 3)
    branches = Counter(branch_of(p.why) for p in points if p.points is not None)
    parts = [f"{trace.scenario_id} [{rule}]"]
    if summary:
        parts.append(summary)
    if branches:
        counted = ", ".join(f"{name} x{n}" for name, n in sorted(branches.items()))
        parts.append(f"{sum(branches.values())} scored decisions ({counted})")
    parts.append(f"raw {raw:.2f}")
    parts.extend(f"capped at {limit:g}: {reason}" for limit, reason in applied)
    parts.append(f"score {final:g}/20")
    sim_evidence = dict(sim or {})
    sim_evidence["hidden_inconsistency"] = hidden_inconsistency(trace.decisions)
    return ScenarioScore(
        scenario_id=trace.scenario_id, category=category, score=final, measured=True,
        explanation="; ".join(parts),
        evidence={
            "rule": rule, "raw": round(raw, 3),
            "caps": [{"limit": lim, "reason": why} for lim, why in applied],
            "keyword": keyword or {}, "sim": sim_evidence, "decisions": [p.to_dict() for p in points],
        },
        seed=trace.seed,
    )


def unmeasured(trace: Trace, category: str, reason: str) -> ScenarioScore:
    """A trace that could not be scored: ``measured`` False and the reason — never a silent 0."""
    return ScenarioScore(
        scenario_id=trace.scenario_id, category=category, score=0.0, measured=False,
        explanation=f"{trace.scenario_id}: not measured: {reason}",
        evidence={"rule": "unmeasured", "reason": reason},
        seed=trace.seed,
    )


def intensity_readings(decisions: Sequence[DecisionRecord], banks: KeywordBanks, label: str = "reading"
                       ) -> tuple[list[float], list[DecisionPoints]]:
    """Combined intensities of ``decisions`` and one unscored ``DecisionPoints`` reading for each."""
    values, readings = [], []
    for d in decisions:
        i = decision_intensity(d, banks)
        values.append(i.combined)
        words = ", ".join(i.terms) or "-"
        readings.append(DecisionPoints(
            d.index, None, f"{label}: intensity {i.combined:.2f} (words L{i.keyword_level} [{words}], body "
                           f"{i.body_rank})"
        ))
    return values, readings
