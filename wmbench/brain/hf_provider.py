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

:func:`render_prompt` and :func:`prompt_token_ids` are shared with the ONNX provider: both see identical ids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from wmbench.brain.errors import BrainSpecError, require_module
from wmbench.brain.prompt import build_messages
from wmbench.brain.provider_base import ProviderBrain, ProviderOutcome

SPEC_PATTERN = "hf/<path>"
DEFAULT_MAX_NEW_TOKENS = 256


def local_model_dir(path: str | Path, spec_pattern: str) -> Path:
    """The folder a local-model spec names, or a clear error when it is not a folder."""
    if not str(path):
        raise BrainSpecError(f"{spec_pattern} needs a folder after the prefix")
    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise FileNotFoundError(f"{spec_pattern}: model folder {str(folder)!r} does not exist (or is a file)")
    return folder


def render_prompt(tokenizer: Any, messages: Sequence[Mapping[str, str]]) -> str:
    """The prompt text: the chat template if the tokenizer has one, else the plain layout.

    Plain layout: the system text, then each user turn, each assistant turn as ``assistant: ...``, joined by
    blank lines, ending in ``assistant:``. A chat template that rejects the system role gets the system text
    folded into the first user turn.
    """
    if getattr(tokenizer, "chat_template", None):
        try:
            return tokenizer.apply_chat_template(list(messages), tokenize=False, add_generation_prompt=True)
        except Exception:  # e.g. templates that raise on a "system" role
            return tokenizer.apply_chat_template(_fold_system(messages), tokenize=False,
                                                 add_generation_prompt=True)
    parts = []
    for message in messages:
        content = str(message.get("content", ""))
        parts.append(f"assistant: {content}" if message.get("role") == "assistant" else content)
    return "\n\n".join([*parts, "assistant:"])


def _fold_system(messages: Sequence[Mapping[str, str]]) -> list[dict[str, str]]:
    system = "\n\n".join(str(m["content"]) for m in messages if m.get("role") == "system")
    rest = [dict(m) for m in messages if m.get("role") != "system"]
    if system and rest and rest[0].get("role") == "user":
        rest[0]["content"] = f"{system}\n\n{rest[0]['content']}"
    return rest


def prompt_token_ids(tokenizer: Any, messages: Sequence[Mapping[str, str]],
                     max_prompt_tokens: int) -> list[int]:
    """Token ids of :func:`render_prompt`, keeping the last ``max_prompt_tokens`` when longer."""
    if max_prompt_tokens <= 0:
        raise ValueError(f"the model's context leaves no room for a prompt ({max_prompt_tokens} tokens left)")
    text = render_prompt(tokenizer, messages)
    # Chat templates already carry their special tokens; the plain layout gets the tokenizer's defaults.
    ids = tokenizer(text, add_special_tokens=not getattr(tokenizer, "chat_template", None))["input_ids"]
    return list(ids[-max_prompt_tokens:])


def context_length(config: Any, default: int = 1 << 20) -> int:
    """The model's maximum number of positions, from the usual config attribute names."""
    for attribute in ("max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"):
        value = getattr(config, attribute, None)
        if isinstance(value, int) and value > 0:
            return value
    return default


class HFBrain(ProviderBrain):
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

    def prompt_ids(self, scene: dict[str, Any]) -> list[int]:
        """The prompt token ids this brain feeds the model for ``scene``."""
        messages = build_messages(scene, system_prompt=self.system_prompt)
        return prompt_token_ids(self.tokenizer, messages, self.context_length - self.max_new_tokens)

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

    def _respond(self, scene: dict[str, Any]) -> ProviderOutcome:
        prompt = self.prompt_ids(scene)
        new_ids = self.generate_ids(prompt)
        text = self.tokenizer.decode(new_ids, skip_special_tokens=True).strip()
        return ProviderOutcome(text=text, prompt_tokens=len(prompt), completion_tokens=len(new_ids))

    def close(self) -> None:
        with self._lock:
            self.lm = None
            if self.device.startswith("cuda"):
                self._torch.cuda.empty_cache()
