"""ProviderBrain: the shared shell of every built-in brain.

Card:
    - times each decision with ``time.perf_counter`` (retries and cache look-ups included);
    - serializes calls with a lock (the harness may call one brain from several worker threads);
    - turns any provider exception into a ``BrainReply`` with ``error`` set and ``text=""`` — ``decide`` never
      raises for provider failures;
    - offers ``adecide`` (``asyncio.to_thread``) and context-manager closing.

A subclass implements ``_respond(scene) -> ProviderOutcome`` and sets ``name``, ``provider`` and ``model``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from dataclasses import dataclass

import numpy as np

from wmbench.brain.base import Brain, BrainReply
from wmbench.core.errors import ConfigError
from wmbench.protocol.observation import BrainInput


@dataclass(frozen=True)
class ProviderOutcome:
    """What one provider call produced, before timing is attached."""

    text: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    retries: int = 0
    cached: bool = False
    error: str | None = None
    fatal: bool = False


class ProviderBrain:
    """Base class for built-in brains (see module card)."""

    name: str = "brain"
    provider: str = "brain"
    model: str = ""
    #: False for providers that are safe to run concurrently (their own state is locked where needed).
    serialize_calls: bool = True

    def __init__(self) -> None:
        self._lock = threading.RLock()

    # -- the Brain protocol -------------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Start a new episode. Stateless providers ignore it."""

    def decide(self, scene: BrainInput) -> BrainReply:
        start = time.perf_counter()
        guard = self._lock if self.serialize_calls else contextlib.nullcontext()
        try:
            with guard:
                outcome = self._respond(scene)
        except Exception as exc:  # a provider failure is a failed decision, never a crashed run
            outcome = ProviderOutcome(text="", error=f"{type(exc).__name__}: {exc}")
        latency = time.perf_counter() - start
        return BrainReply(
            text="" if outcome.error else outcome.text,
            latency_s=latency,
            provider=self.provider,
            model=self.model,
            prompt_tokens=outcome.prompt_tokens,
            completion_tokens=outcome.completion_tokens,
            retries=outcome.retries,
            cached=outcome.cached,
            error=outcome.error,
            fatal=bool(outcome.error) and outcome.fatal,
        )

    async def adecide(self, scene: BrainInput) -> BrainReply:
        """``decide`` in a worker thread, for asyncio callers."""
        return await asyncio.to_thread(self.decide, scene)

    def close(self) -> None:
        """Release resources (sessions, clients). Idempotent."""

    # -- for subclasses -----------------------------------------------------------------------------------
    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        raise NotImplementedError

    def __enter__(self) -> ProviderBrain:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


async def adecide(brain: Brain, scene: BrainInput) -> BrainReply:
    """``brain.decide(scene)`` in a worker thread — works for any Brain, plugins included."""
    return await asyncio.to_thread(brain.decide, scene)


class SeededRandom:
    """Mixin for a ProviderBrain that draws at random: its own ``numpy.random.Generator`` in ``self._rng``,
    seeded from the constructor's ``seed``; ``reset(seed)`` re-seeds it after the brain's own reset, and
    ``reset()`` without a seed starts over from the constructor's ``seed`` (never from fresh OS entropy), so the
    same seed gives the same replies. Put it first among the bases."""

    _lock: threading.RLock

    def __init__(self, seed: int | None = 0) -> None:
        super().__init__()
        if seed is not None and not (isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0):
            # `--option seed=abc` arrives as a str: numpy's own message would not name the option
            raise ConfigError(f"{getattr(self, 'name', type(self).__name__)}: option seed must be a non-negative "
                              f"integer, got {seed!r}")
        self.seed = seed
        self._rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)  # type: ignore[misc]  # the brain class after this mixin in the MRO
        with self._lock:
            self._rng = np.random.default_rng(self.seed if seed is None else seed)
