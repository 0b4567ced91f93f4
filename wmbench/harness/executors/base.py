"""The executor contract: who runs a run's bench episodes (this machine's processes, or a Ray cluster).

Card
----
- :class:`EpisodeJob` is what every episode of one run shares: the brain spec and options, the body, the env
  options, the motion model and the concurrency asked for (``workers``; for API brains the connection
  budget, ``max_connections``).
- An :class:`Executor` turns ``(todo, job)`` into :class:`~wmbench.harness.run.episode.EpisodeResult` values,
  yielded in the parent as the episodes finish (any order); the suite runner writes each one to
  ``episodes.jsonl`` as it arrives, so resumption and byte-identical traces do not depend on the executor.
  An executor owns its workers: :meth:`Executor.close` releases them (idempotent).
- :func:`longest_first` orders episodes by expected decisions (longest first): with a latency-bound brain the
  run ends when its longest episode does, so that one must start first.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from wmbench.harness.run.episode import EpisodeResult
from wmbench.harness.run.selection import EpisodeSpec
from wmbench.scenarios import get_scenario

#: Sim seconds per decision by default (DESIGN.md: one decision every 0.5 s of sim time).
DEFAULT_DECISION_PERIOD_S = 0.5


@dataclass(frozen=True)
class EpisodeJob:
    """What every episode of one run shares (see the module card)."""

    brain: str
    body: str
    brain_options: Mapping[str, Any] = field(default_factory=dict)
    env_kwargs: Mapping[str, Any] = field(default_factory=dict)
    motion_model: str = "procedural"
    workers: int = 1
    max_connections: int = 8


@runtime_checkable
class Executor(Protocol):
    """Runs bench episodes for the suite runner (see the module card)."""

    name: str

    def results(self, todo: Sequence[EpisodeSpec], job: EpisodeJob) -> Iterator[EpisodeResult]:
        """The episodes of ``todo`` run with ``job``, yielded as they finish."""
        ...

    def close(self) -> None:
        """Release the workers (idempotent)."""
        ...


def expected_decisions(spec: EpisodeSpec, decision_period_s: float = DEFAULT_DECISION_PERIOD_S) -> int:
    """Decisions an episode of ``spec`` takes if it runs its full length (each phase lasts
    ``ceil(duration / decision period)`` decisions, as the env steps it); an unknown scenario counts as 1."""
    try:
        phases = get_scenario(spec.scenario).phases
    except KeyError:
        return 1
    return max(1, sum(math.ceil(phase.duration / decision_period_s - 1e-9) for phase in phases))


def longest_first(todo: Sequence[EpisodeSpec], decision_period_s: float = DEFAULT_DECISION_PERIOD_S
                  ) -> list[EpisodeSpec]:
    """``todo`` ordered by expected decisions, longest first; ties keep (scenario, seed) order."""
    return sorted(todo, key=lambda spec: (-expected_decisions(spec, decision_period_s), spec))
