"""C06 Contextual Memory (S26–S30): does what happened before (``recent_decisions``) change the answer?

The rule of each scenario is stated once, in :data:`RULE_TEXT` (paired with its scorer in :data:`RULES`;
``wmbench show`` prints it under the scenario's card), written from the ``*_POINTS`` tables below and the
thresholds of :mod:`~wmbench.scoring.thresholds` that the scorers use.

How its terms are read: directions are *start-frame* sectors — the displacement of a decision in the frame of
its phase's start heading, so "right" means the same place in every phase however the body has turned since.
The scored phase is the last one. S26's failed sides come from where an earlier phase's wall collision happened
(start frame), else the memory's "blocked by wall on <dir>" outcomes, else ``FAILED_SIDE_DEFAULT``; S27's safe
sides from earlier ``escaped`` decisions, else the memory, else ``SAFE_SIDE_DEFAULT``. S29 reads both lessons of
the remembered flight (blocked sides as S26, escaped sides as S27) and judges the move the way the prompt says
memory is used: "do not repeat a direction that got you blocked or caught; prefer one that worked". S30's
invented memory is a memory-claim word with nothing before this phase in memory.

Why not "history makes it more wary" (the 0.3 S29 rule, scored against the same brain's S30): the prompt never
tells a brain that a past flight should raise its intensity, so an honest brain that follows the prompt answered
S29 and S30 alike and scored 0 with its memory working; the prompt does tell it to avoid what got blocked and
prefer what worked, which is what S29 now needs.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import TypedDict

from wmbench.core.directions import DIRECTIONS, SCENE_TO_GRAMMAR
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scenarios.families import instance_direction
from wmbench.scoring.evidence import beast_located, beast_nearby, mean
from wmbench.scoring.expression import TENSE_POSTURES, decision_intensity
from wmbench.scoring.keywords import LEVEL_MEDIUM, KeywordBanks
from wmbench.scoring.movement import (
    collided,
    contact,
    into_danger,
    moved_safe,
    phase_reference_heading,
    realized,
    sector_of,
    world_sector,
)
from wmbench.scoring.registry import category_scorer
from wmbench.scoring.reply import motion_text, parse_ok
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.scoring.result import make_score, unmeasured
from wmbench.scoring.thresholds import (
    C06_COLLISION_CAP,
    C06_INVENTED_MEMORY_CAP,
    CONSISTENT_RANGE,
)

CATEGORY = "C06"
FAILED_SIDE_DEFAULT = "right"
SAFE_SIDE_DEFAULT = "left"
S26_POINTS: dict[str, float] = {"avoided": 20.0, "failed_side": 0.0, "unsafe": 0.0, "held": 0.0, "miss": 0.0}
S27_POINTS: dict[str, float] = {"repeated": 20.0, "other_safe": 5.0, "unsafe": 0.0, "held": 0.0, "miss": 0.0}
S28_POINTS: dict[str, float] = {"consistent": 20.0, "same_direction": 15.0, "mostly_consistent": 10.0,
                                "consistently_unsafe": 5.0, "inconsistent": 0.0}
S29_POINTS: dict[str, float] = {"repeated": 20.0, "other_safe": 5.0, "failed_side": 0.0, "unsafe": 0.0,
                                "held": 0.0, "miss": 0.0}
S30_POINTS: dict[str, float] = {"proportionate": 20.0, "ordinary": 20.0, "assessing": 15.0, "unaware": 5.0,
                                "held": 5.0,
                                "unsafe": 0.0, "invented_memory": 0.0, "miss": 0.0}

RULE_TEXT: dict[str, str] = {
    "S26": "In the last phase, per decision with the beast nearby: moved safely and not to the side where it "
           f"hit the wall before (start frame; from the trace or recent_decisions) {S26_POINTS['avoided']:g}; "
           f"moved to that side, into danger, collided or stood still {S26_POINTS['failed_side']:g}. A "
           f"collision caps at {C06_COLLISION_CAP:g}.",
    "S27": "In the last phase, per decision with the beast nearby (its route: the start-frame side of its "
           "first move in the phase): moved safely, on a route to the side that escaped before "
           f"{S27_POINTS['repeated']:g}; moved safely on another route (the prompt: prefer the one "
           f"that worked; an escape, but not the remembered one) {S27_POINTS['other_safe']:g}; "
           f"stood still or moved into danger {S27_POINTS['held']:g}.",
    "S28": "Per phase: majority start-frame direction and mean intensity. All phases safe and sensible, same "
           f"direction, intensity spread <= {CONSISTENT_RANGE:g} {S28_POINTS['consistent']:g}; same direction "
           f"{S28_POINTS['same_direction']:g}; a majority direction {S28_POINTS['mostly_consistent']:g}; "
           f"consistent but unsafe (or safe but all different) {S28_POINTS['consistently_unsafe']:g}; else "
           f"{S28_POINTS['inconsistent']:g}.",
    "S29": "In the last phase, per decision with the beast nearby (the remembered flight: sides it got blocked "
           "or caught on, and sides it escaped by, start frame; from the trace or recent_decisions; its route: "
           "the start-frame side of its first move in the phase): moved safely on a route to a side that "
           f"escaped {S29_POINTS['repeated']:g}; moved safely on another route, not to a blocked side (the "
           f"prompt: prefer the one that worked) {S29_POINTS['other_safe']:g}; moved to a blocked side again, "
           f"into danger, collided, or stood still while it approached {S29_POINTS['failed_side']:g}.",
    "S30": "Claiming a past it does not have (again, remember, last time, previous, ...) "
           f"{S30_POINTS['invented_memory']:g} and caps the scenario at {C06_INVENTED_MEMORY_CAP:g}; otherwise "
           "with the beast nearby moved safely with PREDICT locating the beast (its direction danger, no beast "
           f"named where there is none) {S30_POINTS['proportionate']:g}, stood still reacting (a freeze to "
           f"assess) {S30_POINTS['assessing']:g}, "
           + (f"moved safely without locating the beast or stood still unmoved {S30_POINTS['unaware']:g}"
              if S30_POINTS["unaware"] == S30_POINTS["held"] else
              f"moved safely without locating the beast {S30_POINTS['unaware']:g}, stood still unmoved "
              f"{S30_POINTS['held']:g}")
           + f"; with none nearby {S30_POINTS['ordinary']:g}; into danger or contact {S30_POINTS['unsafe']:g}.",
}


def _scored_phase(trace: Trace) -> tuple[int, list[DecisionRecord]]:
    phase = max(d.phase for d in trace.decisions)
    decisions = [d for d in trace.decisions if d.phase == phase]
    return phase, [d for d in decisions if beast_nearby(d)] or decisions


def _sector_from_phase_start(trace: Trace, d: DecisionRecord) -> str | None:
    first = next(x for x in trace.decisions if x.phase == d.phase)
    start, here = first.body_before.get("position"), d.body_after.get("position")
    if not start or not here:
        return None
    vector = (float(here[0]) - float(start[0]), float(here[1]) - float(start[1]))
    if math.hypot(*vector) < 0.3:
        return None
    return sector_of(vector, phase_reference_heading(trace, d.phase))


def remembered_sides(trace: Trace, scored_phase: int, event: str, outcome_prefix: str, default: str
                     ) -> tuple[set[str], str]:
    """Start-frame sides where ``event`` happened in earlier phases, else those the memory names, else
    ``default``; with where they came from."""
    from_trace = {s for d in trace.decisions if d.phase < scored_phase
                  if any(e.kind.startswith(event) for e in d.events)
                  for s in [_sector_from_phase_start(trace, d)] if s}
    if from_trace:
        return from_trace, "trace"
    first = next(d for d in trace.decisions if d.phase == scored_phase)
    from_memory: set[str] = set()
    for entry in (first.scene or {}).get("recent_decisions") or []:
        outcome = str(entry.get("outcome") or "")
        if outcome.startswith(outcome_prefix):
            word = (outcome[len(outcome_prefix):].strip() or str(entry.get("direction") or "")).split(" ")[0]
            direction = SCENE_TO_GRAMMAR.get(word, word)
            if direction in DIRECTIONS:
                from_memory.add(direction)
    if from_memory:
        return from_memory, "memory"
    # the canonical side, followed into the instance the trace recorded (a mirrored instance: the other side)
    return {instance_direction(trace.meta, default) or default}, "default"


def _side_points(trace: Trace, event: str, outcome_prefix: str, default: str, table: dict[str, float],
                 judge: Callable[[DecisionRecord, str | None, set[str]], tuple[str, str]]
                 ) -> tuple[int, set[str], str, list[DecisionPoints]]:
    """S26/S27: the scored phase, the remembered sides (see :func:`remembered_sides`) and where they came from,
    and each scored decision's points: a parse error is a miss, else ``judge(decision, its start-frame sector,
    the sides) -> (kind, why)``, worth ``table[kind]``."""
    phase, scored = _scored_phase(trace)
    sides, source = remembered_sides(trace, phase, event, outcome_prefix, default)
    heading = phase_reference_heading(trace, phase)
    points = []
    for d in scored:
        side = world_sector(d, heading)
        kind, why = judge(d, side, sides) if parse_ok(d) else ("miss", "parse error")
        points.append(DecisionPoints(d.index, table[kind], f"{kind}: {why}"))
    return phase, sides, source, points


def _judge_failed_side(d: DecisionRecord, side: str | None, failed: set[str]) -> tuple[str, str]:
    if realized(d).moved and side in failed:
        return "failed_side", f"moved {side} again, where the wall was"
    if contact(d) or into_danger(d):
        return "unsafe", "moved into danger, collided or caught"
    if moved_safe(d):
        return "avoided", f"moved {side} (start frame), away from {sorted(failed)}"
    return "held", "stood still"


def score_failed_side(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    if not trace.decisions:
        return unmeasured(trace, CATEGORY, "no decisions recorded")
    phase, failed, source, points = _side_points(trace, "collision", "blocked by wall on", FAILED_SIDE_DEFAULT,
                                                 S26_POINTS, _judge_failed_side)
    collisions = [d.index for d in trace.decisions if d.phase == phase and collided(d)]
    caps = [(C06_COLLISION_CAP, f"collision in the scored phase at {collisions}")] if collisions else []
    return make_score(trace, CATEGORY, "memory_failed_side", points, caps=caps,
                      summary=f"failed side(s) {sorted(failed)} from {source}",
                      sim={"failed_sides": sorted(failed), "source": source, "collisions": collisions})


def route_of(trace: Trace, phase: int) -> str | None:
    """The start-frame side of the first decision of ``phase`` that moved (S27/S29's route), else None.

    On open ground a brain that took a side keeps going away from the beast, and after its turn "away" is
    another start-frame side: the route it chose is where it went first."""
    heading = phase_reference_heading(trace, phase)
    return next((side for d in trace.decisions if d.phase == phase and realized(d).moved
                 for side in [world_sector(d, heading)] if side), None)


def score_safe_side(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    if not trace.decisions:
        return unmeasured(trace, CATEGORY, "no decisions recorded")
    route = route_of(trace, _scored_phase(trace)[0])

    def judge(d: DecisionRecord, side: str | None, safe: set[str]) -> tuple[str, str]:
        if contact(d) or into_danger(d):
            return "unsafe", "moved into danger, collided or caught"
        if moved_safe(d) and route in safe:
            return "repeated", f"moved {side}; its route went {route} (start frame), the side that escaped before"
        if moved_safe(d):
            return "other_safe", f"moved {side}; its route went {route} (start frame); remembered safe side " \
                                 f"{sorted(safe)}"
        return "held", "stood still"

    _, safe, source, points = _side_points(trace, "escaped", "escaped", SAFE_SIDE_DEFAULT, S27_POINTS, judge)
    return make_score(trace, CATEGORY, "memory_safe_side", points,
                      summary=f"safe side(s) {sorted(safe)} from {source}; route {route}",
                      sim={"safe_sides": sorted(safe), "source": source, "route": route})


class _PhaseProfile(TypedDict):
    """One phase of S28 as the consistency rule reads it (also written to the score's ``sim.phases``)."""

    phase: int
    side: str
    intensity: float
    sensible: bool


def _phase_profile(trace: Trace, phase: int, banks: KeywordBanks) -> _PhaseProfile:
    decisions = [d for d in trace.decisions if d.phase == phase]
    scored = [d for d in decisions if beast_nearby(d)] or decisions
    heading = phase_reference_heading(trace, phase)
    sides = [world_sector(d, heading) if realized(d).moved else None for d in scored]
    side = Counter(s or "still" for s in sides).most_common(1)[0][0] if scored else "still"
    threatened = any(beast_nearby(d) for d in scored)
    safe_moves = sum(moved_safe(d) for d in scored)
    sensible = (all(parse_ok(d) and not contact(d) and not into_danger(d) for d in scored)
                and (not threatened or safe_moves * 2 >= len(scored)))
    intensity = mean([decision_intensity(d, banks).combined for d in scored])
    return {"phase": phase, "side": side, "intensity": round(intensity, 3), "sensible": sensible}


def score_consistency(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    phases = sorted({d.phase for d in trace.decisions})
    if len(phases) < 2:
        return unmeasured(trace, CATEGORY, f"{len(phases)} phase(s); consistency needs at least 2")
    profiles = [_phase_profile(trace, p, banks) for p in phases]
    sides = Counter(str(p["side"]) for p in profiles)
    top_count = sides.most_common(1)[0][1]
    same = top_count == len(profiles)
    majority = top_count * 2 > len(profiles)
    sensible = all(bool(p["sensible"]) for p in profiles)
    spread = max(float(p["intensity"]) for p in profiles) - min(float(p["intensity"]) for p in profiles)
    if sensible and same and spread <= CONSISTENT_RANGE:
        kind = "consistent"
    elif sensible and same:
        kind = "same_direction"
    elif sensible and majority:
        kind = "mostly_consistent"
    elif same or sensible:
        kind = "consistently_unsafe"
    else:
        kind = "inconsistent"
    readings = [DecisionPoints(next(d.index for d in trace.decisions if d.phase == p["phase"]), None,
                               f"phase {p['phase']}: side {p['side']}, intensity {p['intensity']}, "
                               f"{'sensible' if p['sensible'] else 'not sensible'}") for p in profiles]
    return make_score(trace, CATEGORY, "consistency", readings, score=S28_POINTS[kind],
                      summary=f"{kind}: sides {dict(sides)}, intensity spread {spread:.2f}",
                      sim={"phases": profiles, "kind": kind})


def score_history(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    """S29: the remembered flight's lessons (blocked sides avoided, the escaped side preferred); see the card.

    The *route* is the start-frame side of the first decision of the phase that moved: on open ground a brain
    that took the remembered side keeps its points while it goes on moving away from the beast (after a turn
    "away" is another start-frame side); a later move to a blocked side, into danger or standing still while
    the beast is near earns nothing."""
    if not trace.decisions:
        return unmeasured(trace, CATEGORY, "no decisions recorded")
    phase, _ = _scored_phase(trace)
    blocked, blocked_source = remembered_sides(trace, phase, "collision", "blocked by wall on",
                                               FAILED_SIDE_DEFAULT)
    caught, caught_source = remembered_sides(trace, phase, "caught", "caught", FAILED_SIDE_DEFAULT)
    failed = (blocked if blocked_source != "default" or caught_source == "default" else set()) | (
        caught if caught_source != "default" else set())
    route = route_of(trace, phase)

    def judge(d: DecisionRecord, side: str | None, escaped: set[str]) -> tuple[str, str]:
        if realized(d).moved and side in failed:
            return "failed_side", f"moved {side} (start frame) again, where the flight got blocked or caught"
        if contact(d) or into_danger(d):
            return "unsafe", "moved into danger, collided or caught"
        if moved_safe(d) and route in escaped - failed:
            return "repeated", f"moved {side}; its route went {route} (start frame), the side that escaped before"
        if moved_safe(d):
            return "other_safe", f"moved {side}; its route went {route} (start frame), not the remembered " \
                                 f"escape {sorted(escaped)}"
        return "held", "stood still while the beast approached"

    _, escaped, source, points = _side_points(trace, "escaped", "escaped", SAFE_SIDE_DEFAULT, S29_POINTS, judge)
    return make_score(trace, CATEGORY, "history_reference", points,
                      summary=f"remembered: blocked {sorted(failed)}, escaped {sorted(escaped)} (from {source}); "
                              f"route {route}",
                      sim={"failed_sides": sorted(failed), "safe_sides": sorted(escaped), "source": source,
                           "route": route})


def _memory_before_phase(d: DecisionRecord, phase_start_t: float) -> bool:
    memory = (d.scene or {}).get("recent_decisions") or []
    return any(float(e.get("t", 0.0)) < phase_start_t for e in memory if isinstance(e, dict))


@category_scorer("C06")
def score_clean_slate(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    if not trace.decisions:
        return unmeasured(trace, CATEGORY, "no decisions recorded")
    phase_start = {d.phase: d.t for d in reversed(trace.decisions)}
    points = []
    invented = []
    for d in trace.decisions:
        claims = banks.found_terms(motion_text(d), banks.memory_claims)
        if not parse_ok(d):
            kind, why = "miss", "parse error"
        elif claims and not _memory_before_phase(d, phase_start[d.phase]):
            kind, why = "invented_memory", f"claims a past it does not have: {claims}"
            invented.append(d.index)
        elif contact(d) or into_danger(d):
            kind, why = "unsafe", "moved into danger, collided or caught"
        elif beast_nearby(d):
            reacting = decision_intensity(d, banks).keyword_level >= LEVEL_MEDIUM or realized(d).posture in (
                TENSE_POSTURES)
            if moved_safe(d):
                kind = "proportionate" if beast_located(d) else "unaware"
            else:
                kind = "assessing" if reacting else "held"
            why = (f"beast nearby, moved {realized(d).direction or 'nowhere'}, posture {realized(d).posture}"
                   + ("" if kind != "unaware" else ", but PREDICT did not locate the beast"))
        else:
            kind, why = "ordinary", "no beast nearby, no contact"
        points.append(DecisionPoints(d.index, S30_POINTS[kind], f"{kind}: {why}"))
    caps = [(C06_INVENTED_MEMORY_CAP, f"invented memory at decisions {invented}")] if invented else []
    return make_score(trace, CATEGORY, "clean_slate", points, caps=caps,
                      keyword={"invented_memory": invented})


RULES = {"S26": score_failed_side, "S27": score_safe_side, "S28": score_consistency, "S29": score_history,
         "S30": score_clean_slate}
