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
