"""Play one episode of a Gymnasium WM Bench env with a registered brain: the rewards and the terminal info."""

from __future__ import annotations

import json
from typing import Any

import gymnasium as gym

from wmbench.brain.registry import get_brain
from wmbench.brain.seeding import brain_seed


def play(env: gym.Env[Any, Any], brain_spec: str, seed: int = 0,
         options: dict[str, Any] | None = None) -> tuple[list[float], dict[str, Any]]:
    """One episode: (rewards, the terminal info)."""
    brain = get_brain(brain_spec)
    obs, _ = env.reset(seed=seed, options=options)
    brain.reset(brain_seed(seed))
    rewards: list[float] = []
    info: dict[str, Any] = {}
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(brain.decide(json.loads(obs["scene"])).text)
        rewards.append(float(reward))
        done = bool(terminated or truncated)
    return rewards, info
