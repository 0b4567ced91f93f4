"""C08 Motion Expressiveness (S36–S40): rich words, the fitting emotion, and a body that shows it.

The rule of each scenario is stated once, in :data:`RULE_TEXT` (paired with its scorer in :data:`RULES`;
``wmbench show`` prints it under the scenario's card), written from the ``*_POINTS`` tables below and the
thresholds of :mod:`~wmbench.scoring.thresholds` that the scorers use.

How it is applied: per scored decision, points = richness (distinct descriptors in MOTION,
``RICHNESS_POINTS``) × emotion factor × body factor; each scenario's fitting and contradicting emotion
families, body style, cue contrast and decision selection are its :data:`EXPRESSIONS` entry, from which its
:data:`RULE_TEXT` is written. When the selection is empty the whole episode is scored.

Expressiveness is multiplied by fit, so wrong motion earns nothing: a decision that moves into a sector the truth
marks dangerous or closes on the threat (:data:`WRONG_MOTION_FACTOR`) scores 0 whatever its words, and wrong motion
at *any* decision of the episode forfeits the scenario (a caution or relief shown after running at the beast is not
the expression of an escape; the prompt: "Never move toward a direction you marked danger"); a body style that does
not fit the moment (speed class, posture, facing) halves it; so does a missing fitting emotion. Being caught
forfeits the scenario. The judged moments follow the spec and the prompt's sequence ("When the threat has just
gone: stay vigilant, then relax gradually, exhaling with relief. Nothing around: walk naturally"): S37 judges
caution on the first :data:`EARLY_RECOVERY_DECISIONS` decisions after the beast has gone (the spec's "right after
the threat is lifted"; later ones may relax), S38 the freeze at the moment of first sight
(:data:`~wmbench.scoring.thresholds.FIRST_SIGHT_WINDOW` decision), S39 the relief transition — the best recovery
decision, and relief expressed while a beast is still present (before it has left) forfeits it
(:data:`PREMATURE_RELIEF_FACTOR`). A MOTION repeated word for word from an earlier decision counts against a brain
only when the situation changed in a way that calls for a different answer (:func:`calls_for_change`): a threat
appeared since, or a pursuing beast (charging or approaching) is gone since. A calm answer given before and after a
beast that only stood and turned away (S39) fits both moments and is not penalised.

What the prompt tells a brain: one expressive sentence — gait, direction, and the emotion and body language that
fit the moment, scaled with the threat; never toward a direction marked danger.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from wmbench.core.directions import OPPOSITE
from wmbench.core.entities import PURSUIT_BEHAVIORS
from wmbench.core.speed import SPEED_RANKS
from wmbench.core.taxonomy import SCENARIO_MAX_POINTS
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scoring.contrast import repeated_answer
from wmbench.scoring.evidence import beast_present, humans
from wmbench.scoring.expression import descriptor_terms, emotion_families
from wmbench.scoring.keywords import KeywordBanks
from wmbench.scoring.movement import contact, facing_kept, ground_change, into_danger, realized, trace_caught
from wmbench.scoring.registry import category_scorer
from wmbench.scoring.reply import motion_text, parse_ok
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.scoring.result import make_score, unmeasured
from wmbench.scoring.thresholds import (
    BODY_MISMATCH_FACTOR,
    EMOTION_MISSING_FACTOR,
    EMOTION_MIXED_FACTOR,
    FIRST_SIGHT_WINDOW,
    REPEATED_ANSWER_FACTOR,
)
from wmbench.scoring.timeline import first_sight, recovery

CATEGORY = "C08"
#: a decision whose body moves into danger, closes on the threat or makes contact: its expression earns this
WRONG_MOTION_FACTOR = 0.0
#: a move closed on the beast when the distance fell by more than the beast alone could close plus this (m)
TOWARD_TOLERANCE_M = 0.3
#: S37: caution is judged on this many decisions after the beast has gone ("stay vigilant, then relax")
EARLY_RECOVERY_DECISIONS = 2
#: S39: relief words at a decision where a beast is still present (before it has left): the scenario earns this
PREMATURE_RELIEF_FACTOR = 0.0
#: descriptor count -> points (the spec's rich_3plus / moderate_2 / basic_1 / none_0)
RICHNESS_POINTS: tuple[float, ...] = (0.0, 10.0, 15.0, 20.0)


def richness_points(count: int) -> float:
    return RICHNESS_POINTS[min(count, len(RICHNESS_POINTS) - 1)]


def _flight(d: DecisionRecord) -> bool:
    return realized(d).speed_rank >= SPEED_RANKS["run"]


def _walk(d: DecisionRecord) -> bool:
    return realized(d).speed_class == "walk"


def _still(d: DecisionRecord) -> bool:
    return realized(d).speed_rank == SPEED_RANKS["still"]


def _slow(d: DecisionRecord) -> bool:
    return realized(d).speed_rank <= SPEED_RANKS["walk"]


def _flight_away(d: DecisionRecord) -> bool:
    """A run or sprint that does not head into a sector the truth marks dangerous (fleeing *into* the beast
    is not the fear this scenario asks the body to show)."""
    return _flight(d) and not into_danger(d)


def _backs_away_from_her(d: DecisionRecord) -> bool:
    """A walk or jog away from the nearest nearby human: the direction opposite hers, and when that is back
    (she is ahead) with the facing kept — a back-step. A constant step back is not away from a person at
    the side or behind."""
    r = realized(d)
    near = humans(d.truth, nearby_only=True)
    if not near or r.direction is None or not SPEED_RANKS["walk"] <= r.speed_rank <= SPEED_RANKS["jog"]:
        return False
    her = min(near, key=lambda n: n.distance).direction
    if r.direction != OPPOSITE.get(her):
        return False
    return facing_kept(d) if r.direction == "back" else True


def _threatened(trace: Trace) -> list[DecisionRecord]:
    return [d for d in trace.decisions if beast_present(d)]


def _recovery(trace: Trace) -> list[DecisionRecord]:
    return recovery(trace) or []


def _early_recovery(trace: Trace) -> list[DecisionRecord]:
    return _recovery(trace)[:EARLY_RECOVERY_DECISIONS]


def _first_sight(trace: Trace) -> list[DecisionRecord]:
    return first_sight(trace, FIRST_SIGHT_WINDOW)


def _human_nearby(trace: Trace) -> list[DecisionRecord]:
    return [d for d in trace.decisions if humans(d.truth, nearby_only=True)]


@dataclass(frozen=True)
class Expression:
    """What a C08 scenario asks for: the fitting and contradicting emotion families, the body style, which
    decisions."""

    fitting: tuple[str, ...]
    contradicting: tuple[str, ...]
    style: str
    body_fits: Callable[[DecisionRecord], bool]
    select: Callable[[Trace], list[DecisionRecord]]
    selection: str
    #: the judged decisions follow a change of cue: an answer repeated word for word from the other decisions
    #: of the episode (before the change) is not this cue's expression (``REPEATED_ANSWER_FACTOR``)
    contrast: bool = False
    #: "mean" of the judged decisions, or "best": the expression is a transition shown once (S39's relief)
    aggregate: str = "mean"
    #: emotion families that are premature while a beast is still present (S39: relief before it has left)
    premature: tuple[str, ...] = ()


EXPRESSIONS: dict[str, Expression] = {
    "S36": Expression(("fear", "panic"), ("relief", "calm"), "run or sprint, not into danger", _flight_away,
                      _threatened,
                      "beast present"),
    "S37": Expression(("caution",), ("panic",), "walk", _walk, _early_recovery,
                      f"the first {EARLY_RECOVERY_DECISIONS} decisions after the beast has gone", True),
    "S38": Expression(("freeze",), ("relief", "calm"), "still", _still, _first_sight,
                      "the moment of first sight of the beast", True),
    "S39": Expression(("relief",), ("fear", "panic"), "still or walk", _slow, _recovery,
                      "recovery after the beast (the best decision: relief is a transition)", True,
                      aggregate="best", premature=("relief",)),
    "S40": Expression(("defensive",), ("aggression", "panic"),
                      "a walk or jog away from her (opposite her direction; a back-step, facing kept, when she "
                      "is ahead)", _backs_away_from_her, _human_nearby, "human nearby"),
}
RULE_TEXT: dict[str, str] = {
    sid: (f"Decisions: {e.selection}. Per decision: descriptors "
          + ", ".join(f"{n}{'+' if n == len(RICHNESS_POINTS) - 1 else ''} {RICHNESS_POINTS[n]:g}"
                      for n in reversed(range(len(RICHNESS_POINTS))))
          + "; times "
          f"{EMOTION_MISSING_FACTOR:g} if no {'/'.join(e.fitting)} words (times {EMOTION_MIXED_FACTOR:g} if "
          f"mixed with {'/'.join(e.contradicting)}); times {BODY_MISMATCH_FACTOR:g} unless the body's "
          f"realized style is {e.style}."
          + (f" Times {REPEATED_ANSWER_FACTOR:g} for a MOTION repeated word for word from an earlier decision "
             "whose situation called for a different answer (a threat appeared since, or a charging or "
             "approaching beast is gone since)." if e.contrast else "")
          + f" Times {WRONG_MOTION_FACTOR:g} for wrong motion (into a sector the truth marks danger, closing on "
            "the beast, toward a person coming close, or contact); wrong motion at any decision of the episode, "
            "or being caught, forfeits the scenario (0)."
          + (f" Times {PREMATURE_RELIEF_FACTOR:g} when {'/'.join(e.premature)} words come while a beast is still "
             "present (before it has left)." if e.premature else "")
          + (" The best judged decision counts." if e.aggregate == "best" else " Mean over the decisions."))
    for sid, e in EXPRESSIONS.items()
}


def wrong_motion(d: DecisionRecord, following: DecisionRecord | None) -> str | None:
    """Why the body's motion is wrong for any expression (None when it is not): into a sector the truth marks
    danger, closing on the beast, toward a person who is coming close (the prompt: "step back"), or contact."""
    if contact(d):
        return "contact"
    if into_danger(d):
        return f"moved {realized(d).direction} into danger"
    r = realized(d)
    coming = [n for n in humans(d.truth, nearby_only=True) if n.behavior in PURSUIT_BEHAVIORS]
    if r.moved and coming and r.direction == min(coming, key=lambda n: n.distance).direction:
        return f"moved {r.direction} toward the approaching person"
    ground = ground_change(d, following)
    if r.moved and ground is not None and ground.toward(TOWARD_TOLERANCE_M):
        return f"closed on the beast ({ground.change:+.1f} m)"
    return None


def judge(d: DecisionRecord, expression: Expression, banks: KeywordBanks,
          following: DecisionRecord | None = None) -> tuple[float, str, dict[str, object]]:
    if not parse_ok(d):
        return 0.0, "miss: parse error", {}
    wrong = wrong_motion(d, following)
    if wrong is not None:
        return 0.0, f"wrong motion: {wrong} (x{WRONG_MOTION_FACTOR:g})", {}
    text = motion_text(d)
    descriptors = descriptor_terms(text, banks)
    families = emotion_families(text, banks)
    fitting = [f for f in expression.fitting if f in families]
    contradicting = [f for f in expression.contradicting if f in families]
    if fitting and not contradicting:
        emotion, emotion_factor = "fitting", 1.0
    elif fitting:
        emotion, emotion_factor = "mixed", EMOTION_MIXED_FACTOR
    else:
        emotion, emotion_factor = "missing", EMOTION_MISSING_FACTOR
    body_ok = expression.body_fits(d)
    body_factor = 1.0 if body_ok else BODY_MISMATCH_FACTOR
    richness = richness_points(len(descriptors))
    points = richness * emotion_factor * body_factor
    r = realized(d)
    full_marks = emotion == "fitting" and body_ok and richness == RICHNESS_POINTS[-1]
    branch = "expressive" if full_marks else "partial"
    against = f" vs {contradicting}" if contradicting else ""
    why = (f"{branch}: {len(descriptors)} descriptors ({richness:g}), emotion {emotion} "
           f"{fitting or ''}{against}, body {r.speed_class} {r.direction or ''} "
           f"{'fits' if body_ok else 'does not fit'}")
    return points, why, {"descriptors": descriptors, "families": sorted(families)}


def threat_rank(d: DecisionRecord) -> int:
    """The situation's threat: 2 a pursuing beast (charging or approaching) present, 1 another beast present,
    0 none."""
    present = [n for n in d.truth.npcs if n.type == "beast"]
    if any(n.behavior in PURSUIT_BEHAVIORS for n in present):
        return 2
    return 1 if present else 0


def calls_for_change(earlier: DecisionRecord, later: DecisionRecord) -> bool:
    """Whether the situation changed between two decisions in a way that calls for a different answer: a
    threat appeared since (none before, a beast now), or a pursuing beast is gone since (a flight answer before,
    none now). A beast that only stood or turned away and then vanished does not (a calm answer fits both)."""
    before, now = threat_rank(earlier), threat_rank(later)
    return (before == 0 and now > 0) or (before == 2 and now == 0)


@category_scorer("C08")
def score_expression(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    expression = EXPRESSIONS.get(trace.scenario_id, EXPRESSIONS["S36"])
    selected = expression.select(trace)
    scored = selected or trace.decisions
    if not scored:
        return unmeasured(trace, CATEGORY, "no decisions recorded")
    following = dict(zip((d.index for d in trace.decisions), [*trace.decisions[1:], None]))
    chosen = {d.index for d in selected}
    points, words = [], []
    for d in scored:
        value, why, found = judge(d, expression, banks, following[d.index])
        if selected and expression.contrast:
            # cue contrast: an answer repeated word for word from a decision whose situation called for another
            other = [e for e in trace.decisions if e.index not in chosen and e.index < d.index
                     and calls_for_change(e, d)]
            if repeated_answer(d, other):
                value = value * REPEATED_ANSWER_FACTOR
                why += "; word for word an answer given before the situation changed"
        points.append(DecisionPoints(d.index, value, why))
        words.append(found)
    if selected:
        selection = expression.selection
    else:
        selection = f"whole episode (no decision with {expression.selection})"
    caps = [(0.0, "caught: the scenario forfeits")] if trace_caught(trace) else []
    wrong = next(((d.index, reason) for d in trace.decisions
                  if (reason := wrong_motion(d, following[d.index])) is not None), None)
    if wrong is not None:
        caps.append((0.0, f"wrong motion at decision {wrong[0]} ({wrong[1]}): the scenario forfeits"))
    early = next((d.index for d in trace.decisions if expression.premature and beast_present(d) and parse_ok(d)
                  and set(expression.premature) & set(emotion_families(motion_text(d), banks))), None)
    if early is not None:
        caps.append((SCENARIO_MAX_POINTS * PREMATURE_RELIEF_FACTOR,
                     f"{'/'.join(expression.premature)} at decision {early}, before the beast had left"))
    best = max((p.points for p in points if p.points is not None), default=0.0)
    return make_score(trace, CATEGORY, "expression_richness", points, summary=f"scored: {selection}",
                      score=best if expression.aggregate == "best" else None,
                      caps=caps, keyword={"per_decision": words},
                      sim={"styles": [realized(d).speed_class for d in scored],
                           "expected_style": expression.style})


RULES = {sid: score_expression for sid in EXPRESSIONS}
