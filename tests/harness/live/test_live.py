"""run_live: the world keeps real time while the brain thinks; FPS, late frames and latency are measured."""

from __future__ import annotations

import time
from typing import Any

import pytest

from wmbench.brain.base import BrainReply
from wmbench.harness.live.loop import live_summary_line, run_live
from wmbench.scoring.live_run import DecisionTiming, FrameRecord, LiveResult

MOTION_REPLY = ("PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)\n"
                "MOTION: a person walks forward calmly")


class SleepyBrain:
    """A brain that takes ``seconds`` per decision (it sleeps) and always walks forward."""

    name = "sleepy"

    def __init__(self, seconds: float, text: str = MOTION_REPLY) -> None:
        self.seconds, self.text = seconds, text
        self.calls = 0
        self.closed = False

    def reset(self, seed: int | None = None) -> None:
        self.calls = 0

    def decide(self, scene: dict[str, Any]) -> BrainReply:
        self.calls += 1
        time.sleep(self.seconds)
        return BrainReply(text=self.text, latency_s=self.seconds, provider="sleepy")

    def close(self) -> None:
        self.closed = True


class BrokenBrain(SleepyBrain):
    def decide(self, scene: dict[str, Any]) -> BrainReply:
        self.calls += 1
        raise RuntimeError("model exploded")


def frames_started_between(result: LiveResult, start_ms: float, end_ms: float) -> list[FrameRecord]:
    """The frames of ``result`` that started in the wall-clock window ``[start_ms, end_ms)``."""
    return [f for f in result.frames if start_ms <= f.start_ms < end_ms]


def frames_that_ignored_the_reply(result: LiveResult, decision: DecisionTiming) -> list[FrameRecord]:
    """Frames that started after ``decision``'s reply arrived but ended before the frame that applied it.

    Load cannot make this list long: the loop applies a reply in the first frame that starts after it arrived
    (or, when it lands between a frame's start and its poll, in the next one), however slowly frames run."""
    applying_index = round(decision.applied_t * result.fps_target) - 1
    return [f for f in result.frames if f.start_ms >= decision.reply_ms and f.index < applying_index]


# Wall-clock speed (sustained FPS, late frames, harness overhead, snapshot to first moving frame) is measured by
# benchmarks/bench_live.py; these tests assert only what a busy machine cannot break (see each comment).


def test_a_three_second_brain_does_not_slow_the_world_and_its_latency_is_measured():
    brain = SleepyBrain(3.0)
    result = run_live("S42", brain, fps=60, duration=7.0, keep_trace=True)
    assert result.n_frames == 420 and result.sim_s == pytest.approx(7.0)  # the schedule fixes the frame count
    assert 0.0 < result.fps <= 60.0  # paced: frames are never produced faster than the target
    first = result.decisions[0]
    assert first.snapshot_t == 0.0
    # the world kept running while the brain thought: a loop blocked in decide() produces no frame in that
    # window; 30 frames in 3 s is a sixth of the target, far below what load does to this loop
    thinking = frames_started_between(result, first.snapshot_ms, first.reply_ms)
    assert len(thinking) >= 30, f"{len(thinking)} frames while the brain thought for {first.brain_ms:.0f} ms"
    # one decision at a time, each at least the brain's 3 s of sleep (lower bounds: sleeping guarantees them)
    assert 1 <= len(result.decisions) <= result.wall_s // 3.0
    assert all(d.brain_ms >= 2990.0 and d.latency_ms >= d.brain_ms for d in result.decisions)
    assert result.cognitive_latency_ms is not None and result.cognitive_latency_ms >= 2990.0
    # every reply moved the body in the first frame after it arrived (not at the next decision slot)
    assert all(len(frames_that_ignored_the_reply(result, d)) <= 1 for d in result.decisions)
    # the body stood still until the first reply arrived, then walked
    walked = result.trace["decisions"][0]
    assert walked["t"] == pytest.approx(first.applied_t - 1 / 60, abs=1e-6)
    assert walked["realized"]["speed_class"] == "walk"
    assert not brain.closed  # a borrowed brain is left to its owner


def test_the_reference_brain_answers_at_every_decision_slot_and_is_applied_at_once():
    result = run_live("S42", "reference", fps=60, duration=3.0)
    assert len(result.decisions) == 6  # one per 0.5 s decision slot
    assert [d.snapshot_t for d in result.decisions] == pytest.approx([0.0, 0.5, 1.0, 1.5, 2.0, 2.5])
    assert all(d.latency_ms >= d.brain_ms >= 0.0 for d in result.decisions)
    assert all(len(frames_that_ignored_the_reply(result, d)) <= 1 for d in result.decisions)
    assert 0.0 < result.fps <= 60.0


def test_a_slow_brain_really_gets_caught():
    slow = run_live("S21", SleepyBrain(3.0, "PREDICT: fwd=danger(beast)\nMOTION: sprints back in terror"),
                    duration=4.0)
    assert slow.caught and slow.ended and slow.sim_s < 2.0 and slow.decisions == ()
    fast = run_live("S21", "reference", duration=2.0)
    assert not fast.caught and fast.sim_s == pytest.approx(2.0)


def test_a_failing_brain_costs_its_decisions_not_the_run():
    result = run_live("S41", BrokenBrain(0.0), duration=1.5)
    assert result.error is None and result.n_frames == 90
    assert result.decisions and all("model exploded" in (d.error or "") for d in result.decisions)
    assert all(d.intent["speed_class"] == "still" for d in result.decisions)


def test_on_frame_and_frame_work_run_every_frame():
    ticks, worked = [], []
    result = run_live("S41", "null", fps=30, duration=1.0, on_frame=ticks.append,
                      frame_work=lambda env: worked.append(env.sim_time))
    assert len(ticks) == len(worked) == result.n_frames == 30
    assert ticks[-1].frames == 30 and worked[0] == pytest.approx(1 / 30)
    assert "fps=" in live_summary_line(ticks[-1])


def test_result_round_trips_through_json():
    import json

    result = run_live("S45", "reference", fps=30, duration=2.5)
    back = LiveResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert back == result
    assert [m.label for m in back.memory][:2] == ["start", "periodic"]
    assert any(m.label == "after despawn:beast1" for m in back.memory)


@pytest.mark.parametrize("fps", [0, 50, 25])
def test_fps_must_divide_the_physics(fps):
    with pytest.raises(ValueError, match="240 Hz"):
        run_live("S41", "null", fps=fps, duration=1.0)


def test_unknown_brain_fails_before_running():
    with pytest.raises(ValueError, match="unknown brain"):
        run_live("S41", "no-such-brain", duration=1.0)
