"""Measurers: how a suite run gets the scores of its non-bench scenarios (C09 live, C10 transfer).

Card
----
- A :data:`Measurer` is ``measurer(scenarios, context) -> {scenario_id: [ScenarioScore, ...]}`` for the
  scenarios of one mode; :class:`MeasureContext` is the run's configuration it gets besides them.
- Measurers are plain callables passed to the suite by whoever composes the run (the CLI, or
  :func:`wmbench.harness.suite.default_measurers` for the Python API); importing a measuring module registers
  nothing. ``bench`` is not a measurer mode: the suite runs bench episodes itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wmbench.scenarios import Scenario


@dataclass(frozen=True)
class MeasureContext:
    """What a measurer for non-bench scenarios gets besides the scenarios: the run's configuration."""

    brain: str
    brain_options: Mapping[str, Any]
    body: str
    seeds: tuple[int, ...]
    workers: int
    out: Path
    progress: bool
    env_kwargs: Mapping[str, Any] = field(default_factory=dict)


#: ``measurer(scenarios, context) -> {scenario_id: [ScenarioScore, ...]}`` for the scenarios of one mode.
Measurer = Callable[[Sequence[Scenario], MeasureContext], Mapping[str, Sequence[Any]]]
