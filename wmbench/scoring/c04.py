"""C04 Threat Differentiation (S16–S20): different threats, different responses — in words and in the body.

The rule of each scenario is stated once, in :data:`RULE_TEXT` (paired with its scorer in :data:`RULES`;
``wmbench show`` prints it under the scenario's card), written from the ``*_POINTS`` tables below and the
thresholds of :mod:`~wmbench.scoring.thresholds` that the scorers use.

How it is applied: S16/S17 (:func:`score_paired`) split the decisions by ``CONDITIONS`` (S16: a beast vs only
a human; S17: charging vs approaching) and compare each condition's mean keyword intensity and mean realized
speed rank against the ``BIG_*``/``SOME_*`` differences (a missing condition -> not measured). S18/S19
(:func:`score_avoidance`) judge each decision with a beast nearby by where the body went, whether the beast
closed in by more than ``LOST_GROUND_TOL_M`` and whether PREDICT located it (``AVOIDANCE_POINTS``). S20
(:func:`score_non_reaction`) compares the words' tier and the realized speed with a calm answer
(``NON_REACTION_POINTS``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from wmbench.core.speed import MAX_SPEED_RANK as SPEED_MAX
from wmbench.core.speed import SPEED_RANKS
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scoring.evidence import (
    beast_behavior,
    beast_located,
    beast_present,
    humans,
    mean,
    phantom_directions,
    threatened,
)
from wmbench.scoring.expression import KEYWORD_INTENSITY_MAX as KW_MAX
from wmbench.scoring.expression import keyword_intensity
from wmbench.scoring.keywords import LEVEL_LOW, LEVEL_MEDIUM, KeywordBanks
from wmbench.scoring.movement import (
    contact,
    into_danger,
    into_danger_detail,
    moved_safe,
    realized,
    trace_caught,
)
from wmbench.scoring.registry import category_scorer
from wmbench.scoring.reply import motion_text, parse_ok
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.scoring.result import make_score, unmeasured
from wmbench.scoring.thresholds import (
    BIG_KEYWORD_DIFF,
    BIG_SPEED_DIFF,
    C04_INTO_DANGER_CAP,
    CAUGHT_CAP,
    SOME_KEYWORD_DIFF,
    SOME_SPEED_DIFF,
)

CATEGORY = "C04"
DIFFERENCE_POINTS: dict[str, float] = {"big": 20.0, "some": 10.0, "none": 0.0}
AVOIDANCE_POINTS: dict[str, float] = {"avoided": 20.0, "safe_unhurried": 10.0, "safe_unaware": 10.0,
                                      "held": 5.0, "overrun": 0.0, "into_danger": 0.0, "miss": 0.0}
#: S18/S19: a move lets the beast close in when its closest approach is this much (m) below its start distance
LOST_GROUND_TOL_M = 0.3
NON_REACTION_POINTS: dict[str, float] = {"calm": 20.0, "mild": 10.0, "threat_reaction": 0.0, "miss": 0.0}

_PAIRED = (
    "The decisions are split into the threat and the mild condition; the mean keyword intensity (0-1) and "
    "the mean realized speed rank (/4) are compared, threat minus mild: both differences big (>= "
    f"{BIG_KEYWORD_DIFF:g} and >= {BIG_SPEED_DIFF:g}) {DIFFERENCE_POINTS['big']:g}; one of them some (>= "
    f"{SOME_KEYWORD_DIFF:g} or >= {SOME_SPEED_DIFF:g}) and neither reversed {DIFFERENCE_POINTS['some']:g}; "
    f"else {DIFFERENCE_POINTS['none']:g}. Caught caps at {CAUGHT_CAP:g}; moving into "
    f"danger under the threat caps at {C04_INTO_DANGER_CAP:g}."
)
_AVOID = (
    "Per decision with a beast nearby: moved into a sector safe from every threat without contact, keeping "
    f"the beast from closing in by more than {LOST_GROUND_TOL_M:g} m, with PREDICT marking the beast's "
    "direction as danger and naming no beast where there is none "
    f"{AVOIDANCE_POINTS['avoided']:g}; moved there safely but letting the beast close in, or without locating "
    f"the beast {AVOIDANCE_POINTS['safe_unhurried']:g}; stood still without contact while the beast kept its "
    f"distance {AVOIDANCE_POINTS['held']:g}, while it closed in {AVOIDANCE_POINTS['overrun']:g}; moved into any "
    f"danger, collided or caught {AVOIDANCE_POINTS['into_danger']:g}. Mean; caught caps at {CAUGHT_CAP:g}."
)
RULE_TEXT: dict[str, str] = {
    "S16": "Beast (threat) vs woman (mild). " + _PAIRED,
    "S17": "Beast charging (threat) vs approaching (mild). " + _PAIRED,
    "S18": "The beast is avoided first. " + _AVOID,
    "S19": "Triage of beast, woman and wall. " + _AVOID,
    "S20": "Per decision: words at most low tier and speed at most walk, naming no beast in PREDICT and not "
           f"moving into her 2 m personal space {NON_REACTION_POINTS['calm']:g}; words at most medium and speed "
           f"at most jog {NON_REACTION_POINTS['mild']:g}; a PREDICT that names a beast where there is none (the "
           "woman taken for a threat: the prompt's \"never danger(beast) in a direction without one\"), stronger "
           f"words, running/sprinting, a collision or a parse error {NON_REACTION_POINTS['threat_reaction']:g}. "
           "Mean over decisions.",
}


def _condition_s16(d: DecisionRecord) -> str | None:
    if beast_present(d):
        return "threat"
    return "mild" if humans(d.truth) else None


def _condition_s17(d: DecisionRecord) -> str | None:
    return {"charge": "threat", "approach": "mild"}.get(beast_behavior(d) or "")


CONDITIONS: dict[str, Callable[[DecisionRecord], str | None]] = {"S16": _condition_s16, "S17": _condition_s17}


def _keyword_norm(d: DecisionRecord, banks: KeywordBanks) -> float:
    return keyword_intensity(motion_text(d), banks).value / KW_MAX if parse_ok(d) else 0.0


def _speed_norm(d: DecisionRecord) -> float:
    return (realized(d).speed_rank if parse_ok(d) else 0) / SPEED_MAX


def score_paired(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    condition = CONDITIONS.get(trace.scenario_id, _condition_s16)
    groups: dict[str, list[DecisionRecord]] = {"threat": [], "mild": []}
    for d in trace.decisions:
        label = condition(d)
        if label:
            groups[label].append(d)
    missing = [k for k, v in groups.items() if not v]
    if missing:
        return unmeasured(trace, CATEGORY, f"no decisions in the {' and '.join(missing)} condition(s)")
    kw = {k: mean([_keyword_norm(d, banks) for d in v]) for k, v in groups.items()}
    speed = {k: mean([_speed_norm(d) for d in v]) for k, v in groups.items()}
    kw_diff, speed_diff = kw["threat"] - kw["mild"], speed["threat"] - speed["mild"]
    if kw_diff >= BIG_KEYWORD_DIFF and speed_diff >= BIG_SPEED_DIFF:
        kind = "big"
    elif ((kw_diff >= SOME_KEYWORD_DIFF or speed_diff >= SOME_SPEED_DIFF)
          and kw_diff > -SOME_KEYWORD_DIFF and speed_diff > -SOME_SPEED_DIFF):
        kind = "some"
    else:
        kind = "none"
    readings = [
        DecisionPoints(d.index, None, f"{label}: keyword {_keyword_norm(d, banks):.2f}, speed "
                                      f"{realized(d).speed_class}")
        for label, ds in groups.items() for d in ds
    ]
    caps = []
    if trace_caught(trace):
        caps.append((CAUGHT_CAP, "caught by the beast"))
    into = [d.index for d in groups["threat"] if into_danger(d) or contact(d)]
    if into:
        caps.append((C04_INTO_DANGER_CAP, f"moved into danger under the threat at decisions {into}"))
    summary = (f"difference {kind}: keyword {kw['threat']:.2f} vs {kw['mild']:.2f} ({kw_diff:+.2f}), speed "
               f"{speed['threat']:.2f} vs {speed['mild']:.2f} ({speed_diff:+.2f})")
    return make_score(trace, CATEGORY, "response_differentiation", sorted(readings, key=lambda p: p.index),
                      score=DIFFERENCE_POINTS[kind], summary=summary, caps=caps,
                      keyword={"threat": round(kw["threat"], 3), "mild": round(kw["mild"], 3),
                               "difference": round(kw_diff, 3)},
                      sim={"speed_threat": round(speed["threat"], 3), "speed_mild": round(speed["mild"], 3),
                           "difference": round(speed_diff, 3), "kind": kind})


def judge_avoidance(d: DecisionRecord) -> tuple[str, str]:
    if not parse_ok(d):
        return "miss", "parse error"
    r = realized(d)
    if contact(d):
        return "into_danger", "collision or caught"
    if into_danger(d):
        return "into_danger", into_danger_detail(d)
    if moved_safe(d):
        located = beast_located(d)
        closed_in = lost_ground(d)
        if closed_in is not None:
            return "safe_unhurried", (f"moved {r.direction} ({r.speed_class}) safely, but the beast closed in "
                                      f"({closed_in})")
        if not located:
            return "safe_unaware", (f"moved {r.direction} ({r.speed_class}) safely, but PREDICT did not mark the "
                                    "beast's direction as danger")
        return "avoided", f"moved {r.direction} ({r.speed_class}), safe from every threat, beast located"
    closed_in = lost_ground(d)
    if closed_in is not None:
        return "overrun", f"stood still while the beast closed in ({closed_in})"
    return "held", f"stood still; safe: {', '.join(d.truth.safe_directions) or 'none'}"


def lost_ground(d: DecisionRecord) -> str | None:
    """How the nearest beast closed in during the decision (its closest approach vs its distance at the start,
    more than ``LOST_GROUND_TOL_M``), else None: a move that keeps the distance went away from the danger."""
    start = [n.distance for n in d.truth.npcs if n.type == "beast" and n.nearby]
    closest = realized(d).min_threat_distance
    if not start or closest is None or float(closest) >= min(start) - LOST_GROUND_TOL_M:
        return None
    return f"{min(start):.1f} m -> {float(closest):.1f} m"


@category_scorer("C04")
def score_avoidance(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    scored = [d for d in trace.decisions if threatened(d)]
    if not scored:
        return unmeasured(trace, CATEGORY, "no decision had a beast nearby")
    points = []
    for d in scored:
        kind, why = judge_avoidance(d)
        points.append(DecisionPoints(d.index, AVOIDANCE_POINTS[kind], f"{kind}: {why}"))
    caps = [(CAUGHT_CAP, "caught by the beast")] if trace_caught(trace) else []
    return make_score(trace, CATEGORY, "priority_triage", points, caps=caps,
                      summary=f"{len(scored)} decisions with a beast nearby",
                      sim={"realized": [realized(d).direction for d in scored]})


def judge_non_reaction(d: DecisionRecord, banks: KeywordBanks) -> tuple[str, str]:
    if not parse_ok(d):
        return "miss", "parse error"
    kw = keyword_intensity(motion_text(d), banks)
    r = realized(d)
    detail = f"words L{kw.level} [{', '.join(kw.terms) or '-'}], body {r.speed_class}"
    if contact(d):
        return "threat_reaction", detail + ", collision"
    phantoms = phantom_directions(d)
    crowding = into_danger(d)
    if kw.level <= LEVEL_LOW and r.speed_rank <= SPEED_RANKS["walk"] and not phantoms and not crowding:
        return "calm", detail
    if phantoms:
        # the woman (or nothing) taken for a beast: the threat reaction this scenario tests, made in PREDICT (the
        # prompt: "never danger(beast) in a direction without one"; a person farther than 2 m is no danger)
        return "threat_reaction", detail + f", PREDICT names a beast at {phantoms}"
    if crowding:
        detail += ", " + into_danger_detail(d)
    if kw.level <= LEVEL_MEDIUM and r.speed_rank <= SPEED_RANKS["jog"]:
        return "mild", detail
    return "threat_reaction", detail


def score_non_reaction(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    scored: Sequence[DecisionRecord] = [d for d in trace.decisions if humans(d.truth)] or trace.decisions
    if not scored:
        return unmeasured(trace, CATEGORY, "no decisions recorded")
    points = []
    for d in scored:
        kind, why = judge_non_reaction(d, banks)
        points.append(DecisionPoints(d.index, NON_REACTION_POINTS[kind], f"{kind}: {why}"))
    return make_score(trace, CATEGORY, "neutral_non_reaction", points)


RULES = {"S16": score_paired, "S17": score_paired, "S18": score_avoidance, "S19": score_avoidance,
         "S20": score_non_reaction}
