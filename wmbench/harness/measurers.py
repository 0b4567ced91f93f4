"""The measurer registry: a non-bench scenario mode -> the measurer that scores its scenarios.

Card
----
- A **measurer** is ``measurer(scenarios, context) -> {scenario_id: [ScenarioScore, ...]}`` for the scenarios
  of one mode; :class:`MeasureContext` is the run's configuration it gets besides them.
- :data:`MEASURERS` (a :class:`~wmbench.core.registry.Registry`) holds the built-in measurers as lazy
  ``"module:function"`` targets, filled here and only here (no import side effects): ``live`` (C09,
  :func:`wmbench.harness.live.c09.measure_live`) and ``transfer`` (C10,
  :func:`wmbench.harness.transfer.c10.measure_transfer`). :func:`register_measurer` adds or replaces one.
- :func:`chosen_measurers` is what ``run_suite`` uses: the measurers a caller passed, exactly; by default every
  registered one. Without ``live``, the ``live`` mode gets :func:`wmbench.harness.live.c09.skip_live`, which
  reports C09 as not measured, saying why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from wmbench.core.registry import Registry, load_target
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

#: Measurers by scenario mode (``"live"`` for C09, ``"transfer"`` for C10), built-ins imported on first use.
MEASURERS: Registry[Measurer] = Registry("measurer")
MEASURERS.register_lazy("live", "wmbench.harness.live.c09:measure_live")
MEASURERS.register_lazy("transfer", "wmbench.harness.transfer.c10:measure_transfer")
#: Stands in for ``live`` when a run is started without live measurement (``--no-live``).
SKIP_LIVE_TARGET = "wmbench.harness.live.c09:skip_live"


def register_measurer(mode: str, measurer: Measurer, *, overwrite: bool = False) -> Measurer:
    """Plug in the measurement of one non-bench mode; ``run_suite`` then scores those scenarios too."""
    if mode == "bench":
        raise ValueError("bench scenarios are run by run_suite itself; register measurers for other modes")
    return MEASURERS.register(mode, measurer, overwrite=overwrite)


def chosen_measurers(given: Mapping[str, Measurer] | None, live: bool) -> dict[str, Measurer]:
    """The measurers of a run: ``given`` exactly (None: every registered one); without ``live`` the ``live``
    mode is reported as not measured."""
    chosen = {mode: MEASURERS.get(mode) for mode in MEASURERS.registered()} if given is None else dict(given)
    if not live:
        chosen["live"] = cast(Measurer, load_target(SKIP_LIVE_TARGET))
    return chosen
