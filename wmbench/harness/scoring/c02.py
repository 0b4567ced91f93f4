"""C02 Entity Recognition (S06–S10): classification of the NPC in PREDICT against the primary NPC truth.

Rule, per decision with an NPC nearby (the truth's primary NPC — the most threatening one in range):
- **all_correct 20** = the PREDICT item at the NPC's true direction names its type (``beast``; ``human`` for a
  woman/man) AND its behaviour (``charging``, ``approaching``, ``stopped``, …: in that item's text, else in
  MOTION within ``BEHAVIOR_WINDOW`` words of a word for the NPC; exactly the true behaviour, no other) AND its
  distance (``5m``/``4.8 m`` in the item, else in MOTION) within 1 m or 20 %;
- **type_correct 15** = the type at the right direction (a neutral human nearby that PREDICT calls a beast
  also lowers all-correct to this: S07's woman ahead is neutral, the beast at the side is the threat);
- **partial 10** = ``danger`` at the right direction without naming a type (``danger`` or
  ``danger(unknown)``), or the behaviour or the distance right; naming another type there, or the type at a
  wrong direction, is wrong;
- **wrong 0** otherwise, and for a parse error.

Per decision with no NPC nearby (beyond 8 m, or despawned): **clear 20** when no direction is predicted
``danger(beast)``, **phantom 0** otherwise; clear decisions earn only if the brain identified the type (type
correct or better) in at least one nearby decision of the episode when it had any (**clear_ungated 0**): a
brain that never sees the beast gets no credit for "seeing" it gone.

Scenario = mean over decisions; for S09 (the 8 m boundary) and S10 (despawn) the nearby and the clear
decisions are averaged separately and the two means weighted equally, so both sides count.
"""

from __future__ import annotations

from wmbench.envs.trace import DecisionRecord, NpcFact, Trace
from wmbench.harness.scoring.evidence import (
    PredictItem,
    canonical_type,
    distances_in,
    humans,
    mean,
    motion_text,
    parse_ok,
    predicted_reason_anywhere,
    prediction,
)
from wmbench.harness.scoring.keywords import KeywordBanks, tokenize
from wmbench.harness.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.harness.scoring.result import make_score, unmeasured
from wmbench.harness.scoring.thresholds import DISTANCE_TOL_FRACTION, DISTANCE_TOL_M

CATEGORY = "C02"
CLASSIFICATION_POINTS: dict[str, float] = {
    "all_correct": 20.0, "type_correct": 15.0, "partial": 10.0, "wrong": 0.0,
}
CLEAR_POINTS: dict[str, float] = {"clear": 20.0, "phantom": 0.0, "clear_ungated": 0.0}
#: scenarios whose nearby and clear decisions are weighted equally (both sides of a boundary)
BALANCED_SIDES = frozenset({"S09", "S10"})
#: MOTION tokens either side of a type word searched for the NPC's behaviour
BEHAVIOR_WINDOW = 4
#: type words that usually name the protagonist in a MOTION line ("a person stands still"), never the NPC
PROTAGONIST_WORDS = frozenset({"person", "human", "man", "guy", "male", "boy", "people", "civilian"})

_BASE = (
    "Per decision with an NPC nearby: the PREDICT item at its true direction names type, behaviour and "
    "distance (within 1 m or 20%) 20, type only 15, partial (danger flagged without naming a type, or "
    "behaviour/distance right) 10, else 0; parse errors 0. With no NPC nearby: 20 when no danger(beast) is "
    "predicted (only if the brain identified the NPC when it was nearby), else 0."
)
RULE_TEXT: dict[str, str] = {
    "S06": _BASE + " Mean over decisions.",
    "S07": _BASE + " The woman ahead must not be called a beast (else at most 15). Mean over decisions.",
    "S08": _BASE + " The behaviour must follow the switch approach -> charge. Mean over decisions.",
    "S09": _BASE + " Nearby and not-nearby decisions (either side of 8 m) are averaged separately and "
                   "weighted equally.",
    "S10": _BASE + " Decisions before and after the despawn are averaged separately and weighted equally.",
}


def primary_nearby(d: DecisionRecord) -> NpcFact | None:
    if d.truth.primary is not None and d.truth.primary.nearby:
        return d.truth.primary
    nearby = [n for n in d.truth.npcs if n.nearby]
    nearby.sort(key=lambda n: (n.type != "beast", n.distance))
    return nearby[0] if nearby else None


def behaviours_in(text: str, banks: KeywordBanks) -> set[str]:
    return {name for name, terms in banks.behaviors.items() if banks.found_terms(text, terms)}


def behaviours_near_type_words(text: str, banks: KeywordBanks, canonical: str) -> set[str]:
    """Behaviours named within ``BEHAVIOR_WINDOW`` tokens of a word for the NPC's type (``canonical``) in the
    same clause; protagonist words ("a person ...") do not count as the NPC."""
    type_terms = [t for t in banks.npc_types.get(canonical, ()) if t not in PROTAGONIST_WORDS]
    found: set[str] = set()
    clauses = tokenize(text)
    for m in banks.find(text, type_terms, negation=False):
        tokens = clauses[m.clause]
        window = " ".join(tokens[max(0, m.start - BEHAVIOR_WINDOW):m.end + BEHAVIOR_WINDOW])
        found |= behaviours_in(window, banks)
    return found


def distance_right(found: float, truth: float) -> bool:
    return abs(found - truth) <= max(DISTANCE_TOL_M, DISTANCE_TOL_FRACTION * truth)


def classify(d: DecisionRecord, npc: NpcFact, banks: KeywordBanks) -> tuple[str, str]:
    """(level, detail) of one decision against the nearby NPC ``npc``."""
    items = prediction(d)
    if items is None:
        return "wrong", "parse error"
    canon = canonical_type(npc.type)
    item: PredictItem | None = items.get(npc.direction)
    motion = motion_text(d)
    type_right = item is not None and item.reason == canon
    behaviours = behaviours_in(item.raw, banks) if item is not None and item.raw else set()
    if not behaviours:
        behaviours = behaviours_near_type_words(motion, banks, canon)
    behaviour_right = behaviours == {npc.behavior}
    dists = distances_in(item.raw if item is not None else "") or distances_in(motion)
    dist_right = bool(dists) and distance_right(dists[0], npc.distance)
    detail = (f"{npc.type} {npc.behavior} {npc.distance:.1f}m {npc.direction}: type "
              f"{'ok' if type_right else 'no'}, behaviour {sorted(behaviours) or '-'}, distance "
              f"{dists[0] if dists else '-'}")
    if type_right and behaviour_right and dist_right:
        misread = [h.direction for h in humans(d.truth, nearby_only=True)
                   if h.name != npc.name and h.direction in items and items[h.direction].reason == "beast"]
        if misread:
            return "type_correct", detail + f"; neutral human at {misread} called a beast"
        return "all_correct", detail
    if type_right:
        return "type_correct", detail
    unnamed_danger = item is not None and item.verdict == "danger" and item.reason in (None, "unknown")
    if unnamed_danger or behaviour_right or dist_right:
        return "partial", detail
    return "wrong", detail


def score_classification(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    if not trace.decisions:
        return unmeasured(trace, CATEGORY, "no decisions recorded")
    nearby_points: list[DecisionPoints] = []
    clear_decisions: list[DecisionRecord] = []
    identified = False
    for d in trace.decisions:
        npc = primary_nearby(d)
        if npc is None:
            clear_decisions.append(d)
            continue
        level, detail = classify(d, npc, banks)
        identified |= level in ("all_correct", "type_correct")
        nearby_points.append(DecisionPoints(d.index, CLASSIFICATION_POINTS[level], f"{level}: {detail}"))
    gated = bool(nearby_points) and not identified
    clear_points = []
    for d in clear_decisions:
        phantom = predicted_reason_anywhere(d, "beast")
        if not parse_ok(d):
            kind, why = "phantom", "parse error"
        elif phantom:
            kind, why = "phantom", f"danger(beast) predicted at {phantom} with no beast nearby"
        elif gated:
            kind, why = "clear_ungated", "no beast predicted, but the NPC was never identified when nearby"
        else:
            kind, why = "clear", "no beast predicted, none nearby"
        clear_points.append(DecisionPoints(d.index, CLEAR_POINTS[kind], f"{kind}: {why}"))
    points = sorted(nearby_points + clear_points, key=lambda p: p.index)
    balanced = trace.scenario_id in BALANCED_SIDES and nearby_points and clear_points
    score = None
    summary = f"{len(nearby_points)} decisions with an NPC nearby, {len(clear_points)} without"
    if balanced:
        near_mean = mean([p.points for p in nearby_points])
        clear_mean = mean([p.points for p in clear_points])
        score = (near_mean + clear_mean) / 2
        summary += f"; sides weighted equally: nearby {near_mean:.1f}, clear {clear_mean:.1f}"
    return make_score(trace, CATEGORY, "classification_accuracy", points, score=score, summary=summary,
                      keyword={"identified": identified},
                      sim={"nearby_decisions": len(nearby_points), "clear_decisions": len(clear_points)})


RULES = {sid: score_classification for sid in RULE_TEXT}
GENERIC_RULE = score_classification
