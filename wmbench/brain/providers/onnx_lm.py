"""``onnx/<path>`` — a causal LM exported to ONNX (see :mod:`wmbench.brain.providers.onnx_export`), run by onnxruntime.

Card:
    folder     ``model.onnx`` plus the tokenizer files (and ``config.json``) of the same model;
    providers  ``["CUDAExecutionProvider", "CPUExecutionProvider"]`` when onnxruntime itself lists CUDA
               (``onnxruntime.get_available_providers()``; never torch, whose CPU-only build says "no GPU" on a
               GPU machine), else CPU; ``providers`` option overrides. What the session *really* got
               (onnxruntime silently falls back to CPU when CUDA cannot start) is ``brain.providers``, and
               ``wmbench run`` records it in ``run.json`` as ``brain_providers``;
    decoding   greedy, with the KV cache: the prompt runs once, then one token per step, feeding
               ``present.*`` back as ``past_key_values.*``; stops at EOS or ``max_new_tokens`` (default 256);
               inputs are found by name (``input_ids``, optional ``attention_mask``/``position_ids``,
               ``past_key_values.{i}.key/value``), so Optimum decoder-with-past exports load too;
    prompt     identical to ``hf/<path>`` (same template, same left truncation:
    :mod:`wmbench.brain.providers.local_lm`),
               so both give the same ids.

Simplification: inputs and outputs go through numpy each step (no I/O binding), which costs a copy per token
on CUDA — fine for short replies.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from wmbench.brain.errors import require_module
from wmbench.brain.providers.local_lm import DEFAULT_MAX_NEW_TOKENS, LocalLMBrain, context_length, local_model_dir

SPEC_PATTERN = "onnx/<path>"
ONNX_FILE = "model.onnx"
CUDA_PROVIDERS = ("CUDAExecutionProvider", "CPUExecutionProvider")
CPU_PROVIDERS = ("CPUExecutionProvider",)
_PAST_NAME = re.compile(r"^past_key_values\.(\d+)\.(key|value)$")
_ORT_FLOAT_TYPES = {"tensor(float)": np.float32, "tensor(float16)": np.float16, "tensor(double)": np.float64}


def default_providers(available: Sequence[str]) -> tuple[str, ...]:
    """CUDA then CPU when onnxruntime lists CUDA in ``available`` (its ``get_available_providers()``), else
    CPU only. Whether a GPU really answers shows in the session's providers (``brain.providers``)."""
    if "CUDAExecutionProvider" in available:
        return CUDA_PROVIDERS
    return CPU_PROVIDERS


class ONNXBrain(LocalLMBrain):
    """A decoder-only LM in ONNX as a brain (see module card)."""

    provider = "onnx"

    def __init__(self, path: str | Path, *, max_new_tokens: int = DEFAULT_MAX_NEW_TOKENS,
                 system_prompt: str | None = None, providers: Sequence[str] | None = None) -> None:
        super().__init__()
        ort = require_module("onnxruntime", spec_pattern=SPEC_PATTERN, extra="onnx")
        transformers = require_module("transformers", spec_pattern=SPEC_PATTERN, extra="onnx")
        folder = local_model_dir(path, SPEC_PATTERN)
        onnx_file = folder / ONNX_FILE
        if not onnx_file.is_file():
            raise FileNotFoundError(
                f"{SPEC_PATTERN}: {str(onnx_file)!r} not found; create it with "
                f"`python -m wmbench.brain.providers.onnx_export HF_DIR {folder}`")
        self.name = f"onnx/{path}"
        self.model = str(folder)
        self.max_new_tokens = int(max_new_tokens)
        self.system_prompt = system_prompt
        self.requested_providers = tuple(providers) if providers else default_providers(
            ort.get_available_providers())
        options = ort.SessionOptions()
        options.log_severity_level = 3  # a CUDA fallback is reported through brain.providers, not log spam
        self.session = ort.InferenceSession(str(onnx_file), sess_options=options,
                                            providers=list(self.requested_providers))
        #: The execution providers the session really uses, best first.
        self.providers: tuple[str, ...] = tuple(self.session.get_providers())
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(folder, local_files_only=True)
        self.context_length = self._context_length(transformers, folder)
        self._eos_ids = _eos_ids(self.tokenizer, folder, transformers)
        self._read_signature()

    # -- model signature ----------------------------------------------------------------------------------
    def _read_signature(self) -> None:
        inputs = {i.name: i for i in self.session.get_inputs()}
        if "input_ids" not in inputs:
            raise ValueError(f"{self.model}: model.onnx has no 'input_ids' input (inputs: {sorted(inputs)})")
        self._has_mask = "attention_mask" in inputs
        self._has_positions = "position_ids" in inputs
        self._past: list[tuple[str, str]] = []  # (input name, output name) per cache tensor
        shapes = []
        for name, info in inputs.items():
            match = _PAST_NAME.match(name)
            if match:
                self._past.append((name, f"present.{match.group(1)}.{match.group(2)}"))
                shapes.append((info.shape, info.type))
        self._past.sort(key=lambda pair: (int(pair[0].split(".")[1]), pair[0].endswith("value")))
        output_names = {o.name for o in self.session.get_outputs()}
        missing = [out for _, out in self._past if out not in output_names]
        if not self._past or missing or "logits" not in output_names:
            raise ValueError(
                f"{self.model}: model.onnx must take past_key_values.* and return logits and present.* "
                f"(missing outputs: {missing or 'none'}; got {sorted(output_names)})")
        shape, type_name = shapes[0]
        heads, head_dim = shape[1], shape[3]
        if not (isinstance(heads, int) and isinstance(head_dim, int)):
            raise ValueError(f"{self.model}: cache inputs need static head and head-dim sizes, got {shape}")
        dtype = _ORT_FLOAT_TYPES.get(type_name, np.float32)
        self._empty_past = np.zeros((1, heads, 0, head_dim), dtype=dtype)
        self._output_names = ["logits", *(out for _, out in self._past)]

    def _context_length(self, transformers: Any, folder: Path) -> int:
        if (folder / "config.json").is_file():
            return context_length(transformers.AutoConfig.from_pretrained(folder, local_files_only=True))
        return context_length(None)

    # -- decoding -----------------------------------------------------------------------------------------
    def generate_ids(self, prompt_ids: Sequence[int], max_new_tokens: int | None = None) -> list[int]:
        """Greedy continuation of ``prompt_ids``: the new token ids (ending with EOS if it was produced)."""
        limit = self.max_new_tokens if max_new_tokens is None else int(max_new_tokens)
        past = {name: self._empty_past for name, _ in self._past}
        step_ids = np.asarray([list(prompt_ids)], dtype=np.int64)
        total = 0
        new_ids: list[int] = []
        while len(new_ids) < limit:
            feeds: dict[str, np.ndarray] = {"input_ids": step_ids, **past}
            seq = step_ids.shape[1]
            if self._has_mask:
                feeds["attention_mask"] = np.ones((1, total + seq), dtype=np.int64)
            if self._has_positions:
                feeds["position_ids"] = np.arange(total, total + seq, dtype=np.int64)[None, :]
            logits, *present = self.session.run(self._output_names, feeds)
            total += seq
            token = int(np.argmax(logits[0, -1]))
            new_ids.append(token)
            if token in self._eos_ids:
                break
            past = {name: tensor for (name, _), tensor in zip(self._past, present)}
            step_ids = np.asarray([[token]], dtype=np.int64)
        return new_ids

    def close(self) -> None:
        with self._lock:
            self.session = None


def _eos_ids(tokenizer: Any, folder: Path, transformers: Any) -> frozenset[int]:
    """EOS ids from the generation config (may list several) and the tokenizer."""
    ids: set[int] = set()
    if (folder / "generation_config.json").is_file():
        eos = transformers.GenerationConfig.from_pretrained(folder, local_files_only=True).eos_token_id
        ids.update(eos if isinstance(eos, list) else [eos] if eos is not None else [])
    if tokenizer.eos_token_id is not None:
        ids.add(int(tokenizer.eos_token_id))
    return frozenset(ids)
