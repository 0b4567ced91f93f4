"""C09 rules (pure, on synthetic live results); the measuring is tests/harness/live/test_c09.py.

0.4: C09 scores the brain (its think time and its decisions, placed in sim time); the pipeline's frame rate,
FPS drop, dropped frames and memory are reported in ``evidence["harness"]`` and never scored.
"""

from __future__ import annotations

import pytest

from tests.scoring.trace_factory import TraceBuilder, npc, truth
from wmbench.scoring.c09 import (
    LATENCY_POINTS_S,
    MEMORY_GROWTH_POINTS,
    THINK_POINTS_S,
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
STILL = {"direction": None, "speed_class": "still", "styles": []}


def live(sid: str = "S41", fps: float = 60.0, **fields) -> LiveResult:
    base = dict(scenario=sid, brain="test", body="smpl", seed=0, fps_target=60, fps=fps, work_fps=2000.0,
                late_frame_rate=0.0, dropped_frame_rate=0.0, cognitive_latency_ms=17.0,
                cognitive_latency_p95_ms=18.0, wall_s=5.0, sim_s=5.0, late_frames=0, skipped_frames=0,
                caught=False, ended=True,
                frames=tuple(FrameRecord(i, i * 16.7, 0.3, False) for i in range(10)))
    base.update(fields)
    return LiveResult(**base)


def decision(i: int, snapshot_ms: float, applied_ms: float, intent: dict, brain_ms: float = 1.0) -> DecisionTiming:
    return DecisionTiming(i, snapshot_ms, snapshot_ms / 1000, applied_ms, applied_ms, applied_ms / 1000,
                          applied_ms - snapshot_ms, brain_ms, "m", intent)


BLIND = {d: "danger(wall)" for d in ("left", "right", "fwd", "back")}


def open_trace(n: int, predict: str | dict = "exact") -> dict:
    return TraceBuilder("S41").repeat(n, truth(), predict=predict).build().to_dict()


def walking(n: int, intent: dict = WALK, brain_ms: float = 1.0, predict: str | dict = "exact", **fields
            ) -> LiveResult:
    decisions = tuple(decision(i, 500.0 * i, 500.0 * i + 17, intent, brain_ms) for i in range(n))
    return live(decisions=decisions, trace=open_trace(n, predict), **fields)


@pytest.mark.parametrize(("brain_ms", "points"), [(1.0, 20), (500.0, 20), (501.0, 15), (1000.0, 15),
                                                  (1999.0, 5), (2001.0, 0)])
def test_s41_think_time_bands(brain_ms, points):
    assert THINK_POINTS_S == ((0.5, 20.0), (1.0, 15.0), (2.0, 5.0))
    assert score_s41(walking(10, brain_ms=brain_ms)).score == points


@pytest.mark.parametrize("fps", [60.0, 29.0, 5.0])
def test_s41_the_pipeline_frame_rate_is_reported_not_scored(fps):
    scored = score_s41(walking(10, fps=fps))
    assert scored.score == 20 and scored.evidence["harness"]["fps"] == fps


def test_s41_a_brain_that_stands_or_does_not_see_earns_nothing_however_fast():
    assert score_s41(walking(10, intent=STILL)).score == 0          # the null brain: fast, but never walks
    assert score_s41(walking(10, predict=BLIND)).score == 0  # walks blind (PREDICT a miss)


def test_s41_without_decisions_or_trace_is_not_measured():
    assert not score_s41(live()).measured
    assert not score_s41(live(decisions=(decision(0, 0.0, 17.0, WALK),))).measured


SPAWN = LiveEvent(2000.0, 2.0, "spawn:beast")


@pytest.mark.parametrize(("snapshot_ms", "brain_ms", "points"), [
    (2000.0, 50.0, 20), (4900.0, 100.0, 20), (4900.0, 101.0, 15), (6900.0, 100.0, 15), (11000.0, 900.0, 5),
    (11000.0, 1100.0, 0)])
def test_s42_latency_is_sim_time_to_the_answered_scene_plus_think_time(snapshot_ms, brain_ms, points):
    assert LATENCY_POINTS_S[0] == (3.0, 20.0)
    # applied 30 s later on the wall (a frame loop crawling on a busy machine): it does not count
    decisions = (decision(0, 0.0, 17.0, WALK), decision(1, snapshot_ms, snapshot_ms + 30000.0, FLEE, brain_ms))
    score = score_s42(live("S42", events=(SPAWN,), decisions=decisions))
    assert score.score == points
    assert score.evidence["live"]["latency_s"] == pytest.approx((snapshot_ms - 2000.0 + brain_ms) / 1000)


def test_s42_ignores_a_change_decided_on_the_old_scene_and_a_repeat_of_the_same_intent():
    decisions = (
        decision(0, 0.0, 17.0, WALK),
        decision(1, 1500.0, 2500.0, FLEE),    # changed, but decided before the beast appeared
        decision(2, 2600.0, 2617.0, FLEE),    # saw the beast, but the same intent as before: no change
        decision(3, 6000.0, 6100.0, WALK),    # saw it and changed: 4.0 s (+ 1 ms thinking) after the spawn
    )
    score = score_s42(live("S42", events=(SPAWN,), decisions=decisions))
    assert score.evidence["live"]["decision"] == 3 and score.score == 15


def test_s42_never_changing_scores_zero_and_no_change_event_is_not_measured():
    no_change = score_s42(live("S42", events=(SPAWN,), decisions=(decision(0, 0.0, 17.0, WALK),)))
    assert no_change.score == 0 and no_change.measured and "no changed motion" in no_change.explanation
    assert not score_s42(live("S42")).measured


def _humans_trace(n: int) -> dict:
    seen = truth(npcs=[npc("man", "wander", 5.0, "left", name="man")])
    return TraceBuilder("S43").repeat(n, seen).build().to_dict()


@pytest.mark.parametrize(("fps", "base"), [(60.0, 60.0), (20.0, 60.0), (14.0, 60.0)])
def test_s43_the_fps_drop_is_reported_and_the_brain_is_scored(fps, base):
    decisions = tuple(decision(i, 500.0 * i, 500.0 * i + 17, WALK) for i in range(6))
    scored = score_s43(live("S43", fps=fps, decisions=decisions, trace=_humans_trace(6)), live("S41", fps=base))
    assert scored.score == 20
    assert scored.evidence["harness"]["fps_drop"] == pytest.approx(max(0.0, (base - fps) / base), abs=1e-4)


def test_s43_is_scored_without_its_baseline_and_a_standing_brain_earns_nothing():
    decisions = tuple(decision(i, 500.0 * i, 500.0 * i + 17, WALK) for i in range(6))
    scores = score_c09({"S43": live("S43", decisions=decisions, trace=_humans_trace(6))}, ["S43"])
    assert scores["S43"][0].score == 20 and scores["S43"][0].evidence["harness"]["fps_drop"] is None
    standing = tuple(decision(i, 500.0 * i, 500.0 * i + 17, STILL) for i in range(6))
    assert score_s43(live("S43", decisions=standing, trace=_humans_trace(6))).score == 0


@pytest.mark.parametrize("rate", [0.0, 0.16, 0.9])
def test_s44_dropped_frames_are_reported_not_scored(rate):
    # a kept trace with no beast change: every (zero) threat answered, the think time alone decides
    scored = score_s44(live("S44", dropped_frame_rate=rate, trace={}, decisions=(decision(0, 0.0, 17.0, WALK),)))
    assert scored.score == 20 and scored.evidence["harness"]["dropped_frame_rate"] == rate


def test_s44_without_a_trace_is_not_measured_instead_of_unjudged_points():
    scored = score_s44(live("S44", dropped_frame_rate=0.0))
    assert not scored.measured and "no trace" in scored.explanation


def mem(label: str, rss: int, gpu: int | None = None) -> MemorySample:
    return MemorySample(0.0, 0.0, rss, gpu, label)


def _spawn_cycles(answer: dict) -> LiveResult:
    """S45 with one beast spawn at 1 s, answered (or not) by the two decisions after it."""
    spawn = LiveEvent(1000.0, 1.0, "spawn:beast")
    decisions = (decision(0, 1100.0, 1200.0, answer), decision(1, 1600.0, 1700.0, answer))
    return live("S45", events=(spawn,), decisions=decisions, trace=_beast_trace(2, "left"))


@pytest.mark.parametrize(("third", "points"), [(100, 20), (105, 20), (110, 15), (130, 5), (131, 0), (90, 20)])
def test_s45_memory_growth_bands_scale_the_answered_share(third, points):
    assert MEMORY_GROWTH_POINTS[0] == (0.05, 20.0)
    samples = (mem("start", 10), mem("after despawn:beast1", 100), mem("periodic", 500),
               mem("after despawn:beast2", 102), mem("after despawn:beast3", third))
    run = _spawn_cycles(FLEE)
    answered = LiveResult(**{**run.__dict__, "memory": samples})
    assert score_s45(answered).score == points
    ignored = LiveResult(**{**_spawn_cycles(STILL).__dict__, "memory": samples})
    assert score_s45(ignored).score == 0   # memory flat, but the brain never answered: nothing of its own


def test_s45_counts_gpu_memory_and_needs_two_samples():
    samples = (mem("after despawn:a", 100, gpu=100), mem("after despawn:b", 100, gpu=100),
               mem("after despawn:c", 100, gpu=160))   # 30 % growth of rss + gpu
    assert score_s45(LiveResult(**{**_spawn_cycles(FLEE).__dict__, "memory": samples})).score == 5
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
    seen = truth(npcs=[npc("beast", "stop", 5.8, beast_direction, name="beast")])
    return TraceBuilder("S42").repeat(n, seen).build().to_dict()


def test_s42_a_change_toward_the_new_threat_is_not_a_response():
    toward = {"direction": "left", "speed_class": "run", "styles": ["fear"]}
    away = {"direction": "right", "speed_class": "run", "styles": ["fear"]}
    decisions = (
        decision(0, 0.0, 17.0, WALK),
        decision(1, 2100.0, 2200.0, toward),   # changed, on the new scene, but runs at the beast on the left
        decision(2, 4500.0, 4600.0, away),     # the first fitting response: 2.5 s after the spawn
    )
    scored = score_s42(live("S42", events=(SPAWN,), decisions=decisions, trace=_beast_trace(3)))
    assert scored.evidence["live"]["decision"] == 2 and scored.score == 20
    assert scored.evidence["live"]["inappropriate_changes"] == [1]
    only_toward = score_s42(live("S42", events=(SPAWN,), decisions=decisions[:2], trace=_beast_trace(2)))
    assert only_toward.score == 0


def test_s44_the_think_time_counts_only_with_the_beast_answered():
    spawn = LiveEvent(1000.0, 1.0, "spawn:beast")
    ignoring = live("S44", events=(spawn,), decisions=(decision(0, 1100.0, 1200.0, STILL),),
                    trace=_beast_trace(1))
    answering = live("S44", events=(spawn,), decisions=(decision(0, 1100.0, 1200.0, FLEE),),
                     trace=_beast_trace(1))
    assert score_s44(ignoring).score == 0 and score_s44(answering).score == 20


def test_s44_the_response_window_is_sim_time_not_a_crawling_wall_clock():
    # the frame loop fell 10 wall seconds behind; the decision still saw the scene 0.1 sim s after the spawn
    spawn = LiveEvent(1000.0, 1.0, "spawn:beast")
    late_wall = DecisionTiming(0, 11100.0, 1.1, 11200.0, 11200.0, 1.2, 100.0, 1.0, "m", FLEE)
    assert score_s44(live("S44", events=(spawn,), decisions=(late_wall,), trace=_beast_trace(1))).score == 20


def test_s42_a_step_away_followed_by_a_step_back_toward_the_beast_is_not_a_response():
    away = {"direction": "right", "speed_class": "run", "styles": ["fear"]}
    toward = {"direction": "left", "speed_class": "run", "styles": ["fear"]}
    sideways = {"direction": "fwd", "speed_class": "run", "styles": ["fear"]}
    flicker = (decision(0, 0.0, 17.0, WALK), decision(1, 2100.0, 2200.0, away),
               decision(2, 2600.0, 2700.0, toward), decision(3, 3100.0, 3200.0, sideways))
    scored = score_s42(live("S42", events=(SPAWN,), decisions=flicker, trace=_beast_trace(4)))
    assert scored.score == 0 and scored.evidence["live"]["inappropriate_changes"] == [1, 2, 3]
