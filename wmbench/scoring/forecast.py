"""Forecasts scored against the future: each ``FORECAST`` item checked against the world ``H`` seconds later.

Card
----
- A forecast item made at decision ``k`` (sim time ``t``) with horizon ``H`` is checked at the first later
  decision ``j`` of the same phase whose time is at or after ``t + H``: the item's verdict (safe / danger) against
  the simulator's truth for that direction there (:class:`~wmbench.protocol.trace.Truth`, in the protagonist's
  frame at that moment — the world as it really went, the brain's own motion included). An item whose moment
  the episode (or phase) does not reach is **unverifiable** and not counted; an ``ambiguous`` verdict is wrong.
- :func:`forecast_summary` gives the accuracy overall, per category and per horizon (the horizon curve).
- **Persistence baseline** (:func:`check_persistence`): the same check applied to the brain's own PREDICT as if it
  were a forecast ("the world stays as it is now") at a horizon — what a forecast must beat to show anticipation.
  Forecasts are reported beside the WM Score and never change it: a brain that gives none is unaffected.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from wmbench.protocol.forecast import parse_forecast
from wmbench.protocol.trace import Trace

_TIME_EPS = 1e-6


@dataclass(frozen=True)
class ForecastCheck:
    """One forecast item and what the world then did."""

    scenario: str
    seed: int | None
    decision: int
    direction: str
    horizon_s: float
    said: str
    safe_then: bool

    @property
    def correct(self) -> bool:
        return self.said in ("safe", "danger") and (self.said == "safe") == self.safe_then


@dataclass(frozen=True)
class Accuracy:
    """Checked items, correct ones and their share (None: nothing checked)."""

    checked: int
    correct: int

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.checked if self.checked else None


@dataclass(frozen=True)
class ForecastSummary:
    """Forecast accuracy overall, per category and per horizon (seconds, ascending)."""

    overall: Accuracy
    by_category: dict[str, Accuracy]
    by_horizon: dict[float, Accuracy]


def check_forecasts(trace: Trace) -> list[ForecastCheck]:
    """Every verifiable forecast item of the trace, checked (see the card)."""
    checks = []
    decisions = trace.decisions
    for k, decision in enumerate(decisions):
        for item in parse_forecast(decision.reply):
            due = decision.t + item.horizon_s - _TIME_EPS
            later = next((d for d in decisions[k + 1:] if d.t >= due), None)
            if later is None or later.phase != decision.phase:
                continue  # the episode or the phase ended first: unverifiable
            truth = later.truth.directions.get(item.direction)
            if truth is None:
                continue
            checks.append(ForecastCheck(trace.scenario_id, trace.seed, k, item.direction, item.horizon_s,
                                        item.verdict, bool(truth.safe)))
    return checks


def check_persistence(trace: Trace, horizon_s: float) -> list[ForecastCheck]:
    """The brain's PREDICT items read as forecasts at ``horizon_s`` (the persistence baseline; see the card)."""
    checks = []
    decisions = trace.decisions
    for k, decision in enumerate(decisions):
        due = decision.t + horizon_s - _TIME_EPS
        later = next((d for d in decisions[k + 1:] if d.t >= due), None)
        if later is None or later.phase != decision.phase:
            continue
        for direction, item in ((decision.parse or {}).get("prediction") or {}).items():
            truth = later.truth.directions.get(direction)
            if truth is not None and item:
                checks.append(ForecastCheck(trace.scenario_id, trace.seed, k, direction, horizon_s,
                                            str(item[0]), bool(truth.safe)))
    return checks


def forecast_summary(traces: Iterable[tuple[str, Trace]], persistence_s: float | None = None) -> ForecastSummary:
    """Accuracy of every forecast in ``(category, trace)`` pairs; with ``persistence_s``, of the persistence
    baseline at that horizon instead."""
    overall = [0, 0]
    by_category: dict[str, list[int]] = {}
    by_horizon: dict[float, list[int]] = {}
    for category, trace in traces:
        checks = check_forecasts(trace) if persistence_s is None else check_persistence(trace, persistence_s)
        for check in checks:
            for tally in (overall, by_category.setdefault(category, [0, 0]),
                          by_horizon.setdefault(check.horizon_s, [0, 0])):
                tally[0] += 1
                tally[1] += check.correct
    return ForecastSummary(Accuracy(*overall), {c: Accuracy(*t) for c, t in sorted(by_category.items())},
                           {h: Accuracy(*t) for h, t in sorted(by_horizon.items())})
