"""Export a local transformers causal LM to the folder layout ``onnx/<path>`` loads.

Layout written to ``out_dir``::

    model.onnx          inputs  input_ids [b, s], attention_mask [b, past+s], position_ids [b, s],
                                past_key_values.{i}.key / .value [b, kv_heads, past, head_dim]
                        outputs logits [b, s, vocab], present.{i}.key / .value [b, kv_heads, past+s, head_dim]
    config.json, tokenizer files (and generation_config.json when the source has one)
    wmbench_onnx.json     what was exported, with which torch/opset, and the validation error

The same names as Hugging Face Optimum's decoder-with-past exports, so such models load too.

How: the model is loaded with eager attention and wrapped so that the cache is a flat list of tensors (a
``DynamicCache`` is rebuilt inside the wrapper), then traced by the legacy TorchScript exporter
(``dynamo=False``), which handles GPT-2 with a cache in about a second. The export is then checked against
torch on shapes unlike the traced ones (empty past, one-token steps) and fails loudly if they disagree.

Command line: ``python -m wmbench.brain.providers.onnx_export HF_DIR OUT_DIR``.
"""

from __future__ import annotations

import argparse
import inspect
import json
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from wmbench.brain.errors import require_module

SPEC_PATTERN = "onnx export"
ONNX_FILE = "model.onnx"
META_FILE = "wmbench_onnx.json"
DEFAULT_OPSET = 17
#: Largest |torch - onnxruntime| on the logits the export may show before it is rejected.
VALIDATION_TOLERANCE = 1e-3


@dataclass(frozen=True)
class ExportReport:
    """What :func:`export_onnx` produced."""

    out_dir: str
    onnx_path: str
    num_layers: int
    num_kv_heads: int
    head_dim: int
    vocab_size: int
    opset: int
    torch_version: str
    max_abs_logit_diff: float


def past_input_names(num_layers: int) -> list[str]:
    return [f"past_key_values.{i}.{kind}" for i in range(num_layers) for kind in ("key", "value")]


def present_output_names(num_layers: int) -> list[str]:
    return [f"present.{i}.{kind}" for i in range(num_layers) for kind in ("key", "value")]


def export_onnx(hf_dir: str | Path, out_dir: str | Path, *, opset: int = DEFAULT_OPSET) -> ExportReport:
    """Turn the transformers folder ``hf_dir`` into an ONNX folder ``out_dir`` (see module card)."""
    torch = require_module("torch", spec_pattern=SPEC_PATTERN, extra="onnx")
    transformers = require_module("transformers", spec_pattern=SPEC_PATTERN, extra="onnx")
    require_module("onnxruntime", spec_pattern=SPEC_PATTERN, extra="onnx")
    hf_dir, out_dir = Path(hf_dir).expanduser(), Path(out_dir).expanduser()
    if not hf_dir.is_dir():
        raise FileNotFoundError(f"export_onnx: source folder {str(hf_dir)!r} does not exist")
    out_dir.mkdir(parents=True, exist_ok=True)

    model = transformers.AutoModelForCausalLM.from_pretrained(
        hf_dir, local_files_only=True, attn_implementation="eager", dtype=torch.float32).eval()
    # eval() matters: torch.onnx.export restores the wrapper's train/eval mode afterwards, and a wrapper left
    # in training mode would switch the model's dropout on for the validation below.
    wrapper = _flat_cache_wrapper(torch, model, transformers.DynamicCache).eval()
    num_layers, kv_heads, head_dim = _cache_geometry(torch, model)

    past_names, present_names = past_input_names(num_layers), present_output_names(num_layers)
    input_names = ["input_ids", "attention_mask", "position_ids", *past_names]
    output_names = ["logits", *present_names]
    dynamic_axes: dict[str, dict[int, str]] = {
        "input_ids": {0: "batch", 1: "sequence"},
        "attention_mask": {0: "batch", 1: "total_sequence"},
        "position_ids": {0: "batch", 1: "sequence"},
        "logits": {0: "batch", 1: "sequence"},
        **{name: {0: "batch", 2: "past_sequence"} for name in past_names},
        **{name: {0: "batch", 2: "total_sequence"} for name in present_names},
    }
    onnx_path = out_dir / ONNX_FILE
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer warnings about Python control flow on shapes
        torch.onnx.export(
            wrapper, _example_inputs(torch, model.config.vocab_size, num_layers, kv_heads, head_dim, 3, 2),
            str(onnx_path), input_names=input_names, output_names=output_names, dynamic_axes=dynamic_axes,
            opset_version=opset, dynamo=False, do_constant_folding=True,
        )
    max_diff = _validate(torch, wrapper, onnx_path, input_names, model.config.vocab_size,
                         (num_layers, kv_heads, head_dim))

    transformers.AutoTokenizer.from_pretrained(hf_dir, local_files_only=True).save_pretrained(out_dir)
    model.config.save_pretrained(out_dir)
    if getattr(model, "generation_config", None) is not None and (hf_dir / "generation_config.json").exists():
        model.generation_config.save_pretrained(out_dir)
    report = ExportReport(
        out_dir=str(out_dir), onnx_path=str(onnx_path), num_layers=num_layers, num_kv_heads=kv_heads,
        head_dim=head_dim, vocab_size=int(model.config.vocab_size), opset=opset,
        torch_version=str(torch.__version__), max_abs_logit_diff=max_diff,
    )
    (out_dir / META_FILE).write_text(json.dumps({"source": str(hf_dir), **asdict(report)}, indent=2) + "\n")
    return report


def _flat_cache_wrapper(torch: Any, model: Any, dynamic_cache_cls: Any) -> Any:
    """A module: ``forward(input_ids, attention_mask, position_ids, *flat_past) -> (logits, *flat_present)``.

    Built inside a function because torch is an optional dependency of this package.
    """
    cache_kwarg = "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"

    class FlatCacheWrapper(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any, position_ids: Any, *flat_past: Any) -> tuple:
            cache = dynamic_cache_cls(config=self.model.config)
            for layer in range(len(flat_past) // 2):
                cache.update(flat_past[2 * layer], flat_past[2 * layer + 1], layer)
            output = self.model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids,
                                use_cache=True, **{cache_kwarg: cache})
            return (output.logits, *_flat_cache(output))

    return FlatCacheWrapper()


def _flat_cache(output: Any) -> list:
    present = getattr(output, "cache", None) or output.past_key_values
    return [t for layer in present.layers for t in (layer.keys, layer.values)]


def _cache_geometry(torch: Any, model: Any) -> tuple[int, int, int]:
    """(layers, kv heads, head dim), read from the cache of a one-token dry run."""
    with torch.no_grad():
        one_token = torch.zeros((1, 1), dtype=torch.long)
        output = model(input_ids=one_token, attention_mask=torch.ones_like(one_token), use_cache=True)
    flat = _flat_cache(output)
    return len(flat) // 2, int(flat[0].shape[1]), int(flat[0].shape[3])


def _example_inputs(torch: Any, vocab: int, layers: int, heads: int, head_dim: int,
                    past_len: int, seq_len: int, seed: int = 0) -> tuple:
    generator = torch.Generator().manual_seed(seed)
    input_ids = torch.randint(0, vocab, (1, seq_len), generator=generator)
    attention_mask = torch.ones((1, past_len + seq_len), dtype=torch.long)
    position_ids = torch.arange(past_len, past_len + seq_len).unsqueeze(0)
    past = [torch.randn((1, heads, past_len, head_dim), generator=generator) for _ in range(2 * layers)]
    return (input_ids, attention_mask, position_ids, *past)


def _validate(torch: Any, wrapper: Any, onnx_path: Path, input_names: list[str], vocab: int,
              geometry: tuple[int, int, int]) -> float:
    """Compare torch and onnxruntime on shapes unlike the traced ones; raise if they disagree."""
    import onnxruntime

    session = onnxruntime.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    worst = 0.0
    for past_len, seq_len in ((0, 5), (5, 1), (9, 3)):
        inputs = _example_inputs(torch, vocab, *geometry, past_len, seq_len, seed=past_len + 1)
        with torch.no_grad():
            expected = wrapper(*inputs)[0].numpy()
        got = session.run(["logits"], {n: t.numpy() for n, t in zip(input_names, inputs)})[0]
        diff = float(abs(expected - got).max())
        if not diff <= VALIDATION_TOLERANCE:
            raise RuntimeError(
                f"ONNX export of {onnx_path} disagrees with torch for past={past_len}, tokens={seq_len}: "
                f"max |logit diff| {diff:.3g} > {VALIDATION_TOLERANCE:g}")
        worst = max(worst, diff)
    return worst


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Export a local transformers causal LM for onnx/<path>.")
    parser.add_argument("hf_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--opset", type=int, default=DEFAULT_OPSET)
    args = parser.parse_args(argv)
    report = export_onnx(args.hf_dir, args.out_dir, opset=args.opset)
    print(f"exported {report.onnx_path} (max |logit diff| vs torch {report.max_abs_logit_diff:.2e}); "
          f"load it with --brain onnx/{report.out_dir}")


if __name__ == "__main__":
    main()
