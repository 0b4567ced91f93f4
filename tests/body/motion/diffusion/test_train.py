"""``wmbench train-motion``: a tiny run is deterministic on CPU and writes weights, config, card and curve."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("diffusers")

from wmbench.body.motion.diffusion import dataset as ds
from wmbench.body.motion.diffusion.train import train, write_windows
from wmbench.harness.cli.main import main

TINY = {"steps": 4, "batch": 8, "width": 32, "layers": 1, "onnx": False}


@pytest.fixture(scope="module")
def windows(tmp_path_factory):
    """A small real training set: two mocap walk segments (forward and reversed) and their transitions."""
    segments = [s for s in ds.mocap_segments(cycles=2) if s.name in ("walk-x1.0", "walk-reversed-x1.0")]
    vocabulary = ds.build_vocabulary([s.text for s in segments])
    windows = ds.make_windows(segments, vocabulary, np.random.default_rng(0), stride=4, transitions=8)
    path = tmp_path_factory.mktemp("motion") / "windows.npz"
    write_windows(path, windows, vocabulary, ds.data_card(segments, windows), segments[0].frames[:ds.CONTEXT])
    return path


def _weights(out) -> dict[str, np.ndarray]:
    data = np.load(out / "denoiser.npz")
    return {k: data[k] for k in data.files}


def test_same_seed_gives_the_same_weights_and_another_seed_does_not(windows, tmp_path):
    runs = {name: train(tmp_path / name, seed=seed, windows_file=windows, **TINY)
            for name, seed in (("a", 0), ("b", 0), ("c", 1))}
    a, b, c = (_weights(tmp_path / n) for n in "abc")
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    assert runs["a"].final_loss == runs["b"].final_loss
    assert any(not np.array_equal(a[k], c[k]) for k in a if k.startswith("w/"))
    # trained weights differ from the seed's initial ones: the optimiser really stepped
    zero = train(tmp_path / "z", seed=0, windows_file=windows, **{**TINY, "steps": 1})
    assert zero.steps == 1 and any(not np.array_equal(a[k], _weights(tmp_path / "z")[k]) for k in a
                                   if k.startswith("w/"))


def test_outputs_config_card_and_loss_curve(windows, tmp_path, monkeypatch):
    out = tmp_path / "m"
    code = main(["train-motion", "--windows", str(windows), "--out", str(out), "--steps", "3", "--batch", "8",
                 "--width", "32", "--layers", "1", "--no-onnx"])
    assert code == 0
    config = json.loads((out / "config.json").read_text())
    assert config["command"] == ("wmbench train-motion --steps 3 --batch 8 --seed 0 --device cpu --width 32 "
                                 f"--layers 1 --windows {windows} --no-onnx") and config["steps"] == 3
    assert config["denoiser"]["width"] == 32 and config["held_out"] == ["dance", "turn"]
    curve = json.loads((out / "loss_curve.json").read_text())
    assert len(curve["loss"]) == 1 and np.isfinite(curve["loss"][0])
    card = (out / "DATA_CARD.md").read_text()
    assert "| walk | locomotion | 2 |" in card and "real mocap (100 %)" in card and "Held out" in card
    data = np.load(out / "denoiser.npz")
    assert list(data["timesteps"]) == [999, 749, 499, 249]     # DDIM, 4 trailing steps
    assert data["rest_context"].shape == (8, 67)
    # the generator uses a trained folder when WMBENCH_DIFFUSION_WEIGHTS names it
    from wmbench.body.intent.reader import parse_motion
    from wmbench.body.motion.diffusion.generator import WEIGHTS_ENV, DiffusionGenerator

    monkeypatch.setenv(WEIGHTS_ENV, str(out))
    generator = DiffusionGenerator(30)
    assert generator.model.config["width"] == 32
    generator.set_intent(parse_motion("a person walks forward"))
    assert np.all(np.isfinite(generator.next_frame(1.4).joints))


def test_missing_motion_extra_is_a_usage_error(monkeypatch, capsys):
    import builtins

    real_import = builtins.__import__

    def no_diffusers(name, *args, **kwargs):
        if name == "diffusers":
            raise ImportError("No module named 'diffusers'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_diffusers)
    assert main(["train-motion", "--steps", "1"]) == 2
    assert "needs the motion extra" in capsys.readouterr().err


def _targets(windows) -> np.ndarray:
    return np.load(windows)["target"].astype(np.float64)


def test_foot_tracks_are_the_feet_that_features_to_joints_recovers(windows):
    import torch

    from wmbench.body.motion.diffusion.train import foot_tracks
    from wmbench.body.motion.humanml3d.features import N_FEATURES, features_to_joints
    from wmbench.body.skeleton import FOOT_CONTACT_JOINTS

    targets = _targets(windows)[:6]
    tracks = foot_tracks(torch.as_tensor(targets)).numpy()
    for window, track in zip(targets, tracks):
        rows = np.zeros((len(window), N_FEATURES))
        rows[:, :ds.FRAME_DIM] = window
        assert np.allclose(features_to_joints(rows)[:, list(FOOT_CONTACT_JOINTS)], track, atol=1e-9)


def test_the_foot_velocity_term_is_zero_on_the_target_and_weighs_a_slide_in_contact_more(windows):
    import torch

    from wmbench.body.motion.diffusion.train import contact_heights_of, foot_velocity_loss
    from wmbench.body.skeleton import FOOT_CONTACT_JOINTS

    targets = _targets(windows)
    heights = torch.as_tensor(contact_heights_of(targets))
    target = torch.as_tensor(targets)
    assert float(foot_velocity_loss(target, target, heights)) == 0.0
    # the same 1 cm per frame slide of every foot joint, once on a standing target (all in contact) and once
    # with every target foot lifted out of the contact heights: the contact frames count more
    height = [1 + 3 * j + 1 for j in FOOT_CONTACT_JOINTS]   # the y of each foot joint's ric (1 + 3j: its x)
    slide = torch.zeros_like(target)
    slide[..., [k + 1 for k in height]] = 0.01 * torch.arange(target.shape[1], dtype=target.dtype)[:, None]
    standing = target.clone()
    standing[..., :3] = 0.0                          # no turn, no root travel
    standing[..., 4:] = standing[:, :1, 4:]          # the first pose held: every foot still, on its floor
    standing[..., height] = 0.0
    lifted = standing.clone()
    lifted[..., height] = 1.0
    in_contact = float(foot_velocity_loss(standing + slide, standing, heights))
    in_the_air = float(foot_velocity_loss(lifted + slide, lifted, heights))
    assert np.isclose(in_the_air, 0.3 ** 2) and np.isclose(in_contact, 4.0 * 0.3 ** 2)


def test_a_foot_weight_is_trained_with_and_recorded(windows, tmp_path, capsys):
    without = train(tmp_path / "a", seed=0, windows_file=windows, **TINY)
    out = tmp_path / "b"
    assert main(["train-motion", "--windows", str(windows), "--out", str(out), "--steps", "4", "--batch", "8",
                 "--width", "32", "--layers", "1", "--no-onnx", "--foot-weight", "0.05"]) == 0
    config = json.loads((out / "config.json").read_text())
    assert "--foot-weight 0.05" in config["command"] and config["foot_weight"] == 0.05
    trained, plain = _weights(out), _weights(tmp_path / "a")
    assert without.steps == 4 and any(not np.array_equal(trained[k], plain[k]) for k in plain if k.startswith("w/"))
    assert main(["train-motion", "--foot-weight", "-1", "--steps", "1"]) == 2
    assert "--foot-weight must be 0 or more, got -1.0" in capsys.readouterr().err
