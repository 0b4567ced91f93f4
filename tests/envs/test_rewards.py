"""The env's own rewards (dense), render_fps, the multi-scenario env and vector envs (issue 15, Gymnasium users)."""

from __future__ import annotations

import json
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import wmbench  # noqa: F401  (registers the ids)
from tests.episode_player import play
from wmbench.brain.registry import get_brain
from wmbench.envs.rewards import predict_reward
from wmbench.envs.wmbench_env import WMBenchEnv


def test_dense_reward_pays_correct_predictions_and_charges_wrong_ones():
    env = WMBenchEnv("S12", reward="dense")
    try:
        env.reset(seed=0)
        truth = env.last_perception.truth.directions
        right = ", ".join(f"{d}={'safe' if t.safe else 'danger'}(x)" for d, t in truth.items())
        wrong = ", ".join(f"{d}={'danger' if t.safe else 'safe'}(x)" for d, t in truth.items())
        env.step(f"PREDICT: {right}\nMOTION: stand still")
        good = predict_reward(env.trace.decisions[-1])
        env.step(f"PREDICT: {wrong}\nMOTION: stand still")
        bad = predict_reward(env.trace.decisions[-1])
        env.step("MOTION: stand still")
        none = predict_reward(env.trace.decisions[-1])
    finally:
        env.close()
    assert good == pytest.approx(0.4) and bad == pytest.approx(-0.4) and none == 0.0


def test_dense_return_ranks_the_reference_brain_above_standing_still():
    returns = {}
    for brain in ("reference", "null"):
        env = WMBenchEnv("S12", reward="dense")
        try:
            rewards, _ = play(env, brain)
        finally:
            env.close()
        returns[brain] = sum(rewards)
        assert any(r != 0.0 for r in rewards) or brain == "null"
    assert returns["reference"] > returns["null"]


def test_unknown_reward_mode_is_refused():
    with pytest.raises(ValueError, match="reward must be one of none, score, dense"):
        WMBenchEnv("S01", reward="sparse")


def test_render_fps_matches_one_frame_per_step():
    env = WMBenchEnv("S01", render_mode="rgb_array", decision_dt=0.5)
    try:
        assert env.metadata["render_fps"] == 2
        env.reset(seed=0)
        env.step("MOTION: walk forward")
        assert env.render().shape == (240, 320, 3)
    finally:
        env.close()
    assert WMBenchEnv("S01", decision_dt=0.2).metadata["render_fps"] == 5


def test_reset_option_picks_the_scenario_and_a_pool_is_drawn_by_the_seed():
    env = WMBenchEnv(scenarios="C01,C03")
    try:
        _, info = env.reset(seed=0, options={"scenario": "S13"})
        assert info["scenario"] == "S13" and env.trace.scenario_id == "S13"
        drawn = [env.reset(seed=s)[1]["scenario"] for s in range(12)]
        again = [env.reset(seed=s)[1]["scenario"] for s in range(12)]
        assert drawn == again and len(set(drawn)) > 2
        assert {d[:2] for d in drawn} == {"S0", "S1"} and set(drawn) <= {f"S{i:02d}" for i in (*range(1, 6),
                                                                                             *range(11, 16))}
        with pytest.raises(ValueError, match="scenario id such as 'S12'"):
            env.reset(options={"scenario": 12})
        # a misspelt key was ignored: the episode was silently another scenario than the one asked for
        with pytest.raises(KeyError, match="unknown reset option 'scenaro'; did you mean 'scenario'"):
            env.reset(seed=0, options={"scenaro": "S01"})
    finally:
        env.close()
    with pytest.raises(ValueError, match="needs a scenario"):
        WMBenchEnv()


def test_mix_env_passes_check_env(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    env = gym.make("WMBench-Mix-v0", reward="dense")
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*needs a display.*")
            check_env(env.unwrapped)
    finally:
        env.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_env_mixes_scenarios_and_keeps_terminal_scores_through_autoreset(mode):
    """make_vec with reward="score" + RecordEpisodeStatistics: non-zero returns equal to score/20."""
    kwargs = {"shared_memory": False} if mode == "async" else {}
    envs = RecordEpisodeStatistics(gym.make_vec("WMBench-Mix-v0", num_envs=2, vectorization_mode=mode,
                                                vector_kwargs=kwargs, reward="score", scenarios="S01,S06"))
    brains = [get_brain("reference"), get_brain("reference")]
    try:
        obs, info = envs.reset(seed=3)
        finished = []
        for _ in range(40):
            obs, _, _, _, info = envs.step(tuple(b.decide(json.loads(s)).text for b, s in zip(brains,
                                                                                         obs["scene"])))
            if "episode" in info:
                for k in np.flatnonzero(info["_episode"]):
                    finished.append((float(info["episode"]["r"][k]), float(info["episode_score"]["score"][k]),
                                     str(info["episode_score"]["scenario"][k])))
            if len(finished) >= 4:
                break
    finally:
        envs.close()
    assert len(finished) >= 4
    assert all(r == pytest.approx(points / 20) for r, points, _ in finished)
    assert any(r > 0 for r, _, _ in finished)
    assert {sid for _, _, sid in finished} == {"S01", "S06"}
