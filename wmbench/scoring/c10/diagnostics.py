"""C10 rules and scoring: one scenario and seed's transfer runs -> its :class:`ScenarioScore`.

The brain's C10 score is its closed-loop transfer (:mod:`wmbench.scoring.c10.rule`); :data:`RULE_TEXT`
is its one statement, and the scenario cards' ``Rule:`` paragraphs are generated from it
(:mod:`wmbench.harness.cli.scenario_cards`). The scorers below are the *pipeline checks* (replay, retarget,
servo, generators, body agreement; rules in :data:`PIPELINE_RULE_TEXT`): they are reported as body
diagnostics in each score's evidence, not added to the brain's score.

Card
----
- The setup: :data:`SOURCE_BODY` runs with the brain; :data:`TARGET_BODIES` replay its replies;
  :data:`GENERATORS` are the character's own motion generator and the independent one S49 reads the replies
  with; :data:`RETARGET_RIGS` the rigs S47 retargets onto.
- Bands are ``(bound, points)`` pairs, best first: :func:`points_at_most` for errors (S47, S48),
  :func:`points_at_least` for agreements (S49, S50); a value past every band scores 0
  (:mod:`wmbench.scoring.bands`, shared with C09).
- :func:`score_transfer` is the entry point: pure, a function of the :class:`TransferRuns` only. A brain that
  gave the other bodies nothing to act out (no decision, or none that travels) scores 0 on every rule; a
  scorer that raises gives a *not measured* entry with the error instead of losing the category.
- ``score_s46`` … ``score_s50`` (in :data:`SCORERS`) score one rule each; every score's evidence holds the
  rule, the numbers it came from (``transfer``), the bands, and per body whether it ran, its wall-collision
  and caught rates.
- :func:`body_envelope`: a body's own speed per class (S50 judges each body against its envelope).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from wmbench.body.motion.registry import selected_generator_name
from wmbench.body.registry import get_body
from wmbench.scoring.bands import band_text, not_measured_in, points_at_least, points_at_most
from wmbench.scoring.c10 import metrics
from wmbench.scoring.c10 import rule as brain_rule
from wmbench.scoring.c10.agreement import direction_agreement, order_agreement, speed_rank_agreement
from wmbench.scoring.c10.metrics import TransferRuns, body_facts
from wmbench.scoring.report_types import Evidence, ScenarioScore

CATEGORY = "C10"
C10_IDS: tuple[str, ...] = ("S46", "S47", "S48", "S49", "S50")
SOURCE_BODY = "smpl"
TARGET_BODIES: tuple[str, ...] = ("robot", "drone")
#: The character's own generator, and the independent one the replies are also read by (S49), when no
#: ``--motion-model`` is selected; :func:`generator_pair` gives the pair a run really uses.
GENERATORS: tuple[str, str] = ("procedural", "keyframe")


def generator_pair() -> tuple[str, str]:
    """The selected motion generator (``--motion-model``; procedural by default) and an independent second
    one (keyframe, or procedural when keyframe is the one selected)."""
    chosen = selected_generator_name()
    return chosen, ("procedural" if chosen == "keyframe" else "keyframe")
RETARGET_RIGS: tuple[str, ...] = ("smpl24", "stubby", "robot")
#: S46 points: all clean, one incident, several incidents, one body failed; more failures score 0.
S46_POINTS = {"clean": 20.0, "one_incident": 15.0, "incidents": 10.0, "one_failed": 5.0}
#: (upper bound, points), best first: bone-length-normalised pose error (S47).
POSE_ERROR_POINTS: tuple[tuple[float, float], ...] = ((0.05, 20.0), (0.10, 15.0), (0.20, 5.0))
#: (upper bound in degrees, points), best first: the robot's median servo tracking error (S48).
SERVO_ERROR_POINTS_DEG: tuple[tuple[float, float], ...] = ((5.0, 20.0), (10.0, 15.0), (20.0, 5.0))
SERVO_VIOLATION_CAP = 5.0
#: (lower bound, points), best first: agreement fractions / cosines (S49, S50).
AGREEMENT_POINTS: tuple[tuple[float, float], ...] = ((0.9, 20.0), (0.75, 15.0), (0.5, 5.0))
CLIP_SECONDS = 1.0
FACING_TOLERANCE_DEG = 45.0

_NO_MOVE = "A brain that never asked for movement scores 0 (nothing was transferred)."
#: Each scenario's pipeline check (the former C10 rule), now a body diagnostic reported outside the score.
PIPELINE_RULE_TEXT: dict[str, str] = {
    "S46": "The character's replies are replayed on the robot and the drone with no brain in the loop; a "
           f"body ran when it played every reply (or was caught) without an error. {S46_POINTS['clean']:g} = "
           "all three ran and none collided with a wall or was caught; "
           f"{S46_POINTS['one_incident']:g} = all ran, one body collided or was caught; "
           f"{S46_POINTS['incidents']:g} = all ran, two or more collided or were caught; "
           f"{S46_POINTS['one_failed']:g} = one body failed to run; 0 = more than one failed. " + _NO_MOVE,
    "S47": "The character's 22-joint frames go to the HumanML3D 263-dim features and back to 22 joints, "
           "which are retargeted to the SMPL-24 rig, the custom stubby rig (legs 0.7x, arms 1.3x) and the "
           "robot's rig; the error is the worst bone-length-normalised pose error (of the round trip and of "
           f"each rig, relative to its chain lengths): {band_text(POSE_ERROR_POINTS, '<=', ' %', 100)}, "
           "more = 0. " + _NO_MOVE,
    "S48": "Over the robot's replay, the servo tracking error at the end of each decision (the mean "
           "absolute difference between command and angle over its servos, read from the body state) is "
           f"taken; its median in degrees: {band_text(SERVO_ERROR_POINTS_DEG, '<=')}, more = 0; any servo "
           f"limit violation caps at {SERVO_VIOLATION_CAP:g}; a robot run that failed scores 0. " + _NO_MOVE,
    "S49": f"Each decision's intent is rendered for {CLIP_SECONDS:g} s by the procedural and the keyframe "
           "generator and read back from the joints. A = fraction of decisions where both travel the same way "
           f"(or both stay), at the same speed class, ending with facings within {FACING_TOLERANCE_DEG:g} deg; "
           "B = fraction of the decision "
           "pairs of different speed classes whose limb effort both generators order like the classes (1 "
           "when all decisions share a class); and C = the mean cosine (floored at 0) between the "
           "character's realized directions driven by each generator. min(A, B, C): "
           f"{band_text(AGREEMENT_POINTS, '>=')}, less = 0. " + _NO_MOVE,
    "S50": "Per decision, the realized directions of the character, the robot and the drone (relative to "
           "each body's heading) and their speed classes (each against its own body's envelope) are "
           "compared. D = mean cosine of the directions over body pairs; R = agreement of the bodies' "
           f"orderings of the decisions by speed class. min(D, R): {band_text(AGREEMENT_POINTS, '>=')}, "
           "less = 0; a body that failed to run scores 0. " + _NO_MOVE,
}


#: Each scenario's rule, the source of its card's ``Rule:`` paragraph: the brain's own closed-loop transfer
#: (:mod:`wmbench.scoring.c10.rule`), with the scenario's pipeline check named as a diagnostic.
RULE_TEXT: dict[str, str] = {sid: brain_rule.RULE_TEXT + brain_rule.DIAGNOSTIC_OF[sid] for sid in C10_IDS}


# ------------------------------------------------------------------------------------------------ scoring


def _bodies(runs: TransferRuns) -> dict[str, dict[str, Any]]:
    return {name: body_facts(run, len(runs.replies)) for name, run in runs.bodies.items()}


def _score(runs: TransferRuns, rule: str, points: float, summary: str, numbers: Mapping[str, Any],
           bands: Any = None) -> ScenarioScore:
    sid = runs.scenario_id
    evidence: Evidence = {"rule": rule, "transfer": dict(numbers), "bands": bands, "bodies": _bodies(runs),
                "replies": len(runs.replies), "moving_decisions": metrics.moving_decisions(runs.source)}
    return ScenarioScore(scenario_id=sid, category=CATEGORY, score=float(points), measured=True,
                         explanation=f"{sid} [{rule}]: {summary} -> score {points:g}/20", evidence=evidence,
                         seed=runs.seed)


def _nothing_to_transfer(runs: TransferRuns) -> ScenarioScore | None:
    """The 0 of a run that gave the other bodies nothing to act out (see the module card), else None."""
    if not runs.source.decisions:
        why = runs.source.error.splitlines()[0] if runs.source.error else "no decisions"
        return _score(runs, "no_source_run", 0.0, f"the character's run with the brain failed ({why})", {})
    if metrics.moving_decisions(runs.source) == 0:
        return _score(runs, "nothing_to_transfer", 0.0,
                      f"none of the {len(runs.replies)} replies asked the body to move; "
                      "nothing was transferred", {})
    return None


def score_s46(runs: TransferRuns) -> ScenarioScore:
    facts = _bodies(runs)
    failed = [b for b, f in facts.items() if not f["ran"]]
    incidents = [b for b, f in facts.items() if f["ran"] and (f["collision_decisions"] or f["caught"])]
    if len(failed) > 1:
        points = 0.0
    elif failed:
        points = S46_POINTS["one_failed"]
    elif not incidents:
        points = S46_POINTS["clean"]
    else:
        points = S46_POINTS["one_incident" if len(incidents) == 1 else "incidents"]
    per_body = ", ".join(
        f"{b}: {'ran' if f['ran'] else 'FAILED'} (collisions {f['collision_decisions']}/{f['decisions']}, "
        f"caught {'yes' if f['caught'] else 'no'})" for b, f in facts.items())
    return _score(runs, "decoupled_replay", points, per_body,
                  {"failed": failed, "incidents": incidents,
                   "errors": {b: f["error"] for b, f in facts.items() if f["error"]}}, S46_POINTS)


def score_s47(runs: TransferRuns) -> ScenarioScore:
    if runs.frames is None or len(runs.frames) < 2:
        return _score(runs, "retarget_error", 0.0, "the character produced no joint frames to retarget", {})
    try:
        found = metrics.retarget_errors(runs.frames, RETARGET_RIGS, runs.frame_rate)
    except (ValueError, KeyError) as err:
        return _score(runs, "retarget_error", 0.0, f"retargeting failed ({type(err).__name__}: {err})", {})
    errors = {"roundtrip": found["roundtrip_error"], **{r: v["pose_error"] for r, v in found["rigs"].items()}}
    worst = max(errors, key=errors.__getitem__)
    points = points_at_most(errors[worst], POSE_ERROR_POINTS)
    listed = ", ".join(f"{k} {100 * v:.2f} %" for k, v in errors.items())
    return _score(runs, "retarget_error", points,
                  f"{found['frames']} frames via {found['feature_dims']}-dim features; pose error {listed}; "
                  f"worst {worst}", {**found, "worst": worst, "worst_error": errors[worst]},
                  POSE_ERROR_POINTS)


def score_s48(runs: TransferRuns) -> ScenarioScore:
    robot = runs.replays.get("robot")
    if robot is None or not body_facts(robot, len(runs.replies))["ran"]:
        why = "no robot run" if robot is None else body_facts(robot, len(runs.replies))["error"]
        return _score(runs, "servo_tracking", 0.0, f"the robot run failed: {str(why).splitlines()[0]}", {})
    found = metrics.servo_readings(robot)
    if found is None:
        return ScenarioScore(scenario_id=runs.scenario_id, category=CATEGORY, score=0.0, measured=False,
                             explanation=f"{runs.scenario_id}: not measured: the robot body reports no "
                                         f"'{metrics.SERVO_ERROR_KEY}' in its state extras",
                             evidence={"rule": "not_measured", "bodies": _bodies(runs)}, seed=runs.seed)
    points = points_at_most(found["median_error_deg"], SERVO_ERROR_POINTS_DEG)
    capped = found["limit_violations"] > 0 and points > SERVO_VIOLATION_CAP
    if capped:
        points = SERVO_VIOLATION_CAP
    summary = (f"median servo tracking error {found['median_error_deg']:.3f} deg over {len(robot.decisions)} "
               f"decisions (RMS since spawn {found['rms_error_deg']:.3f} deg), {found['limit_violations']} "
               f"limit violations, {found['commands_clamped']} clamped commands"
               + ("; capped at 5: limit violations" if capped else ""))
    return _score(runs, "servo_tracking", points, summary, found,
                  {"error_deg": SERVO_ERROR_POINTS_DEG, "violation_cap": SERVO_VIOLATION_CAP})


def score_s49(runs: TransferRuns) -> ScenarioScore:
    generators = generator_pair()
    intents = [d.intent for d in runs.source.decisions]
    readings = metrics.generator_readings(intents, generators, CLIP_SECONDS, runs.frame_rate, runs.seed)
    first, second = (readings[g] for g in generators)
    tolerance = math.radians(FACING_TOLERANCE_DEG)
    agree = [bool(a.direction == b.direction and a.speed_class == b.speed_class
                  and metrics.facing_gap(a.facing, b.facing) <= tolerance) for a, b in zip(first, second)]
    a_frac = sum(agree) / len(agree)
    effort = {g: [r.limb_speed for r in readings[g]] for g in generators}
    ranks = [metrics.intent_rank(i) for i in intents]
    b_order, b_pairs = metrics.class_order_agreement(ranks, effort)
    other = runs.generator_replay
    if other is None or other.trace is None or runs.source.trace is None:
        c_cos, c_note = 0.0, f"the character did not run with the {generators[1]} generator: " + (
            str(other.error).splitlines()[0] if other is not None else "no run")
    else:
        c_cos = max(0.0, direction_agreement({generators[0]: runs.source.trace, generators[1]: other.trace}))
        c_note = ""
    value = min(a_frac, b_order, c_cos)
    points = points_at_least(value, AGREEMENT_POINTS)
    summary = (f"{sum(agree)}/{len(agree)} decisions read alike by {' and '.join(generators)} "
               f"(A {a_frac:.3f}), "
               f"limb effort ordered like the speed classes B {b_order:.3f} ({b_pairs} pairs), "
               f"realized direction cosine C {c_cos:.3f}"
               + (f" ({c_note})" if c_note else "") + f"; min {value:.3f}")
    numbers = {"A_decisions_agree": round(a_frac, 4), "B_effort_order": round(b_order, 4), "B_pairs": b_pairs,
               "C_realized_cosine": round(c_cos, 4), "min": round(value, 4),
               "per_decision": [{"agree": ok, **{g: readings[g][i].to_dict() for g in generators}}
                                for i, ok in enumerate(agree)]}
    return _score(runs, "two_generators", points, summary, numbers, AGREEMENT_POINTS)


@cache
def body_envelope(body: str) -> Mapping[str, float]:
    """A body's own speed per class (its declared ``envelope``; :class:`~wmbench.body.base.BodyBase` defaults
    to the character's speeds)."""
    return dict(get_body(body).envelope)


def score_s50(runs: TransferRuns) -> ScenarioScore:
    facts = _bodies(runs)
    failed = [b for b, f in facts.items() if not f["ran"]]
    if failed:
        return _score(runs, "multi_body_agreement", 0.0, f"{', '.join(failed)} failed to run",
                      {"failed": failed}, AGREEMENT_POINTS)
    bodies = runs.bodies
    n = min(len(r.decisions) for r in bodies.values())
    traces = {b: r.trace for b, r in bodies.items()}
    d_cos = direction_agreement(traces)
    classes = {b: metrics.speed_classes(r, body_envelope(b), n) for b, r in bodies.items()}
    ranks = {b: [metrics.class_rank(c, body_envelope(b)) for c in cs] for b, cs in classes.items()}
    r_order = order_agreement(ranks, dict.fromkeys(ranks, 0.0))
    directions = {b: [d.realized.get("direction") for d in r.decisions[:n]] for b, r in bodies.items()}
    same = [len({directions[b][i] for b in bodies}) == 1 and len({classes[b][i] for b in bodies}) == 1
            for i in range(n)]
    value = min(d_cos, r_order)
    points = points_at_least(value, AGREEMENT_POINTS)
    summary = (f"over {n} decisions on {', '.join(bodies)}: direction cosine D {d_cos:.3f}, "
               f"speed-class order agreement R {r_order:.3f}; min {value:.3f} ({sum(same)}/{n} decisions "
               f"identical in sector and class)")
    numbers = {"D_direction_cosine": round(d_cos, 4), "R_class_order": round(r_order, 4),
               "min": round(value, 4),
               "raw_speed_rank_agreement": round(speed_rank_agreement(traces), 4),
               "decisions_identical": round(sum(same) / n, 4) if n else 1.0,
               "directions": directions, "speed_classes": classes,
               "envelopes": {b: dict(body_envelope(b)) for b in bodies}}
    return _score(runs, "multi_body_agreement", points, summary, numbers, AGREEMENT_POINTS)


SCORERS: dict[str, Callable[[TransferRuns], ScenarioScore]] = {
    "S46": score_s46, "S47": score_s47, "S48": score_s48, "S49": score_s49, "S50": score_s50,
}


def score_transfer(runs: TransferRuns) -> ScenarioScore:
    """One scenario and seed's score by its rule (see the module card); pure. A rule that raises is a bug in
    the rule and propagates (a body that failed to run is already a recorded failure in ``runs``)."""
    if runs.scenario_id not in SCORERS:
        return not_measured(runs.scenario_id, f"no C10 rule for {runs.scenario_id}", runs.seed)
    return _nothing_to_transfer(runs) or SCORERS[runs.scenario_id](runs)


def not_measured(sid: str, why: str, seed: int | None = None) -> ScenarioScore:
    """A C10 scenario not measured, saying why."""
    return not_measured_in(CATEGORY, sid, why, seed)
