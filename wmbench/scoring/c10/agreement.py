"""Cross-body agreement (C10): do the traces of the same decisions on different bodies move alike?

Card
----
Every function reads finished traces (records or their dicts); the replays themselves are
:func:`wmbench.harness.transfer.body_replay.replay_decisions`.

- :func:`direction_agreement`: per decision index reached by every body, the unit vector of each body's
  realized displacement *relative to its own heading at the decision's start*; agreement is the mean cosine
  over all body pairs (bodies that all stay put agree, 1; one moving while another stays put, 0). The mean
  over decisions is returned, in [-1, 1].
- :func:`speed_rank_agreement`: pairwise order agreement — for every pair of decisions and every pair of
  bodies, do both bodies order the two decisions' mean speeds the same way (faster / slower / about equal,
  "about equal" = within 10 % of that body's fastest decision)? The fraction of agreeing comparisons, in
  [0, 1]; envelopes differ between bodies, orderings should not.
- :func:`order_agreement` is that comparison for any values per source (each with its own tie width), and
  :func:`order_sign` the three-way comparison of two values it is built on.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from wmbench.core.thresholds import MOVED_DISTANCE_M

#: Two speeds of one body closer than this fraction of its top decision speed count as equal.
SPEED_TIE_FRACTION = 0.1


def _decisions(trace: Any) -> list[Any]:
    return list(trace.decisions if hasattr(trace, "decisions") else trace["decisions"])


def _field(record: Any, name: str) -> Any:
    return getattr(record, name) if hasattr(record, name) else record[name]


def _relative_move(record: Any) -> tuple[float, float] | None:
    """Unit displacement of one decision in the body's start frame (x ahead, y left), or None if it stayed."""
    before, after = _field(record, "body_before"), _field(record, "body_after")
    dx = after["position"][0] - before["position"][0]
    dy = after["position"][1] - before["position"][1]
    dist = math.hypot(dx, dy)
    if dist < MOVED_DISTANCE_M:
        return None
    h = before["heading"]
    c, s = math.cos(h), math.sin(h)
    return ((c * dx + s * dy) / dist, (-s * dx + c * dy) / dist)


def _common_length(traces_by_body: Mapping[str, Any]) -> int:
    if len(traces_by_body) < 2:
        raise ValueError(f"need traces of at least two bodies, got {sorted(traces_by_body)}")
    return min(len(_decisions(t)) for t in traces_by_body.values())


def direction_agreement(traces_by_body: Mapping[str, Any]) -> float:
    """Mean cosine between the bodies' realized displacement directions, per decision (see the card)."""
    n = _common_length(traces_by_body)
    if n == 0:
        return 1.0
    moves = {name: [_relative_move(r) for r in _decisions(t)[:n]] for name, t in traces_by_body.items()}
    scores = []
    for i in range(n):
        pair_scores = []
        for a, b in itertools.combinations(moves, 2):
            u, v = moves[a][i], moves[b][i]
            if u is None or v is None:
                pair_scores.append(1.0 if u is None and v is None else 0.0)
            else:
                pair_scores.append(u[0] * v[0] + u[1] * v[1])
        scores.append(sum(pair_scores) / len(pair_scores))
    return sum(scores) / n


def _speeds(trace: Any, n: int) -> list[float]:
    return [float(_field(r, "realized").get("mean_speed", 0.0)) for r in _decisions(trace)[:n]]


def order_sign(x: float, y: float, tie: float) -> int:
    """1 if ``x`` is above ``y``, -1 if below, 0 if they are within ``tie`` of each other."""
    return 0 if abs(x - y) <= tie else (1 if x > y else -1)


def order_agreement(values: Mapping[str, Sequence[float]], ties: Mapping[str, float]) -> float:
    """Fraction of (decision pair, source pair) comparisons ordered the same way by both sources; values of
    one source closer than ``ties[source]`` are tied. 1.0 when there is nothing to compare."""
    names = list(values)
    n = min((len(v) for v in values.values()), default=0)
    agree = total = 0
    for i, j in itertools.combinations(range(n), 2):
        for a, b in itertools.combinations(names, 2):
            total += 1
            first = order_sign(values[a][i], values[a][j], ties[a])
            agree += first == order_sign(values[b][i], values[b][j], ties[b])
    return agree / total if total else 1.0


def speed_rank_agreement(traces_by_body: Mapping[str, Any]) -> float:
    """Fraction of (decision pair, body pair) comparisons both bodies order alike (see the card)."""
    n = _common_length(traces_by_body)
    if n < 2:
        return 1.0
    speeds = {name: _speeds(t, n) for name, t in traces_by_body.items()}
    ties = {name: SPEED_TIE_FRACTION * max(max(v), 1e-9) for name, v in speeds.items()}
    return order_agreement(speeds, ties)
