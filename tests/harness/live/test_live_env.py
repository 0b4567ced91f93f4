"""The env's frame-level API for live mode: observe / apply_reply / advance_frame / finish_decision."""

from __future__ import annotations

import json

import pytest

from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.scenarios import Phase, Scenario, Wall

OPEN = "PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)"


def reply(motion: str) -> str:
    return f"{OPEN}\nMOTION: {motion}"


@pytest.fixture
def env():
    made: list[WMBenchEnv] = []

    def factory(scenario, **kwargs) -> WMBenchEnv:
        e = WMBenchEnv(scenario, **kwargs)
        e.reset(seed=0)
        made.append(e)
        return e

    yield factory
    for e in made:
        e.close()


def test_observe_does_not_advance_time_and_matches_the_bench_scene(env):
    e = env("S42", frame_rate=60)
    first = e.observe()
    assert e.sim_time == 0.0 and e.observe() == first
    bench = WMBenchEnv("S42", frame_rate=60)
    obs, _ = bench.reset(seed=0)
    assert json.loads(obs["scene"]) == first
    bench.close()


def test_a_reply_moves_the_body_from_the_next_frame_and_is_recorded_when_the_next_arrives(env):
    e = env("S41", frame_rate=60)
    e.observe()
    applied = e.apply_reply(reply("walks forward calmly"), brain_meta={"latency_s": 0.1})
    assert applied.index == 0 and applied.intent.speed_class.value == "walk" and applied.parse["ok"]
    start = e.body.state().position
    for _ in range(30):
        e.advance_frame()
    moved = e.body.state().position[0] - start[0]
    assert 0.3 < moved < 0.8  # 0.5 s of walking (1.4 m/s after a short ramp)
    assert e.trace.decisions == []  # still in progress
    e.observe()
    e.apply_reply(reply("stands still, calm"))
    record = e.trace.decisions[0]
    assert record.t == 0.0 and record.realized["direction"] == "fwd" and record.brain == {"latency_s": 0.1}
    assert record.scene["t"] == 0.0
    assert e.finish_decision() == 1 and len(e.trace.decisions) == 2


def test_frames_before_the_first_reply_hold_the_body_still(env):
    e = env("S41", frame_rate=60)
    for _ in range(20):
        assert e.advance_frame() == []
    assert e.body.state().position[0] == pytest.approx(0.0, abs=1e-9)
    assert e.sim_time == pytest.approx(20 / 60)


def test_timeline_events_fire_and_the_episode_ends_with_its_last_phase(env):
    e = env("S42", frame_rate=30)
    kinds = []
    while not e.terminated:
        kinds += [ev.kind for ev in e.advance_frame()]
    assert "spawn:beast" in kinds and e.sim_time == pytest.approx(12.0)
    assert e.advance_frame() == []
    with pytest.raises(RuntimeError, match="ended"):
        e.apply_reply(reply("walks"))


def test_a_wall_collision_is_recorded_once_per_decision(env):
    scenario = Scenario(id="T90", category="C01", name="wall", setup="wall ahead",
                        phases=(Phase(name="wall", duration=3.0,
                                      walls=(Wall((1.6, 0.0), (0.2, 4.0), name="front"),)),))
    e = env(scenario, frame_rate=60)
    e.observe()
    e.apply_reply(reply("sprints forward"))
    for _ in range(90):
        e.advance_frame()
    e.finish_decision()
    decision = e.trace.decisions[0]
    assert [ev.kind for ev in decision.events].count("collision:wall") == 1
    assert decision.body_after["position"][0] < 1.5 - 0.1


def test_a_charging_beast_catches_a_body_that_never_gets_a_reply(env):
    e = env("S21", frame_rate=60)
    kinds = []
    while not e.terminated:
        kinds += [ev.kind for ev in e.advance_frame()]
    assert kinds[-1] == "caught" and e.sim_time < 2.0


def test_step_cannot_follow_apply_reply_in_one_episode(env):
    e = env("S41", frame_rate=60)
    e.observe()
    e.apply_reply(reply("walks forward"))
    with pytest.raises(RuntimeError, match="live mode"):
        e.step(reply("walks"))
    e.reset(seed=0)
    e.step(reply("walks"))  # a new episode may use bench mode again


def test_live_api_needs_reset():
    e = WMBenchEnv("S41")
    with pytest.raises(RuntimeError, match="reset"):
        e.advance_frame()
    with pytest.raises(RuntimeError, match="reset"):
        e.observe()
    e.close()


def test_the_decision_being_acted_out_shows_in_the_scene_with_its_outcome_so_far(env):
    e = env("S41", frame_rate=60)
    assert e.observe()["recent_decisions"] == []
    e.apply_reply(reply("walks forward calmly"))
    for _ in range(30):
        e.advance_frame()
    scene = e.observe()
    assert [d["motion"] for d in scene["recent_decisions"]] == ["walks forward calmly"]
    assert scene["recent_decisions"][-1]["outcome"] == "moved front" and scene["last_prediction"] == OPEN
    e.apply_reply(reply("stands still"))  # closes the first decision: now it is in memory for real
    for _ in range(30):
        e.advance_frame()
    motions = [d["motion"] for d in e.observe()["recent_decisions"]]
    assert motions == ["walks forward calmly", "stands still"]
