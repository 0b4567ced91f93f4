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

from wmbench.core.directions import DIRECTION_HEADINGS, SIDES
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scenarios.families import instance_direction
from wmbench.scoring.evidence import spatial_accuracy, threatened
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
    "S14": _BASE + " In the dead end with the beast at the mouth no direction is safe: freezing to assess "
                   "without contact is optimal.",
    "S15": _BASE + " The crossing beast changes which sectors are dangerous decision by decision.",
}


def judge(d: DecisionRecord, required: str | None, reference_heading: float) -> tuple[str, str]:
    """(branch, why) of one threatened decision."""
    if not parse_ok(d):
        return "miss", "parse error"
    r = realized(d)
    if caught(d):
        return "contradictory", "caught"
    if collided(d):
        return "contradictory", "wall collision"
    if into_danger(d):
        return "contradictory", into_danger_detail(d)
    if into_predicted_danger(d):
        return "contradictory", f"moved {r.direction}, which its own PREDICT calls danger"
    spatial = spatial_accuracy(d)
    no_safe_direction = not d.truth.safe_directions
    escaped, how = moved_safe(d), f"moved {r.direction} ({r.speed_class}) into a safe sector"
    if escaped and required is not None:
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
        branch, why = judge(d, None if out else required, heading)
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
