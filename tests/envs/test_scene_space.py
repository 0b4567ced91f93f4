"""Issue 24 item 15: Gymnasium's default async vector env must not hand out blank scenes."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import gymnasium as gym
import pytest

import wmbench  # noqa: F401  (registers the ids)
from wmbench.envs.scene_space import SceneText, SharedMemoryTextError


def test_async_make_vec_with_gymnasium_defaults_refuses_with_the_fix_named():
    # real worker processes are never started: the refusal comes while the shared buffer is being built
    with pytest.raises(SharedMemoryTextError, match=r"shared_memory.: False"):
        gym.make_vec("WMBench-S12-v0", 2, vectorization_mode="async")


def test_async_make_vec_without_shared_memory_returns_the_real_scene():
    code = textwrap.dedent("""
        import json, gymnasium as gym, wmbench
        if __name__ == "__main__":
            envs = gym.make_vec("WMBench-S12-v0", 2, vectorization_mode="async",
                                vector_kwargs={"shared_memory": False})
            obs, _ = envs.reset(seed=0)
            obs2, *_ = envs.step(("PREDICT: fwd=danger(beast)\\nMOTION: walks right",) * 2)
            envs.close()
            print(json.dumps([list(obs["scene"]), list(obs2["scene"])]))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    first, second = json.loads(done.stdout.strip().splitlines()[-1])
    for scene in first + second:
        assert scene.strip() and json.loads(scene)["walls"] is not None  # a real scene_context, not blanks


def test_scene_text_is_still_a_plain_text_space():
    space = SceneText(max_length=8, charset="ab")
    assert space == gym.spaces.Text(max_length=8, charset="ab") and space.contains("abba")
    env = gym.make("WMBench-S12-v0")
    try:
        assert isinstance(env.observation_space["scene"], SceneText)
        obs, _ = env.reset(seed=0)
        assert env.observation_space.contains(obs)
    finally:
        env.close()
