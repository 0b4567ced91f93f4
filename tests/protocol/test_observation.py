"""Observation modes: what the brain is shown (JSON, panorama, both, rays) and the Gymnasium space."""

from __future__ import annotations

import json

import numpy as np
import pytest

from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.protocol.observation import MEMORY_KEYS, brain_input, decode_data_url


@pytest.fixture(scope="module")
def image_env():
    env = WMBenchEnv("S07", observation="image", panorama_panel=32)
    yield env
    env.close()


def test_image_mode_shows_pixels_and_memory_only(image_env):
    obs, _ = image_env.reset(seed=0)
    assert image_env.observation_space.contains(obs)
    assert obs["image"].shape == (32, 128, 3) and obs["image"].dtype == np.uint8
    text = json.loads(obs["scene"])
    assert set(text) == {"observation", *MEMORY_KEYS}  # no walls, npcs, sound: nothing to transcribe
    assert image_env.trace.meta["observation"] == "image"
    scene = image_env.last_perception.scene
    assert scene["npc_nearby"] is True  # ... although the JSON would have said there is a beast
    brain_view = brain_input(obs)
    assert np.array_equal(decode_data_url(brain_view["image"]), obs["image"])
    obs, *_ = image_env.step("PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)\n"
                             "MOTION: walks back")
    assert json.loads(obs["scene"])["recent_decisions"]  # memory still arrives as text


def test_rays_mode_gives_the_fan_as_text():
    env = WMBenchEnv("S01", observation="rays", n_rays=36)
    try:
        obs, _ = env.reset(seed=0)
        text = json.loads(obs["scene"])
        assert text["observation"] == "rays" and text["ray_step_deg"] == 10.0
        assert len(text["rays"]) == 36 and text["ray_hits"][0] == 1  # the front wall of S01
        assert text["rays"][0] == pytest.approx(env.last_perception.scene["walls"]["front"], abs=0.01)
        assert "walls" not in text and "image" not in obs
    finally:
        env.close()


def test_scene_mode_is_unchanged_and_has_no_image():
    env = WMBenchEnv("S01")
    try:
        obs, _ = env.reset(seed=0)
        assert "image" not in obs and "image" not in env.observation_space.spaces
        assert json.loads(obs["scene"]) == env.last_perception.scene
        assert "observation" not in env.trace.meta
    finally:
        env.close()


def test_unknown_mode_is_a_clear_error():
    with pytest.raises(ValueError, match=r"observation must be one of scene, image, scene\+image, rays; got 'pixels'"):
        WMBenchEnv("S01", observation="pixels")


def test_bad_data_url_says_what_arrived():
    with pytest.raises(ValueError, match="expected an image data URL"):
        decode_data_url("http://example.com/x.png")
    with pytest.raises(ValueError, match="does not hold a readable image"):
        decode_data_url("data:image/png;base64,AAAA")


def test_image_mode_passes_gymnasiums_env_checker():
    from gymnasium.utils.env_checker import check_env

    env = WMBenchEnv("S01", observation="image", panorama_panel=16)
    try:
        check_env(env, skip_render_check=True)
    finally:
        env.close()


def test_live_observe_in_image_mode_shows_the_strip_not_the_json():
    env = WMBenchEnv("S11", observation="image", panorama_panel=16)
    try:
        env.reset(seed=0)
        seen = env.observe()
        assert seen["observation"] == "image" and "walls" not in seen and "npcs" not in seen
        assert decode_data_url(seen["image"]).shape == (16, 64, 3)
    finally:
        env.close()


def test_a_live_run_in_image_mode_asks_the_brain_with_pixels():
    from wmbench.harness.live.loop import run_live

    result = run_live("S11", "vision", fps=30, duration=1.5, observation="image", keep_trace=True)
    assert result.error is None and result.decisions
    first = result.trace["decisions"][0]
    assert result.trace["meta"]["observation"] == "image"
    assert "fwd=danger(beast)" in first["reply"]  # the beast ahead, seen in the strip (no JSON shown)
