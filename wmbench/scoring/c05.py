"""C05 Emotional Escalation (S21–S25): how the reaction's intensity moves over time.

The rule of each scenario is stated once, in :data:`RULE_TEXT` (paired with its scorer in :data:`RULES`;
``wmbench show`` prints it under the scenario's card), written from the ``*_POINTS`` tables below and the
thresholds of :mod:`~wmbench.scoring.thresholds` that the scorers use.

Each decision's intensity is the combined 0–1 value of its words (MOTION intensity tier plus further strong
terms) and its body (realized speed class; a tense posture counts as a jog) — words alone cannot carry a
gradient the body does not show; a parse error reads as 0. The patterns are those of :mod:`patterns`
(gradient over start window and last third, jump at a switch, de-escalation through an intermediate level,
per-appearance strength and latency); S25's *composed* decision is below ``HIGH_MIN``, words at most medium,
speed at most jog, no contact (``COMPOSED_ALL``/``COMPOSED_MOSTLY`` of them).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from wmbench.core.speed import SPEED_RANKS
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scoring.evidence import beast_behavior, beast_present, mean
from wmbench.scoring.expression import decision_intensity
from wmbench.scoring.keywords import LEVEL_MEDIUM, KeywordBanks
from wmbench.scoring.movement import contact, into_danger, realized, trace_caught
from wmbench.scoring.patterns import (
    DEESCALATION_POINTS,
    GRADIENT_POINTS,
    deescalation,
    gradient,
    runs,
)
from wmbench.scoring.reply import parse_ok
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.scoring.result import intensity_readings, make_score, unmeasured
from wmbench.scoring.thresholds import (
    CAUGHT_CAP,
    HEIGHTENED_MIN,
    HIGH_MIN,
    JUMP_MIN,
    JUMP_WINDOW,
    RISE_MIN,
    SENSITIZATION_WINDOW,
    STRONGER_BY,
)

CATEGORY = "C05"
S21_POINTS: dict[str, float] = {**GRADIENT_POINTS, "late_rise": 10.0}
S22_POINTS: dict[str, float] = {"jump": 20.0, "rise": 15.0, **GRADIENT_POINTS}
S24_POINTS: dict[str, float] = {"sensitized": 20.0, "stable": 10.0, "habituating": 5.0, "no_reaction": 0.0}
S25_POINTS: dict[str, float] = {"calm": 20.0, "creeping_up": 10.0, "uneasy": 5.0, "escalated": 0.0}
#: S25: fraction of composed decisions for "throughout" and for "mostly"
COMPOSED_ALL = 0.9
COMPOSED_MOSTLY = 0.6

_GRADIENT = (f"stable high {GRADIENT_POINTS['stable_high']:g}, decreasing {GRADIENT_POINTS['decreasing']:g}, "
             f"flat low {GRADIENT_POINTS['flat_low']:g}")
_DEESCALATION = (f"to settled {DEESCALATION_POINTS['gradual']:g}, uneven {DEESCALATION_POINTS['uneven']:g}, "
                 f"instant calm {DEESCALATION_POINTS['instant']:g}, never settles "
                 f"{DEESCALATION_POINTS['stays_high']:g}, never high {DEESCALATION_POINTS['no_reaction']:g}")
RULE_TEXT: dict[str, str] = {
    "S21": "Intensity (words + realized speed) over the decisions with the beast present: increasing (and "
           f"high) {S21_POINTS['increasing']:g}, {_GRADIENT}; a rise from a low start (no reaction when the "
           f"charge began) {S21_POINTS['late_rise']:g}. Caught caps at {CAUGHT_CAP:g}.",
    "S22": "Intensity just before vs just after the switch to charge: a jump to high "
           f"{S22_POINTS['jump']:g}, a rise without a jump {S22_POINTS['rise']:g}, {_GRADIENT}. Caught caps at "
           f"{CAUGHT_CAP:g}.",
    "S23": "High while charging, then after the charge: gradual de-escalation through an intermediate level "
           f"{_DEESCALATION}. Caught caps at {CAUGHT_CAP:g}.",
    "S24": "Per appearance of the beast: strength (peak intensity of its first decisions) and latency "
           "(decisions to a high reaction). Each reappearance at least as fast and strong as the one before "
           f"and the last faster or stronger than the first {S24_POINTS['sensitized']:g}; the same "
           f"{S24_POINTS['stable']:g}; the last slower or weaker {S24_POINTS['habituating']:g}; never high "
           f"{S24_POINTS['no_reaction']:g}. Caught caps at {CAUGHT_CAP:g}.",
    "S25": "Composed decisions (below high intensity, words at most medium tier, speed at most jog, no "
           "contact, no move into her 2 m personal space): "
           f"{100 * COMPOSED_ALL:g}% or more and no upward trend {S25_POINTS['calm']:g}; composed but "
           f"trending up {S25_POINTS['creeping_up']:g}; {100 * COMPOSED_MOSTLY:g}% or more "
           f"{S25_POINTS['uneasy']:g}; else {S25_POINTS['escalated']:g}.",
}


def _caps(trace: Trace) -> list[tuple[float, str]]:
    return [(CAUGHT_CAP, "caught by the beast")] if trace_caught(trace) else []


def _present(trace: Trace) -> list[DecisionRecord]:
    return [d for d in trace.decisions if beast_present(d)]


def score_sustained(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    window = _present(trace)
    if not window:
        return unmeasured(trace, CATEGORY, "no decision with the beast present")
    values, readings = intensity_readings(window, banks)
    parts = [decision_intensity(d, banks) for d in window]
    g = gradient(values, [i.keyword_norm for i in parts], [i.body_norm for i in parts])
    kind = "late_rise" if g.kind == "increasing" and g.first < HEIGHTENED_MIN else g.kind
    return make_score(trace, CATEGORY, "escalation_gradient", readings, score=S21_POINTS[kind],
                      summary=f"gradient {kind} (first {g.first:.2f}, last {g.last:.2f}, mean {g.mean:.2f})",
                      caps=_caps(trace), keyword={"series": [round(v, 3) for v in values]}, sim=g.to_dict())


def score_switch(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    window = _present(trace)
    approach = [d for d in window if beast_behavior(d) == "approach"]
    charge = [d for d in window if beast_behavior(d) == "charge"]
    if not approach or not charge:
        return score_sustained(trace, banks)
    pre, pre_readings = intensity_readings(approach, banks, "approach")
    post, post_readings = intensity_readings(charge, banks, "charge")
    jump = mean(post[:JUMP_WINDOW]) - mean(pre[-JUMP_WINDOW:])
    approach_mean, charge_mean = mean(pre), mean(post)
    if jump >= JUMP_MIN and mean(post[:JUMP_WINDOW]) >= HIGH_MIN and approach_mean < HIGH_MIN:
        kind = "jump"
    elif charge_mean - approach_mean >= RISE_MIN and charge_mean >= HIGH_MIN:
        kind = "rise"
    elif approach_mean >= HIGH_MIN and charge_mean >= HIGH_MIN:
        kind = "stable_high"
    elif charge_mean <= approach_mean - RISE_MIN:
        kind = "decreasing"
    else:
        kind = "flat_low"
    return make_score(
        trace, CATEGORY, "escalation_jump", sorted(pre_readings + post_readings, key=lambda p: p.index),
        score=S22_POINTS[kind], caps=_caps(trace),
        summary=f"{kind}: approach mean {approach_mean:.2f}, charge mean {charge_mean:.2f}, jump at switch "
                f"{jump:+.2f}",
        keyword={"approach": [round(v, 3) for v in pre], "charge": [round(v, 3) for v in post]},
        sim={"kind": kind, "jump": round(jump, 3)},
    )


def score_deescalation(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    charging = [d for d in trace.decisions if beast_behavior(d) == "charge"] or _present(trace)
    if not charging:
        return unmeasured(trace, CATEGORY, "no decision with the beast charging or present")
    last = charging[-1].index
    after = [d for d in trace.decisions if d.index > last]
    peak_values, peak_readings = intensity_readings(charging, banks, "threat")
    after_values, after_readings = intensity_readings(after, banks, "after")
    result = deescalation(max(peak_values), after_values)
    return make_score(
        trace, CATEGORY, "deescalation", peak_readings + after_readings,
        score=DEESCALATION_POINTS[result.kind], caps=_caps(trace),
        summary=f"{result.kind}: peak {result.peak:.2f}, {len(after_values)} decisions after",
        keyword={"after": [round(v, 3) for v in after_values]}, sim=result.to_dict(),
    )


@dataclass(frozen=True)
class Reaction:
    """One appearance of the beast: how strongly (peak intensity over its first ``SENSITIZATION_WINDOW``
    decisions) and how fast (decisions until intensity >= ``HIGH_MIN`` without moving into danger; None:
    never)."""

    start_index: int
    strength: float
    latency: int | None

    def faster_than(self, other: Reaction) -> bool:
        return self.latency is not None and (other.latency is None or self.latency < other.latency)

    def slower_than(self, other: Reaction) -> bool:
        return other.faster_than(self)


def reaction_of(decisions: Sequence[DecisionRecord], banks: KeywordBanks) -> Reaction:
    values = [decision_intensity(d, banks).combined for d in decisions]
    latency = next((k for k, (d, v) in enumerate(zip(decisions, values))
                    if v >= HIGH_MIN and not into_danger(d) and not contact(d)), None)
    return Reaction(decisions[0].index, max(values[:SENSITIZATION_WINDOW]), latency)


def sensitization_kind(reactions: Sequence[Reaction]) -> str:
    """``no_reaction``: no appearance reached ``HIGH_MIN``; ``sensitized``: each reappearance at least as fast
    and as strong as the one before (strength within ``STRONGER_BY``/2), the last faster or stronger (by
    ``STRONGER_BY``) than the first, and the last reacted; ``habituating``: the last slower or weaker than the
    first; ``stable`` otherwise."""
    first, last = reactions[0], reactions[-1]
    if all(r.latency is None for r in reactions):
        return "no_reaction"
    never_worse = all(not b.slower_than(a) and b.strength >= a.strength - STRONGER_BY / 2
                      for a, b in itertools.pairwise(reactions))
    better = last.faster_than(first) or last.strength >= first.strength + STRONGER_BY
    if never_worse and better and last.latency is not None:
        return "sensitized"
    if last.slower_than(first) or last.strength <= first.strength - STRONGER_BY:
        return "habituating"
    return "stable"


def score_sensitization(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    appearances = runs([beast_present(d) for d in trace.decisions])
    if len(appearances) < 2:
        return unmeasured(trace, CATEGORY, f"{len(appearances)} beast appearance(s); need at least 2")
    reactions = [reaction_of(trace.decisions[a:b], banks) for a, b in appearances]
    kind = sensitization_kind(reactions)
    readings = [DecisionPoints(r.start_index, None, f"appearance {n + 1}: strength {r.strength:.2f}, latency "
                                                    f"{'-' if r.latency is None else r.latency}")
                for n, r in enumerate(reactions)]
    return make_score(trace, CATEGORY, "sensitization", readings, score=S24_POINTS[kind], caps=_caps(trace),
                      summary=f"{kind} over {len(appearances)} appearances",
                      keyword={"strengths": [round(r.strength, 3) for r in reactions]},
                      sim={"latencies": [r.latency for r in reactions], "kind": kind})


def composed(d: DecisionRecord, banks: KeywordBanks) -> tuple[bool, str]:
    """Composed: intensity below ``HIGH_MIN``, words no stronger than the medium tier, speed <= jog, no
    contact, no move into a dangerous sector (a polite or defensive step back is still composed)."""
    i = decision_intensity(d, banks)
    r = realized(d)
    ok = (parse_ok(d) and i.combined < HIGH_MIN and i.keyword_level <= LEVEL_MEDIUM
          and r.speed_rank <= SPEED_RANKS["jog"] and not contact(d) and not into_danger(d))
    return ok, f"intensity {i.combined:.2f}, words L{i.keyword_level}, body {r.speed_class}"


def score_calm(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    if not trace.decisions:
        return unmeasured(trace, CATEGORY, "no decisions recorded")
    points, values = [], []
    for d in trace.decisions:
        ok, why = composed(d, banks)
        values.append(decision_intensity(d, banks).combined)
        points.append(DecisionPoints(d.index, 20.0 if ok else 0.0, f"{'composed' if ok else 'reacting'}: "
                                                                   f"{why}"))
    fraction = mean([1.0 if p.points else 0.0 for p in points])
    g = gradient(values)
    rising = g.delta >= RISE_MIN
    if fraction >= COMPOSED_ALL:
        kind = "creeping_up" if rising else "calm"
    elif fraction >= COMPOSED_MOSTLY:
        kind = "uneasy"
    else:
        kind = "escalated"
    return make_score(trace, CATEGORY, "calm_maintenance", points, score=S25_POINTS[kind],
                      summary=f"{kind}: {fraction:.0%} of decisions composed, trend {g.delta:+.2f}",
                      sim={"composed_fraction": round(fraction, 3), "trend": round(g.delta, 3)})


RULES = {"S21": score_sustained, "S22": score_switch, "S23": score_deescalation, "S24": score_sensitization,
         "S25": score_calm}
GENERIC_RULE = score_sustained
