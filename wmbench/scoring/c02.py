"""C02 Entity Recognition (S06–S10): classification of the NPC in PREDICT against the primary NPC truth.

The rule of each scenario is stated once, in :data:`RULE_TEXT` (paired with its scorer in :data:`RULES`;
``wmbench show`` prints it under the scenario's card), written from the ``*_POINTS`` tables below and the
thresholds of :mod:`~wmbench.scoring.thresholds` that the scorers use.

How its terms are read: the NPC judged is the truth's primary one (the most threatening in range,
:func:`primary_nearby`); its type, behaviour and distance are looked for in the PREDICT item at its true
direction, else in MOTION — the behaviour within ``BEHAVIOR_WINDOW`` words of a word for the NPC, exactly the
true one; a woman/man is ``human``; a beast named where none is nearby is a phantom unless the scene's
``sound`` places it there. Clear decisions (no NPC nearby) count only when the scene made them clear and, for
credit, after the type was identified while it was near (``CLEAR_POINTS``). S09/S10 (``BALANCED_SIDES``)
average the nearby and the clear decisions separately.
"""

from __future__ import annotations

from wmbench.protocol.trace import DecisionRecord, NpcFact, Trace
from wmbench.scoring.evidence import canonical_type, humans, mean, phantom_directions
from wmbench.scoring.keywords import KeywordBanks, tokenize
from wmbench.scoring.registry import category_scorer
from wmbench.scoring.reply import PredictItem, distances_in, motion_text, parse_ok, prediction
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.scoring.result import make_score, unmeasured
from wmbench.scoring.thresholds import DISTANCE_TOL_FRACTION, DISTANCE_TOL_M

CATEGORY = "C02"
CLASSIFICATION_POINTS: dict[str, float] = {
    "all_correct": 20.0, "type_correct": 15.0, "partial": 10.0, "wrong": 0.0,
}
CLEAR_POINTS: dict[str, float] = {"clear": 20.0, "phantom": 0.0, "clear_ungated": 0.0}
#: scenarios whose nearby and clear decisions are weighted equally (both sides of a boundary)
BALANCED_SIDES = frozenset({"S09", "S10"})
#: MOTION tokens either side of a type word searched for the NPC's behaviour
BEHAVIOR_WINDOW = 4
#: tokens before the NPC's own kind word searched for "the" (``the stationary man``)
ARTICLE_WINDOW = 3
#: type words that usually name the protagonist in a MOTION line ("a person stands still"), never the NPC
PROTAGONIST_WORDS = frozenset({"person", "human", "man", "guy", "male", "boy", "people", "civilian"})

_BASE = (
    "Per decision with an NPC nearby: the PREDICT item at its true direction names type with the right "
    f"verdict, behaviour and distance (within 1 m or 20%) {CLASSIFICATION_POINTS['all_correct']:g}, type with "
    f"the right verdict only {CLASSIFICATION_POINTS['type_correct']:g}, partial (danger flagged without naming "
    f"a type, or behaviour/distance right) {CLASSIFICATION_POINTS['partial']:g}, else "
    f"{CLASSIFICATION_POINTS['wrong']:g}; parse errors {CLASSIFICATION_POINTS['wrong']:g}; a beast named in a "
    "direction where none is seen or heard lowers the level one step. With no NPC nearby: "
    f"{CLEAR_POINTS['clear']:g} when no direction names a beast except where one is heard (only if the brain "
    f"identified the NPC when it was nearby), else {CLEAR_POINTS['phantom']:g}; such a decision counts only "
    "when the scene made it clear (the NPC gone, or out of range from the phase's start), not when the "
    "protagonist's flight did."
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


def behaviours_near_type_words(text: str, banks: KeywordBanks, canonical: str, kind: str = "") -> set[str]:
    """Behaviours named within ``BEHAVIOR_WINDOW`` tokens of a word for the NPC's type (``canonical``) in the
    same clause; protagonist words ("a person ...") do not count as the NPC, except the NPC's own kind word
    (``kind``, e.g. ``man``) after a definite article within ``ARTICLE_WINDOW`` tokens ("the stationary
    man"): a MOTION names its protagonist "a person" / "a man", the other one "the man"."""
    type_terms = [t for t in banks.npc_types.get(canonical, ()) if t not in PROTAGONIST_WORDS]
    found: set[str] = set()
    clauses = tokenize(text)
    matches = list(banks.find(text, type_terms, negation=False))
    if kind in PROTAGONIST_WORDS:
        matches += [m for m in banks.find(text, [kind], negation=False)
                    if "the" in clauses[m.clause][max(0, m.start - ARTICLE_WINDOW):m.start]]
    for m in matches:
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
    truth_here = d.truth.directions.get(npc.direction)
    right_verdict = "safe" if truth_here is None or truth_here.safe else "danger"
    type_right = item is not None and item.reason == canon and item.verdict == right_verdict
    behaviours = behaviours_in(item.raw, banks) if item is not None and item.raw else set()
    if not behaviours:
        behaviours = behaviours_near_type_words(motion, banks, canon, npc.type)
    behaviour_right = behaviours == {npc.behavior}
    dists = distances_in(item.raw if item is not None else "") or distances_in(motion)
    dist_right = bool(dists) and distance_right(dists[0], npc.distance)
    detail = (f"{npc.type} {npc.behavior} {npc.distance:.1f}m {npc.direction}: type "
              f"{'ok' if type_right else 'no'}, behaviour {sorted(behaviours) or '-'}, distance "
              f"{dists[0] if dists else '-'}")
    phantoms = phantom_directions(d)
    if phantoms:
        detail += f"; a beast named at {phantoms} where none is seen or heard"
    if type_right and behaviour_right and dist_right:
        misread = [h.direction for h in humans(d.truth, nearby_only=True)
                   if h.name != npc.name and h.direction in items and items[h.direction].reason == "beast"]
        if misread:
            return "type_correct", detail + f"; neutral human at {misread} called a beast"
        return ("type_correct" if phantoms else "all_correct"), detail
    if type_right:
        return ("partial" if phantoms else "type_correct"), detail
    if item is not None and item.reason == canon:
        detail += f"; named {canon} but the verdict {item.verdict} is wrong (truth: {right_verdict})"
    unnamed_danger = item is not None and item.verdict == "danger" and item.reason in (None, "unknown")
    if unnamed_danger or behaviour_right or dist_right:
        # the rule's step down for a phantom beast holds on this level too: a person called a beast (her
        # behaviour and distance read right) is a beast named where none is, not half a recognition
        return ("wrong" if phantoms else "partial"), detail
    return "wrong", detail


def exercised_clear(trace: Trace, d: DecisionRecord) -> bool:
    """A decision with no NPC nearby tests recognition only when the scene made it so: every NPC is gone, or
    the NPCs present were already out of range at the first decision of the phase. An NPC that left the range
    during the phase (the protagonist fled from it, or it moved off) does not make a clear-scene test."""
    present = {n.name for n in d.truth.npcs}
    if not present:
        return True
    first = next(x for x in trace.decisions if x.phase == d.phase)
    return not any(n.nearby for n in first.truth.npcs if n.name in present)


@category_scorer("C02")
def score_classification(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    if not trace.decisions:
        return unmeasured(trace, CATEGORY, "no decisions recorded")
    nearby_points: list[DecisionPoints] = []
    clear_decisions: list[DecisionRecord] = []
    identified = False
    not_exercised: list[int] = []
    for d in trace.decisions:
        npc = primary_nearby(d)
        if npc is None:
            if exercised_clear(trace, d):
                clear_decisions.append(d)
            else:
                not_exercised.append(d.index)
            continue
        level, detail = classify(d, npc, banks)
        identified |= level in ("all_correct", "type_correct")
        nearby_points.append(DecisionPoints(d.index, CLASSIFICATION_POINTS[level], f"{level}: {detail}"))
    gated = bool(nearby_points) and not identified
    clear_points = []
    for d in clear_decisions:
        phantom = phantom_directions(d)
        if not parse_ok(d):
            kind, why = "phantom", "parse error"
        elif phantom:
            kind, why = "phantom", f"a beast named at {phantom} with none nearby or heard"
        elif gated:
            kind, why = "clear_ungated", "no beast predicted, but the NPC was never identified when nearby"
        else:
            kind, why = "clear", "no beast predicted, none nearby"
        clear_points.append(DecisionPoints(d.index, CLEAR_POINTS[kind], f"{kind}: {why}"))
    if not nearby_points and not clear_points:
        return unmeasured(trace, CATEGORY, f"not exercised: no decision had the NPC in perception range, and "
                                           f"the {len(not_exercised)} without it were not a clear scene by design")
    points = sorted(nearby_points + clear_points, key=lambda p: p.index)
    balanced = trace.scenario_id in BALANCED_SIDES and nearby_points and clear_points
    score = None
    summary = f"{len(nearby_points)} decisions with an NPC nearby, {len(clear_points)} without"
    if not_exercised:
        summary += f", {len(not_exercised)} not exercised (the NPC left the range during the phase)"
    if balanced:
        near_mean = mean([p.points for p in nearby_points if p.points is not None])  # as make_score reads them
        clear_mean = mean([p.points for p in clear_points if p.points is not None])
        score = (near_mean + clear_mean) / 2
        summary += f"; sides weighted equally: nearby {near_mean:.1f}, clear {clear_mean:.1f}"
    return make_score(trace, CATEGORY, "classification_accuracy", points, score=score, summary=summary,
                      keyword={"identified": identified},
                      sim={"nearby_decisions": len(nearby_points), "clear_decisions": len(clear_points),
                           "not_exercised": not_exercised})


RULES = {sid: score_classification for sid in RULE_TEXT}
