"""The door for HumanML3D-format text-to-motion models: conversion, resampling, loading, the registry, and a
tiny random-weight model in that format acting closed loop on the SMPL body in a real env."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from wmbench.body.character.smpl import SmplCharacter
from wmbench.body.intent.reader import parse_motion
from wmbench.body.motion import registry as generators
from wmbench.body.motion.humanml3d.adapter import (
    HUMANML3D_FPS,
    MODEL_ENV,
    STILL_TEXT,
    HumanML3DGenerator,
    TextToMotionModel,
    load_model,
    resample,
)
from wmbench.body.motion.humanml3d.features import LAYOUT, N_FEATURES, initial_alignment, joints_to_features
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.skeleton import DEFAULT_SKELETON
from wmbench.core.errors import ConfigError
from wmbench.envs.wmbench_env import WMBenchEnv

PREDICT = "PREDICT: left=safe(open), right=safe(open), fwd=danger(wall), back=safe(open)"


class TinyT2M:
    """A tiny random-weight text-to-motion model that emits HumanML3D features at 20 fps: a bag of hashed words
    and the frame time go through a two-layer tanh MLP whose output perturbs the rest pose's ``ric`` and drives
    the root's velocity. Untrained (random weights), but in exactly the format a real model emits."""

    def __init__(self, weight_seed: int = 123) -> None:
        rng = np.random.default_rng(weight_seed)
        self.w1 = rng.normal(0.0, 0.5, (16 + 4, 32))
        self.w2 = rng.normal(0.0, 0.5, (32, N_FEATURES))
        rest = DEFAULT_SKELETON.rest_pose()
        self.rest_ric = (rest[1:] - np.array([rest[0, 0], 0.0, rest[0, 2]])).reshape(-1)
        self.rest_height = float(rest[0, 1])
        self.calls: list[tuple[str, int, int]] = []

    def __call__(self, text: str, n_frames: int, seed: int) -> np.ndarray:
        self.calls.append((text, n_frames, seed))
        words = np.zeros(16)
        for word in text.lower().split():
            words[zlib.crc32(word.encode()) % 16] += 1.0
        t = np.arange(n_frames) / HUMANML3D_FPS
        clock = np.stack((np.sin(2 * np.pi * t), np.cos(2 * np.pi * t), np.sin(4 * np.pi * t),
                          np.cos(4 * np.pi * t)), axis=1)
        x = np.concatenate((np.repeat(words[None], n_frames, axis=0), clock), axis=1)
        out = np.tanh(np.tanh(x @ self.w1) @ self.w2)
        out += 0.05 * np.random.default_rng(seed).standard_normal(out.shape)
        features = np.zeros((n_frames, N_FEATURES))
        features[:, LAYOUT.ric] = self.rest_ric + 0.03 * out[:, LAYOUT.ric]
        features[:, LAYOUT.root_height] = self.rest_height + 0.02 * out[:, LAYOUT.root_height]
        features[:, LAYOUT.root_rot_velocity] = 0.01 * out[:, LAYOUT.root_rot_velocity]
        features[:, LAYOUT.root_linear_velocity] = 0.03 * (1.0 + out[:, LAYOUT.root_linear_velocity])
        return features


class ReplayModel:
    """A 'model' that returns the HumanML3D features of a known 20 fps clip, whatever the text."""

    def __init__(self, joints_20fps: np.ndarray) -> None:
        self.features = joints_to_features(joints_20fps, fps=HUMANML3D_FPS)

    def __call__(self, text: str, n_frames: int, seed: int) -> np.ndarray:
        return self.features[:n_frames]


def test_tiny_model_satisfies_the_interface():
    assert isinstance(TinyT2M(), TextToMotionModel)
    assert TinyT2M()("a person walks", 7, 0).shape == (7, N_FEATURES)


def test_clip_recovers_a_known_motion_and_resamples_20_to_30_fps():
    walk = ProceduralGenerator(HUMANML3D_FPS).clip(parse_motion("a person walks forward"), 61)  # 3 s at 20 fps
    generator = HumanML3DGenerator(30, model=ReplayModel(walk))
    clip = generator.clip(parse_motion("a person walks forward"), 76)  # 2.5 s at 30 fps
    expected = resample(initial_alignment(walk, fps=HUMANML3D_FPS), HUMANML3D_FPS, 30.0)[:76]
    assert clip.shape == (76, 22, 3)
    assert np.abs(clip - expected).max() < 1e-3  # within a millimetre of the motion the features encode
    assert clip[-1, 0, 2] > 2.0  # the walk's own root travel (1.4 m/s class) came through the features


def test_resample_hits_the_20_fps_frames_and_interpolates_between():
    frames = np.arange(5, dtype=float)[:, None] * np.array([[1.0, 2.0]])
    out = resample(frames, 20.0, 30.0)
    assert out.shape == (7, 2)
    assert np.allclose(out[::3], frames[::2]) and np.allclose(out[1], frames[0] + (frames[1] - frames[0]) * 2 / 3)


def test_stream_asks_the_model_for_the_motion_text_and_is_deterministic_per_seed():
    def run(seed: int) -> tuple[np.ndarray, list[tuple[str, int, int]]]:
        model = TinyT2M()
        generator = HumanML3DGenerator(30, model=model, seed=seed)
        generator.set_intent(parse_motion("a person runs to the left in fear"))
        frames = np.stack([generator.next_frame(3.0).joints for _ in range(70)])
        return frames, model.calls

    frames, calls = run(4)
    again, _ = run(4)
    other, _ = run(5)
    assert frames.shape == (70, 22, 3) and np.array_equal(frames, again) and not np.array_equal(frames, other)
    assert [c[:2] for c in calls] == [("a person runs to the left in fear", 40)] * 2  # 2 s chunks, refilled
    assert calls[0][2] != calls[1][2]  # each chunk gets its own seed
    assert np.allclose(frames[:, 0, [0, 2]], 0.0)  # root-local: pelvis floor point at the origin


def test_a_held_body_asks_for_standing_still_and_a_switch_is_cross_faded():
    model = TinyT2M()
    generator = HumanML3DGenerator(30, model=model)
    generator.set_intent(parse_motion("a person sprints forward"))
    before = generator.next_frame(4.0).joints
    after = generator.next_frame(0.0).joints  # blocked: speed below BLOCKED_SPEED while the intent moves
    assert model.calls[-1][0] == STILL_TEXT
    local = TinyT2M()(STILL_TEXT, 40, model.calls[-1][2])  # what the model gave, before the cross-fade
    unblended = local[0, LAYOUT.ric].reshape(21, 3)
    assert np.linalg.norm(after[1:] - before[1:]) < np.linalg.norm(unblended - before[1:])


@pytest.mark.parametrize("bad", [np.zeros((10, 262)), np.full((10, 263), np.nan), np.zeros((0, 263))])
def test_malformed_model_output_is_a_clear_config_error(bad):
    generator = HumanML3DGenerator(30, model=lambda text, n, seed: bad)
    generator.set_intent(parse_motion("a person walks forward"))
    with pytest.raises(ConfigError, match="HumanML3D model"):
        generator.next_frame(1.4)


def test_model_loads_from_a_file_path_and_the_registered_name(tmp_path, monkeypatch):
    source = tmp_path / "my_t2m.py"
    source.write_text("import numpy as np\n"
                      "class Model:\n"
                      "    def __call__(self, text, n_frames, seed):\n"
                      "        out = np.zeros((n_frames, 263)); out[:, 3] = 0.9; return out\n")
    assert callable(load_model(f"{source}:Model"))
    with pytest.raises(ConfigError, match="has no attribute 'Nope'"):
        load_model(f"{source}:Nope")
    with pytest.raises(ConfigError, match=r"'package\.module:attr'"):
        load_model("just_a_name")
    monkeypatch.delenv(MODEL_ENV, raising=False)
    with pytest.raises(ConfigError, match=MODEL_ENV):
        generators.get_generator("humanml3d", 30)
    monkeypatch.setenv(MODEL_ENV, f"{source}:Model")
    generator = generators.get_generator("humanml3d", 30)
    generator.set_intent(parse_motion("a person walks forward"))
    assert generator.name == "humanml3d" and generator.next_frame(1.4).joints[0, 1] == pytest.approx(0.9)


def test_tiny_model_runs_closed_loop_on_the_smpl_body_in_a_real_env():
    model = TinyT2M()
    body = SmplCharacter(generator_factory=lambda fps: HumanML3DGenerator(fps, model=model))
    env = WMBenchEnv("S01", body=body)  # a wall 3 m ahead
    try:
        env.reset(seed=0)
        start = body.state().position
        positions = []
        for _ in range(4):
            env.step(f"{PREDICT}\nMOTION: a person walks to the left, calm")
            joints = body.world_joints()
            assert joints.shape == (22, 3) and np.all(np.isfinite(joints))
            # the pose is the model's: its pelvis sits near the rest height it emits (the procedural walk's
            # pelvis is lower, ~0.88-0.90 m)
            assert abs(float(joints[0, 2]) - DEFAULT_SKELETON.rest_pose()[0, 1]) < 0.03
            positions.append(body.state().position)
    finally:
        env.close()
    texts = {text for text, _, _ in model.calls}
    assert "a person walks to the left, calm" in texts
    # "left" is relative to the current heading: 0.5 s at a walk to the left each decision traces a square
    assert positions[0][1] - start[1] == pytest.approx(0.7, abs=0.05)
    assert positions[1][0] - start[0] == pytest.approx(-0.7, abs=0.05)
