"""Measurers: how a suite run gets the scores of its non-bench scenarios (C09 live, C10 transfer).

Card
----
- A :data:`Measurer` is ``measurer(scenarios, context) -> {scenario_id: [ScenarioScore, ...]}`` for the
  scenarios of one mode; :class:`MeasureContext` is the run's configuration it gets besides them.
- A measuring module registers its measurer with one decorator line, ``@measurer("live")``
  (:mod:`wmbench.harness.live.c09`) or ``@measurer("transfer")`` (:mod:`wmbench.harness.transfer.c10`), for
  the run mode a category's scorer names (:func:`wmbench.scoring.registry.measured_modes`: C09 ``live``, C10
  ``transfer``). ``bench`` is not a measurer mode: the suite runs bench episodes itself. A second measurer
  for a mode, or one for ``bench``, is one :class:`MeasurerRegistrationError` line.
- :func:`registered_measurers` is the filled table, mode -> measurer; it fails with one line when a mode a
  category is measured by has no measurer (its module was not imported: ``harness/suite.py``, the suite's
  composition, imports both measuring modules), so a missing import is an error, never a silently unmeasured
  category. The suite's :func:`~wmbench.harness.suite.default_measurers` is built from it; a caller may still
  pass its own measurers to ``run_suite``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wmbench.core.errors import ConfigError, RunError
from wmbench.core.registry import Registry
from wmbench.scenarios import Scenario
from wmbench.scenarios.records import RunMode
from wmbench.scoring.registry import measured_modes
from wmbench.scoring.report_types import ScenarioScore


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
Measurer = Callable[[Sequence[Scenario], MeasureContext], Mapping[str, Sequence[ScenarioScore]]]


class MeasurerRegistrationError(ConfigError):
    """A measurer registered for ``bench`` or for a mode that already has one."""


_MEASURERS: Registry[Measurer] = Registry("measurer")


def measurer(mode: RunMode) -> Callable[[Measurer], Measurer]:
    """Decorator: register the decorated function as the measurer of run mode ``mode`` (returned unchanged)."""
    def register(function: Measurer) -> Measurer:
        if mode == "bench":
            raise MeasurerRegistrationError(
                f"{function.__module__}.{getattr(function, '__name__', function)} registers a 'bench' measurer; "
                f"expected a non-bench mode: the suite runs bench episodes itself")
        if mode in _MEASURERS.registered():
            first = _MEASURERS.get(mode)
            raise MeasurerRegistrationError(
                f"run mode {mode!r} has two measurers: {first.__module__} and {function.__module__}; expected one")
        _MEASURERS.register(mode, function)
        return function
    return register


def registered_measurers() -> dict[str, Measurer]:
    """Every registered measurer, mode -> measurer; :class:`~wmbench.core.errors.RunError` when a category's
    mode (``scoring.registry.measured_modes``) has none, naming the category."""
    table = {mode: _MEASURERS.get(mode) for mode in _MEASURERS.registered()}
    missing = {category: mode for category, mode in measured_modes().items() if mode not in table}
    if missing:
        needed = ", ".join(f"{category} needs {mode!r}" for category, mode in missing.items())
        raise RunError(f"expected a registered measurer for every measured category's mode, got none for: "
                       f"{needed} (import the module that registers it with @measurer)")
    return table
