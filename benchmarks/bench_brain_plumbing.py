"""Brain plumbing cost: an HTTP round trip through ``wmbench serve``, and ONNX vs transformers per token.

1. **serve + openai overhead.** The reference brain called directly vs the same brain behind
   :func:`wmbench.brain.server.endpoint.make_server` (served from a thread of this process, real sockets on
   127.0.0.1) reached through the ``openai/<model>`` provider with ``cache=False``. A second server, the
   same but with ``TCP_NODELAY`` on its request handler, is measured alongside: the shipped handler writes
   headers and body separately, and Nagle's algorithm with the client's delayed ACK holds the body ~40 ms.
   Calls rotate between direct / shipped / no-delay on the same real scenes (from bench episodes), so
   drift hits all three; rows are the median per call and the overheads (served - direct).
2. **ONNX vs transformers.** The tiny 2-layer GPT-2 of ``tests/brain/tiny_models.py`` is built into a
   temporary folder and exported with :func:`wmbench.brain.providers.onnx_export.export_onnx`; ``hf/<dir>`` (torch,
   CPU) and ``onnx/<dir>`` (onnxruntime, CPU) greedily decode the same ids through their own
   ``generate_ids``. Per-token latency comes from a short context (prefill negligible), the whole-reply
   time from a real 1.8k-token prompt; medians over repeats, alternating, and onnx / transformers ratios.

Run: ``.venv/bin/python -m benchmarks.bench_brain_plumbing [--quick]``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from socketserver import BaseRequestHandler
from typing import TYPE_CHECKING, Any

from benchmarks.common import BenchRow, median_of, ratio, run_script

if TYPE_CHECKING:  # wmbench is imported where it is used (module card)
    from wmbench.protocol.observation import BrainInput

GROUP = "brain"
DECODE_TOKENS = 64


def sample_scenes(scenario_ids: tuple[str, ...] = ("S08", "S12", "S21", "S34")) -> list[BrainInput]:
    """Real scene_contexts: every observation of a few reference-brain bench episodes."""
    from wmbench.brain.registry import get_brain
    from wmbench.envs.wmbench_env import WMBenchEnv

    brain = get_brain("reference")
    scenes = []
    for sid in scenario_ids:
        env = WMBenchEnv(sid)
        try:
            obs, _ = env.reset(seed=0)
            brain.reset(0)
            done = False
            while not done:
                scene = json.loads(obs["scene"])
                scenes.append(scene)
                obs, _, done, _, _ = env.step(brain.decide(scene).text)
        finally:
            env.close()
    brain.close()
    return scenes


def _nodelay_handler(handler: Callable[..., BaseRequestHandler]) -> type[BaseRequestHandler]:
    """The server's request handler with Nagle's algorithm off (TCP_NODELAY), for the comparison row."""
    if not isinstance(handler, type):
        raise TypeError(f"expected the server's request handler class, got {handler!r}")
    return type(f"{handler.__name__}NoDelay", (handler,), {"disable_nagle_algorithm": True})


def measure_serve(calls: int, scenes: list[BrainInput]) -> list[BenchRow]:
    """Direct calls vs the served brain as shipped vs the same server with TCP_NODELAY, interleaved."""
    from wmbench.brain.registry import get_brain
    from wmbench.brain.server.endpoint import make_server

    if importlib.util.find_spec("openai") is None:
        why = "the openai package is not installed (extra: openai)"
        return [BenchRow.skip(GROUP, "serve+openai overhead", "ms/call", why)]
    direct = get_brain("reference")
    shipped, nodelay = make_server("reference"), make_server("reference")
    shipped_nagle = not getattr(shipped.RequestHandlerClass, "disable_nagle_algorithm", False)
    nodelay.RequestHandlerClass = _nodelay_handler(nodelay.RequestHandlerClass)
    timings: dict[str, list[float]] = {"direct": [], "shipped": [], "nodelay": []}
    failures = 0
    with shipped, nodelay:
        shipped.start_in_thread()
        nodelay.start_in_thread()
        clients = {name: get_brain("openai/reference", base_url=server.url, api_key="benchmark", cache=False,
                                   max_retries=0)
                   for name, server in (("shipped", shipped), ("nodelay", nodelay))}
        callers = {"direct": direct.decide, **{name: c.decide for name, c in clients.items()}}
        try:
            for scene in scenes[:3]:  # warm-up: connections, first requests
                for call in callers.values():
                    call(scene)
            for i in range(calls):
                scene = scenes[i % len(scenes)]
                for name, call in callers.items():
                    start = time.perf_counter()
                    reply = call(scene)
                    timings[name].append(time.perf_counter() - start)
                    failures += reply.error is not None
        finally:
            for client in clients.values():
                client.close()
            direct.close()
    ms = {name: 1e3 * median_of(values) for name, values in timings.items()}
    failed = f"; {failures} failed calls" if failures else ""
    how = "Nagle on: headers and body leave in two writes" if shipped_nagle else "TCP_NODELAY already on"
    return [
        BenchRow(GROUP, "reference brain, direct call", ms["direct"], "ms/call",
                 note=f"median of {calls} calls over {len(scenes)} real scenes{failed}"),
        BenchRow(GROUP, "serve+openai overhead (as shipped)", ms["shipped"] - ms["direct"], "ms/call",
                 note=f"served - direct medians, cache off, interleaved; {how}; "
                      f"{ratio(ms['shipped'], ms['direct']):.0f}x the direct call"),
        BenchRow(GROUP, "serve+openai overhead (TCP_NODELAY)", ms["nodelay"] - ms["direct"], "ms/call",
                 note="same server with disable_nagle_algorithm=True on its handler, measured alongside"),
    ]


def _tiny_models(root: Path) -> tuple[Path, Path]:
    from tests.brain.tiny_models import build_tiny_gpt2
    from wmbench.brain.providers.onnx_export import export_onnx

    hf_dir = build_tiny_gpt2(root / "tiny-gpt2")
    onnx_dir = root / "tiny-gpt2-onnx"
    export_onnx(hf_dir, onnx_dir)
    return hf_dir, onnx_dir


@contextlib.contextmanager
def _one_torch_thread() -> Iterator[None]:
    """torch on one thread while measuring (restored after): on a shared 2-core machine a second busy
    thread makes torch's spinning thread pool, and so the timings, wildly erratic."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _one_thread_session(brain: Any) -> Any:
    """The ONNX brain with its session rebuilt on one intra-op thread, like torch above (same model file,
    same providers, so the brain's signature reading still holds)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    brain.session = ort.InferenceSession(str(Path(brain.model) / "model.onnx"), sess_options=options,
                                         providers=list(brain.providers))
    return brain


def _decode_seconds(brain: Any, prompt: list[int], tokens: int) -> tuple[float, int]:
    start = time.perf_counter()
    new_ids = brain.generate_ids(prompt, max_new_tokens=tokens)
    return time.perf_counter() - start, len(new_ids)


SHORT_CONTEXT = 32
TOKEN_ROWS = (("transformers per token (tiny GPT-2)", "ms/token"), ("onnx per token (tiny GPT-2)", "ms/token"),
              ("onnx / transformers per token", "x"), ("transformers whole reply (tiny GPT-2)", "ms"),
              ("onnx whole reply (tiny GPT-2)", "ms"), ("onnx / transformers whole reply", "x"))


def measure_tokens(repeats: int, scene: BrainInput) -> list[BenchRow]:
    """Per-token decode latency and whole-reply time of hf vs onnx on the tiny model, CPU.

    Per token: (median time for DECODE_TOKENS greedy tokens - median time for 1) / (DECODE_TOKENS - 1) after
    the last SHORT_CONTEXT tokens of a real prompt, so the prefill (noisy on a shared machine) is negligible.
    Whole reply: the real prompt (prefill included) and DECODE_TOKENS new tokens, as a decision costs.
    """
    missing = [m for m in ("torch", "transformers", "onnxruntime", "onnx") if importlib.util.find_spec(m) is None]
    if missing:
        why = f"missing {', '.join(missing)} (extras: hf, onnx)"
        return [BenchRow.skip(GROUP, name, unit, why) for name, unit in TOKEN_ROWS]
    from wmbench.brain.providers.onnx_lm import ONNXBrain
    from wmbench.brain.providers.transformers_lm import HFBrain

    with tempfile.TemporaryDirectory(prefix="wmbench-bench-tiny-") as tmp, _one_torch_thread():
        hf_dir, onnx_dir = _tiny_models(Path(tmp))
        brains = {"hf": HFBrain(str(hf_dir), device="cpu"),
                  "onnx": _one_thread_session(ONNXBrain(str(onnx_dir), providers=["CPUExecutionProvider"]))}
        prompt = brains["hf"].prompt_ids(scene)
        if prompt != brains["onnx"].prompt_ids(scene):
            raise RuntimeError("hf and onnx providers built different prompt ids for the same scene")
        short = prompt[-SHORT_CONTEXT:]
        samples: dict[tuple[str, str], list[float]] = {}
        produced: dict[tuple[str, str], int] = {}
        for brain in brains.values():  # warm-up
            _decode_seconds(brain, prompt, 4)
        for _ in range(repeats):
            for key, brain in brains.items():
                for what, ids, tokens in (("one", short, 1), ("many", short, DECODE_TOKENS),
                                          ("reply", prompt, DECODE_TOKENS)):
                    seconds, count = _decode_seconds(brain, ids, tokens)
                    samples.setdefault((key, what), []).append(seconds)
                    produced[(key, what)] = count
        for brain in brains.values():
            brain.close()
    counts = {k: produced[(k, "many")] for k in brains}
    if min(counts.values()) < 2:
        why = f"the tiny model stopped at EOS after {counts} tokens: nothing to time per token"
        return [BenchRow.skip(GROUP, name, unit, why) for name, unit in TOKEN_ROWS]
    ms = {key: 1e3 * median_of(values) for key, values in samples.items()}
    per_token = {k: (ms[(k, "many")] - ms[(k, "one")]) / (counts[k] - 1) for k in brains}
    reply = {k: ms[(k, "reply")] for k in brains}
    decode = (f"(median for {counts['hf']} greedy tokens - median for 1) / {counts['hf'] - 1} after a "
              f"{SHORT_CONTEXT}-token context; median of {repeats}, alternating, CPU, 1 thread each")
    whole = (f"{len(prompt)}-token real prompt + {produced[('hf', 'reply')]} greedy tokens, prefill "
             f"included; median of {repeats}, CPU")
    return [
        BenchRow(GROUP, TOKEN_ROWS[0][0], per_token["hf"], "ms/token", note=decode),
        BenchRow(GROUP, TOKEN_ROWS[1][0], per_token["onnx"], "ms/token", note="as above, same ids"),
        BenchRow(GROUP, TOKEN_ROWS[2][0], ratio(per_token["onnx"], per_token["hf"]), "x",
                 note="ratio of the two per-token numbers, same run"),
        BenchRow(GROUP, TOKEN_ROWS[3][0], reply["hf"], "ms", note=whole),
        BenchRow(GROUP, TOKEN_ROWS[4][0], reply["onnx"], "ms", note="as above, same ids"),
        BenchRow(GROUP, TOKEN_ROWS[5][0], ratio(reply["onnx"], reply["hf"]), "x",
                 note="ratio of the two whole-reply medians, same run"),
    ]


def measure(quick: bool, calls: int | None = None, repeats: int | None = None,
            tokens: bool = True) -> list[BenchRow]:
    scenes = sample_scenes()
    rows = measure_serve(calls or (100 if quick else 400), scenes)
    if tokens:
        rows += measure_tokens(repeats or (3 if quick else 7), scenes[len(scenes) // 2])
    return rows


if __name__ == "__main__":
    raise SystemExit(run_script(measure, __doc__.splitlines()[0]))
