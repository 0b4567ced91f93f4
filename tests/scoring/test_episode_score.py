"""The scorer's wrapper: terminal ``info["episode_score"]`` and the ``"score"`` reward (issue 15, Gymnasium users)."""

from __future__ import annotations

import pytest

from tests.episode_player import play
from wmbench.brain.registry import get_brain
from wmbench.core.errors import ConfigError
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.gym_entry import make_env
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.scores import score_line


def test_default_reward_stays_zero_and_the_terminal_info_carries_score_and_trace():
    env = make_env(scenario="S12")
    try:
        rewards, info = play(env, "reference")
    finally:
        env.close()
    assert set(rewards) == {0.0}
    score = info["episode_score"]
    # the same score the harness gives the same episode
    result = run_episode("S12", get_brain("reference"), "smpl", 0)
    harness = score_line({"scenario": "S12", "seed": 0, "trace": result.trace, "error": None})
    assert score["score"] == harness.score and score["explanation"] == harness.explanation
    assert score["max"] == 20.0 and score["measured"] is True
    assert info["trace"].scenario_id == "S12" and len(info["trace"].decisions) == len(rewards)
    assert all(value is not None for value in score.values())  # stackable by vector envs


@pytest.mark.parametrize("brain", ["reference", "null"])
def test_score_reward_returns_the_scenario_points_over_twenty(brain):
    env = make_env(scenario="S12", reward="score")
    try:
        rewards, info = play(env, brain)
    finally:
        env.close()
    assert all(r == 0.0 for r in rewards[:-1])
    assert sum(rewards) == pytest.approx(info["episode_score"]["score"] / 20)


def test_score_rewards_separate_a_good_brain_from_a_constant_one():
    returns = {}
    for brain in ("reference", "null"):
        env = make_env(scenario="S12", reward="score")
        try:
            returns[brain] = sum(play(env, brain)[0])
        finally:
            env.close()
    assert returns["reference"] > 0.5 > returns["null"]


def test_the_env_alone_refuses_the_score_reward_and_says_where_it_is():
    with pytest.raises(ConfigError, match=r"gym\.make\(\.\.\., reward=.score.\)"):
        WMBenchEnv("S01", reward="score")
