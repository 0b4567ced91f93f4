"""C10 (cross-body transfer): the reference brain passes, broken transfers fail, run_suite reports it."""

from __future__ import annotations

import dataclasses
import json
import math
import re

import numpy as np
import pytest

from wmbench.body.drone import Quadrotor
from wmbench.body.robot import ServoRobot
from wmbench.body.servo_map import SERVO_TABLE, ServoMap
from wmbench.harness import c10, c10_metrics, runner
from wmbench.harness.c10 import C10_IDS, RULE_TEXT, measure_c10
from wmbench.harness.runner import run_suite
from wmbench.scenarios import get_scenario

BODIES = ("smpl", "robot", "drone")
#: What each rule must leave in ``evidence["transfer"]`` (the numbers the score came from).
EVIDENCE_KEYS = {
    "S46": {"failed", "incidents"},
    "S47": {"roundtrip_error", "rigs", "worst_error"},
    "S48": {"median_error_deg", "limit_violations", "rms_error_deg"},
    "S49": {"A_decisions_agree", "B_effort_order", "C_realized_cosine"},
    "S50": {"D_direction_cosine", "R_class_order", "raw_speed_rank_agreement"},
}


def _total(scores: dict) -> float:
    return sum(s.score for sid in C10_IDS for s in scores[sid])


@pytest.fixture(scope="module")
def reference_scores():
    return measure_c10("reference", (0,))


def test_reference_brain_transfers_to_every_body(reference_scores):
    print()
    for sid in C10_IDS:
        (score,) = reference_scores[sid]
        print(f"{sid} {score.score:5.1f}  {json.dumps(score.evidence['transfer'], default=str)[:300]}")
        assert score.measured and score.seed == 0 and score.category == "C10"
        assert score.evidence["rule"] not in ("nothing_to_transfer", "no_source_run")
        assert EVIDENCE_KEYS[sid] <= set(score.evidence["transfer"]), sid
        bodies = score.evidence["bodies"]
        assert set(bodies) >= set(BODIES)
        for body in BODIES:
            assert bodies[body]["ran"] and bodies[body]["decisions"] == score.evidence["replies"] == 6
            assert {"caught_rate", "collision_rate"} <= set(bodies[body])
        json.dumps(score.to_dict())  # plain JSON, as scores.json needs
    total = _total(reference_scores)
    print(f"C10 reference: {total:g}/100")
    assert total >= 80
    assert reference_scores["S47"][0].evidence["transfer"]["rigs"].keys() >= {"smpl24", "stubby"}
    assert reference_scores["S48"][0].evidence["transfer"]["limit_violations"] == 0


def test_null_brain_transfers_nothing_and_scores_zero():
    scores = measure_c10("null", (0,), scenarios=["S46", "S50"])
    for sid in ("S46", "S50"):
        (score,) = scores[sid]
        assert score.measured and score.score == 0.0 and score.evidence["rule"] == "nothing_to_transfer"


class ContraryDrone(Quadrotor):
    """A drone that flies every intent the opposite way: the decisions no longer transfer."""

    def apply_intent(self, intent):
        super().apply_intent(dataclasses.replace(intent, heading=intent.heading + math.pi))


def _replay_with(monkeypatch, body: str, make):
    """Replays on ``body`` use the instance ``make()`` builds instead of the registered body."""
    real = c10.replay_decisions

    def replay(scenario_id, replies, name, seed=0):
        if name != body:
            return real(scenario_id, replies, name, seed=seed)
        return real(scenario_id, replies, make(), seed=seed)  # replay_decisions takes a Body too

    monkeypatch.setattr(c10, "replay_decisions", replay)


def test_a_body_going_the_other_way_fails_multi_embodiment_consistency(monkeypatch, reference_scores):
    _replay_with(monkeypatch, "drone", ContraryDrone)
    broken = measure_c10("reference", (0,), scenarios=["S50"])["S50"][0]
    good = reference_scores["S50"][0]
    print(f"\nS50 contrary drone: {broken.explanation}")
    assert broken.evidence["transfer"]["D_direction_cosine"] < 0.5
    assert good.evidence["transfer"]["D_direction_cosine"] > 0.9
    assert broken.score < good.score and broken.score == 0.0


def test_a_retarget_with_wrong_proportions_fails_joint_format_universality(monkeypatch, reference_scores):
    real = c10_metrics.retarget.retarget

    def stretched(joints, rig):  # every rig 40 % taller than its bones say
        return real(joints, rig) * np.array([1.0, 1.4, 1.0])

    monkeypatch.setattr(c10_metrics.retarget, "retarget", stretched)
    broken = measure_c10("reference", (0,), scenarios=["S47"])["S47"][0]
    print(f"\nS47 stretched retarget: {broken.explanation}")
    assert broken.evidence["transfer"]["worst_error"] > 0.05
    assert broken.score < reference_scores["S47"][0].score


def test_weak_servos_fail_robot_servo_mapping(monkeypatch, reference_scores):
    weak = ServoMap(tuple(dataclasses.replace(row, effort=0.05) for row in SERVO_TABLE))
    _replay_with(monkeypatch, "robot", lambda: ServoRobot(servo_map=weak))
    broken = measure_c10("reference", (0,), scenarios=["S48"])["S48"][0]
    print(f"\nS48 weak servos: {broken.explanation}")
    good = reference_scores["S48"][0].evidence["transfer"]["median_error_deg"]
    assert broken.evidence["transfer"]["median_error_deg"] > good
    assert broken.score < reference_scores["S48"][0].score


def test_a_body_that_crashes_is_a_failed_transfer_not_a_crashed_run(monkeypatch):
    def crash():
        raise RuntimeError("robot firmware missing")

    _replay_with(monkeypatch, "robot", crash)
    scores = measure_c10("reference", (0,), scenarios=["S46", "S48", "S50"])
    s46, s48, s50 = (scores[sid][0] for sid in ("S46", "S48", "S50"))
    assert s46.score == c10.S46_POINTS["one_failed"] and s46.evidence["transfer"]["failed"] == ["robot"]
    assert "robot firmware missing" in s46.evidence["bodies"]["robot"]["error"]
    assert s48.score == 0.0 and "robot run failed" in s48.explanation
    assert s50.score == 0.0 and s50.measured


def test_a_scorer_fault_is_not_measured_not_a_lost_category(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("retarget table corrupt")

    monkeypatch.setattr(c10_metrics, "retarget_errors", broken)
    (score,) = measure_c10("reference", (0,), scenarios=["S47"])["S47"]
    assert not score.measured and "retarget table corrupt" in score.explanation


def test_order_agreement_and_class_order_agreement():
    same = {"a": [1.0, 2.0, 3.0], "b": [10.0, 20.0, 30.0]}
    assert c10_metrics.order_agreement(same, {"a": 0.0, "b": 0.0}) == 1.0
    flipped = {"a": [1.0, 2.0, 3.0], "b": [3.0, 2.0, 1.0]}
    assert c10_metrics.order_agreement(flipped, {"a": 0.0, "b": 0.0}) == 0.0
    assert c10_metrics.class_order_agreement([1, 1, 1], same) == (1.0, 0)  # nothing to contradict
    assert c10_metrics.class_order_agreement([1, 3, 2], same) == (pytest.approx(2 / 3), 3)


def test_non_c10_ids_are_reported_not_measured():
    scores = measure_c10("reference", (0,), scenarios=["S01"])
    assert not scores["S01"][0].measured and "not a C10 scenario" in scores["S01"][0].explanation


@pytest.mark.parametrize("sid", C10_IDS)
def test_card_rule_matches_the_measurer(sid):
    card = get_scenario(sid).card
    match = re.search(r"Rule:\s*(.*)\Z", card, flags=re.S)
    assert match, f"{sid} card has no Rule: paragraph"
    assert " ".join(match.group(1).split()) == " ".join(RULE_TEXT[sid].split())


def test_transfer_measurer_is_registered_for_run_suite():
    assert runner._with_live(None, True)["transfer"] is c10.measure_transfer


def test_run_suite_reports_c10_measured(tmp_path):
    scores = run_suite("reference", scenarios="C10", seeds=1, out=tmp_path, progress=False, reports=False)
    written = json.loads((tmp_path / "scores.json").read_text())
    category = written["categories"]["C10"]
    print(f"\nrun_suite C10: {category['score']}/100, per scenario "
          f"{ {sid: written['scenarios'][sid]['score'] for sid in C10_IDS} }")
    assert category["measured"] and category["score"] >= 80 and category["missing_scenarios"] == []
    assert written["run"]["not_measured_notes"] == [] and scores["categories"]["C10"] == category
    assert all(written["scenarios"][sid]["evidence"][0]["bodies"]["drone"]["ran"] for sid in C10_IDS)
