"""The Brain protocol: a scene_context in, the two lines out (plus metadata)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Protocol, cast, runtime_checkable

from wmbench.protocol.observation import BrainInput
from wmbench.protocol.trace import BrainRecord


@dataclass(frozen=True)
class BrainReply:
    """A brain's answer to one scene. ``text`` is the reply (ideally the two lines); ``error`` is set when the
    provider failed (timeout, HTTP error, ...) — the harness records such a decision as failed, never crashes."""

    text: str
    latency_s: float
    provider: str
    model: str = ""
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    retries: int = 0
    cached: bool = False
    error: str | None = None
    #: the brain cannot go on (bad key, unreachable endpoint, too many failures in a row): the harness stops
    #: the run early with ``error`` as the reason. Only written into traces when true.
    fatal: bool = False

    def meta(self) -> BrainRecord:
        d = asdict(self)
        d.pop("text")
        if not d["fatal"]:
            d.pop("fatal")
        return cast(BrainRecord, d)  # the fields but text are BrainRecord's, in its order


@runtime_checkable
class Brain(Protocol):
    """A decision maker. ``decide`` must be safe to call from a worker thread (one call at a time per brain).
    ``reset(seed)`` starts an episode; the harness passes a brain seed for the brain's own randomness, derived
    one way from the episode's seed (:func:`wmbench.brain.seeding.brain_seed`), never the seed of the world."""

    name: str

    def reset(self, seed: int | None = None) -> None: ...
    def decide(self, scene: BrainInput) -> BrainReply: ...
    def close(self) -> None: ...
