"""``openai/<model>`` — any OpenAI-compatible chat endpoint (OpenAI, vLLM, llama.cpp, ``wmbench serve``, …).

Card:
    client     the official ``openai`` client with ``max_retries=0`` — retries happen here, so they are
               counted and their jitter is reproducible;
    retries    on 408/409/429/5xx, connection errors and timeouts: exponential backoff
               ``min(backoff_max_s, backoff_base_s * 2**attempt)``, half fixed and half jitter drawn from a
               seeded ``numpy.random.Generator`` (``seed`` option, re-seeded by ``reset(seed)``, or by
               ``reset()`` with the ``seed`` option again); other HTTP
               errors (400, 401, 404, …) fail at once;
    endpoint   ``base_url``/``api_key`` options, else ``OPENAI_BASE_URL``/``OPENAI_API_KEY``; a missing key
               is sent as ``"EMPTY"`` (local servers need none). The key is never cached, logged or put in
               error messages;
    cache      :mod:`wmbench.brain.response_cache` (``cache=False`` switches it off, ``cache_dir`` moves it);
               a hit returns ``cached=True`` and never contacts the server; failures are never cached; a
               cache write that fails (disk full, read-only) is skipped, the reply still counts;
    reply      latency (all attempts), prompt/completion tokens from ``usage``, ``retries``.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from wmbench.brain.errors import BrainSpecError, require_module
from wmbench.brain.prompt import build_messages
from wmbench.brain.provider_base import ProviderBrain, ProviderOutcome
from wmbench.brain.response_cache import CachedResponse, ResponseCache, cache_key

SPEC_PATTERN = "openai/<model>"
RETRYABLE_STATUS = frozenset({408, 409, 429})


class OpenAIBrain(ProviderBrain):
    """A brain behind an OpenAI-compatible ``/v1/chat/completions`` endpoint (see module card)."""

    provider = "openai"
    serialize_calls = False  # the client is thread-safe; the jitter RNG has its own lock

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 3,
        temperature: float = 0.0,
        max_tokens: int = 256,
        system_prompt: str | None = None,
        cache: bool = True,
        cache_dir: str | Path | None = None,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 8.0,
        seed: int | None = 0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__()
        if not model:
            raise BrainSpecError(f"{SPEC_PATTERN} needs a model name, e.g. 'openai/gpt-4o-mini'")
        if max_retries < 0 or timeout_s <= 0:
            raise ValueError(f"expected max_retries >= 0 and timeout_s > 0, got {max_retries}, {timeout_s}")
        self._openai = require_module("openai", spec_pattern=SPEC_PATTERN, extra="openai")
        self.name = f"openai/{model}"
        self.model = model
        self.timeout_s = float(timeout_s)
        self.max_retries = int(max_retries)
        self.params: dict[str, Any] = {"temperature": float(temperature), "max_tokens": int(max_tokens)}
        self.system_prompt = system_prompt
        self.backoff_base_s = float(backoff_base_s)
        self.backoff_max_s = float(backoff_max_s)
        self._sleep = sleep
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        self._rng_lock = threading.Lock()
        key = api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY"
        self._secret = key if key != "EMPTY" else None
        self._client = self._openai.OpenAI(
            base_url=base_url or os.environ.get("OPENAI_BASE_URL") or None,
            api_key=key, timeout=self.timeout_s, max_retries=0,
        )
        self.base_url = str(self._client.base_url)
        self.cache = ResponseCache(cache_dir, secrets=[key]) if cache else None  # a key echoed back is redacted

    def reset(self, seed: int | None = None) -> None:
        """Re-seed the backoff jitter (``None``: start over from the constructor's ``seed``)."""
        with self._rng_lock:
            self._rng = np.random.default_rng(self.seed if seed is None else seed)

    def close(self) -> None:
        self._client.close()

    # -- one decision -------------------------------------------------------------------------------------
    def _respond(self, scene: dict[str, Any]) -> ProviderOutcome:
        messages = build_messages(scene, system_prompt=self.system_prompt)
        key = cache_key(self.model, self.base_url, messages, self.params)
        if self.cache is not None and (hit := self.cache.get(key)) is not None:
            return ProviderOutcome(text=hit.text, prompt_tokens=hit.prompt_tokens,
                                   completion_tokens=hit.completion_tokens, cached=True)
        retries = 0
        while True:
            try:
                completion = self._client.chat.completions.create(
                    model=self.model, messages=messages, **self.params)
                break
            except Exception as exc:
                if not self._is_retryable(exc):
                    return ProviderOutcome(text="", retries=retries, error=self._describe(exc))
                if retries >= self.max_retries:
                    return ProviderOutcome(
                        text="", retries=retries,
                        error=f"gave up after {retries + 1} attempts: {self._describe(exc)}")
                self._sleep(self._backoff_delay(retries))
                retries += 1
        text = (completion.choices[0].message.content or "") if completion.choices else ""
        usage = completion.usage
        prompt_tokens = usage.prompt_tokens if usage is not None else None
        completion_tokens = usage.completion_tokens if usage is not None else None
        if self.cache is not None and completion.choices:
            # a full or read-only cache folder costs a rerun, not this good reply
            with contextlib.suppress(OSError):
                self.cache.put(key, CachedResponse(
                    text=text, model=completion.model or self.model,
                    prompt_tokens=prompt_tokens, completion_tokens=completion_tokens))
        return ProviderOutcome(text=text, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                               retries=retries)

    def _backoff_delay(self, attempt: int) -> float:
        cap = min(self.backoff_max_s, self.backoff_base_s * 2.0**attempt)
        with self._rng_lock:
            jitter = float(self._rng.uniform(0.0, 0.5 * cap))
        return 0.5 * cap + jitter

    def _is_retryable(self, exc: Exception) -> bool:
        if isinstance(exc, self._openai.APIConnectionError):  # includes APITimeoutError
            return True
        if isinstance(exc, self._openai.APIStatusError):
            return exc.status_code in RETRYABLE_STATUS or exc.status_code >= 500
        return False

    def _describe(self, exc: Exception) -> str:
        if isinstance(exc, self._openai.APITimeoutError):
            message = f"timed out after {self.timeout_s:g} s"
        elif isinstance(exc, self._openai.APIStatusError):
            message = f"HTTP {exc.status_code}: {exc.message}"
        else:
            message = f"{type(exc).__name__}: {exc}"
        if self._secret:
            message = message.replace(self._secret, "***")
        return message

    def __repr__(self) -> str:  # never show the key
        return f"OpenAIBrain(model={self.model!r}, base_url={self.base_url!r})"
