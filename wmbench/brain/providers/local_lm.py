"""What the local causal-LM brains (``hf/<path>`` and ``onnx/<path>``) share, so both see identical ids.

Card
----
- :func:`local_model_dir`: the folder a local-model spec names, or a clear error when it is not a folder.
- :func:`render_prompt`: the tokenizer's chat template when it has one (a template that rejects the system role
  gets the system text folded into the first user turn), else the plain layout
  ``"<system>\n\n<user>\n\nassistant:"``.
- :func:`prompt_token_ids`: its token ids, keeping the *last* ``max_prompt_tokens`` when longer (the scene is
  at the end).
- :func:`context_length`: the model's maximum number of positions from the usual config attribute names.
- :class:`LocalLMBrain`: the decision of a local LM — the scene's prompt ids (context minus
  ``max_new_tokens``), the subclass's greedy ``generate_ids``, the new tokens decoded as the reply, with
  prompt and completion token counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from wmbench.brain.errors import BrainSpecError
from wmbench.brain.prompt import build_messages
from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome
from wmbench.protocol.observation import BrainInput

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


class LocalLMBrain(ProviderBrain):
    """Base of the local causal-LM brains (see module card). A subclass sets ``tokenizer``, ``context_length``,
    ``max_new_tokens`` and ``system_prompt`` and implements :meth:`generate_ids`."""

    tokenizer: Any
    context_length: int
    max_new_tokens: int
    system_prompt: str | None

    def prompt_ids(self, scene: BrainInput) -> list[int]:
        """The prompt token ids this brain feeds the model for ``scene``."""
        messages = build_messages(scene, system_prompt=self.system_prompt)
        return prompt_token_ids(self.tokenizer, messages, self.context_length - self.max_new_tokens)

    def generate_ids(self, prompt_ids: Sequence[int], max_new_tokens: int | None = None) -> list[int]:
        """Greedy continuation of ``prompt_ids``: the new token ids (ending with EOS if it was produced)."""
        raise NotImplementedError

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        prompt = self.prompt_ids(scene)
        new_ids = self.generate_ids(prompt)
        text = self.tokenizer.decode(new_ids, skip_special_tokens=True).strip()
        return ProviderOutcome(text=text, prompt_tokens=len(prompt), completion_tokens=len(new_ids))
