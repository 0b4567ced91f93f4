"""``wmbench train-motion``: train the diffusion motion model, export it, write its card and loss curve.

Card
----
- **Data**: :mod:`~wmbench.body.motion.diffusion.dataset` (real DeepMimic walk + augmentation), frame vectors
  normalised by their mean and standard deviation (floored at :data:`STD_FLOOR`). Windows whose target is
  real mocap are drawn :data:`MOCAP_WEIGHT` times as often as augmented ones (1: real mocap is already the
  majority of the windows).
- **Objective**: diffusers' ``DDPMScheduler`` (1000 steps, ``squaredcos_cap_v2``, ``prediction_type =
  "sample"``) noises the target chunk; the loss is the MSE of the predicted clean chunk plus the MSE of its
  frame-to-frame differences (smoothness, as MDM's velocity loss), plus ``foot_weight`` x a **foot velocity
  term** (:func:`foot_velocity_loss`, off by default: how the shipped model was trained; see
  ``docs/motion_models.md``, "Round 8", for what it measured). 20% of windows drop their words, so the intent
  alone still works.
- **Sampling** (run time): diffusers' ``DDIMScheduler`` with ``trailing`` spacing and :data:`SAMPLE_STEPS`
  steps; its timesteps and cumulative alphas are stored with the weights for the numpy sampler.
- **Determinism**: one seed drives the windows, the initial weights, batch order, noise and steps
  (``torch.use_deterministic_algorithms``); on CPU the same seed gives the same weights.
- **Outputs** in ``out_dir``: ``denoiser.npz`` (weights, normalisation, schedule, rest context),
  ``config.json`` (sizes, vocabulary, the command that trained it, times and losses), ``loss_curve.json``,
  ``DATA_CARD.md`` and, unless ``onnx=False``, ``denoiser.onnx``.

Needs the ``motion`` extra (torch, diffusers); building the data needs pybullet (a core dependency).
"""

from __future__ import annotations

import json
import re
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wmbench.body.motion.diffusion import dataset as ds
from wmbench.body.motion.diffusion.corpus import HELD_OUT_KINDS
from wmbench.body.skeleton import FOOT_CONTACT_HEIGHT
from wmbench.core.errors import ConfigError
from wmbench.core.progress import progress_bar

#: Standard deviations below this are floored when normalising (near-constant features).
STD_FLOOR = 0.01
#: How much more often a real-mocap window is drawn than an augmented one.
MOCAP_WEIGHT = 1.0
#: Procedural augmentation is windowed every this many frames (real mocap every frame), so it stays a minority.
PROCEDURAL_STRIDE = 4
#: Weight of the foot velocity term (:func:`foot_velocity_loss`; m/s, the other terms in normalised units); 0
#: trains without it (the shipped model).
FOOT_WEIGHT = 0.0
#: In the foot velocity term, frames where the target's foot joint is in contact count this many times: in
#: contact, slower than :data:`CONTACT_TARGET_SPEED` (m/s, 3-D: HumanML3D's contact threshold) and lower than
#: its :data:`CONTACT_HEIGHT_PERCENTILE` th-percentile height in the training targets plus the skating band.
FOOT_CONTACT_EMPHASIS = 4.0
CONTACT_TARGET_SPEED = 0.894
CONTACT_HEIGHT_PERCENTILE = 5.0
#: DDIM steps at sampling time.
SAMPLE_STEPS = 4
#: Diffusion steps in training.
TRAIN_TIMESTEPS = 1000
#: Where the shipped model lives.
SHIPPED_DIR = Path(__file__).parent / "weights"


@dataclass(frozen=True)
class TrainResult:
    """What a training run produced: ``out_dir``, ``seconds`` of training (excluding data building),
    ``final_loss`` (mean of the last 5% of steps), ``device`` and the number of ``steps``."""

    out_dir: Path
    seconds: float
    final_loss: float
    device: str
    steps: int


def foot_tracks(frames):
    """(B, T, FRAME_DIM) un-normalised frame vectors (torch) -> (B, T, 4, 3) positions of the foot joints
    (``FOOT_CONTACT_JOINTS``) in the window's first root frame, recovered as
    ``humanml3d.features.features_to_joints`` does (yaw and floor point integrated from the root's velocities,
    ``ric`` turned back into the world); differentiable, so a loss can read where the predicted feet go."""
    import torch

    zero = frames.new_zeros(frames.shape[0], 1)
    yaw = torch.cat((zero, -2.0 * torch.cumsum(frames[:, :-1, 0], dim=1)), dim=1)
    cos, sin = torch.cos(yaw), torch.sin(yaw)
    lin = frames[:, :-1, 1:3]
    step_x = cos[:, 1:] * lin[..., 0] + sin[:, 1:] * lin[..., 1]
    step_z = -sin[:, 1:] * lin[..., 0] + cos[:, 1:] * lin[..., 1]
    floor_x = torch.cat((zero, torch.cumsum(step_x, dim=1)), dim=1)
    floor_z = torch.cat((zero, torch.cumsum(step_z, dim=1)), dim=1)
    ric = frames[..., torch.as_tensor(ds.FOOT_COLUMNS, device=frames.device)]   # (B, T, 4, 3)
    c, s_ = cos[..., None], sin[..., None]
    x = c * ric[..., 0] + s_ * ric[..., 2] + floor_x[..., None]
    z = -s_ * ric[..., 0] + c * ric[..., 2] + floor_z[..., None]
    return torch.stack((x, ric[..., 1], z), dim=-1)


def foot_velocity_loss(pred, target, contact_heights, fps: float = ds.MODEL_FPS):
    """The foot velocity term on un-normalised (B, T, FRAME_DIM) chunks (torch): the mean squared error (m/s)^2
    of the predicted foot joints' horizontal speed over the ground against the target's, every frame, the
    frames where the target's foot is in contact (slower than :data:`CONTACT_TARGET_SPEED` and below
    ``contact_heights``, (4,) metres) counted :data:`FOOT_CONTACT_EMPHASIS` times. It ties the root's
    velocity to the feet's motion, which is what foot skating breaks. (Measured in round 8: penalising the
    predicted speed on contact frames alone, MDM's foot-contact loss, taught the model to stop: backing away
    fell from 1.08 to 0.17 m/s of its own travel; matched on every frame it does not.)"""
    import torch

    want, got = foot_tracks(target), foot_tracks(pred)
    target_step = want[:, 1:] - want[:, :-1]
    contact = (torch.linalg.vector_norm(target_step, dim=-1) * fps < CONTACT_TARGET_SPEED) & (
        want[:, :-1, :, 1] < contact_heights)
    error = ((got[:, 1:] - got[:, :-1] - target_step)[..., [0, 2]] * fps).pow(2).sum(-1)
    return (error * (1.0 + (FOOT_CONTACT_EMPHASIS - 1.0) * contact)).mean()


def contact_heights_of(targets: np.ndarray) -> np.ndarray:
    """(4,) heights (m) below which a target foot joint can be in contact (see :data:`FOOT_CONTACT_EMPHASIS`),
    from (N, T, FRAME_DIM) un-normalised training targets."""
    heights = targets[..., ds.FOOT_COLUMNS[:, 1]].reshape(-1, len(ds.FOOT_COLUMNS))
    return np.percentile(heights, CONTACT_HEIGHT_PERCENTILE, axis=0) + FOOT_CONTACT_HEIGHT


def build_windows(seed: int = 0, fps: float = 30.0) -> tuple[ds.Windows, dict[str, int], str, np.ndarray]:
    """Windows, vocabulary, data card and the normalised rest context (standing still), from ``seed``."""
    segments = ds.all_segments(fps, seed=seed)
    vocabulary = ds.build_vocabulary([s.text for s in segments])
    windows = ds.make_windows(segments, vocabulary, np.random.default_rng(seed), stride=1,
                              procedural_stride=PROCEDURAL_STRIDE)
    still = next(s for s in segments if s.text == "a person stands still")
    return windows, vocabulary, ds.data_card(segments, windows), still.frames[:ds.CONTEXT]


def save_windows(path: Path, seed: int = 0) -> None:
    """Build the windows and save them (to train where pybullet is missing, e.g. a GPU box)."""
    write_windows(path, *build_windows(seed))


def write_windows(path: Path, windows: ds.Windows, vocabulary: dict[str, int], card: str, rest: np.ndarray
                  ) -> None:
    """Save windows with their vocabulary, data card and rest context (the ``--windows`` file format)."""
    needs_words = windows.needs_words if windows.needs_words is not None else np.zeros(len(windows.target), bool)
    np.savez_compressed(path, context=windows.context, target=windows.target, cond=windows.cond,
                        tokens=windows.tokens, mocap=windows.mocap, needs_words=needs_words, rest=rest,
                        vocabulary=json.dumps(vocabulary), card=card)


def load_windows(path: Path) -> tuple[ds.Windows, dict[str, int], str, np.ndarray]:
    data = np.load(path)
    needs_words = data["needs_words"] if "needs_words" in data.files else np.zeros(len(data["target"]), bool)
    windows = ds.Windows(data["context"], data["target"], data["cond"], data["tokens"], data["mocap"], needs_words)
    return windows, json.loads(str(data["vocabulary"])), str(data["card"]), data["rest"]


def train(out_dir: Path, *, steps: int = 3000, batch: int = 64, seed: int = 0, device: str = "cpu",
          width: int = 128, layers: int = 4, lr: float = 1e-3, onnx: bool = True,
          windows_file: Path | None = None, command: str = "", log_every: int = 50,
          progress: bool = False, foot_weight: float = FOOT_WEIGHT) -> TrainResult:
    """Train, then export to ``out_dir`` (see the module card)."""
    import torch

    # the defining modules, not `diffusers`: its package __init__ shows type checkers the dummy classes it uses
    # when torch is missing
    from diffusers.schedulers.scheduling_ddim import DDIMScheduler
    from diffusers.schedulers.scheduling_ddpm import DDPMScheduler

    from wmbench.body.motion.diffusion.denoiser_torch import Denoiser, DenoiserConfig

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    if windows_file is not None:
        windows, vocabulary, card, rest = load_windows(windows_file)
    else:
        windows, vocabulary, card, rest = build_windows(seed)
    frames = np.concatenate((windows.context.reshape(-1, ds.FRAME_DIM), windows.target.reshape(-1, ds.FRAME_DIM)))
    mean = frames.mean(0).astype(np.float32)
    std = np.maximum(frames.std(0), STD_FLOOR).astype(np.float32)

    torch.manual_seed(seed)
    dev = torch.device(device)
    torch.use_deterministic_algorithms(True, warn_only=dev.type != "cpu")
    config = DenoiserConfig(vocabulary=len(vocabulary) + 1, width=width, layers=layers, ff=2 * width)
    model = Denoiser(config).to(dev)
    scheduler = DDPMScheduler(num_train_timesteps=TRAIN_TIMESTEPS, beta_schedule="squaredcos_cap_v2",
                              prediction_type="sample", clip_sample=False)
    alphas = scheduler.alphas_cumprod.to(dev)

    def tensor(a: np.ndarray, dtype=torch.float32) -> torch.Tensor:
        return torch.as_tensor(a, dtype=dtype, device=dev)

    context = tensor((windows.context - mean) / std)
    target = tensor((windows.target - mean) / std)
    cond, tokens = tensor(windows.cond), tensor(windows.tokens, torch.int64)
    # the foot velocity term reads un-normalised chunks and the targets' contact heights (only when it is on)
    foot_scale = ((tensor(mean), tensor(std), tensor(contact_heights_of(windows.target))) if foot_weight > 0.0
                  else None)
    keep_words = torch.as_tensor(windows.needs_words if windows.needs_words is not None
                                 else np.zeros(len(windows.target), bool), device=dev)[:, None]
    mocap_weights = np.where(windows.mocap, MOCAP_WEIGHT, 1.0)
    weights = tensor(mocap_weights / mocap_weights.sum())
    gen = torch.Generator(device=dev).manual_seed(seed)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    lr_at = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=steps, pct_start=0.05)
    losses: list[float] = []
    if dev.type == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    bar = progress_bar(steps, "train-motion", "step", enabled=progress)  # a bar, or a line per 10 % in a log
    for _ in range(steps):
        idx = torch.multinomial(weights, batch, replacement=True, generator=gen)
        x0, ctx, c, tok = target[idx], context[idx], cond[idx], tokens[idx]
        drop = (torch.rand(batch, 1, device=dev, generator=gen) < 0.2) & ~keep_words[idx]
        tok = torch.where(drop, torch.zeros_like(tok), tok)
        t = torch.randint(0, TRAIN_TIMESTEPS, (batch,), device=dev, generator=gen)
        noise = torch.randn(x0.shape, device=dev, generator=gen)
        a = alphas[t][:, None, None]
        noisy = a.sqrt() * x0 + (1 - a).sqrt() * noise  # DDPMScheduler.add_noise, on the device
        pred = model(noisy, t, ctx, c, tok)
        loss = torch.nn.functional.mse_loss(pred, x0) + torch.nn.functional.mse_loss(
            pred[:, 1:] - pred[:, :-1], x0[:, 1:] - x0[:, :-1])
        if foot_scale is not None:
            mean_t, std_t, contact_heights = foot_scale
            loss = loss + foot_weight * foot_velocity_loss(pred * std_t + mean_t, x0 * std_t + mean_t,
                                                           contact_heights)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        lr_at.step()
        losses.append(float(loss.detach()))
        if len(losses) % log_every == 0:
            bar.set_postfix_str(f"loss {np.mean(losses[-log_every:]):.4f}")
        bar.update(1)
    bar.close()
    if dev.type == "cuda":
        torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    tail = max(1, steps // 20)
    final_loss = float(np.mean(losses[-tail:]))

    model = model.cpu().eval()
    ddim = DDIMScheduler.from_config(scheduler.config, timestep_spacing="trailing")
    ddim.set_timesteps(SAMPLE_STEPS)
    arrays = {k: v.detach().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    np.savez(out_dir / "denoiser.npz", **{"w/" + k: v for k, v in arrays.items()}, mean=mean, std=std,
             rest_context=((rest - mean) / std).astype(np.float32),
             timesteps=ddim.timesteps.numpy().astype(np.int64),
             alphas_cumprod=ddim.alphas_cumprod.numpy().astype(np.float64),
             final_alpha_cumprod=np.float64(ddim.final_alpha_cumprod))
    curve = [float(np.mean(losses[i:i + log_every])) for i in range(0, steps, log_every)]
    (out_dir / "loss_curve.json").write_text(json.dumps({"every": log_every, "loss": curve}) + "\n")
    (out_dir / "DATA_CARD.md").write_text(card)
    meta = {"denoiser": config.to_dict(), "vocabulary": vocabulary, "seed": seed, "steps": steps,
            "batch": batch, "lr": lr, "foot_weight": foot_weight, "device": device,
            "train_seconds": round(seconds, 2),
            "final_loss": round(final_loss, 5), "sample_steps": SAMPLE_STEPS,
            "scheduler": "diffusers DDPMScheduler (train) / DDIMScheduler trailing (sample)",
            "held_out": sorted(HELD_OUT_KINDS), "command": command,
            "torch": torch.__version__}
    (out_dir / "config.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    if onnx:
        export_onnx(model, out_dir / "denoiser.onnx")
    return TrainResult(out_dir, seconds, final_loss, device, steps)


def export_onnx(model, path: Path) -> None:
    """The denoiser as ONNX (batch dimension dynamic), via the TorchScript exporter."""
    import torch

    c = model.config
    args = (torch.zeros(1, c.chunk, c.frame_dim), torch.zeros(1, dtype=torch.int64),
            torch.zeros(1, c.context, c.frame_dim), torch.zeros(1, c.cond_dim),
            torch.zeros(1, c.max_words, dtype=torch.int64))
    names = ["noisy", "t", "context", "cond", "tokens"]
    with warnings.catch_warnings():  # the tracer's notes on Python ints taken from shapes (fixed per model)
        warnings.simplefilter("ignore")
        torch.onnx.export(model, args, str(path), input_names=names, output_names=["clean"], opset_version=17,
                          dynamic_axes={n: {0: "batch"} for n in [*names, "clean"]}, dynamo=False)


def main(argv: list[str] | None = None) -> int:
    """``python -m wmbench.body.motion.diffusion.train`` (same options as ``wmbench train-motion``)."""
    import argparse

    parser = argparse.ArgumentParser(prog="train-motion")
    configure(parser)
    return run(parser.parse_args(argv))


def command_line(args) -> str:
    """The ``wmbench train-motion`` command equivalent to parsed ``args`` (every option spelled out), for
    the config's record of how the weights were made."""
    parts = ["wmbench train-motion", f"--steps {args.steps}", f"--batch {args.batch}", f"--seed {args.seed}",
             f"--device {args.device}", f"--width {args.width}", f"--layers {args.layers}"]
    if args.foot_weight:
        parts.append(f"--foot-weight {args.foot_weight:g}")
    if args.windows is not None:
        parts.append(f"--windows {args.windows}")
    if args.no_onnx:
        parts.append("--no-onnx")
    return " ".join(parts)


def configure(p) -> None:
    """The ``train-motion`` options."""
    p.add_argument("--out", type=Path, default=Path("runs/motion-model"),
                   help="output folder (default: runs/motion-model); use it with WMBENCH_DIFFUSION_WEIGHTS=<folder>, "
                        f"or write to {SHIPPED_DIR.relative_to(SHIPPED_DIR.parents[3])} to replace the shipped model")
    p.add_argument("--steps", type=int, default=3000, help="optimiser steps (default 3000)")
    p.add_argument("--batch", type=int, default=64, help="windows per step (default 64)")
    p.add_argument("--seed", type=int, default=0, help="seed of data, weights, batches and noise (default 0)")
    p.add_argument("--device", default="cpu", help="torch device: cpu or cuda (default cpu)")
    p.add_argument("--width", type=int, default=128, help="token width (default 128)")
    p.add_argument("--layers", type=int, default=4, help="encoder layers (default 4)")
    p.add_argument("--foot-weight", type=float, default=FOOT_WEIGHT,
                   help=f"weight of the foot velocity term (default {FOOT_WEIGHT:g}: none; see the module card)")
    p.add_argument("--no-onnx", action="store_true", help="skip the ONNX export")
    p.add_argument("--windows", type=Path, default=None, help="prebuilt windows (.npz from --save-windows)")
    p.add_argument("--save-windows", type=Path, default=None, help="only build the windows and save them here")


class TrainArgsError(ConfigError):
    """A ``train-motion`` argument that cannot work; the message says what was expected and what arrived."""


def check_args(args) -> None:
    """Every ``train-motion`` argument checked before any work starts (:class:`TrainArgsError`, one line)."""
    for name, least in (("steps", 1), ("batch", 1), ("layers", 1), ("seed", 0)):
        value = getattr(args, name)
        if value < least:
            raise TrainArgsError(f"--{name} must be at least {least}, got {value}")
    if not args.foot_weight >= 0.0:
        raise TrainArgsError(f"--foot-weight must be 0 or more, got {args.foot_weight}")
    from wmbench.body.motion.diffusion.denoiser_torch import DenoiserConfig  # torch: checked by the caller

    heads = DenoiserConfig(vocabulary=1).heads
    if args.width < heads or args.width % heads:
        raise TrainArgsError(f"--width must be a positive multiple of {heads} (the attention heads), got {args.width}")
    if not re.fullmatch(r"cpu|cuda(:\d+)?", str(args.device)):
        raise TrainArgsError(f"--device must be cpu, cuda or cuda:N, got {args.device!r}")
    if str(args.device).startswith("cuda"):
        import torch

        if not torch.cuda.is_available():
            raise TrainArgsError(f"--device {args.device}: this torch sees no CUDA device "
                                 f"(torch {torch.__version__}); use --device cpu")
    if args.windows is not None:
        try:
            load_windows(args.windows)
        except FileNotFoundError:
            raise TrainArgsError(f"--windows {args.windows} does not exist; expected a .npz written by "
                                 "--save-windows") from None
        except Exception as err:  # np.load on arbitrary bytes raises many types (ValueError, OSError, ...)
            raise TrainArgsError(f"--windows {args.windows} is not a windows file ({type(err).__name__}: "
                                 f"{err}); expected a .npz written by --save-windows") from None
    for option, path in (("--out", args.out), ("--save-windows", args.save_windows)):
        if path is None:
            continue
        if option == "--out" and path.exists() and not path.is_dir():
            raise TrainArgsError(f"--out {path} is an existing file; expected a folder for the weights")
        for parent in Path(path).parents:
            if parent.exists() and not parent.is_dir():
                raise TrainArgsError(f"{option} {path}: {parent} is a file; expected a folder there")


def run(args) -> int:
    """Run ``train-motion`` with parsed ``args``; prints the result, returns the exit code."""
    check_args(args)
    if args.save_windows is not None:
        save_windows(args.save_windows, args.seed)
        print(f"windows written to {args.save_windows}")
        return 0
    result = train(args.out, steps=args.steps, batch=args.batch, seed=args.seed, device=args.device,
                   width=args.width, layers=args.layers, onnx=not args.no_onnx, windows_file=args.windows,
                   command=command_line(args), progress=True, foot_weight=args.foot_weight)
    print(f"trained {result.steps} steps on {result.device} in {result.seconds:.1f} s; final loss "
          f"{result.final_loss:.4f}; written to {result.out_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
