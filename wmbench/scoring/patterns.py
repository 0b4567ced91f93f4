"""Intensity patterns over a series of decisions: escalation gradient, de-escalation, runs of a condition.

Inputs are combined intensities (0–1, see :func:`evidence.decision_intensity`); thresholds come from
:mod:`thresholds`. Each classifier returns a frozen record whose ``kind`` is the branch a rule pays on.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from wmbench.scoring.evidence import mean
from wmbench.scoring.thresholds import (
    BODY_RISE_MIN,
    CALM_MAX,
    FALL_TOL,
    HIGH_MIN,
    KEYWORD_RISE_MIN,
    MILD_MAX,
    MONOTONE_TOL,
    RISE_MIN,
    START_WINDOW,
)

#: the spec's escalation_gradient points
GRADIENT_POINTS: dict[str, float] = {
    "increasing": 20.0, "stable_high": 10.0, "decreasing": 5.0, "flat_low": 0.0,
}
#: points for a de-escalation pattern (S23, S32): gradual is the calm pattern the spec rewards
DEESCALATION_POINTS: dict[str, float] = {
    "gradual": 20.0, "uneven": 15.0, "instant": 5.0, "stays_high": 5.0, "no_reaction": 0.0,
}


@dataclass(frozen=True)
class Gradient:
    """Trend of a series: its start (mean of the first ``START_WINDOW`` values) vs its end (mean of the last
    third) — an escalation that rises and then holds at a plateau is still increasing. ``keyword_rise`` and
    ``body_rise`` are the same start-to-end change of the two parts of the intensity (0–1 each)."""

    kind: str
    first: float
    last: float
    delta: float
    mean: float
    keyword_rise: float = 0.0
    body_rise: float = 0.0

    @property
    def points(self) -> float:
        return GRADIENT_POINTS[self.kind]

    def to_dict(self) -> dict[str, float | str]:
        return {"kind": self.kind, "first": round(self.first, 3), "last": round(self.last, 3),
                "delta": round(self.delta, 3), "mean": round(self.mean, 3),
                "keyword_rise": round(self.keyword_rise, 3), "body_rise": round(self.body_rise, 3)}


def _rise(values: Sequence[float]) -> float:
    k = max(1, len(values) // 3)
    return mean(values[-k:]) - mean(values[:START_WINDOW]) if values else 0.0


def gradient(series: Sequence[float], keyword: Sequence[float] | None = None,
             body: Sequence[float] | None = None) -> Gradient:
    """``increasing``: the end high (>= ``HIGH_MIN``) and risen from the start — the combined intensity by
    ``RISE_MIN``, or (when the parts are given) the words by ``KEYWORD_RISE_MIN`` or the body by
    ``BODY_RISE_MIN`` with neither part falling by more than ``FALL_TOL`` (words can escalate while the body
    already sprints); ``stable_high``: high on average and not falling by ``RISE_MIN``; ``decreasing``: the
    end below the start by ``RISE_MIN``; else ``flat_low``."""
    values = list(series)
    k = max(1, len(values) // 3)
    first, last, avg = mean(values[:START_WINDOW]), mean(values[-k:]), mean(values)
    delta = last - first
    kw_rise = _rise(list(keyword)) if keyword is not None else 0.0
    body_rise = _rise(list(body)) if body is not None else 0.0
    part_rise = ((kw_rise >= KEYWORD_RISE_MIN or body_rise >= BODY_RISE_MIN)
                 and kw_rise > -FALL_TOL and body_rise > -FALL_TOL)
    if last >= HIGH_MIN and (delta >= RISE_MIN or part_rise):
        kind = "increasing"
    elif avg >= HIGH_MIN and delta > -RISE_MIN:
        kind = "stable_high"
    elif delta <= -RISE_MIN:
        kind = "decreasing"
    else:
        kind = "flat_low"
    return Gradient(kind, first, last, delta, avg, kw_rise, body_rise)


@dataclass(frozen=True)
class Deescalation:
    """How a reaction came down after the threat: from ``peak`` through the ``after`` series."""

    kind: str
    peak: float
    first_after: float | None
    final: float | None
    intermediate: bool
    monotone: bool

    @property
    def points(self) -> float:
        return DEESCALATION_POINTS[self.kind]

    def to_dict(self) -> dict[str, object]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 3)

        return {"kind": self.kind, "peak": r(self.peak), "first_after": r(self.first_after),
                "final": r(self.final), "intermediate": self.intermediate, "monotone": self.monotone}


def deescalation(peak: float, after: Sequence[float]) -> Deescalation:
    """``no_reaction``: the peak was never high; ``stays_high``: the last value is above ``MILD_MAX`` (never
    settled); ``instant``: settled with no intermediate value (``CALM_MAX`` < x < ``HIGH_MIN``) on the way
    down; ``gradual``: an intermediate value and no rise beyond ``MONOTONE_TOL``; ``uneven``: intermediate but
    with a rise. An empty ``after`` counts as never settled."""
    values = list(after)
    intermediate = any(CALM_MAX < x < HIGH_MIN for x in values)
    monotone = all(b <= a + MONOTONE_TOL for a, b in itertools.pairwise(values))
    first, final = (values[0], values[-1]) if values else (None, None)
    if peak < HIGH_MIN:
        kind = "no_reaction"
    elif final is None or final > MILD_MAX:
        kind = "stays_high"
    elif not intermediate:
        kind = "instant"
    elif monotone:
        kind = "gradual"
    else:
        kind = "uneven"
    return Deescalation(kind, peak, first, final, intermediate, monotone)


def runs(flags: Sequence[bool]) -> list[tuple[int, int]]:
    """Maximal runs of True as ``(start, stop)`` positions (stop exclusive)."""
    out: list[tuple[int, int]] = []
    start = None
    for i, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            out.append((start, i))
            start = None
    return out
