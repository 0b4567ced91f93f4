"""``hf/<path>`` — a local transformers causal LM (``AutoModelForCausalLM`` + ``AutoTokenizer``).

Card:
    loading   from a local folder only (``local_files_only=True``); a missing folder fails at construction;
    prompt    the tokenizer's chat template when it has one, else plain text
              ``"<system>\\n\\n<user>\\n\\nassistant:"`` (see :func:`render_prompt`); prompts longer than the
              model's context minus ``max_new_tokens`` keep their *last* tokens (simplification: a model whose
              context cannot hold the prompt sees its tail, where the scene is);
    decoding  greedy (``do_sample=False``), ``max_new_tokens`` (default 256), under ``torch.no_grad``;
    device    ``device`` option, default ``cuda`` when available else ``cpu``; ``dtype`` option (e.g.
              ``"bfloat16"``), default the checkpoint's;
    reply     text of the new tokens, prompt/completion token counts, latency.

The prompt (:func:`render_prompt`, :func:`prompt_token_ids`) and the decision step are shared with the ONNX
provider through :mod:`wmbench.brain.providers.local_lm`: both see identical ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from wmbench.brain.errors import require_module
from wmbench.brain.providers.local_lm import (
    DEFAULT_MAX_NEW_TOKENS,
    LocalLMBrain,
    context_length,
    local_model_dir,
)

SPEC_PATTERN = "hf/<path>"


class HFBrain(LocalLMBrain):
    """A local transformers model as a brain (see module card)."""

    provider = "hf"

    def __init__(self, path: str | Path, *, device: str | None = None,
                 max_new_tokens: int = DEFAULT_MAX_NEW_TOKENS, system_prompt: str | None = None,
                 dtype: str | None = None) -> None:
        super().__init__()
        torch = require_module("torch", spec_pattern=SPEC_PATTERN, extra="hf")
        transformers = require_module("transformers", spec_pattern=SPEC_PATTERN, extra="hf")
        folder = local_model_dir(path, SPEC_PATTERN)
        self._torch = torch
        self.name = f"hf/{path}"
        self.model = str(folder)
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.max_new_tokens = int(max_new_tokens)
        self.system_prompt = system_prompt
        load_options: dict[str, Any] = {"local_files_only": True}
        if dtype is not None:
            load_options["dtype"] = getattr(torch, dtype)
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(folder, local_files_only=True)
        self.lm = transformers.AutoModelForCausalLM.from_pretrained(folder, **load_options)
        self.lm = self.lm.to(self.device).eval()
        self.context_length = context_length(self.lm.config)
        eos = self.tokenizer.eos_token_id
        self._pad_id = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else eos

    def generate_ids(self, prompt_ids: Sequence[int], max_new_tokens: int | None = None) -> list[int]:
        """Greedy continuation of ``prompt_ids``: the new token ids (ending with EOS if it was produced)."""
        torch = self._torch
        limit = self.max_new_tokens if max_new_tokens is None else int(max_new_tokens)
        with torch.no_grad():
            input_ids = torch.tensor([list(prompt_ids)], dtype=torch.long, device=self.device)
            output = self.lm.generate(
                input_ids=input_ids, attention_mask=torch.ones_like(input_ids), max_new_tokens=limit,
                min_new_tokens=0, do_sample=False, pad_token_id=self._pad_id,
            )
        return [int(t) for t in output[0, input_ids.shape[1]:].tolist()]

    def close(self) -> None:
        with self._lock:
            self.lm = None
            if self.device.startswith("cuda"):
                self._torch.cuda.empty_cache()
