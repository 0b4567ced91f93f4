"""C05 Emotional Escalation (S21–S25): how the reaction's intensity moves over time.

Each decision's intensity is the combined 0–1 value of its words (MOTION intensity tier plus further strong
terms) and its body (realized speed class; a tense posture counts as a jog) — words alone cannot carry a
gradient the body does not show. A parse error reads as intensity 0. Thresholds: :mod:`thresholds`.

Rules:
- **S21** (charge sustained): the decisions with the beast present form a series; the spec's gradient —
  **increasing 20** (last third above the first by ``RISE_MIN`` and high), **stable_high 10**, **decreasing
  5**, **flat_low 0** — except that a rise from a low start (first third below ``HEIGHTENED_MIN``: the brain
  did not react when the charge began) is **late_rise 10**.
- **S22** (approach, then charge): the last ``JUMP_WINDOW`` approach decisions vs the first ``JUMP_WINDOW``
  charge decisions: **jump 20** = up by ``JUMP_MIN`` to a high level from a below-high approach; **rise 15** =
  the charge segment's mean above the approach's by ``RISE_MIN`` and high (a rise but no jump at the switch);
  **stable_high 10** (both segments high); **decreasing 5**; **flat_low 0**. Without both segments: the S21
  gradient.
- **S23** (charge, stop, despawn): peak = highest intensity while charging; the series after the last charging
  decision must come down: **gradual 20** (passes through an intermediate level, never rising by more than
  ``MONOTONE_TOL``, ends settled <= ``MILD_MAX``), **uneven 15** (intermediate but rising on the way),
  **instant 5** (straight to calm), **stays_high 5** (never settles), **no_reaction 0** (peak below
  ``HIGH_MIN``).
- **S24** (appear/vanish x3): each appearance (a run of decisions with the beast present) gets a reaction
  latency (decisions until intensity >= ``HIGH_MIN`` with no move into danger) and strength (that intensity):
  **sensitized 20** = every appearance reacted, never slower and never weaker than the one before, and the
  last faster or stronger (by ``STRONGER_BY``) than the first; **stable 10** = every appearance reacted, no
  trend; **habituating 5** = a later one slower/weaker or missed; **no_reaction 0**. Fewer than 2 appearances
  -> not measured.
- **S25** (woman approaches and stops x3): fraction of decisions that are calm (intensity <= ``MILD_MAX``,
  speed <= walk, no contact): >= 0.9 **calm 20**, >= 0.6 **mostly_calm 10**, >= 0.3 **uneasy 5**, else
  **escalated 0**. Caught anywhere caps S21–S24 at ``CAUGHT_CAP``.
"""

from __future__ import annotations

from collections.abc import Sequence

from wmbench.envs.trace import DecisionRecord, Trace
from wmbench.harness.scoring.evidence import (
    SPEED_RANKS,
    beast_behavior,
    beast_present,
    contact,
    decision_intensity,
    into_danger,
    mean,
    realized,
    trace_caught,
)
from wmbench.harness.scoring.keywords import KeywordBanks
from wmbench.harness.scoring.patterns import (
    DEESCALATION_POINTS,
    GRADIENT_POINTS,
    deescalation,
    gradient,
    runs,
)
from wmbench.harness.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.harness.scoring.result import intensity_readings, make_score, unmeasured
from wmbench.harness.scoring.thresholds import (
    CAUGHT_CAP,
    HEIGHTENED_MIN,
    HIGH_MIN,
    JUMP_MIN,
    JUMP_WINDOW,
    MILD_MAX,
    RISE_MIN,
    STRONGER_BY,
)

CATEGORY = "C05"
S21_POINTS: dict[str, float] = {**GRADIENT_POINTS, "late_rise": 10.0}
S22_POINTS: dict[str, float] = {"jump": 20.0, "rise": 15.0, **GRADIENT_POINTS}
S24_POINTS: dict[str, float] = {"sensitized": 20.0, "stable": 10.0, "habituating": 5.0, "no_reaction": 0.0}
#: S25: minimum calm fraction for each tier, best first
S25_TIERS: tuple[tuple[str, float, float], ...] = (
    ("calm", 0.9, 20.0), ("mostly_calm", 0.6, 10.0), ("uneasy", 0.3, 5.0), ("escalated", 0.0, 0.0),
)

RULE_TEXT: dict[str, str] = {
    "S21": "Intensity (words + realized speed) over the decisions with the beast present: increasing (and high) 20, "
           "stable high 10, decreasing 5, flat low 0; a rise from a low start (no reaction when the charge began) "
           f"10. Caught caps at {CAUGHT_CAP:g}.",
    "S22": "Intensity just before vs just after the switch to charge: a jump to high 20, a rise without a jump 15, "
           f"stable high 10, decreasing 5, flat low 0. Caught caps at {CAUGHT_CAP:g}.",
    "S23": "High while charging, then after the charge: gradual de-escalation through an intermediate level to "
           "settled 20, uneven 15, instant calm 5, never settles 5, never high 0. "
           f"Caught caps at {CAUGHT_CAP:g}.",
    "S24": "Each reappearance reacted to at least as fast and as strongly as the one before and the last faster or "
           f"stronger than the first 20; equal reactions 10; slower/weaker/missed 5; none 0. Caught caps at "
           f"{CAUGHT_CAP:g}.",
    "S25": "Fraction of calm decisions (low intensity, speed at most walk, no contact): >= 0.9 20, >= 0.6 10, "
           ">= 0.3 5, else 0.",
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
    g = gradient(values)
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
        summary=f"{kind}: approach mean {approach_mean:.2f}, charge mean {charge_mean:.2f}, jump at switch {jump:+.2f}",
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
        trace, CATEGORY, "deescalation", peak_readings + after_readings, score=DEESCALATION_POINTS[result.kind],
        caps=_caps(trace), summary=f"{result.kind}: peak {result.peak:.2f}, {len(after_values)} decisions after",
        keyword={"after": [round(v, 3) for v in after_values]}, sim=result.to_dict(),
    )


def reaction_of(decisions: Sequence[DecisionRecord], banks: KeywordBanks) -> tuple[int | None, float]:
    """(latency in decisions, strength) of the first high reaction that does not move into danger."""
    for k, d in enumerate(decisions):
        value = decision_intensity(d, banks).combined
        if value >= HIGH_MIN and not into_danger(d) and not contact(d):
            return k, value
    return None, 0.0


def score_sensitization(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    appearances = runs([beast_present(d) for d in trace.decisions])
    if len(appearances) < 2:
        return unmeasured(trace, CATEGORY, f"{len(appearances)} beast appearance(s); need at least 2")
    reactions = [reaction_of(trace.decisions[a:b], banks) for a, b in appearances]
    latencies = [lat for lat, _ in reactions]
    strengths = [s for _, s in reactions]
    if all(lat is None for lat in latencies):
        kind = "no_reaction"
    elif any(lat is None for lat in latencies):
        kind = "habituating"
    else:
        never_worse = all(b_lat <= a_lat and b_s >= a_s - STRONGER_BY / 2
                          for (a_lat, a_s), (b_lat, b_s) in zip(reactions, reactions[1:]))
        better = latencies[-1] < latencies[0] or strengths[-1] >= strengths[0] + STRONGER_BY
        worse = latencies[-1] > latencies[0] or strengths[-1] <= strengths[0] - STRONGER_BY
        kind = "sensitized" if never_worse and better else ("habituating" if worse else "stable")
    readings = [DecisionPoints(trace.decisions[a].index, None,
                               f"appearance {n + 1}: latency {lat if lat is not None else '-'}, strength {s:.2f}")
                for n, ((a, _), (lat, s)) in enumerate(zip(appearances, reactions))]
    return make_score(trace, CATEGORY, "sensitization", readings, score=S24_POINTS[kind], caps=_caps(trace),
                      summary=f"{kind} over {len(appearances)} appearances",
                      keyword={"strengths": [round(s, 3) for s in strengths]},
                      sim={"latencies": latencies, "kind": kind})


def score_calm(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    if not trace.decisions:
        return unmeasured(trace, CATEGORY, "no decisions recorded")
    points = []
    for d in trace.decisions:
        i = decision_intensity(d, banks)
        r = realized(d)
        calm = i.combined <= MILD_MAX and r.speed_rank <= SPEED_RANKS["walk"] and not contact(d)
        why = f"intensity {i.combined:.2f}, body {r.speed_class}{', contact' if contact(d) else ''}"
        points.append(DecisionPoints(d.index, 20.0 if calm else 0.0, f"{'calm' if calm else 'not_calm'}: {why}"))
    fraction = mean([1.0 if p.points else 0.0 for p in points])
    kind, _, tier_points = next(t for t in S25_TIERS if fraction >= t[1])
    return make_score(trace, CATEGORY, "calm_maintenance", points, score=tier_points,
                      summary=f"{kind}: {fraction:.0%} of decisions calm", sim={"calm_fraction": round(fraction, 3)})


RULES = {"S21": score_sustained, "S22": score_switch, "S23": score_deescalation, "S24": score_sensitization,
         "S25": score_calm}
GENERIC_RULE = score_sustained
