"""C10 (cross-body transfer): the brain itself closed loop on every body; constants and null score low; broken
bodies lower the transfer; the pipeline checks (replay, retarget, servos, generators) stay as diagnostics."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest

from wmbench.body.drone.quadrotor import Quadrotor
from wmbench.body.robot.servo_map import SERVO_TABLE, ServoMap
from wmbench.body.robot.servo_robot import ServoRobot
from wmbench.brain.panel.brains import ConstantBrain
from wmbench.brain.registry import get_brain
from wmbench.envs import wmbench_env
from wmbench.harness import suite as runner
from wmbench.harness.suite import run_suite
from wmbench.harness.transfer import measure
from wmbench.harness.transfer import outcome as c10_outcome
from wmbench.harness.transfer.measure import measure_c10, measure_c10_brain
from wmbench.scenarios import get_scenario
from wmbench.scoring.c10 import diagnostics
from wmbench.scoring.c10 import metrics as c10_metrics
from wmbench.scoring.c10 import rule as brain_rule
from wmbench.scoring.c10.agreement import order_agreement
from wmbench.scoring.c10.diagnostics import C10_IDS, score_transfer

BODIES = ("smpl", "robot", "drone")
#: What each pipeline check leaves in its diagnostic's ``numbers`` (the numbers it came from).
EVIDENCE_KEYS = {
    "S46": {"failed", "incidents"},
    "S47": {"roundtrip_error", "rigs", "worst_error"},
    "S48": {"median_error_deg", "limit_violations", "rms_error_deg"},
    "S49": {"A_decisions_agree", "B_effort_order", "C_realized_cosine"},
    "S50": {"D_direction_cosine", "R_class_order", "raw_speed_rank_agreement"},
}


def _total(scores: dict) -> float:
    return sum(s.score for sid in C10_IDS for s in scores[sid])


def pipeline(sid: str):
    """The scenario's pipeline check (the former C10 rule) with the reference brain: a body diagnostic."""
    return score_transfer(measure.run_transfer(sid, get_brain("reference"), 0))


@pytest.fixture(scope="module")
def reference_scores(reference_transfer):
    return reference_transfer(0)  # measure_c10("reference", (0,)), once per session (tests/conftest.py)


def test_reference_brain_transfers_to_every_body(reference_scores):
    print()
    for sid in C10_IDS:
        (score,) = reference_scores[sid]
        print(f"{sid} {score.score:5.1f}  {score.explanation}")
        assert score.measured and score.seed == 0 and score.category == "C10"
        assert score.evidence["rule"] == "brain_transfer"
        bodies = score.evidence["bodies"]
        assert set(bodies) == set(BODIES)
        for body in BODIES:
            assert bodies[body]["runs"] == len(brain_rule.SCENE_VARIANTS) and bodies[body]["failed_runs"] == 0
        diagnostic = score.evidence["diagnostics"]
        assert diagnostic["measured"] and EVIDENCE_KEYS[sid] <= set(diagnostic["numbers"]), sid
        json.dumps(score.to_dict())  # plain JSON, as scores.json needs
    total = _total(reference_scores)
    print(f"C10 reference: {total:g}/100")
    assert total >= 80


def test_null_brain_earns_only_where_standing_still_is_right():
    # score-only runs: the same scores (tests/harness/transfer/test_outcome.py), without the runs after a catch
    scores = measure_c10_brain(lambda: get_brain("null"), (0,), ["S46", "S49"], diagnostics=False, score_only=True)
    assert scores["S46"][0].score == 0.0            # it stands still in front of an approaching beast
    assert scores["S49"][0].score == 20.0           # a woman who never comes near: a freeze is right


def test_a_brain_that_always_moves_the_same_way_does_not_score_well():
    beast_scenes = ["S46", "S48", "S50"]
    scores = measure_c10_brain(lambda: ConstantBrain("beast-ahead", "sprint-right-terror"), (0,), beast_scenes,
                               diagnostics=False, score_only=True)
    # in some heading of every beast scene, "right" runs into the wall or the beast
    print(f"\nC10 constant sprint right: { {sid: scores[sid][0].score for sid in beast_scenes} }")
    assert all(scores[sid][0].score <= 10.0 for sid in beast_scenes)


class ContraryDrone(Quadrotor):
    """A drone that flies every intent the opposite way: the brain's choices no longer carry over."""

    def apply_intent(self, intent):
        super().apply_intent(dataclasses.replace(intent, heading=intent.heading + math.pi))


def _body_as(monkeypatch, name: str, make):
    """Envs built with body ``name`` get ``make()`` instead of the registered body."""
    real = wmbench_env.get_body

    def get_body(body, **kwargs):
        return make() if body == name else real(body, **kwargs)

    monkeypatch.setattr(wmbench_env, "get_body", get_body)


def test_a_body_going_the_other_way_loses_the_transfer(monkeypatch, reference_scores):
    _body_as(monkeypatch, "drone", ContraryDrone)
    broken = measure_c10_brain(lambda: get_brain("reference"), (0,), ["S50"], diagnostics=False)["S50"][0]
    good = reference_scores["S50"][0]
    print(f"\nS50 contrary drone: {broken.explanation}")
    assert broken.evidence["bodies"]["drone"]["quality"] < 0.5 < good.evidence["bodies"]["drone"]["quality"]
    assert broken.score < good.score - 5


def test_a_body_that_crashes_is_a_failed_body_not_a_crashed_run(monkeypatch):
    def crash():
        raise RuntimeError("robot firmware missing")

    _body_as(monkeypatch, "robot", crash)
    (score,) = measure_c10("reference", (0,), scenarios=["S46"])["S46"]
    robot = score.evidence["bodies"]["robot"]
    assert score.measured and robot["failed_runs"] == robot["runs"] and robot["quality"] == 0.0
    assert "robot firmware missing" in robot["errors"][0]
    assert score.score <= 10.0       # the robot carried nothing over; the drone still did


def test_scene_variants_turn_the_protagonist_not_the_world():
    record = get_scenario("S46")
    turned = c10_outcome.scene_variant(record, "turned_around")
    assert turned.id == record.id and turned.phases[0].walls == record.phases[0].walls
    assert turned.phases[0].start_heading == pytest.approx(record.phases[0].start_heading + math.pi)
    with pytest.raises(ValueError, match="unknown scene variant"):
        c10_outcome.scene_variant(record, "upside_down")


# ------------------------------------------------------------------ pipeline checks (body diagnostics)


def _replay_with(monkeypatch, body: str, make):
    """Replays on ``body`` use the instance ``make()`` builds instead of the registered body."""
    real = measure.replay_decisions

    def replay(scenario_id, replies, name, seed=0):
        if name != body:
            return real(scenario_id, replies, name, seed=seed)
        return real(scenario_id, replies, make(), seed=seed)  # replay_decisions takes a Body too

    monkeypatch.setattr(measure, "replay_decisions", replay)


def test_a_retarget_with_wrong_proportions_fails_the_joint_format_diagnostic(monkeypatch):
    good = pipeline("S47")
    real = c10_metrics.retarget.retarget

    def stretched(joints, rig):  # every rig 40 % taller than its bones say
        return real(joints, rig) * np.array([1.0, 1.4, 1.0])

    monkeypatch.setattr(c10_metrics.retarget, "retarget", stretched)
    broken = pipeline("S47")
    assert broken.evidence["transfer"]["worst_error"] > 0.05
    assert broken.score < good.score


def test_weak_servos_fail_the_servo_diagnostic(monkeypatch):
    good = pipeline("S48").evidence["transfer"]["median_error_deg"]
    weak = ServoMap(tuple(dataclasses.replace(row, effort=0.05) for row in SERVO_TABLE))
    _replay_with(monkeypatch, "robot", lambda: ServoRobot(servo_map=weak))
    broken = pipeline("S48")
    assert broken.evidence["transfer"]["median_error_deg"] > good


def test_a_diagnostic_fault_never_costs_the_brain_its_score(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("retarget table corrupt")

    monkeypatch.setattr(c10_metrics, "retarget_errors", broken)
    (score,) = measure_c10("reference", (0,), scenarios=["S47"])["S47"]
    assert score.measured and score.score >= 15.0
    assert "retarget table corrupt" in score.evidence["diagnostics"]["explanation"]


def test_order_agreement_and_class_order_agreement():
    same = {"a": [1.0, 2.0, 3.0], "b": [10.0, 20.0, 30.0]}
    assert order_agreement(same, {"a": 0.0, "b": 0.0}) == 1.0
    flipped = {"a": [1.0, 2.0, 3.0], "b": [3.0, 2.0, 1.0]}
    assert order_agreement(flipped, {"a": 0.0, "b": 0.0}) == 0.0
    assert c10_metrics.class_order_agreement([1, 1, 1], same) == (1.0, 0)  # nothing to contradict
    assert c10_metrics.class_order_agreement([1, 3, 2], same) == (pytest.approx(2 / 3), 3)


def test_non_c10_ids_are_reported_not_measured():
    scores = measure_c10("reference", (0,), scenarios=["S01"])
    assert not scores["S01"][0].measured and "not a C10 scenario" in scores["S01"][0].explanation


def test_transfer_measurer_is_a_default_measurer_of_run_suite():
    assert runner.default_measurers()["transfer"] is measure.measure_transfer


def test_run_suite_reports_c10_measured(tmp_path, monkeypatch, reference_scores):
    """The suite's wiring: its transfer measurer asks for the reference's C10 on seed 0 (the module fixture's
    measurement, reused rather than run a second time) and scores.json carries it."""
    asked = []

    def measured(brain, seeds, **kwargs):
        asked.append((brain, tuple(seeds), tuple(kwargs["scenarios"])))
        return reference_scores

    monkeypatch.setattr(measure, "measure_c10", measured)
    scores = run_suite("reference", scenarios="C10", seeds=1, out=tmp_path, progress=False, reports=False)
    assert asked == [("reference", (0,), C10_IDS)], asked
    written = json.loads((tmp_path / "scores.json").read_text())
    category = written["categories"]["C10"]
    print(f"\nrun_suite C10: {category['score']}/100, per scenario "
          f"{ {sid: written['scenarios'][sid]['score'] for sid in C10_IDS} }")
    assert category["measured"] and category["score"] >= 80 and category["missing_scenarios"] == []
    assert written["run"]["not_measured_notes"] == [] and scores["categories"]["C10"] == category
    assert all(written["scenarios"][sid]["evidence"][0]["bodies"]["drone"]["failed_runs"] == 0 for sid in C10_IDS)


def _smpl_runs(sid: str, motion: str, variants=brain_rule.SCENE_VARIANTS):
    """The constant ``all-safe/<motion>`` closed loop on the character in ``variants`` of ``sid``."""
    brain = ConstantBrain("all-safe", motion)
    try:
        return c10_outcome.run_bodies(get_scenario(sid), brain, 0, ("smpl",), variants)["smpl"]
    finally:
        brain.close()


def _fits(trace):
    following = [*trace.decisions[1:], None]
    return [brain_rule.decision_fit(d, nxt) for d, nxt in zip(trace.decisions, following, strict=True)]


@pytest.mark.parametrize(("motion", "fits", "why"), [
    ("sprint-fwd-panic", False, "panic at a neutral person"),   # before the fix: "moved fwd safely"
    ("walk-fwd", False, "toward woman"),                         # calm, but straight at her
    ("still", True, "stood still"),                              # she never comes within 2 m: a freeze fits
])
def test_near_a_person_only_a_calm_move_that_does_not_head_at_her_fits(motion, fits, why):
    """S49 as recorded (the woman ahead, no beast): a sprint is panic and a walk forward heads at her."""
    ((_, trace, error),) = _smpl_runs("S49", motion, ("as_recorded",))
    assert trace is not None, error
    found = _fits(trace)
    # while she is near and ahead (a move forward that has taken the body past her leaves her behind)
    near = [f for f, d in zip(found, trace.decisions, strict=True)
            if any(n.type == "woman" and n.nearby and n.direction == "fwd" for n in d.truth.npcs)]
    assert len(near) >= 2, [(f.fits, f.why) for f in found]
    assert all(f.fits is fits for f in near) and why in near[0].why, [(f.fits, f.why) for f in near]


def test_a_body_is_as_good_as_its_worst_start():
    """A constant forward sprint escapes S46 only where the turn put the beast behind or beside it: Q is the
    worst start (caught, 0), not the mean over starts that paid it for the lucky ones (0.5 before)."""
    outcome = brain_rule.body_outcome("smpl", _smpl_runs("S46", "sprint-fwd-panic"))
    assert outcome.caught_runs >= 1 and outcome.quality == 0.0, outcome
    assert outcome.mean_quality >= 0.4, outcome


def test_a_c10_rule_that_raises_propagates(monkeypatch) -> None:
    """A bug in a C10 rule (issue 10 item 8) surfaces; it used to become a *not measured* C10 entry."""
    def buggy_rule(runs):
        return {}["no_such_field"]

    source = c10_metrics.BodyRun("smpl", None)
    runs = c10_metrics.TransferRuns("S46", 0, ("MOTION: a person runs left",), source, {})
    monkeypatch.setattr(diagnostics, "_nothing_to_transfer", lambda runs: None)
    monkeypatch.setitem(diagnostics.SCORERS, "S46", buggy_rule)
    with pytest.raises(KeyError, match="no_such_field"):
        score_transfer(runs)
