"""WMBenchEnv: the Gymnasium contract, determinism, movement, collisions, catching, rendering, bad input."""

from __future__ import annotations

import json
import math
import re
import warnings

import gymnasium as gym
import numpy as np
import pybullet as p
import pytest
from gymnasium.utils.env_checker import check_env

from tests.envs.conftest import one_phase, reply
from wmbench.body.registry import available_bodies, get_body
from wmbench.envs.client_pool import idle_clients
from wmbench.envs.registration import env_id
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.scenarios import NpcSpec, Wall, all_scenarios

ALL_IDS = [s.id for s in all_scenarios()]
REPLIES = (
    reply("a person sprints to the right in terror"),
    reply("freezes, watching"),
    "PREDICT: fwd=danger(beast)\nMOTION: walks slowly backward, keeping eyes on the threat",
    reply("jogs left"),
)


def run(env: WMBenchEnv, replies, seed=0, steps=None):
    env.reset(seed=seed)
    out = []
    for i in range(steps or len(replies)):
        obs, reward, terminated, truncated, info = env.step(replies[i % len(replies)])
        out.append((obs, reward, terminated, truncated, info))
        if terminated:
            break
    return out


def test_constructor_validates_timing(make_env):
    with pytest.raises(ValueError, match="250"):
        WMBenchEnv("S01", physics_hz=250, frame_rate=30)
    with pytest.raises(ValueError, match=r"0\.55"):
        WMBenchEnv("S01", decision_dt=0.55)
    env = make_env("S01", decision_dt=0.2, frame_rate=20, physics_hz=100)
    assert env.frames_per_decision == 4 and env.substeps == 5


def test_unknown_scenario_and_body_fail_clearly():
    with pytest.raises(KeyError, match="S99"):
        WMBenchEnv("S99")
    with pytest.raises(KeyError, match="smpl"):
        WMBenchEnv("S01", body="hovercraft")


@pytest.mark.parametrize("sid", ALL_IDS)
def test_check_env_passes(sid, monkeypatch):
    # the render check also makes a "human" env: keep it headless
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    env = gym.make(env_id(sid))
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*needs a display.*")
            check_env(env.unwrapped)
    finally:
        env.close()


@pytest.mark.parametrize("body_name", available_bodies())
def test_check_env_passes_for_every_body(body_name, make_env):
    body = get_body(body_name)
    env = make_env("S12", body=body)
    check_env(env, skip_render_check=True)
    run(env, REPLIES)
    assert env.trace.body == body_name and len(env.trace.decisions) == len(REPLIES)


@pytest.mark.parametrize("sid", ALL_IDS)
def test_same_seed_and_replies_give_identical_traces(sid, make_env):
    a, b = make_env(sid), make_env(sid)
    out_a, out_b = run(a, REPLIES, seed=7), run(b, REPLIES, seed=7)
    assert json.dumps(a.trace.to_dict(), sort_keys=True) == json.dumps(b.trace.to_dict(), sort_keys=True)
    assert [o[0]["scene"] for o in out_a] == [o[0]["scene"] for o in out_b]
    run(a, REPLIES, seed=7)  # a reset env replays the same episode
    assert json.dumps(a.trace.to_dict(), sort_keys=True) == json.dumps(b.trace.to_dict(), sort_keys=True)


def test_step_records_a_complete_decision(make_env):
    env = make_env("S11")
    obs, info = env.reset(seed=0)  # seed 0: the canonical instance (beast ahead)
    assert info["scenario"] == "S11" and info["phase"] == 0 and info["events"][0].startswith("phase:")
    obs, reward, _, truncated, info = env.step(REPLIES[0])
    assert reward == 0.0 and not truncated and info["decision"] == 0
    record = env.trace.decisions[0]
    assert record.scene["npc_type"] == "beast" and record.truth.directions["fwd"].reason == "beast"
    assert record.parse["ok"] and record.parse["prediction"]["left"][:2] == ["safe", "open"]
    assert record.intent["direction"] == "right" and record.intent["speed_class"] == "sprint"
    assert record.realized["direction"] == "right" and record.realized["min_threat_distance"] < 5.2
    assert record.body_after["position"] != record.body_before["position"]
    scene = json.loads(obs["scene"])
    assert scene["recent_decisions"][-1]["direction"] == "right"
    assert scene["recent_decisions"][-1]["outcome"] in {"moved right", "escaped"}
    assert scene["last_prediction"].startswith("PREDICT:")
    assert json.loads(json.dumps(env.trace.to_dict()))["decisions"][0]["index"] == 0
    env.record_brain_meta({"latency_s": 0.25, "provider": "test"})
    assert env.trace.decisions[-1].brain == {"latency_s": 0.25, "provider": "test"}


def test_sprint_right_moves_right_at_sprint_speed(make_env):
    env = make_env("S04")
    env.reset(seed=0)
    positions = [env.body.state().position]
    # directions are relative to the current heading: after turning right, keep sprinting straight on
    for motion in ("sprints to the right", "sprints straight ahead", "sprints straight ahead"):
        env.step(reply(motion))
        positions.append(env.body.state().position)
    (x1, y1, _), (x3, y3, _) = positions[1], positions[3]
    speed = math.hypot(x3 - x1, y3 - y1) / (2 * env.decision_dt)
    assert speed == pytest.approx(6.5, rel=0.15)
    assert y3 < -1.5 * 6.5 * 0.85 and abs(x3) < 0.2  # 1.5 s to the right of the start heading (+x)
    assert env.trace.decisions[-1].realized["speed_class"] == "sprint"


def test_freeze_keeps_the_body_in_place(make_env):
    env = make_env("S06")
    env.reset(seed=0)
    for _ in range(3):
        env.step(reply("freezes on the spot, holding its breath"))
    x, y, _ = env.body.state().position
    assert math.hypot(x, y) < 0.1
    assert all(d.realized["direction"] is None for d in env.trace.decisions)


def test_running_into_a_wall_stops_at_it_and_is_recorded(make_env):
    env = make_env("S01")
    env.reset(seed=0)
    events = []
    for _ in range(3):
        _, _, _, _, info = env.step(reply("runs straight forward"))
        events += info["events"]
        assert env.body.state().position[0] < 3.0 - 0.3 + 1e-6
    per_decision = [sum(e.kind == "collision:wall" for e in d.events) for d in env.trace.decisions]
    assert per_decision == [0, 1, 1]  # 4.5 m/s reaches the wall (2.7 m incl. clearance) in the 2nd decision
    assert env.trace.decisions[1].events[0].detail == "wall_fwd"
    assert env.last_perception.scene["recent_decisions"][-1]["outcome"] == "blocked by wall on front"


def test_a_charge_that_reaches_the_body_catches_it(make_env):
    env = make_env(one_phase(npcs=(NpcSpec("b", "beast", (3.0, 0.0), "charge"),), jitter=0.0))
    env.reset(seed=0)
    _, _, terminated, _, info = env.step(reply("freezes"))
    assert terminated and "caught" in info["events"]
    assert env.trace.decisions[-1].realized["min_threat_distance"] <= 0.8
    assert env.last_perception.scene["recent_decisions"][-1]["outcome"] == "caught"
    _, _, again, _, info = env.step(reply("freezes"))  # stepping after the end never raises
    assert again and info["events"] == [] and len(env.trace.decisions) == 1


def test_fleeing_a_beast_records_escaped(make_env):
    env = make_env(one_phase(npcs=(NpcSpec("b", "beast", (7.5, 0.0), "stop"),), jitter=0.0))
    env.reset(seed=0)
    _, _, _, _, info = env.step(reply("sprints backward away from the beast"))
    assert "escaped" in info["events"]
    assert env.last_perception.scene["recent_decisions"][-1]["outcome"] == "escaped"


def test_phases_rebuild_the_world_and_clear_memory(make_env):
    env = make_env("S09")
    env.reset(seed=0)
    infos = []
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(reply("walks left"))
        infos.append(info)
    per_phase = len(env.trace.decisions) // 2
    assert env.trace.phase_starts == [0, per_phase]
    switch = infos[per_phase - 1]
    assert switch["phase"] == 1 and any(e.startswith("phase:") for e in switch["events"])
    second = env.trace.decisions[per_phase]
    assert second.scene["recent_decisions"] == [] and second.scene["last_prediction"] is None
    assert second.body_before["position"][:2] == [0.0, 0.0]
    assert env.trace.decisions[-1].t == pytest.approx(env.scenario.duration - env.decision_dt)


@pytest.mark.parametrize("garbage", ["", "\x00\x01\x02", b"\xff\xfe\x00garbage", "x" * 100_000, None, 12345,
                                     "PREDICT: nonsense", "MOTION: sprint left"])
def test_garbage_replies_never_raise_and_are_recorded_as_parse_errors(garbage, make_env):
    env = make_env("S12")
    env.reset(seed=0)
    obs, _, _, _, _ = env.step(garbage)
    assert env.observation_space.contains(obs)
    record = env.trace.decisions[0]
    assert record.parse["ok"] is False and record.parse["code"]
    assert len(record.reply) <= env.max_reply_chars
    json.dumps(env.trace.to_dict())
    if garbage == "MOTION: sprint left":  # a salvaged MOTION is still acted out
        assert record.intent["direction"] == "left" and record.realized["direction"] == "left"


def test_s12_and_s13_are_exact_mirrors(make_env):
    s12, s13 = make_env("S12"), make_env("S13")
    predict = "PREDICT: left=danger(wall), right=safe(open), fwd=danger(beast)"
    replies = [reply("sprints right in terror", predict),
               reply("runs right, glancing back"), reply("backs away to the right")]
    run(s12, replies, seed=11)
    run(s13, [mirror_words(r) for r in replies], seed=11)
    assert len(s12.trace.decisions) == len(s13.trace.decisions) == 3
    for a, b in zip(s12.trace.decisions, s13.trace.decisions):
        mirrored = json.loads(mirror_words(json.dumps(a.scene)))
        # last_prediction is the parsed PREDICT in canonical order (left, right, fwd, back): compare its items
        assert sorted((mirrored.pop("last_prediction") or "").removeprefix("PREDICT: ").split(", ")) == sorted(
            (b.scene.pop("last_prediction") or "").removeprefix("PREDICT: ").split(", "))
        assert mirrored == b.scene
        assert a.body_after["position"][0] == pytest.approx(b.body_after["position"][0], abs=1e-9)
        assert a.body_after["position"][1] == pytest.approx(-b.body_after["position"][1], abs=1e-9)


def mirror_words(text: str) -> str:
    return re.sub(r"\b(left|right)\b", lambda m: "right" if m.group(1) == "left" else "left", text)


def test_rgb_array_shows_walls_and_the_beast(make_env):
    env = make_env(one_phase(walls=(Wall.facing("left", 2.0),), npcs=(NpcSpec("b", "beast", (4.0, -1.0)),)),
                   render_mode="rgb_array")
    env.reset(seed=0)
    env.step(reply("walks forward"))
    frame = env.render()
    assert frame.shape == (240, 320, 3) and frame.dtype == np.uint8
    r, g, b = (frame[..., i].astype(int) for i in range(3))
    beast = (r > 90) & (r > g + 35) & (g > b + 20)          # orange-brown
    teal = (g > r + 40) & (b > r + 40)                       # the walls (envs/world.py WALL_COLOR)
    assert beast.sum() > 50 and teal.sum() > 200
    assert frame.std() > 10
    assert len(env.body.body_ids()) >= 20  # the joint capsules were created for rendering


def test_headless_runs_never_create_joint_visuals(make_env):
    env = make_env("S04")
    run(env, REPLIES)
    assert env.body.body_ids() == frozenset()
    assert env.render() is None


def test_close_is_idempotent_and_reset_reopens(make_env):
    env = make_env("S01")
    env.reset(seed=0)
    env.close()
    env.close()
    obs, _ = env.reset(seed=0)
    assert json.loads(obs["scene"])["walls"]["front"] == pytest.approx(3.0)


def test_resets_and_phases_leak_no_bodies_or_clients(make_env):
    env = make_env("S24")  # several phases with NPCs
    counts = []
    for seed in range(3):
        run(env, REPLIES, seed=seed, steps=12)
        client = env.world.client
        expected = 1 + len(env.world.wall_body_ids) + len(env.crowd.present())
        counts.append(p.getNumBodies(physicsClientId=client) == expected)
    assert all(counts)
    env.close()
    # released: disconnected, or kept idle for the next world (wmbench.envs.client_pool)
    assert not p.isConnected(physicsClientId=client) or client in idle_clients()


@pytest.mark.parametrize("body_name", ["robot", "drone"])
def test_frame_poses_leave_the_trace_unchanged(body_name, make_env):
    """A bench decision's frames read only a FramePose body's frame pose and its full state once, after the
    last frame (issue 23, round 4); the trace -- records, events, pose log, servo or rotor extras -- must
    be the very trace of the same episode read with the full state every frame. S12: a wall, a charging
    beast and a catch (a decision cut short)."""
    def trace(frame_poses: bool) -> dict:
        env = make_env("S12", body=body_name)
        env._pose_types[type(env.body)] = frame_poses   # the capability's switch, decided per body type
        run(env, REPLIES, seed=3, steps=12)
        return env.trace.to_dict()

    with_pose, with_state = trace(True), trace(False)
    assert json.dumps(with_pose, sort_keys=True) == json.dumps(with_state, sort_keys=True)
    assert len(with_pose["decisions"]) >= 3 and with_pose["meta"]["poses"]["frames"]


def test_a_subclass_overriding_state_is_not_read_through_its_inherited_frame_pose(make_env):
    """A robot subclass whose state() differs (here: shifted 1 m) must not be read through the frame pose
    it inherits: the env gives it the full state every frame; the plain robot keeps its frame pose."""
    from wmbench.body.base import BodyState
    from wmbench.body.robot.servo_robot import ServoRobot

    class Shifted(ServoRobot):
        def state(self) -> BodyState:
            s = super().state()
            return BodyState((s.position[0] + 1.0, *s.position[1:]), s.heading, s.velocity, s.speed,
                             s.posture, s.speed_class, s.extras)

    env = make_env("S04", body=Shifted())
    assert not env._frame_poses(env.body) and env._frame_poses(ServoRobot())
