"""The entry point of the registered Gymnasium ids: the simulator's env inside the scorer's wrapper.

``gym.make("WMBench-S12-v0", reward="score", ...)`` calls :func:`make_env`, which builds a
:class:`~wmbench.envs.wmbench_env.WMBenchEnv` (paying ``"none"`` or ``"dense"`` itself) and wraps it in
:class:`~wmbench.scoring.episode_score.EpisodeScoreWrapper` (terminal ``info["episode_score"]``, the ``"score"``
reward). It lives in the harness because it composes two parts that do not know each other: the env never imports
the scorer and the scorer never imports the env.
"""

from __future__ import annotations

from typing import Any

from wmbench.envs.rewards import check_reward_mode
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.scoring.episode_score import SCORE_MODE, EpisodeScoreWrapper


def make_env(reward: str | None = None, **kwargs: Any) -> EpisodeScoreWrapper:
    """A scored WM Bench env: ``reward`` is ``"none"`` (default), ``"score"`` or ``"dense"``; the other keyword
    arguments go to :class:`~wmbench.envs.wmbench_env.WMBenchEnv`."""
    mode = check_reward_mode(reward)
    env = WMBenchEnv(reward=None if mode == SCORE_MODE else mode, **kwargs)
    return EpisodeScoreWrapper(env, mode)
