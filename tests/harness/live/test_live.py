"""run_live: the world keeps real time while the brain thinks; FPS, late frames and latency are measured."""

from __future__ import annotations

import time
from typing import Any

import pytest

from wmbench.brain.base import BrainReply
from wmbench.harness.live.loop import live_summary_line, run_live
from wmbench.scoring.live_run import LiveResult

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


def test_a_three_second_brain_does_not_slow_the_world_and_its_latency_is_measured():
    brain = SleepyBrain(3.0)
    result = run_live("S42", brain, fps=60, duration=7.0, keep_trace=True)
    assert result.n_frames == 420 and result.sim_s == pytest.approx(7.0)
    assert result.fps == pytest.approx(60.0, abs=1.0)
    assert result.late_frame_rate < 0.01
    assert len(result.decisions) == 2  # answered at ~3 s and ~6 s
    assert result.cognitive_latency_ms == pytest.approx(3000.0, rel=0.10)
    assert all(d.brain_ms >= 2990.0 for d in result.decisions)
    first = result.decisions[0]
    assert first.snapshot_t == 0.0 and first.applied_t == pytest.approx(3.0, abs=0.1)
    # the body stood still until the first reply arrived, then walked
    walked = result.trace["decisions"][0]
    assert walked["t"] == pytest.approx(first.applied_t - 1 / 60, abs=1e-6)
    assert walked["realized"]["speed_class"] == "walk"
    assert not brain.closed  # a borrowed brain is left to its owner


def test_the_reference_brain_answers_within_milliseconds():
    result = run_live("S42", "reference", fps=60, duration=3.0)
    assert len(result.decisions) == 6  # one per 0.5 s decision slot
    assert result.cognitive_latency_ms < 100.0 and result.cognitive_latency_p95_ms < 100.0
    assert result.fps == pytest.approx(60.0, abs=1.0) and result.late_frame_rate < 0.02
    assert [d.snapshot_t for d in result.decisions] == pytest.approx([0.0, 0.5, 1.0, 1.5, 2.0, 2.5])


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
