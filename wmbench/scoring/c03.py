"""C03 Predictive Reasoning (S11–S15): does the prediction match the decision, and the decision the world?

The rule of each scenario is stated once, in :data:`RULE_TEXT` (paired with its scorer in :data:`RULES`;
``wmbench show`` prints it under the scenario's card), written from the ``*_POINTS`` tables below and the
thresholds of :mod:`~wmbench.scoring.thresholds` that the scorers use.

How it is applied: :func:`judge` takes each threatened decision (a beast nearby) through the branches of
``MATCH_POINTS`` in order, first match wins (contradictory, then optimal, sideways, reasonable, suboptimal,
mismatch). An *escape* is a move into a truly safe sector that does not close on the beast, or holding still
when no direction is safe (S14's dead end). Whether a move closed on the beast or let it gain is read from the
distance to it at the next decision (:func:`~wmbench.scoring.movement.ground_change`). No threatened decision
at all -> not measured.

What the prompt tells a brain, and so what this rule asks: mark walls and the beast's direction danger, never
move toward a direction marked danger, choose a safe direction, and get away from the beast ("sprint away",
"retreat"). It names no preferred side: any safe direction that gets away is optimal — backing off through an
open back in S12/S13 as much as the side exit. A legitimate alternative, a safe move to the side that lets the
beast gain on it (the spec's S11 "move left/right"), loses ``SIDEWAYS_MARGIN``. A move whose own motion closes
on the beast (the distance fell by more than the beast alone could close it) is a move toward danger.
"""

from __future__ import annotations

import math
from dataclasses import replace

from wmbench.core.directions import OPPOSITE
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scoring.evidence import SpatialResult, spatial_accuracy, spatial_from_checks, threatened
from wmbench.scoring.keywords import KeywordBanks
from wmbench.scoring.movement import (
    GroundChange,
    caught,
    collided,
    ground_change,
    into_danger,
    into_danger_detail,
    into_predicted_danger,
    moved_safe,
    realized,
    trace_caught,
)
from wmbench.scoring.registry import category_scorer
from wmbench.scoring.reply import parse_ok
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.scoring.result import make_score, unmeasured
from wmbench.scoring.thresholds import CAUGHT_CAP

CATEGORY = "C03"
#: the optimal escape loses this much when it is a safe move to the side that lets the beast gain on it
SIDEWAYS_MARGIN = 5.0
MATCH_POINTS: dict[str, float] = {
    "optimal": 20.0, "sideways": 20.0 - SIDEWAYS_MARGIN, "reasonable": 15.0,
    "reasonable_sideways": 15.0 - SIDEWAYS_MARGIN, "suboptimal": 5.0, "mismatch": 0.0, "contradictory": 0.0,
    "miss": 0.0,
}
#: a move closed on the beast when the distance fell by more than the beast alone could close plus this (m)
TOWARD_TOLERANCE_M = 0.3
#: S15: how many following decisions an anticipated crossing may look ahead (0.5 s each)
ANTICIPATION_DECISIONS = 2
#: S14: the dead end where squeezing past the beast is one of the spec's answers
SQUEEZE_PAST = frozenset({"S14"})

_BASE = (
    "The prompt asks: walls and the beast's direction are danger, never move toward a direction marked "
    "danger, choose a safe direction and get away from the beast; it names no preferred side. Per decision "
    f"with a beast nearby: contradictory {MATCH_POINTS['contradictory']:g} (caught, wall collision, moved into "
    "a sector the truth or its own PREDICT marks danger, or closed on the beast: the distance fell by more "
    f"than the beast alone could close plus {TOWARD_TOLERANCE_M:g} m; parse error {MATCH_POINTS['miss']:g}); "
    f"optimal {MATCH_POINTS['optimal']:g} (PREDICT exact and an escape: moved into a safe sector away from the "
    "beast — the opposite sector, or any safe sector where the beast did not gain on it — or held still "
    "without contact when no direction is safe); a safe move to the side that let the beast gain is legitimate "
    f"(the spec's \"move left/right\") and loses {SIDEWAYS_MARGIN:g} ({MATCH_POINTS['sideways']:g}); "
    f"reasonable {MATCH_POINTS['reasonable']:g} (the same with a partially right PREDICT that marks the "
    "beast's direction danger — a PREDICT that misses where the beast is counts as wrong here, "
    f"{MATCH_POINTS['reasonable_sideways']:g} sideways); suboptimal {MATCH_POINTS['suboptimal']:g} (one part "
    "right: an escape with a largely wrong PREDICT, or a partly right PREDICT without an escape); "
    f"{MATCH_POINTS['mismatch']:g} when neither is right. Mean over those decisions; caught caps the scenario "
    f"at {CAUGHT_CAP:g}."
)
RULE_TEXT: dict[str, str] = {
    "S11": _BASE,
    "S12": _BASE + " The side exit and, where the back is open (the official instances), backing off along the "
                   "wall are both escapes: the prompt names no side, and either gets away from the beast.",
    "S13": _BASE + " Mirror of S12: the side exit (left) and, where the back is open, backing off along the "
                   "wall are both escapes.",
    "S14": _BASE + " In the dead end with the beast at the mouth no direction is safe; each of the spec's "
                   "answers counts as an escape when the physics allows it: freezing to assess without contact; "
                   "squeezing past the beast (a move into the beast's sector, against its own PREDICT and past "
                   "it, that ends without collision or catch; a later catch caps the scenario as always); "
                   "climbing only where the world has something climbable — this dead end has none (walls 2 m), "
                   "so a climb is judged by what the body does (standing = freezing, into a wall = collision).",
    "S15": _BASE + " The crossing beast changes which sectors are dangerous decision by decision. A PREDICT may "
                   "anticipate the crossing: danger(beast) in a sector the crossing beast enters within the next "
                   f"{ANTICIPATION_DECISIONS} decisions (the body's heading kept within 45 degrees) counts as right "
                   "where the truth still says safe(open).",
}


def judge(d: DecisionRecord, ground: GroundChange | None = None, spatial: SpatialResult | None = None,
          squeeze: bool = False) -> tuple[str, str]:
    """(branch, why) of one threatened decision; ``ground``: how the distance to the beast changed over it
    (None: not observed); ``spatial``: the PREDICT's grade when the rule reads it its own way (S15), else
    :func:`spatial_accuracy`; ``squeeze``: squeezing past the beast is allowed (S14)."""
    if not parse_ok(d):
        return "miss", "parse error"
    r = realized(d)
    if caught(d):
        return "contradictory", "caught"
    if collided(d):
        return "contradictory", "wall collision"
    squeezed = squeeze and squeezed_past(d)
    if into_danger(d) and not squeezed:
        return "contradictory", into_danger_detail(d)
    if into_predicted_danger(d) and not squeezed:
        return "contradictory", f"moved {r.direction}, which its own PREDICT calls danger"
    if r.moved and ground is not None and ground.toward(TOWARD_TOLERANCE_M) and not squeezed:
        return "contradictory", (f"moved {r.direction} and closed on the beast ({ground.change:+.1f} m, more "
                                 f"than its own {ground.beast_reach:.1f} m)")
    spatial = spatial or spatial_accuracy(d)
    if spatial.level == "partial" and not beast_located(spatial):
        # a partly right PREDICT that does not mark where the beast is reasons about something else: the
        # prompt's first PREDICT rule for a beast ("The direction a beast is in is danger(beast)")
        spatial = replace(spatial, level="miss")
    no_safe_direction = not d.truth.safe_directions
    escaped, how = moved_safe(d), f"moved {r.direction} ({r.speed_class}) into a safe sector"
    sideways = False
    if squeezed:
        escaped, how = True, f"squeezed past the beast ({r.direction}) without contact: no direction is safe"
    elif escaped:
        beast = min((n for n in d.truth.npcs if n.type == "beast" and n.nearby), key=lambda n: n.distance,
                    default=None)
        opposite = beast is not None and r.direction == OPPOSITE.get(beast.direction)
        if not opposite and ground is not None and ground.change < 0:
            sideways, how = True, how + f", to the side: the beast gained {-ground.change:.1f} m"
    elif not r.moved and no_safe_direction:
        escaped, how = True, "held still to assess: no direction is safe"
    elif not r.moved:
        how = f"stood still while {', '.join(d.truth.safe_directions)} was open"
    prediction = f"PREDICT {spatial.level} ({spatial.n_correct}/4)"
    if escaped and spatial.level == "exact":
        return ("sideways" if sideways else "optimal"), f"{prediction}; {how}"
    if escaped and spatial.level == "partial":
        return ("reasonable_sideways" if sideways else "reasonable"), f"{prediction}; {how}"
    if not escaped and spatial.level == "miss":
        return "mismatch", f"{prediction}; {how}: neither the prediction nor the action was right"
    return "suboptimal", f"{prediction}; {how}"


def beast_located(spatial: SpatialResult) -> bool:
    """Every sector the truth gives to a beast is marked danger in the PREDICT (True when none is)."""
    return all(c.verdict == "danger" for c in spatial.checks if c.truth_reason == "beast")


def squeezed_past(d: DecisionRecord) -> bool:
    """S14: no sector is safe and the body moved into the beast's sector without collision or catch."""
    r = realized(d)
    target = d.truth.directions.get(r.direction) if r.moved and r.direction is not None else None
    return (not d.truth.safe_directions and target is not None and target.reason == "beast"
            and not caught(d) and not collided(d))


def anticipated_sectors(trace: Trace, d: DecisionRecord) -> set[str]:
    """S15: the sectors a crossing beast is in during the next ``ANTICIPATION_DECISIONS`` decisions of the
    phase, read where the body's heading stayed within 45 degrees of this decision's (same sector frame)."""
    start = d.body_before.get("heading")
    sectors: set[str] = set()
    for x in trace.decisions:
        if x.phase != d.phase or not d.index < x.index <= d.index + ANTICIPATION_DECISIONS:
            continue
        later = x.body_before.get("heading")
        if start is None or later is None:
            continue
        turn = math.atan2(math.sin(float(later) - float(start)), math.cos(float(later) - float(start)))
        if abs(turn) <= math.pi / 4:
            sectors |= {n.direction for n in x.truth.npcs if n.type == "beast" and n.behavior == "cross"}
    return sectors


def anticipating_accuracy(trace: Trace, d: DecisionRecord) -> SpatialResult:
    """S15's PREDICT grade: :func:`spatial_accuracy`, with danger(beast) in an :func:`anticipated_sectors`
    sector (where the truth still says safe) counted right."""
    base = spatial_accuracy(d)
    if base.level == "exact" or not base.checks:
        return base
    ahead = anticipated_sectors(trace, d)
    checks = tuple(replace(c, truth_safe=False, truth_reason="beast")
                   if c.truth_safe and c.verdict == "danger" and c.reason == "beast" and c.direction in ahead
                   else c for c in base.checks)
    return spatial_from_checks(checks)


@category_scorer("C03")
def score_prediction_decision(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    scored = [d for d in trace.decisions if threatened(d)]
    if not scored:
        return unmeasured(trace, CATEGORY, "no decision had a beast nearby; the C03 rule scores threatened "
                                           "decisions")
    following = dict(zip((d.index for d in trace.decisions), [*trace.decisions[1:], None]))
    points = []
    for d in scored:
        spatial = anticipating_accuracy(trace, d) if trace.scenario_id == "S15" else None
        branch, why = judge(d, ground_change(d, following[d.index]), spatial,
                            squeeze=trace.scenario_id in SQUEEZE_PAST)
        points.append(DecisionPoints(d.index, MATCH_POINTS[branch], f"{branch}: {why}"))
    caps = [(CAUGHT_CAP, "caught by the beast")] if trace_caught(trace) else []
    return make_score(
        trace, CATEGORY, "prediction_decision_match", points, caps=caps,
        summary=f"{len(scored)} of {len(trace.decisions)} decisions had a beast nearby",
        keyword={"predict_levels": [spatial_accuracy(d).level for d in scored]},
        sim={"realized": [realized(d).direction for d in scored], "caught": trace_caught(trace)},
    )


RULES = {sid: score_prediction_decision for sid in RULE_TEXT}
