"""Bench scenes paced to the body (issue 20): on a slow body the env plays the scene slower, not harder."""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
import pytest

from tests.envs.conftest import one_phase, reply
from wmbench.brain.registry import get_brain
from wmbench.core.errors import ConfigError
from wmbench.envs.pacing import body_pace, check_pace_mode, paced_record, run_pace, scene_pace
from wmbench.envs.registration import env_id, register_envs
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.run.episode import run_episode
from wmbench.scenarios import NpcSpec, TimelineEvent, get_scenario
from wmbench.scenarios.families import draw_instance

DRONE_PACE = 3.0 / 6.5  # the drone's sprint over the character's


@pytest.mark.parametrize("sid", ["S48", "S39"])  # S39 has a timeline (the beast turns away at a set time)
def test_a_paced_record_is_the_same_story_slower(sid):
    record = get_scenario(sid)
    slow = paced_record(record, 0.5)
    for before, after in zip(record.phases, slow.phases, strict=True):
        assert after.duration == pytest.approx(2 * before.duration)
        assert [n.position for n in after.npcs] == [n.position for n in before.npcs]  # the same distances
        assert [n.speed for n in after.npcs] == pytest.approx([0.5 * n.resolved_speed for n in before.npcs])
        assert [e.at for e in after.events] == pytest.approx([2 * e.at for e in before.events])
    assert paced_record(record, 1.0) is record
    with pytest.raises(ValueError, match=r"pace must be in \(0, 1\]"):
        paced_record(record, 0.0)


def test_body_pace_is_the_sprint_ratio_capped_at_one():
    assert body_pace("smpl") == 1.0
    assert body_pace("drone") == pytest.approx(DRONE_PACE)
    assert body_pace("robot") == pytest.approx(2.5 / 6.5)


def test_only_bench_scenes_are_paced_and_the_opt_out_plays_them_as_recorded():
    assert scene_pace(get_scenario("S17"), 0.4) == 0.4             # C04, bench
    assert scene_pace(get_scenario("S17"), 0.4, "scene") == 1.0    # the diagnostic opt-out
    assert scene_pace(get_scenario("S45"), 0.4) == 1.0             # C09 live: timed in sim seconds as recorded
    assert scene_pace(get_scenario("S50"), 0.4) == 1.0             # C10 transfer: paced by its own runs
    assert check_pace_mode("scene") == "scene"
    with pytest.raises(ConfigError, match="pace must be one of 'body', 'scene', got 'slow'"):
        check_pace_mode("slow")


def test_run_pace_is_recorded_only_on_a_slow_body():
    assert run_pace("smpl") is None and run_pace("smpl", "scene") is None
    assert run_pace("drone") == pytest.approx(DRONE_PACE)
    assert run_pace("drone", "scene") == 1.0


@pytest.mark.parametrize("sid,seed", [("S17", 3), ("S22", 1), ("S33", 5)])  # charge/approach, escalation, timeline
def test_the_registered_env_on_the_drone_plays_the_drawn_instance_at_the_drone_pace(sid, seed):
    """``gym.make(id, body="drone")``: every NPC speed x pace, every duration and event time / pace, the same
    positions — the instance drawn for the seed, paced — and the pace in the trace's instance record."""
    register_envs()
    drawn, _ = draw_instance(get_scenario(sid), seed, np.random.default_rng(seed))
    drone = gym.make(env_id(sid), body="drone")
    smpl = gym.make(env_id(sid), body="smpl")
    unpaced = gym.make(env_id(sid), body="drone", pace="scene")
    try:
        for env in (drone, smpl, unpaced):
            env.reset(seed=seed)
        paced = drone.unwrapped.scenario
        assert drone.unwrapped.episode_pace == pytest.approx(DRONE_PACE)
        for before, after in zip(drawn.phases, paced.phases, strict=True):
            assert after.duration == pytest.approx(before.duration / DRONE_PACE)
            assert [n.position for n in after.npcs] == [n.position for n in before.npcs]
            assert [n.speed for n in after.npcs] == pytest.approx([DRONE_PACE * n.resolved_speed
                                                                   for n in before.npcs])
            assert [e.at for e in after.events] == pytest.approx([e.at / DRONE_PACE for e in before.events])
        assert drone.unwrapped.trace.meta["instance"]["pace"] == pytest.approx(DRONE_PACE)
        # the character's scene is the drawn instance itself, and its trace has no pace key (as before)
        assert smpl.unwrapped.scenario == drawn and smpl.unwrapped.episode_pace == 1.0
        assert "pace" not in smpl.unwrapped.trace.meta["instance"]
        # the opt-out: the scene's own speeds and timings on the drone
        assert unpaced.unwrapped.scenario == drawn and "pace" not in unpaced.unwrapped.trace.meta["instance"]
    finally:
        for env in (drone, smpl, unpaced):
            env.close()


def _crossing_scene():
    """A bench scene (C03) with one person walking a fixed line and a beast switched to charge at 1 s."""
    return one_phase(duration=2.0, jitter=0.0, npcs=(
        NpcSpec("walker", "man", (6.0, 6.0), "cross", speed=1.0, heading=0.0),
        NpcSpec("beast", "beast", (-9.0, 0.0), "stop")),
        events=(TimelineEvent(1.0, "beast", "switch", behavior="charge"),))


@pytest.mark.parametrize("body", ["drone", "robot"])
def test_npcs_really_move_at_the_paced_speed_and_the_scene_lasts_longer(body, make_env):
    """In the PyBullet world: a decision of 0.5 s moves the walker ``0.5 x 1.0 x pace`` m on the slow body and
    0.5 m with the opt-out; the 2 s scene takes ceil(2 / pace / 0.5) decisions, and the beast's switch at
    1 s comes at 1 / pace s."""
    pace = body_pace(body)
    runs = {}
    for mode in ("body", "scene"):
        env = make_env(_crossing_scene(), body=body, pace=mode)
        env.reset(seed=0)
        walker = env.crowd.npcs["walker"]
        x0 = walker.x
        env.step(reply("freeze, watching"))
        step_m = walker.x - x0
        done, steps = False, 1
        while not done:
            *_, done, _, _ = env.step(reply("freeze, watching"))
            steps += 1
        switch_t = next(e.t for e in env.trace.events if e.kind.startswith("switch"))
        runs[mode] = (step_m, steps, switch_t)
    assert runs["scene"][0] == pytest.approx(0.5, abs=1e-6)
    assert runs["body"][0] == pytest.approx(0.5 * pace, abs=1e-6)
    assert runs["scene"][1] == 4
    assert runs["body"][1] == math.ceil(2.0 / pace / 0.5 - 1e-9)
    assert runs["scene"][2] == pytest.approx(1.0, abs=0.05)
    assert runs["body"][2] == pytest.approx(1.0 / pace, abs=0.05)


def test_the_character_env_is_unchanged_by_pacing(make_env):
    """smpl (pace 1): the default and the opt-out give identical traces."""
    traces = []
    for mode in ("body", "scene"):
        env = make_env(_crossing_scene(), body="smpl", pace=mode)
        env.reset(seed=0)
        done = False
        while not done:
            *_, done, _, _ = env.step(reply("walk left"))
        traces.append(env.trace.to_dict())
    for trace in traces:
        for d in trace["decisions"]:
            d.get("brain", {}).pop("latency_s", None)
    assert traces[0] == traces[1]
    assert "pace" not in traces[0]["meta"]["instance"]


@pytest.mark.parametrize("sid", ["S17", "S21"])
def test_the_reference_escapes_on_the_drone_where_before_pacing_it_was_caught(sid):
    """Regression (issue 20, rank stability smpl vs drone 0.918): at the character's NPC speeds a 5 m/s charge
    outruns the drone's 3 m/s sprint, so the reference's flight — an escape on the character — was caught on the
    drone in S17 and S21 (every seed tried). At the drone's pace the same brain escapes; the opt-out still shows
    the body's raw limit (caught)."""
    brain = get_brain("reference")
    caught = {}
    for mode in ("body", "scene"):
        result = run_episode(sid, brain, "drone", 1,
                             env_factory=lambda s, body, _m=mode, **_kw: WMBenchEnv(s, body=body, pace=_m))
        assert result.error is None and result.trace is not None
        caught[mode] = any(e["kind"] == "caught" for e in result.trace["events"])
    assert caught == {"body": False, "scene": True}
