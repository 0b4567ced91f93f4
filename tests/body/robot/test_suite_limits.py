"""The servo robot over the whole bench suite (C01–C08, reference brain, seed 0): servo limits and tracking.

Every decision's ``body_after`` extras (the robot's ``state().extras``) carry the servo readings;
:func:`~wmbench.scoring.c10.metrics.servo_readings` (the S48 measurer's reader) sums them per episode. The
median per-decision tracking error over the suite is printed and carried in the assertion messages.

NPCs are kinematic multibodies teleported every frame, so the env disables their contacts with a dynamic
protagonist (a catch is judged by distance): before that, a charging beast reaching the robot shoved its links
past their joint limits (S17, S21, S22, S23, S36 at seed 0).
"""

from __future__ import annotations

import math
from statistics import median

import pytest

from wmbench.harness.run.episode import EpisodeResult
from wmbench.protocol.trace import Trace
from wmbench.scenarios import all_scenarios
from wmbench.scoring.c10.metrics import (
    SERVO_ERROR_KEY,
    SERVO_VIOLATIONS_KEY,
    BodyRun,
    servo_readings,
)

SEED = 0
BODY = "robot"
BENCH_CATEGORIES = ("C01", "C02", "C03", "C04", "C05", "C06", "C07", "C08")
SUITE_IDS = [s.id for s in all_scenarios() if s.category in BENCH_CATEGORIES]
#: Generous sanity bound on the median per-decision tracking error (the S48 band for full points is 5°).
MEDIAN_ERROR_BOUND_DEG = 5.0
#: Centre-to-centre ground distance (m) within which a beast can touch the robot: the beast's head reaches
#: 1.17 m ahead of its centre, the robot's swinging arms 0.4 m from its root.
BEAST_CONTACT_DISTANCE = 1.6


@pytest.fixture(scope="module")
def suite(reference_episode) -> dict[str, EpisodeResult]:
    # shared with the bodies' closed-loop test through the session fixture (tests/conftest.py)
    results = {sid: reference_episode(sid, body=BODY, seed=SEED) for sid in SUITE_IDS}
    failed = {sid: r.error.splitlines()[0] for sid, r in results.items() if not r.ok}
    assert not failed, f"robot episodes failed: {failed}"
    return results


def readings(result: EpisodeResult) -> dict:
    found = servo_readings(BodyRun(BODY, Trace.from_dict(result.trace)))
    assert found is not None, f"{result.scenario}: the robot reported no servo extras"
    return found


def violation_report(suite: dict[str, EpisodeResult]) -> str:
    counts = {sid: readings(r)["limit_violations"] for sid, r in suite.items()}
    bad = {sid: n for sid, n in counts.items() if n}
    return (f"servo-frames beyond limits over {len(suite)} robot episodes: {sum(counts.values())}"
            + (f", in {bad}" if bad else ""))


def test_every_decision_carries_the_servo_readings(suite):
    missing = [(sid, d["index"]) for sid, r in suite.items() for d in r.trace["decisions"]
               if not {SERVO_ERROR_KEY, SERVO_VIOLATIONS_KEY} <= set(d["body_after"].get("extras") or {})]
    assert not missing, f"decisions without servo extras (scenario, decision): {missing[:10]}"


def test_median_tracking_error_is_small(suite):
    errors = [e for r in suite.values() for e in readings(r)["per_decision_error_deg"]]
    per_scenario = {sid: readings(r)["median_error_deg"] for sid, r in suite.items()}
    worst = max(per_scenario, key=per_scenario.__getitem__)
    report = (f"robot servo tracking error over {len(suite)} episodes / {len(errors)} decisions: median "
              f"{median(errors):.3f} deg, max {max(errors):.3f} deg; worst scenario median {worst} "
              f"{per_scenario[worst]:.3f} deg; {violation_report(suite)}")
    print("\n" + report)
    assert len(errors) == sum(r.n_decisions for r in suite.values()), report
    assert all(math.isfinite(e) and e >= 0.0 for e in errors), report
    assert median(errors) < MEDIAN_ERROR_BOUND_DEG, report


def test_limit_violations_happen_only_where_a_beast_reaches_the_robot(suite):
    """Narrows the known failure below: no servo leaves its limits unless a beast is within touching
    distance during that decision (the counter is cumulative since spawn, so a rise marks the decision)."""
    unexplained = []
    for sid, result in suite.items():
        before = 0
        for d in result.trace["decisions"]:
            count = int(d["body_after"]["extras"][SERVO_VIOLATIONS_KEY])
            nearest = d["realized"].get("min_threat_distance")
            if count > before and (nearest is None or nearest > BEAST_CONTACT_DISTANCE):
                unexplained.append(f"{sid} decision {d['index']}: +{count - before} with the nearest beast at "
                                   f"{nearest} m")
            before = count
    assert not unexplained, "; ".join(unexplained) + f"\n{violation_report(suite)}"


def test_no_servo_exceeds_its_limits(suite):
    report = violation_report(suite)
    print("\n" + report)
    assert all(readings(r)["limit_violations"] == 0 for r in suite.values()), report
