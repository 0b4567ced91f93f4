"""Gymnasium ids: all 50 after ``import wmbench``; ``wmbench:`` ids work in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import gymnasium as gym

import wmbench
from wmbench.envs.registration import env_id
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.scenarios import all_scenarios


def test_import_registers_all_fifty_ids():
    wmbench.register_envs()
    ids = {f"WMBench-S{i:02d}-v0" for i in range(1, 51)}
    assert ids <= set(gym.registry)
    assert {env_id(s.id) for s in all_scenarios()} >= ids


def test_gym_make_builds_the_env_with_a_body_choice():
    env = gym.make("WMBench-S12-v0", body="smpl")
    try:
        assert isinstance(env.unwrapped, WMBenchEnv)
        assert env.unwrapped.scenario.id == "S12" and env.unwrapped.body.name == "smpl"
        obs, info = env.reset(seed=0)
        assert info["scenario"] == "S12" and env.observation_space.contains(obs)
    finally:
        env.close()


def test_module_prefixed_id_works_in_a_fresh_interpreter():
    code = textwrap.dedent("""
        import sys
        import gymnasium as gym
        assert "wmbench" not in sys.modules
        env = gym.make("wmbench:WMBench-S33-v0")
        obs, info = env.reset(seed=1)
        obs, reward, terminated, truncated, info = env.step("PREDICT: fwd=danger(wall)\\nMOTION: walks left")
        print(info["scenario"], info["decision"], type(env.unwrapped).__name__)
        env.close()
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["S33", "0", "WMBenchEnv"]
