"""C01 Environmental Awareness (S01–S05): spatial accuracy of PREDICT against the ray-cast truth.

The rule (S01–S05 alike, and any user C01 scenario) is stated once, in :data:`RULE_TEXT` (paired with its
scorer in :data:`RULES`; ``wmbench show`` prints it under the scenario's card). A direction is right when
verdict and reason both fit the truth (:func:`~wmbench.scoring.evidence.spatial_accuracy`: ``danger(wall)``
where a wall is sensed, ``safe(open)`` or ``safe(exit)`` where none is); the collision cap is
``C01_COLLISION_CAP``.
"""

from __future__ import annotations

from wmbench.protocol.trace import Trace
from wmbench.scoring.evidence import PARTIAL_MIN_CORRECT, SPATIAL_POINTS, spatial_accuracy
from wmbench.scoring.keywords import KeywordBanks
from wmbench.scoring.movement import collided
from wmbench.scoring.registry import category_scorer
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.scoring.result import make_score, unmeasured
from wmbench.scoring.thresholds import C01_COLLISION_CAP

CATEGORY = "C01"
_RULE = (
    "Each decision's PREDICT is checked against the ray-cast truth per direction (verdict and reason). Exact "
    f"(all four right) {SPATIAL_POINTS['exact']:g}, partial (at least {PARTIAL_MIN_CORRECT} right and any true "
    f"danger flagged) {SPATIAL_POINTS['partial']:g}, miss {SPATIAL_POINTS['miss']:g}; parse errors are misses. "
    "Mean over decisions; any wall collision caps the scenario at "
    f"{C01_COLLISION_CAP:g}."
)
RULE_TEXT: dict[str, str] = {sid: _RULE for sid in ("S01", "S02", "S03", "S04", "S05")}


@category_scorer("C01")
def score_spatial(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    if not trace.decisions:
        return unmeasured(trace, CATEGORY, "no decisions recorded")
    points = []
    for d in trace.decisions:
        result = spatial_accuracy(d)
        wrong = result.wrong_directions()
        if not result.checks:
            detail = "parse error"
        else:
            detail = f"wrong: {', '.join(wrong)}" if wrong else "all right"
        points.append(DecisionPoints(d.index, result.points, f"{result.level}: {result.n_correct}/4 right, "
                                                             f"{detail}"))
    collisions = [d.index for d in trace.decisions if collided(d)]
    caps = [(C01_COLLISION_CAP, f"wall collision at decisions {collisions}")] if collisions else []
    levels = [p.why.split(":")[0] for p in points]
    return make_score(trace, CATEGORY, "spatial_accuracy", points, caps=caps,
                      keyword={"levels": levels}, sim={"collisions": collisions})


RULES = {sid: score_spatial for sid in RULE_TEXT}
