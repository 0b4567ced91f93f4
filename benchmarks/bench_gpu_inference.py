"""The two learned parts on every execution provider onnxruntime offers: the ONNX brain and the diffusion generator.

::

    python -m benchmarks.bench_gpu_inference --onnx-dir DIR      # DIR: an `wmbench export-onnx` folder

For each provider set (CPU alone, then the best one onnxruntime lists, e.g. CUDA) it prints the providers the
session really got and the median of repeats:

- the ONNX brain (:class:`~wmbench.brain.providers.onnx_lm.ONNXBrain`): whole decisions on a real scene_context
  (prompt, greedy decoding with the KV cache) — ms per decision;
- the diffusion motion generator (``backend="onnx"``, the shipped ``denoiser.onnx``): streamed frames per second,
  the intent switching every second.

It runs where pybullet (or gymnasium) is not installed (the lent GPU machine has neither): neither path touches
physics or registers envs, so a missing one is replaced by a stand-in module for this process only, and the output
says so.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
import types
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importing wmbench waits for the stubs below
    from wmbench.protocol.observation import BrainInput

#: Modules ``import wmbench`` needs that neither inference path uses (the env's physics and registration).
_UNUSED_HERE = ("pybullet", "pybullet_data", "gymnasium")
STUBBED = [name for name in _UNUSED_HERE if importlib.util.find_spec(name) is None]
for _name in STUBBED:  # inference only: imported by the env package at import time, never called here
    _stub = types.ModuleType(_name)
    _stub.getDataPath = lambda: "/nonexistent"  # type: ignore[attr-defined]
    _stub.registry = {}  # type: ignore[attr-defined]
    _stub.register = lambda **_kwargs: None  # type: ignore[attr-defined]
    sys.modules[_name] = _stub

SCENE: BrainInput = {
    "walls": {"left": 2.5, "right": None, "front": 3.0, "back": None}, "ground": "flat", "npc_nearby": True,
    "npc_type": "beast", "npc_behavior": "charge", "npc_distance": 4.8, "npc_direction": "front",
    "sound": "roar and pounding paws from the front", "recent_decisions": [], "last_prediction": None}


def bench_brain(onnx_dir: Path, providers: list[str], repeats: int) -> tuple[list[str], float]:
    from wmbench.brain.providers.onnx_lm import ONNXBrain

    brain = ONNXBrain(onnx_dir, max_new_tokens=48, providers=providers)
    brain.decide(SCENE)  # warm-up (CUDA kernels, allocator)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        brain.decide(SCENE)
        times.append(time.perf_counter() - start)
    return list(brain.providers), 1000 * statistics.median(times)


def bench_hf_brain(hf_dir: Path, device: str, repeats: int) -> float:
    """The same tiny model through transformers (``hf/``) on ``device``: ms per decision."""
    from wmbench.brain.providers.transformers_lm import HFBrain

    brain = HFBrain(hf_dir, device=device, max_new_tokens=48)
    brain.decide(SCENE)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        brain.decide(SCENE)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def bench_generator(frames: int, repeats: int, backend: str = "onnx") -> tuple[list[str], float]:
    from wmbench.body.intent.reader import parse_motion
    from wmbench.body.motion.diffusion.generator import DiffusionGenerator, shipped_model

    model = shipped_model(backend)
    intents = [parse_motion(t) for t in ("a person sprints to the left in terror", "a person walks forward calmly",
                                         "a person stands still, frozen")]
    rates = []
    for r in range(repeats):
        generator = DiffusionGenerator(seed=r, model=model)
        generator.reset(r)
        start = time.perf_counter()
        for k in range(frames):
            if k % 30 == 0:  # a new intent every second of motion
                generator.set_intent(intents[(k // 30) % len(intents)])
            generator.next_frame(1.4)
        rates.append(frames / (time.perf_counter() - start))
    return list(model.providers), statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--onnx-dir", type=Path, required=True)
    parser.add_argument("--hf-dir", type=Path, default=None, help="the same model as a transformers folder")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--frames", type=int, default=300)
    args = parser.parse_args()
    import onnxruntime as ort

    available = ort.get_available_providers()
    print(f"onnxruntime {ort.__version__}; available providers: {available}"
          + (f"; absent, stand-in modules used (no physics here): {', '.join(STUBBED)}" if STUBBED else ""))
    sets = [["CPUExecutionProvider"]]
    if "CUDAExecutionProvider" in available:
        sets.append(["CUDAExecutionProvider", "CPUExecutionProvider"])
    for providers in sets:
        got, ms = bench_brain(args.onnx_dir, providers, args.repeats)
        print(f"onnx brain, asked {providers[0]}: got {got}; {ms:.1f} ms per decision (median of {args.repeats})")
    devices = ["cpu"]
    if importlib.util.find_spec("torch") is not None:
        import torch

        devices += ["cuda"] if torch.cuda.is_available() else []
    if args.hf_dir is not None:
        for device in devices:
            ms = bench_hf_brain(args.hf_dir, device, args.repeats)
            print(f"hf brain (transformers) on {device}: {ms:.1f} ms per decision (median of {args.repeats})")
    for backend in ("onnx", "torch") if "cuda" in devices else ("onnx",):
        got, fps = bench_generator(args.frames, args.repeats, backend)
        print(f"diffusion generator ({backend} backend): got {got}; {fps:.0f} frames/s streamed "
              f"(median of {args.repeats})")


if __name__ == "__main__":
    main()
