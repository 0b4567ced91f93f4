"""Four WM Bench scenarios at once: an async vector env with ``reward="score"`` and episode statistics.

Each of 4 worker processes runs ``WMBench-Mix-v0`` (a bench scenario drawn per reset with the env's seeded
generator); brains reply to each env's scene; ``RecordEpisodeStatistics`` reports each finished episode's
return, which under ``reward="score"`` is the scenario's points / 20. The terminal step's info also carries
the score itself (``info["episode_score"]``) and the trace, so autoreset loses neither.

Run: ``.venv/bin/python examples/vector_env.py [EPISODES]`` (default 16).
"""

from __future__ import annotations

import json
import sys
import time

import gymnasium as gym
import numpy as np
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import wmbench  # noqa: F401  (registers the ids)
from wmbench.brain.registry import get_brain

BRAINS = ("reference", "random", "reference", "null")  # one per env: returns differ by brain


def main(episodes: int = 16) -> None:
    envs = RecordEpisodeStatistics(gym.make_vec(
        "WMBench-Mix-v0", num_envs=len(BRAINS), vectorization_mode="async",
        vector_kwargs={"shared_memory": False},  # Text observations: see README, "Many scenarios in one env"
        reward="score"))
    brains = [get_brain(spec) for spec in BRAINS]
    obs, _ = envs.reset(seed=0)
    for i, brain in enumerate(brains):
        brain.reset(i)
    finished: list[tuple[str, str, float, float]] = []
    start = time.perf_counter()
    try:
        while len(finished) < episodes:
            actions = tuple(b.decide(json.loads(scene)).text for b, scene in zip(brains, obs["scene"]))
            obs, _, _, _, info = envs.step(actions)
            if "episode" in info:
                for k in np.flatnonzero(info["_episode"]):
                    score = info["episode_score"]
                    finished.append((BRAINS[k], str(score["scenario"][k]), float(info["episode"]["r"][k]),
                                     float(score["score"][k])))
    finally:
        envs.close()
    for spec, scenario, ret, points in finished:
        print(f"{spec:>9}  {scenario}  return {ret:.3f}  ({points:g} / 20)")
    nonzero = sum(ret > 0 for _, _, ret, _ in finished)
    print(f"{len(finished)} episodes in {time.perf_counter() - start:.1f} s; non-zero returns: {nonzero}; "
          f"every return == points / 20: {all(abs(r - p / 20) < 1e-9 for _, _, r, p in finished)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 16)
