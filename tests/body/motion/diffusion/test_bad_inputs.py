"""Issue 24 items 10 and 11: ``train-motion`` arguments and damaged diffusion weights are one-line errors
(exit 2), never tracebacks, never silently ignored (real files, real processes)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.extras import needs_extra
from wmbench.body.motion.diffusion.generator import WEIGHTS_DIR, WEIGHTS_ENV
from wmbench.harness.cli.main import main

WMBENCH = [sys.executable, "-m", "wmbench.harness.cli.main"]
needs_motion = needs_extra("motion")


@needs_motion
@pytest.mark.parametrize(("extra", "expected"), [
    (["--steps", "0"], "--steps must be at least 1, got 0"),
    (["--batch", "0"], "--batch must be at least 1, got 0"),
    (["--width", "-5"], "--width must be a positive multiple of 4"),
    (["--width", "6"], "--width must be a positive multiple of 4"),
    (["--layers", "0"], "--layers must be at least 1, got 0"),
    (["--seed", "-1"], "--seed must be at least 0, got -1"),
    (["--device", "nonsense"], "--device must be cpu, cuda or cuda:N, got 'nonsense'"),
    (["--windows", "MISSING"], "does not exist; expected a .npz written by --save-windows"),
    (["--windows", "TEXT"], "is not a windows file"),
    (["--out", "FILE"], "is an existing file; expected a folder for the weights"),
])
def test_train_motion_bad_arguments_are_one_line_before_any_training(tmp_path, capsys, extra, expected):
    text = tmp_path / "windows.npz"
    text.write_text("not an npz")
    afile = tmp_path / "a-file"
    afile.write_text("x")
    swap = {"MISSING": str(tmp_path / "none.npz"), "TEXT": str(text), "FILE": str(afile)}
    args = [swap.get(a, a) for a in extra]
    out = [] if "--out" in args else ["--out", str(tmp_path / "model")]
    assert main(["train-motion", "--steps", "1", *out, *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err
    assert not (tmp_path / "model").exists()  # nothing trained, nothing written


@needs_motion
def test_train_motion_cuda_without_cuda_is_one_line():
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    # the arguments are checked before diffusers is imported (it costs seconds): said at once, diffusers never loaded
    command = ("import sys; from wmbench.harness.cli.main import main; code = main(sys.argv[1:]); "
               "print('diffusers' in sys.modules); sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", command, "train-motion", "--device", "cuda", "--steps", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"wmbench train-motion: error: --device cuda: this torch sees no CUDA device (torch {torch.__version__}); "
        "use --device cpu"]
    assert done.stdout.strip() == "False"


def _damaged_weights(tmp_path: Path, damage: str) -> Path:
    folder = tmp_path / "weights"
    shutil.copytree(WEIGHTS_DIR, folder)
    if damage == "truncated npz":
        data = (folder / "denoiser.npz").read_bytes()
        (folder / "denoiser.npz").write_bytes(data[: len(data) // 2])
    elif damage == "no config":
        (folder / "config.json").unlink()
    elif damage == "garbage onnx":
        (folder / "denoiser.onnx").write_bytes(b"garbage, not a model")
    return folder


@pytest.mark.parametrize(("damage", "expected"), [
    ("truncated npz", "is not a readable weights file (BadZipFile"),
    ("no config", "no config.json beside"),
    ("garbage onnx", "is not an ONNX model (starts with b'g'"),
])
def test_damaged_diffusion_weights_are_one_line_exit_2(tmp_path, damage, expected):
    folder = _damaged_weights(tmp_path, damage)
    env = {**os.environ, WEIGHTS_ENV: str(folder)}
    done = subprocess.run([*WMBENCH, "run", "--brain", "null", "--scenarios", "S01", "--no-live", "--no-progress",
                           "--motion-model", "diffusion", "--out", str(tmp_path / "run")],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wmbench run: error: --motion-model 'diffusion': "), done.stderr
    assert expected in lines[0]
