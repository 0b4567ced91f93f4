"""live_metrics: the frame clock's late/skipped accounting (on a fake clock), rates, percentiles, memory."""

from __future__ import annotations

import pytest

from wmbench.harness.live.metrics import FrameClock, rss_bytes
from wmbench.scoring.live_run import (
    FrameRecord,
    frame_stats,
    frames_from_columns,
    frames_to_columns,
    median,
    percentile,
)

PERIOD_NS = 16_666_667  # 60 FPS


class FakeTime:
    """A clock that only moves when told to (work) or when slept on."""

    def __init__(self) -> None:
        self.ns = 1_000_000_000
        self.slept: list[float] = []

    def now(self) -> int:
        return self.ns

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.ns += round(seconds * 1e9)


def run_frames(work_ms: list[float]) -> tuple[list[FrameRecord], FakeTime, FrameClock]:
    fake = FakeTime()
    clock = FrameClock(60, now_ns=fake.now, sleep=fake.sleep)
    clock.start()
    frames = []
    for ms in work_ms:
        start = fake.now()
        fake.ns += round(ms * 1e6)
        frames.append(clock.frame_done(start))
    return frames, fake, clock


def test_on_time_frames_sleep_to_their_deadline_and_are_not_late():
    frames, fake, clock = run_frames([2.0] * 60)
    assert not any(f.late for f in frames)
    assert fake.ns - clock.t0_ns == 60 * PERIOD_NS  # one second of slots for 60 frames
    assert all(abs(s - (PERIOD_NS / 1e9 - 0.002)) < 1e-6 for s in fake.slept)
    assert [f.start_ms for f in frames[:3]] == pytest.approx([0.0, 16.667, 33.333], abs=1e-3)


def test_an_overrun_is_late_and_the_next_frame_catches_up_without_skipping():
    frames, _, _ = run_frames([2.0, 20.0, 2.0, 2.0])
    assert [f.late for f in frames] == [False, True, False, False]
    assert [f.skipped_after for f in frames] == [0, 0, 0, 0]
    # the late frame ended at 36.7 ms; the next starts at once and the schedule keeps its 50 ms deadline
    assert [f.start_ms for f in frames[1:]] == pytest.approx([16.667, 36.667, 50.0], abs=1e-3)


def test_a_stall_of_several_slots_skips_them():
    frames, _, clock = run_frames([2.0, 60.0, 2.0])
    # frame 1 started at 16.7 ms and ended at 76.7 ms: its deadline was 33.3 ms, so the slots ending at
    # 50 and 66.7 ms passed entirely while it ran
    assert frames[1].late and frames[1].skipped_after == 2 and clock.skipped == 2
    stats = frame_stats(frames, wall_s=0.1)
    assert stats.late == 1 and stats.skipped == 2
    assert stats.late_frame_rate == pytest.approx(1 / 3, abs=1e-4)
    assert stats.dropped_frame_rate == pytest.approx(3 / 5, abs=1e-4)


def test_frame_stats_rates():
    frames = [FrameRecord(i, i * 16.7, 2.0, late=(i % 10 == 0)) for i in range(100)]
    stats = frame_stats(frames, wall_s=2.0)
    assert stats.fps == 50.0 and stats.late == 10 and stats.late_frame_rate == 0.1
    assert stats.work_fps == 500.0 and stats.mean_work_ms == 2.0
    assert frame_stats([], 0.0).fps == 0.0


def test_frames_round_trip_through_columns():
    frames = tuple(FrameRecord(i, i * 16.667, 0.5 + i, late=i == 2, skipped_after=int(i == 2))
                   for i in range(4))
    assert frames_from_columns(frames_to_columns(frames)) == frames


def test_percentiles():
    assert median([3.0, 1.0, 2.0]) == 2.0
    assert percentile([0.0, 10.0], 95.0) == pytest.approx(9.5)
    assert percentile([], 50.0) is None


def test_rss_is_a_plausible_number_of_bytes():
    assert 10 * 2**20 < rss_bytes() < 64 * 2**30


def test_clock_rejects_a_bad_rate():
    with pytest.raises(ValueError, match="fps"):
        FrameClock(0)
