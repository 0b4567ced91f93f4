"""Points bands and the *not measured* entry, for the rules that score one measured number (C09 live, C10
transfer).

Card
----
- A band list is ``(bound, points)`` pairs, best first.
- :func:`points_at_least`: the points of the first band whose lower bound the value reaches (agreements, frame
  rates); 0 below them all.
- :func:`points_at_most`: the points of the first band whose upper bound the value stays within (errors,
  latencies, drop rates); 0 above them all, and 0 for None (nothing was measured).
- :func:`not_measured_in`: a ``measured: false`` score of a scenario the measurement could not score, saying why.
"""

from __future__ import annotations

from collections.abc import Sequence

from wmbench.scoring.report_types import ScenarioScore


def points_at_least(value: float, bands: Sequence[tuple[float, float]]) -> float:
    """Points of the first band whose lower bound ``value`` reaches; 0 below them all."""
    return next((pts for low, pts in bands if value >= low), 0.0)


def points_at_most(value: float | None, bands: Sequence[tuple[float, float]]) -> float:
    """Points of the first band whose upper bound ``value`` stays within; 0 above them all or for None."""
    if value is None:
        return 0.0
    return next((pts for high, pts in bands if value <= high), 0.0)


def not_measured_in(category: str, sid: str, why: str, seed: int | None = None) -> ScenarioScore:
    """Scenario ``sid`` of ``category`` not measured, because ``why`` (score 0, ``measured`` False)."""
    return ScenarioScore(scenario_id=sid, category=category, score=0.0, measured=False,
                         explanation=f"{sid}: not measured: {why}",
                         evidence={"rule": "not_measured", "reason": why}, seed=seed)
