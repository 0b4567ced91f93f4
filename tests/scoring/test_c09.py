"""C09 rules (pure, on synthetic live results); the measuring is tests/harness/live/test_c09.py."""

from __future__ import annotations

import pytest

from wmbench.scoring.c09 import (
    DROPPED_POINTS,
    FPS_POINTS,
    LATENCY_POINTS_S,
    MEMORY_GROWTH_POINTS,
    score_c09,
    score_s41,
    score_s42,
    score_s43,
    score_s44,
    score_s45,
)
from wmbench.scoring.live_run import DecisionTiming, FrameRecord, LiveEvent, LiveResult, MemorySample

WALK = {"direction": "fwd", "speed_class": "walk", "styles": ["calm"]}
FLEE = {"direction": "right", "speed_class": "run", "styles": ["fear"]}


def live(sid: str = "S41", fps: float = 60.0, **fields) -> LiveResult:
    base = dict(scenario=sid, brain="test", body="smpl", seed=0, fps_target=60, fps=fps, work_fps=2000.0,
                late_frame_rate=0.0, dropped_frame_rate=0.0, cognitive_latency_ms=17.0,
                cognitive_latency_p95_ms=18.0, wall_s=5.0, sim_s=5.0, late_frames=0, skipped_frames=0,
                caught=False, ended=True,
                frames=tuple(FrameRecord(i, i * 16.7, 0.3, False) for i in range(10)))
    base.update(fields)
    return LiveResult(**base)


def decision(i: int, snapshot_ms: float, applied_ms: float, intent: dict) -> DecisionTiming:
    return DecisionTiming(i, snapshot_ms, snapshot_ms / 1000, applied_ms, applied_ms, applied_ms / 1000,
                          applied_ms - snapshot_ms, 1.0, "m", intent)


@pytest.mark.parametrize(("fps", "points"), [(60.0, 20), (45.0, 20), (44.9, 15), (30.0, 15), (29.9, 5),
                                             (15.0, 5), (14.9, 0)])
def test_s41_fps_bands(fps, points):
    assert FPS_POINTS == ((45.0, 20.0), (30.0, 15.0), (15.0, 5.0))
    assert score_s41(live(fps=fps)).score == points


SPAWN = LiveEvent(2000.0, 2.0, "spawn:beast")


@pytest.mark.parametrize(("applied_ms", "points"), [(2050.0, 20), (5000.0, 20), (5001.0, 15), (7000.0, 15),
                                                    (11900.0, 5), (12100.0, 0)])
def test_s42_latency_bands(applied_ms, points):
    assert LATENCY_POINTS_S[0] == (3.0, 20.0)
    decisions = (decision(0, 0.0, 17.0, WALK), decision(1, 2017.0, applied_ms, FLEE))
    score = score_s42(live("S42", events=(SPAWN,), decisions=decisions))
    assert score.score == points
    assert score.evidence["live"]["latency_s"] == pytest.approx((applied_ms - 2000.0) / 1000)


def test_s42_ignores_a_change_decided_on_the_old_scene_and_a_repeat_of_the_same_intent():
    decisions = (
        decision(0, 0.0, 17.0, WALK),
        decision(1, 1500.0, 2500.0, FLEE),    # changed, but decided before the beast appeared
        decision(2, 2600.0, 2617.0, FLEE),    # saw the beast, but the same intent as before: no change
        decision(3, 3000.0, 6100.0, WALK),    # saw it and changed: 4.1 s after the spawn
    )
    score = score_s42(live("S42", events=(SPAWN,), decisions=decisions))
    assert score.evidence["live"]["decision"] == 3 and score.score == 15


def test_s42_never_changing_scores_zero_and_no_change_event_is_not_measured():
    no_change = score_s42(live("S42", events=(SPAWN,), decisions=(decision(0, 0.0, 17.0, WALK),)))
    assert no_change.score == 0 and no_change.measured and "no changed motion" in no_change.explanation
    assert not score_s42(live("S42")).measured


@pytest.mark.parametrize(("fps", "base", "points"), [(60.0, 60.0, 20), (54.0, 60.0, 20), (53.9, 60.0, 15),
                                                     (45.0, 60.0, 15), (40.0, 60.0, 5), (29.0, 30.0, 5),
                                                     (14.0, 60.0, 0), (61.0, 60.0, 20)])
def test_s43_drop_against_s41(fps, base, points):
    assert score_s43(live("S43", fps=fps), live("S41", fps=base)).score == points


def test_s43_without_its_baseline_is_not_measured():
    assert not score_s43(live("S43"), None).measured
    scores = score_c09({"S43": live("S43")}, ["S43"])
    assert not scores["S43"][0].measured and "S41" in scores["S43"][0].explanation


@pytest.mark.parametrize(("rate", "points"), [(0.0, 20), (0.01, 20), (0.011, 15), (0.05, 15), (0.15, 5),
                                              (0.16, 0)])
def test_s44_dropped_frame_bands(rate, points):
    assert DROPPED_POINTS[-1] == (0.15, 5.0)
    # a kept trace with no beast change: every (zero) threat answered, the frame bands alone decide
    assert score_s44(live("S44", dropped_frame_rate=rate, trace={})).score == points


def test_s44_without_a_trace_is_not_measured_instead_of_unjudged_points():
    scored = score_s44(live("S44", dropped_frame_rate=0.0))
    assert not scored.measured and "no trace" in scored.explanation


def mem(label: str, rss: int, gpu: int | None = None) -> MemorySample:
    return MemorySample(0.0, 0.0, rss, gpu, label)


@pytest.mark.parametrize(("third", "points"), [(100, 20), (105, 20), (110, 15), (130, 5), (131, 0), (90, 20)])
def test_s45_memory_growth_bands(third, points):
    assert MEMORY_GROWTH_POINTS[0] == (0.05, 20.0)
    samples = (mem("start", 10), mem("after despawn:beast1", 100), mem("periodic", 500),
               mem("after despawn:beast2", 102), mem("after despawn:beast3", third))
    assert score_s45(live("S45", memory=samples)).score == points


def test_s45_counts_gpu_memory_and_needs_two_samples():
    samples = (mem("after despawn:a", 100, gpu=100), mem("after despawn:b", 100, gpu=100),
               mem("after despawn:c", 100, gpu=160))   # 30 % growth of rss + gpu
    assert score_s45(live("S45", memory=samples)).score == 5
    assert not score_s45(live("S45", memory=samples[:1])).measured


def test_s45_with_a_zero_first_sample_is_not_measured_instead_of_dividing_by_zero():
    samples = (mem("after despawn:a", 0), mem("after despawn:b", 100), mem("after despawn:c", 100))
    score = score_s45(live("S45", memory=samples))
    assert not score.measured and "0 bytes" in score.explanation


def test_failed_or_missing_runs_are_not_measured_never_silent_zero():
    scores = score_c09({"S41": live(error="RuntimeError: boom"), "S44": live("S44", frames=())},
                       ["S41", "S42", "S44"])
    assert [scores[s][0].measured for s in ("S41", "S42", "S44")] == [False, False, False]
    assert "boom" in scores["S41"][0].explanation and "no live run" in scores["S42"][0].explanation


def _beast_trace(n: int, beast_direction: str = "left") -> dict:
    """A trace whose decisions all have a beast nearby on ``beast_direction`` (what the live run recorded)."""
    from tests.scoring.trace_factory import TraceBuilder, npc, truth

    seen = truth(npcs=[npc("beast", "stop", 5.8, beast_direction, name="beast")])
    return TraceBuilder("S42").repeat(n, seen).build().to_dict()


def test_s42_a_change_toward_the_new_threat_is_not_a_response():
    toward = {"direction": "left", "speed_class": "run", "styles": ["fear"]}
    away = {"direction": "right", "speed_class": "run", "styles": ["fear"]}
    decisions = (
        decision(0, 0.0, 17.0, WALK),
        decision(1, 2100.0, 2200.0, toward),   # changed, on the new scene, but runs at the beast on the left
        decision(2, 2600.0, 4500.0, away),     # the first fitting response: 2.5 s after the spawn
    )
    scored = score_s42(live("S42", events=(SPAWN,), decisions=decisions, trace=_beast_trace(3)))
    assert scored.evidence["live"]["decision"] == 2 and scored.score == 20
    assert scored.evidence["live"]["inappropriate_changes"] == [1]
    only_toward = score_s42(live("S42", events=(SPAWN,), decisions=decisions[:2], trace=_beast_trace(2)))
    assert only_toward.score == 0


def test_s44_frames_on_time_count_only_with_the_beast_answered():
    spawn = LiveEvent(1000.0, 1.0, "spawn:beast")
    still = {"direction": None, "speed_class": "still", "styles": []}
    away = {"direction": "right", "speed_class": "run", "styles": ["fear"]}
    ignoring = live("S44", events=(spawn,), decisions=(decision(0, 1100.0, 1200.0, still),),
                    trace=_beast_trace(1))
    answering = live("S44", events=(spawn,), decisions=(decision(0, 1100.0, 1200.0, away),),
                     trace=_beast_trace(1))
    assert score_s44(ignoring).score == 0 and score_s44(answering).score == 20


def test_s42_a_step_away_followed_by_a_step_back_toward_the_beast_is_not_a_response():
    away = {"direction": "right", "speed_class": "run", "styles": ["fear"]}
    toward = {"direction": "left", "speed_class": "run", "styles": ["fear"]}
    sideways = {"direction": "fwd", "speed_class": "run", "styles": ["fear"]}
    flicker = (decision(0, 0.0, 17.0, WALK), decision(1, 2100.0, 2200.0, away),
               decision(2, 2600.0, 2700.0, toward), decision(3, 3100.0, 3200.0, sideways))
    scored = score_s42(live("S42", events=(SPAWN,), decisions=flicker, trace=_beast_trace(4)))
    assert scored.score == 0 and scored.evidence["live"]["inappropriate_changes"] == [1, 2, 3]
