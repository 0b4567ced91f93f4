"""Brains under a think-time or token budget: what the frontier runs in bench mode.

Card
----
- :class:`ThinkingBrain` (think time ``d`` seconds of sim time): in bench mode the world keeps moving while the
  brain thinks. The brain is asked every decision, as always, but its answer reaches the body
  ``ceil(d / decision_dt)`` decisions later; until then the body acts on the answer before it (at the start of an
  episode on none: an empty reply, recorded as a miss — the brain had not answered yet). The trace records the
  reply that was acted on next to the scene the world was in, so a late answer is scored against the moment it
  took effect. Simplified: the delay is rounded up to whole decisions (0.5 s at the default timing), the same
  for every decision, whatever the brain really took.
- :class:`WallClockThinkingBrain` (think time ``d`` seconds of wall time): for live runs (C09), where the world
  runs in real time while the brain thinks, the answer simply comes ``d`` seconds later — the brain's own call
  time plus ``d``, which is what C09 scores.
- :class:`TokenBudgetBrain` (``n`` tokens): the reply is cut to its first ``n`` whitespace-separated tokens
  (lines kept). A model behind an API should also be run with ``--option max_tokens=n`` so that the budget
  shapes what it writes and not only where it is cut; the frontier passes that option to ``openai/`` brains.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import replace

from wmbench.brain.base import Brain, BrainReply
from wmbench.protocol.observation import BrainInput


def delay_decisions(think_time_s: float, decision_dt: float = 0.5) -> int:
    """Whole decisions an answer takes to reach the body (rounded up; 0 for no think time)."""
    if think_time_s < 0 or not math.isfinite(think_time_s):
        raise ValueError(f"think time must be a finite number of seconds >= 0, got {think_time_s!r}")
    return math.ceil(think_time_s / decision_dt - 1e-9)


class ThinkingBrain:
    """``inner`` whose answers reach the body ``delay`` decisions late (see the module card)."""

    def __init__(self, inner: Brain, delay: int) -> None:
        self.inner = inner
        self.delay = delay
        self.name = f"{getattr(inner, 'name', 'brain')}+think{delay}"
        self._pending: deque[BrainReply] = deque()

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)
        self._pending.clear()

    def decide(self, scene: BrainInput) -> BrainReply:
        self._pending.append(self.inner.decide(scene))
        if len(self._pending) <= self.delay:
            return BrainReply(text="", latency_s=0.0, provider="thinking", error=None)
        return self._pending.popleft()

    def close(self) -> None:
        self.inner.close()


class WallClockThinkingBrain:
    """``inner`` whose every answer takes ``seconds`` longer in wall time (live runs; see the module card)."""

    def __init__(self, inner: Brain, seconds: float) -> None:
        delay_decisions(seconds)  # the same validation: finite and >= 0
        self.inner = inner
        self.seconds = seconds
        self.name = f"{getattr(inner, 'name', 'brain')}+think{seconds:g}s"

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def decide(self, scene: BrainInput) -> BrainReply:
        started = time.perf_counter()
        reply = self.inner.decide(scene)
        time.sleep(self.seconds)
        return replace(reply, latency_s=time.perf_counter() - started)

    def close(self) -> None:
        self.inner.close()


class TokenBudgetBrain:
    """``inner`` whose replies are cut to ``tokens`` whitespace tokens (see the module card)."""

    def __init__(self, inner: Brain, tokens: int) -> None:
        if tokens < 1:
            raise ValueError(f"a token budget must be at least 1, got {tokens}")
        self.inner = inner
        self.tokens = tokens
        self.name = f"{getattr(inner, 'name', 'brain')}+budget{tokens}"

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def decide(self, scene: BrainInput) -> BrainReply:
        reply = self.inner.decide(scene)
        return replace(reply, text=cut_to_tokens(reply.text, self.tokens))

    def close(self) -> None:
        self.inner.close()


def cut_to_tokens(text: str, tokens: int) -> str:
    """The first ``tokens`` whitespace-separated tokens of ``text``, its line breaks kept."""
    kept: list[str] = []
    left = tokens
    for line in text.splitlines():
        words = line.split()
        if left <= 0:
            break
        kept.append(" ".join(words[:left]))
        left -= len(words)
    return "\n".join(kept)
