"""Intensity patterns: gradient, de-escalation, runs — every branch and its boundary."""

from __future__ import annotations

import pytest

from wmbench.scoring.patterns import deescalation, gradient, runs
from wmbench.scoring.thresholds import CALM_MAX, HIGH_MIN, MILD_MAX, RISE_MIN


@pytest.mark.parametrize(("series", "kind"), [
    ([0.8, 0.8, 0.9, 0.9, 0.95, 0.95], "increasing"),
    ([0.9] * 6, "stable_high"),
    ([0.9, 0.9, 0.7, 0.6, 0.5, 0.4], "decreasing"),
    ([0.2, 0.2, 0.25, 0.2, 0.2, 0.2], "flat_low"),
    ([0.1, 0.1, 0.3, 0.3, 0.45, 0.45], "flat_low"),          # rising but never high
])
def test_gradient_kinds(series, kind) -> None:
    assert gradient(series).kind == kind


def test_gradient_rise_boundary() -> None:
    start = 0.8
    assert gradient([start, start, start + RISE_MIN]).kind == "increasing"
    assert gradient([start, start, start + RISE_MIN - 0.001]).kind == "stable_high"


def test_gradient_words_can_escalate_while_the_body_sprints() -> None:
    combined = [0.90, 0.91, 0.92, 0.93, 0.94, 0.94]            # combined rise below RISE_MIN
    keyword = [0.8, 0.82, 0.85, 0.88, 0.9, 0.9]
    body = [1.0] * 6
    assert gradient(combined).kind == "stable_high"
    assert gradient(combined, keyword, body).kind == "increasing"
    falling_body = [1.0, 1.0, 1.0, 0.9, 0.9, 0.9]
    assert gradient(combined, keyword, falling_body).kind == "stable_high"


@pytest.mark.parametrize(("peak", "after", "kind"), [
    (0.9, [0.45, 0.33, 0.3, 0.2], "gradual"),
    (0.9, [0.45, 0.2, 0.4, 0.2], "uneven"),
    (0.9, [0.1, 0.1, 0.1], "instant"),
    (0.9, [0.9, 0.1], "instant"),                              # high straight to calm: no intermediate step
    (0.9, [0.9, 0.8, 0.7], "stays_high"),
    (0.9, [], "stays_high"),
    (0.3, [0.3, 0.2], "no_reaction"),
])
def test_deescalation_kinds(peak, after, kind) -> None:
    assert deescalation(peak, after).kind == kind


def test_deescalation_boundaries() -> None:
    assert deescalation(HIGH_MIN, [MILD_MAX]).kind == "gradual"      # MILD_MAX settles and is intermediate
    assert deescalation(HIGH_MIN - 0.001, [0.3]).kind == "no_reaction"
    assert deescalation(0.9, [0.4, MILD_MAX + 0.001]).kind == "stays_high"
    assert deescalation(0.9, [CALM_MAX]).kind == "instant"                   # CALM_MAX is not intermediate


def test_runs() -> None:
    assert runs([False, True, True, False, True]) == [(1, 3), (4, 5)]
    assert runs([]) == [] and runs([False]) == []
