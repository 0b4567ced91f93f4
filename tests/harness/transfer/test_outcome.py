"""C10's runs (issue 27 item 4): on a slower body the scene plays out slower, not shorter."""

from __future__ import annotations

from wmbench.brain.registry import get_brain
from wmbench.harness.transfer.outcome import run_bodies
from wmbench.scenarios import get_scenario
from wmbench.scoring.c10.rule import body_outcome, held_off, score_brain_transfer


def test_the_reference_holds_the_beast_off_on_the_drone_in_s48():
    """Regression: with speeds paced but timings kept, the reference's cautious walk (it runs once the beast is
    near) met only the first part of S48 on the drone and ended > 1 m closer than it began: half of C10's
    points lost to the body's pace, not to a decision."""
    (run,) = run_bodies(get_scenario("S48"), get_brain("reference"), 11, bodies=("drone",),
                        variants=("as_recorded",))["drone"]
    _variant, trace, error = run
    assert error is None and trace is not None
    assert len(trace.decisions) > 6  # the slow-motion scene: more decisions on the body's own clock
    assert held_off(trace)


def test_score_only_runs_stop_where_the_score_is_settled_and_give_the_same_score():
    """A brain that stands still is caught in S46 on the character: its Q there (the worst run) is 0, so the
    score is 0 after one run; score-only runs stop there, full runs make all 12, and both score the same."""
    record, brain = get_scenario("S46"), get_brain("null")
    full = run_bodies(record, brain, 0)
    short = run_bodies(record, brain, 0, score_only=True)
    assert [len(runs) for runs in full.values()] == [4, 4, 4]
    assert list(short) == ["smpl"] and len(short["smpl"]) < 4
    assert score_brain_transfer("S46", 0, short).score == score_brain_transfer("S46", 0, full).score == 0.0
    assert body_outcome("smpl", short["smpl"]).quality == body_outcome("smpl", full["smpl"]).quality == 0.0


def test_score_only_runs_keep_every_run_that_can_change_the_score():
    """Where no run has quality 0 (null in S49: standing still is right there), nothing is skipped: every body
    makes its four runs (the same runs as a full call: episodes are deterministic)."""
    short = run_bodies(get_scenario("S49"), get_brain("null"), 0, score_only=True)
    assert {b: len(r) for b, r in short.items()} == {"smpl": 4, "robot": 4, "drone": 4}
    assert score_brain_transfer("S49", 0, short).score > 0
