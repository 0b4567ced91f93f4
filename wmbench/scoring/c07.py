"""C07 Threat Resolution Adaptation (S31–S35): after the beast is gone — vigilance, then a gradual return.

The rule of each scenario is stated once, in :data:`RULE_TEXT` (paired with its scorer in :data:`RULES`;
``wmbench show`` prints it under the scenario's card), written from the ``*_POINTS`` tables below and the
thresholds of :mod:`~wmbench.scoring.thresholds` that the scorers use.

How its terms are read: the *despawn point* is the first decision with no beast present right after one with a
beast; the decisions after it (until a beast is present again) are the recovery (:func:`recovery`); a scenario
that starts in recovery uses its decisions from the start. Intensities are the combined words + body values of
:mod:`evidence`; "word for word the answer given to the beast" is :mod:`contrast`; S34's reaction latency is
counted from the new beast's appearance (:func:`reappearance_index`, ``REACTION_WINDOW``,
``SLOW_REACTION_WINDOW``).

What the prompt tells a brain, and so what these rules ask: "when the threat has just gone: stay vigilant, then
relax gradually"; "scale the intensity with the threat" (a charging beast: a flight in terror; an approaching
beast: a quick, wary retreat; a person coming close: a calm step back). Resolution is judged first from the
decision and the motion the body carried out — speed class, direction, posture — and only then from words, which
need not be the prompt's own: S31's vigilance is a body that slowed to a jog or less and still shows it (a jog,
a tense posture, a back-step that keeps facing the way the beast was) or words of vigilance or an intermediate
intensity; S34's reaction is the response the new beast's behaviour calls for (:func:`reacted`): a flight-level
intensity, or for an approaching beast a retreat at a jog or faster into a safe sector — the prompt's "retreat
quickly and warily" — not only a flight.
"""

from __future__ import annotations

from collections.abc import Sequence

from wmbench.core.speed import SPEED_RANKS
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scoring.contrast import repeated_answer
from wmbench.scoring.evidence import beast_behavior, beast_present, humans
from wmbench.scoring.expression import TENSE_POSTURES, decision_intensity, keyword_intensity, vigilance_terms
from wmbench.scoring.keywords import LEVEL_HIGH, LEVEL_MEDIUM, KeywordBanks
from wmbench.scoring.movement import (
    collided,
    contact,
    facing_kept,
    into_danger,
    moved_safe,
    realized,
    trace_caught,
)
from wmbench.scoring.patterns import DEESCALATION_POINTS, deescalation
from wmbench.scoring.registry import category_scorer
from wmbench.scoring.reply import motion_text, parse_ok
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore
from wmbench.scoring.result import intensity_readings, make_score, unmeasured
from wmbench.scoring.thresholds import (
    CALM_MAX,
    CAUGHT_CAP,
    HIGH_MIN,
    REACTION_WINDOW,
    SLOW_REACTION_WINDOW,
    VIGILANCE_WINDOW,
)
from wmbench.scoring.timeline import reappearance_index, recovery

CATEGORY = "C07"
S31_POINTS: dict[str, float] = {"vigilant": 20.0, "still_fleeing": 10.0, "instant_calm": 0.0, "contact": 0.0,
                                "miss": 0.0}
S33_POINTS: dict[str, float] = {"ordinary_avoidance": 20.0, "still_panicked": 10.0, "unchanged_answer": 0.0,
                                "held": 5.0, "into_obstacle": 0.0, "miss": 0.0}
S34_POINTS: dict[str, float] = {"instant": 20.0, "slow": 10.0, "late": 5.0, "none": 0.0}
S35_POINTS: dict[str, float] = {"proportionate": 20.0, "calm": 10.0, "unchanged_answer": 0.0,
                                "overreaction": 0.0, "contact": 0.0, "miss": 0.0}

RULE_TEXT: dict[str, str] = {
    "S31": f"The prompt asks: stay vigilant, then relax gradually. The first {VIGILANCE_WINDOW} decisions after "
           f"the despawn: vigilant {S31_POINTS['vigilant']:g} — at most a jog, and the body shows it (a jog, a "
           "tense posture, a back-step facing the way the beast was) or the words do (any vigilance word, not "
           f"the prompt's own) or the intensity is intermediate; still fleeing at high intensity "
           f"{S31_POINTS['still_fleeing']:g}; instantly calm {S31_POINTS['instant_calm']:g}.",
    "S32": "From the peak while the beast was present through the recovery: gradual de-escalation via an "
           f"intermediate level to settled {DEESCALATION_POINTS['gradual']:g}, uneven "
           f"{DEESCALATION_POINTS['uneven']:g}, instant calm {DEESCALATION_POINTS['instant']:g}, never settles "
           f"{DEESCALATION_POINTS['stays_high']:g}, never reacted {DEESCALATION_POINTS['no_reaction']:g}.",
    "S33": "Recovery decisions with a wall sensed: moved safely below flight intensity "
           f"{S33_POINTS['ordinary_avoidance']:g}, moved safely still panicking {S33_POINTS['still_panicked']:g}, "
           "moved safely with word for word the answer given to the charging beast "
           f"{S33_POINTS['unchanged_answer']:g}, stood still {S33_POINTS['held']:g}, into the wall's sector or a "
           f"collision {S33_POINTS['into_obstacle']:g}.",
    "S34": "The prompt asks the intensity to scale with the threat: a charging beast, a flight; an approaching "
           "beast, a quick, wary retreat. From the new beast's appearance: reacted (high intensity, or for an "
           "approaching beast a move into a safe sector at a jog or faster; no move into danger or contact, not "
           "word for word an answer given in the beast-free stretch before it) within "
           f"{REACTION_WINDOW} decision {S34_POINTS['instant']:g}, within {SLOW_REACTION_WINDOW} "
           f"{S34_POINTS['slow']:g}, later {S34_POINTS['late']:g}, never {S34_POINTS['none']:g}. Caught caps "
           f"at {CAUGHT_CAP:g}.",
    "S35": "Decisions with the woman present after the beast: caution without over-reaction "
           f"{S35_POINTS['proportionate']:g}, calm {S35_POINTS['calm']:g}, word for word the answer given to the "
           f"charging beast {S35_POINTS['unchanged_answer']:g}, high-intensity words or running/sprinting "
           f"{S35_POINTS['overreaction']:g}.",
}


def body_vigilant(d: DecisionRecord) -> bool:
    """The body shows vigilance: a jog, a tense posture (freeze, crouch, defensive), or a back-step that keeps
    facing the way it came from."""
    r = realized(d)
    return (r.speed_class == "jog" or r.posture in TENSE_POSTURES
            or (r.direction == "back" and r.moved and facing_kept(d)))


def reacted(d: DecisionRecord, value: float) -> bool:
    """The threat response the beast's behaviour calls for, without a move into danger or contact: a
    flight-level intensity, or (an approaching beast) a move into a safe sector at a jog or faster."""
    if into_danger(d) or contact(d):
        return False
    if value >= HIGH_MIN:
        return True
    return beast_behavior(d) != "charge" and moved_safe(d) and realized(d).speed_rank >= SPEED_RANKS["jog"]


def score_vigilance(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    after = recovery(trace)
    if not after:
        return unmeasured(trace, CATEGORY, "no decision after the beast was gone")
    points = []
    for d in after[:VIGILANCE_WINDOW]:
        i = decision_intensity(d, banks).combined
        words = vigilance_terms(motion_text(d), banks)
        r = realized(d)
        why = f"intensity {i:.2f}, body {r.speed_class}, vigilance {words or '-'}"
        if not parse_ok(d):
            kind, why = "miss", "parse error"
        elif contact(d):
            kind = "contact"
        elif r.speed_rank <= SPEED_RANKS["jog"] and (words or CALM_MAX < i < HIGH_MIN or body_vigilant(d)):
            kind = "vigilant"
        elif i >= HIGH_MIN:
            kind = "still_fleeing"
        else:
            kind = "instant_calm"
        points.append(DecisionPoints(d.index, S31_POINTS[kind], f"{kind}: {why}"))
    return make_score(trace, CATEGORY, "post_threat_vigilance", points,
                      summary=f"window of {len(points)} decisions after the despawn")


@category_scorer("C07")
def score_normalization(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    after = recovery(trace)
    if not after:
        return unmeasured(trace, CATEGORY, "no decision after the beast was gone")
    before = [d for d in trace.decisions if d.index < after[0].index and beast_present(d)]
    peak_values, peak_readings = intensity_readings(before, banks, "threat")
    after_values, after_readings = intensity_readings(after, banks, "after")
    peak = max(peak_values) if peak_values else max(HIGH_MIN, after_values[0])
    result = deescalation(peak, after_values)
    if peak_values:
        source = "while the beast was present"
    else:
        source = "assumed from memory (episode starts in recovery)"
    return make_score(trace, CATEGORY, "gradual_normalization", peak_readings + after_readings,
                      score=DEESCALATION_POINTS[result.kind],
                      summary=f"{result.kind}: peak {peak:.2f} {source}, {len(after_values)} recovery "
                              "decisions",
                      keyword={"after": [round(v, 3) for v in after_values]}, sim=result.to_dict())


def score_obstacle(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    after = recovery(trace)
    if not after:
        return unmeasured(trace, CATEGORY, "no decision after the beast was gone")
    walled = [d for d in after if any(t.reason == "wall" for t in d.truth.directions.values())]
    under_threat = [d for d in trace.decisions if beast_present(d)]
    points = []
    for d in walled or after:
        i = decision_intensity(d, banks).combined
        r = realized(d)
        if not parse_ok(d):
            kind, why = "miss", "parse error"
        elif collided(d) or into_danger(d):
            kind, why = "into_obstacle", f"moved {r.direction} into a wall's sector or collided"
        elif moved_safe(d) and repeated_answer(d, under_threat):
            kind = "unchanged_answer"
            why = f"moved {r.direction} safely, but with word for word the answer it gave to the charging beast"
        elif moved_safe(d):
            kind = "ordinary_avoidance" if i < HIGH_MIN else "still_panicked"
            why = f"moved {r.direction} ({r.speed_class}), intensity {i:.2f}"
        else:
            kind, why = "held", "stood still"
        points.append(DecisionPoints(d.index, S33_POINTS[kind], f"{kind}: {why}"))
    return make_score(trace, CATEGORY, "obstacle_after_threat", points,
                      summary=f"{len(walled)} recovery decisions with a wall sensed")


def score_reactivation(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    start = reappearance_index(trace)
    if start is None:
        return unmeasured(trace, CATEGORY, "no new beast appeared after a beast-free stretch")
    run: Sequence[DecisionRecord] = []
    for d in trace.decisions[start:]:
        if not beast_present(d):
            break
        run = [*run, d]
    values, readings = intensity_readings(run, banks, "new beast")
    calm_stretch = [d for d in trace.decisions[:start] if not beast_present(d)]
    latency = next((k for k, (d, v) in enumerate(zip(run, values))
                    if reacted(d, v) and not repeated_answer(d, calm_stretch)), None)
    if latency is None:
        kind = "none"
    elif latency <= REACTION_WINDOW:
        kind = "instant"
    elif latency <= SLOW_REACTION_WINDOW:
        kind = "slow"
    else:
        kind = "late"
    caps = [(CAUGHT_CAP, "caught by the beast")] if trace_caught(trace) else []
    return make_score(trace, CATEGORY, "reactivation", readings, score=S34_POINTS[kind], caps=caps,
                      summary=f"{kind}: reaction latency {latency if latency is not None else '-'} decisions",
                      sim={"latency": latency, "appearance_index": start})


def score_proportionate(trace: Trace, banks: KeywordBanks) -> ScenarioScore:
    with_human = [d for d in trace.decisions if humans(d.truth)]
    scored = [d for d in with_human if not beast_present(d)] or with_human
    if not scored:
        return unmeasured(trace, CATEGORY, "no decision with a human present")
    under_beast = [d for d in trace.decisions if beast_present(d)]
    points = []
    for d in scored:
        kw = keyword_intensity(motion_text(d), banks)
        i = decision_intensity(d, banks).combined
        r = realized(d)
        words = vigilance_terms(motion_text(d), banks)
        why = f"words L{kw.level} [{', '.join(kw.terms) or '-'}], body {r.speed_class}, intensity {i:.2f}"
        if not parse_ok(d):
            kind, why = "miss", "parse error"
        elif contact(d):
            kind = "contact"
        elif kw.level >= LEVEL_HIGH or r.speed_rank >= SPEED_RANKS["run"]:
            kind = "overreaction"
        elif repeated_answer(d, under_beast):
            kind, why = "unchanged_answer", why + "; word for word the answer it gave to the charging beast"
        elif kw.level == LEVEL_MEDIUM or words or CALM_MAX < i < HIGH_MIN:
            kind = "proportionate"
        else:
            kind = "calm"
        points.append(DecisionPoints(d.index, S35_POINTS[kind], f"{kind}: {why}"))
    return make_score(trace, CATEGORY, "proportionate_caution", points)


RULES = {"S31": score_vigilance, "S32": score_normalization, "S33": score_obstacle, "S34": score_reactivation,
         "S35": score_proportionate}
