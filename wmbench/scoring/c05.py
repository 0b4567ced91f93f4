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

What the prompt tells a brain: "scale the intensity with the threat" — a charging beast: a flight in terror;
an approaching beast: a quick, wary retreat; a person coming close: a calm step back; when the threat has just
gone: vigilant, then relaxing gradually. So S21 and S23 judge whether the intensity *tracks the threat's
behaviour at each moment* (:data:`FITS_MOMENT`): high while a beast charges, below flight level once it stops
or is gone, settled by the end. A calm answer the moment the beast stops or vanishes is reading the behaviour
and keeps most of the points; the spec's curve shapes (fear growing during a sustained charge, a gradual
settling through an intermediate level) are worth a stated margin (``SHAPE_MARGIN``), never the whole score.
Intensity that follows distance alone rises and falls while the charge goes on and loses the moments it is
below flight level. S25: a polite, composed step back as the woman comes close is what the prompt asks; only
a rise beyond the mild level (``MILD_MAX``) is creeping up.
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
    GRADIENT_POINTS,
    gradient,
    runs,
)
from wmbench.scoring.registry import category_scorer
from wmbench.scoring.reply import parse_ok
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.scoring.result import intensity_readings, make_score, unmeasured
from wmbench.scoring.thresholds import (
    CALM_MAX,
    CAUGHT_CAP,
    HEIGHTENED_MIN,
    HIGH_MIN,
    JUMP_MIN,
    JUMP_WINDOW,
    MILD_MAX,
    RISE_MIN,
    SENSITIZATION_WINDOW,
    STRONGER_BY,
)

CATEGORY = "C05"
#: what the spec's curve shape is worth beyond tracking the behaviour (S21 fear growing, S23 an intermediate
#: level on the way down): a brain that tracks every moment but skips the shape loses this much, no more
SHAPE_MARGIN = 5.0
TRACKING_POINTS = 20.0
#: the spec's gradient points, for a series judged by its shape alone (S22 without a switch, other scenarios)
GRADIENT_FALLBACK_POINTS: dict[str, float] = {**GRADIENT_POINTS, "late_rise": 10.0}
S22_POINTS: dict[str, float] = {"jump": 20.0, "rise": 15.0, **GRADIENT_POINTS}
S24_POINTS: dict[str, float] = {"sensitized": 20.0, "stable": 10.0, "habituating": 5.0, "no_reaction": 0.0}
S25_POINTS: dict[str, float] = {"calm": 20.0, "creeping_up": 10.0, "uneasy": 5.0, "escalated": 0.0}
#: S25: fraction of composed decisions for "throughout" and for "mostly"
COMPOSED_ALL = 0.9
COMPOSED_MOSTLY = 0.6
#: S23's moments and the intensity that fits each (the prompt's intensity guide): a charging beast -> high;
#: a beast that stopped, or one just gone -> below flight level; the last third after it is gone -> settled
FITS_MOMENT: dict[str, str] = {
    "charge": f"high (>= {HIGH_MIN:g})", "stopped": f"below flight level (< {HIGH_MIN:g})",
    "gone": f"below flight level (< {HIGH_MIN:g})", "settled": f"mild or calmer (<= {MILD_MAX:g})",
}

_GRADIENT = (f"stable high {GRADIENT_POINTS['stable_high']:g}, decreasing {GRADIENT_POINTS['decreasing']:g}, "
             f"flat low {GRADIENT_POINTS['flat_low']:g}")
_PROMPT = ("The prompt asks the intensity to scale with the threat (a charging beast: a flight in terror; "
           "stopped or gone: vigilance, then relaxing). ")
RULE_TEXT: dict[str, str] = {
    "S21": _PROMPT + "Intensity (words + realized speed) at each decision with the charging beast present, "
           "heard or seen: 20 x the fraction at high intensity (>= "
           f"{HIGH_MIN:g}), minus {SHAPE_MARGIN:g} when it does not rise (the spec's fear growing while the "
           f"charge goes on; the prompt asks for no growth, so a steady flight loses only this). Caught caps at "
           f"{CAUGHT_CAP:g}.",
    "S22": "Intensity just before vs just after the switch to charge: a jump to high "
           f"{S22_POINTS['jump']:g}, a rise without a jump {S22_POINTS['rise']:g}, {_GRADIENT}. Caught caps at "
           f"{CAUGHT_CAP:g}.",
    "S23": _PROMPT + "Never high while it charged: 0. Otherwise 20 x the fraction of decisions whose intensity "
           "fits the moment — charging: " + FITS_MOMENT["charge"] + "; stopped: " + FITS_MOMENT["stopped"]
           + "; gone: " + FITS_MOMENT["gone"] + ", and in the last third after it is gone "
           + FITS_MOMENT["settled"] + f" — minus {SHAPE_MARGIN:g} when nothing on the way down is at an "
           f"intermediate level ({CALM_MAX:g} < x < {HIGH_MIN:g}; the spec's gradual settling: calming at once "
           f"reads the behaviour and loses only this). Caught caps at {CAUGHT_CAP:g}.",
    "S24": "Per appearance of the beast: strength (peak intensity of its first decisions) and latency "
           "(decisions to a high reaction). Each reappearance at least as fast and strong as the one before "
           f"and the last faster or stronger than the first {S24_POINTS['sensitized']:g}; the same "
           f"{S24_POINTS['stable']:g}; the last slower or weaker {S24_POINTS['habituating']:g}; never high "
           f"{S24_POINTS['no_reaction']:g}. Caught caps at {CAUGHT_CAP:g}.",
    "S25": "Composed decisions (below high intensity, words at most medium tier, speed at most jog, no "
           "contact, no move into her 2 m personal space; the prompt's calm step back as she comes close is "
           f"composed): {100 * COMPOSED_ALL:g}% or more {S25_POINTS['calm']:g}, unless the intensity trends "
           f"up to beyond mild (last third above {MILD_MAX:g}): creeping up {S25_POINTS['creeping_up']:g}; "
           f"{100 * COMPOSED_MOSTLY:g}% or more {S25_POINTS['uneasy']:g}; else {S25_POINTS['escalated']:g}.",
}


def _caps(trace: Trace) -> list[tuple[float, str]]:
    return [(CAUGHT_CAP, "caught by the beast")] if trace_caught(trace) else []


def _present(trace: Trace) -> list[DecisionRecord]:
    return [d for d in trace.decisions if beast_present(d)]


@category_scorer("C05")
def score_sustained(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    """A series judged by its shape (:func:`patterns.gradient`): S22 without a switch, the generic rule."""
    window = _present(trace)
    if not window:
        return unmeasured(trace, CATEGORY, "no decision with the beast present")
    values, readings = intensity_readings(window, banks)
    parts = [decision_intensity(d, banks) for d in window]
    g = gradient(values, [i.keyword_norm for i in parts], [i.body_norm for i in parts])
    kind = "late_rise" if g.kind == "increasing" and g.first < HEIGHTENED_MIN else g.kind
    return make_score(trace, CATEGORY, "escalation_gradient", readings, score=GRADIENT_FALLBACK_POINTS[kind],
                      summary=f"gradient {kind} (first {g.first:.2f}, last {g.last:.2f}, mean {g.mean:.2f})",
                      caps=_caps(trace), keyword={"series": [round(v, 3) for v in values]}, sim=g.to_dict())


def score_sustained_charge(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    """S21: high intensity at every moment the charge goes on (seen or heard); the spec's growing fear is worth
    ``SHAPE_MARGIN``."""
    window = [d for d in _present(trace) if beast_behavior(d) == "charge"] or _present(trace)
    if not window:
        return unmeasured(trace, CATEGORY, "no decision with the beast present")
    values, readings = intensity_readings(window, banks, "charge")
    parts = [decision_intensity(d, banks) for d in window]
    g = gradient(values, [i.keyword_norm for i in parts], [i.body_norm for i in parts])
    fraction = mean([1.0 if v >= HIGH_MIN else 0.0 for v in values])
    rising = g.kind == "increasing"
    score = max(0.0, TRACKING_POINTS * fraction - (0.0 if rising else SHAPE_MARGIN))
    return make_score(trace, CATEGORY, "escalation_gradient", readings, score=score, caps=_caps(trace),
                      summary=f"high at {fraction:.0%} of the charging decisions; gradient {g.kind} (first "
                              f"{g.first:.2f}, last {g.last:.2f})"
                              + ("" if rising else f"; no rise: -{SHAPE_MARGIN:g}"),
                      keyword={"series": [round(v, 3) for v in values]},
                      sim={**g.to_dict(), "high_fraction": round(fraction, 3)})


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


def _moment(d: DecisionRecord, charged: bool, settling: bool) -> str:
    """Which :data:`FITS_MOMENT` entry a decision falls under (S23)."""
    if beast_present(d):
        return "charge" if beast_behavior(d) == "charge" else "stopped"
    if not charged:
        return "gone"
    return "settled" if settling else "gone"


def _fits(moment: str, value: float) -> bool:
    if moment == "charge":
        return value >= HIGH_MIN
    if moment == "settled":
        return value <= MILD_MAX
    return value < HIGH_MIN


def score_deescalation(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    """S23: intensity that fits each moment (charge, stopped, gone, settled); 0 when the charge never drew a
    high reaction; ``SHAPE_MARGIN`` off when nothing on the way down is intermediate."""
    charging = [d for d in trace.decisions if beast_behavior(d) == "charge"] or _present(trace)
    if not charging:
        return unmeasured(trace, CATEGORY, "no decision with the beast charging or present")
    last = charging[-1].index
    gone = [d for d in trace.decisions if d.index > last and not beast_present(d)]
    tail = {d.index for d in gone[len(gone) - max(1, len(gone) // 3):]} if gone else set()
    values, _ = intensity_readings(trace.decisions, banks)
    points, fits = [], []
    for d, v in zip(trace.decisions, values):
        moment = _moment(d, d.index > last, d.index in tail)
        ok = _fits(moment, v)
        fits.append(ok)
        points.append(DecisionPoints(d.index, None, f"{moment}: intensity {v:.2f}, "
                                                    f"{'fits' if ok else 'does not fit'} ({FITS_MOMENT[moment]})"))
    peak = max(v for d, v in zip(trace.decisions, values) if d.index <= last)
    after = [v for d, v in zip(trace.decisions, values) if d.index > last]
    intermediate = any(CALM_MAX < v < HIGH_MIN for v in after)
    fraction = mean([1.0 if f else 0.0 for f in fits])
    if peak < HIGH_MIN:
        kind, score = "no_reaction", 0.0
    else:
        kind = "tracked" if intermediate else "tracked_instant"
        score = max(0.0, TRACKING_POINTS * fraction - (0.0 if intermediate else SHAPE_MARGIN))
    return make_score(
        trace, CATEGORY, "deescalation", points, score=score, caps=_caps(trace),
        summary=f"{kind}: peak {peak:.2f}, {fraction:.0%} of decisions fit their moment"
                + ("" if intermediate or kind == "no_reaction" else f"; no intermediate level: -{SHAPE_MARGIN:g}"),
        keyword={"after": [round(v, 3) for v in after]},
        sim={"kind": kind, "fraction": round(fraction, 3), "intermediate": intermediate},
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
    rising = g.delta >= RISE_MIN and g.last > MILD_MAX   # a polite step back as she comes close is composed
    if fraction >= COMPOSED_ALL:
        kind = "creeping_up" if rising else "calm"
    elif fraction >= COMPOSED_MOSTLY:
        kind = "uneasy"
    else:
        kind = "escalated"
    return make_score(trace, CATEGORY, "calm_maintenance", points, score=S25_POINTS[kind],
                      summary=f"{kind}: {fraction:.0%} of decisions composed, trend {g.delta:+.2f}",
                      sim={"composed_fraction": round(fraction, 3), "trend": round(g.delta, 3)})


RULES = {"S21": score_sustained_charge, "S22": score_switch, "S23": score_deescalation, "S24": score_sensitization,
         "S25": score_calm}
