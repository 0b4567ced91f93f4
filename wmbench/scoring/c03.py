"""C03 Predictive Reasoning (S11–S15): does the prediction match the decision, and the decision the world?

The rule of each scenario is stated once, in :data:`RULE_TEXT` (paired with its scorer in :data:`RULES`;
``wmbench show`` prints it under the scenario's card), written from the ``*_POINTS`` tables below and the
thresholds of :mod:`~wmbench.scoring.thresholds` that the scorers use.

How it is applied: :func:`judge` takes each threatened decision (a beast nearby) through the branches of
``MATCH_POINTS`` in order, first match wins (contradictory, then optimal, reasonable, suboptimal, mismatch);
"escaped" is a move into a truly safe sector, or holding still when no direction is safe (S14's dead end).
S12/S13 require the start-frame side of ``REQUIRED_ESCAPE`` (followed into a mirrored instance) until the
protagonist is ``CORRIDOR_EXIT_M`` out of the corridor (:func:`left_corridor`). No threatened decision at all
-> not measured.
"""

from __future__ import annotations

import math
from dataclasses import replace

from wmbench.core.directions import DIRECTION_HEADINGS, SIDES
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scenarios.families import instance_direction
from wmbench.scoring.evidence import SpatialResult, spatial_accuracy, spatial_from_checks, threatened
from wmbench.scoring.keywords import KeywordBanks
from wmbench.scoring.movement import (
    caught,
    collided,
    into_danger,
    into_danger_detail,
    into_predicted_danger,
    moved_safe,
    phase_reference_heading,
    realized,
    trace_caught,
    world_sector,
)
from wmbench.scoring.reply import parse_ok
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.scoring.result import make_score, unmeasured
from wmbench.scoring.thresholds import CAUGHT_CAP

CATEGORY = "C03"
MATCH_POINTS: dict[str, float] = {
    "optimal": 20.0, "reasonable": 15.0, "suboptimal": 5.0, "mismatch": 0.0, "contradictory": 0.0, "miss": 0.0,
}
#: the start-frame side the escape must take (the way out of the corridor) in the canonical instance (seed 0)
REQUIRED_ESCAPE: dict[str, str] = {"S12": "right", "S13": "left"}
#: S12/S13: this far (m) out towards the open side, the protagonist has left the corridor
CORRIDOR_EXIT_M = 1.5
#: S15: how many following decisions an anticipated crossing may look ahead (0.5 s each)
ANTICIPATION_DECISIONS = 2
#: S14: the dead end where squeezing past the beast is one of the spec's answers
SQUEEZE_PAST = frozenset({"S14"})

_BASE = (
    f"Per decision with a beast nearby: contradictory {MATCH_POINTS['contradictory']:g} (caught, wall "
    "collision, or moved into a sector the truth or its own PREDICT marks danger; parse error "
    f"{MATCH_POINTS['miss']:g}); optimal {MATCH_POINTS['optimal']:g} (PREDICT exact and moved into a safe "
    "sector, or held still without contact when no direction is safe); reasonable "
    f"{MATCH_POINTS['reasonable']:g} (the same with a partially right PREDICT); suboptimal "
    f"{MATCH_POINTS['suboptimal']:g} (one part right: an escape with a largely wrong PREDICT, or a partly "
    f"right PREDICT without an escape); {MATCH_POINTS['mismatch']:g} when neither is right. Mean over those "
    "decisions; caught "
    f"caps the scenario at {CAUGHT_CAP:g}."
)
RULE_TEXT: dict[str, str] = {
    "S11": _BASE,
    "S12": _BASE + " While in the corridor the escape must go right in the start frame (the way out: backing "
                   "off along the wall stays in the corridor, an open back included); once "
                   f"{CORRIDOR_EXIT_M:g} m out to the right, any safe escape counts.",
    "S13": _BASE + " While in the corridor the escape must go left in the start frame (mirror of S12; backing "
                   "off along the wall stays in the corridor, an open back included); once "
                   f"{CORRIDOR_EXIT_M:g} m out to the left, any safe escape counts.",
    "S14": _BASE + " In the dead end with the beast at the mouth no direction is safe; each of the spec's "
                   "answers counts as an escape when the physics allows it: freezing to assess without contact; "
                   "squeezing past the beast (a move into the beast's sector, against its own PREDICT, that "
                   "ends without collision or catch; a later catch caps the scenario as always); climbing only "
                   "where the world has something climbable — this dead end has none (walls 2 m), so a climb is "
                   "judged by what the body does (standing = freezing, into a wall = collision).",
    "S15": _BASE + " The crossing beast changes which sectors are dangerous decision by decision. A PREDICT may "
                   "anticipate the crossing: danger(beast) in a sector the crossing beast enters within the next "
                   f"{ANTICIPATION_DECISIONS} decisions (the body's heading kept within 45 degrees) counts as right "
                   "where the truth still says safe(open).",
}


def judge(d: DecisionRecord, required: str | None, reference_heading: float,
          spatial: SpatialResult | None = None, squeeze: bool = False) -> tuple[str, str]:
    """(branch, why) of one threatened decision. ``spatial``: the PREDICT's grade when the rule reads it its
    own way (S15), else :func:`spatial_accuracy`; ``squeeze``: squeezing past the beast is allowed (S14)."""
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
    spatial = spatial or spatial_accuracy(d)
    no_safe_direction = not d.truth.safe_directions
    escaped, how = moved_safe(d), f"moved {r.direction} ({r.speed_class}) into a safe sector"
    if squeezed:
        escaped, how = True, f"squeezed past the beast ({r.direction}) without contact: no direction is safe"
    elif escaped and required is not None:
        side = world_sector(d, reference_heading)
        if side != required:
            escaped, how = False, f"moved {side or 'nowhere'} in the start frame; the open side is {required}"
    elif not r.moved and no_safe_direction:
        escaped, how = True, "held still to assess: no direction is safe"
    elif not r.moved:
        how = f"stood still while {', '.join(d.truth.safe_directions)} was open"
    prediction = f"PREDICT {spatial.level} ({spatial.n_correct}/4)"
    if escaped and spatial.level == "exact":
        return "optimal", f"{prediction}; {how}"
    if escaped and spatial.level == "partial":
        return "reasonable", f"{prediction}; {how}"
    if not escaped and spatial.level == "miss":
        return "mismatch", f"{prediction}; {how}: neither the prediction nor the action was right"
    return "suboptimal", f"{prediction}; {how}"


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


def left_corridor(trace: Trace, d: DecisionRecord, side: str, reference_heading: float) -> bool:
    """At the start of ``d`` the protagonist is at least ``CORRIDOR_EXIT_M`` out of the corridor towards its
    open ``side`` (start frame, from the phase's first position): from there on the escape is judged by
    where it goes safely, not by the side it left by."""
    first = next(x for x in trace.decisions if x.phase == d.phase)
    start, here = first.body_before.get("position"), d.body_before.get("position")
    if not start or not here:
        return False
    angle = reference_heading + (DIRECTION_HEADINGS[side] if side in SIDES else 0.0)
    along = ((float(here[0]) - float(start[0])) * math.cos(angle)
             + (float(here[1]) - float(start[1])) * math.sin(angle))
    return along >= CORRIDOR_EXIT_M


def score_prediction_decision(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    scored = [d for d in trace.decisions if threatened(d)]
    if not scored:
        return unmeasured(trace, CATEGORY, "no decision had a beast nearby; the C03 rule scores threatened "
                                           "decisions")
    # the canonical layout's open side, followed into the instance the trace recorded (mirrored: the other)
    required = instance_direction(trace.meta, REQUIRED_ESCAPE.get(trace.scenario_id))
    points = []
    for d in scored:
        heading = phase_reference_heading(trace, d.phase)
        out = required is not None and left_corridor(trace, d, required, heading)
        spatial = anticipating_accuracy(trace, d) if trace.scenario_id == "S15" else None
        branch, why = judge(d, None if out else required, heading, spatial,
                            squeeze=trace.scenario_id in SQUEEZE_PAST)
        why += "; out of the corridor: any safe escape counts" if out else ""
        points.append(DecisionPoints(d.index, MATCH_POINTS[branch], f"{branch}: {why}"))
    caps = [(CAUGHT_CAP, "caught by the beast")] if trace_caught(trace) else []
    return make_score(
        trace, CATEGORY, "prediction_decision_match", points, caps=caps,
        summary=f"{len(scored)} of {len(trace.decisions)} decisions had a beast nearby",
        keyword={"predict_levels": [spatial_accuracy(d).level for d in scored]},
        sim={"realized": [realized(d).direction for d in scored], "required_side": required,
             "caught": trace_caught(trace)},
    )


RULES = {sid: score_prediction_decision for sid in RULE_TEXT}
GENERIC_RULE = score_prediction_decision
