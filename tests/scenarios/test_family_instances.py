"""Every bench family really varies over the drawn instances of a run (issue 20): at least two distinct first
scenes, and four pairwise distinct scene sequences, so no scenario can be recognised — or answered — from a
remembered scene. Real PyBullet episodes of every bench scenario, the null brain's reply every decision."""

from __future__ import annotations

import json

import pytest

from wmbench.brain.baselines import NullBrain
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.run.instances import draw_test_seeds
from wmbench.scenarios import all_scenarios

#: one fixed nonce: the instances a run with it would score
SEEDS = draw_test_seeds(20261126, 4)
BENCH = [s.id for s in all_scenarios() if s.mode == "bench"]


def _scenes(scenario_id: str, seed: int, reply: str) -> list[str]:
    """The scene JSON of every decision of one episode (``reply`` every decision)."""
    env = WMBenchEnv(scenario_id)
    try:
        obs, _ = env.reset(seed=seed)
        scenes = [obs["scene"]]
        done = False
        while not done:
            obs, _, terminated, truncated, _ = env.step(reply)
            done = terminated or truncated
            if not done:
                scenes.append(obs["scene"])
        return scenes
    finally:
        env.close()


def _without_time(scene: str) -> str:
    data = json.loads(scene)
    data.pop("t", None)
    return json.dumps(data, sort_keys=True)


@pytest.mark.parametrize("scenario_id", BENCH)
def test_drawn_instances_have_distinct_first_scenes_and_sequences(scenario_id):
    reply = NullBrain().decide({}).text
    sequences = [tuple(_without_time(s) for s in _scenes(scenario_id, seed, reply)) for seed in SEEDS]
    first = {seq[0] for seq in sequences}
    assert len(first) >= 2, f"{scenario_id}: every drawn instance starts with the same scene {sequences[0][0]}"
    assert len(set(sequences)) == len(SEEDS), f"{scenario_id}: two drawn instances show the same scene sequence"
