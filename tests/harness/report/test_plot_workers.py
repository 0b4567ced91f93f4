"""Plot workers: real helper processes draw the same PNG bytes as this process, each plot once, and a worker
that is gone costs nothing but the time to draw that plot here."""

from __future__ import annotations

import pytest

from wmbench.core.taxonomy import PILLARS
from wmbench.harness.report import plots
from wmbench.harness.report.plot_workers import PlotWorkerError, PlotWorkers, collect

pytest.importorskip("matplotlib")

CATEGORIES = {"C01": {"score": 62.5, "max": 100.0, "measured": True, "ci95": [50.0, 70.0]},
              "C02": {"score": 0.0, "max": 100.0, "measured": False, "ci95": None}}
SERIES = {"C05": {"S22": [(0.5, 0.2), (1.0, 0.6)]}, "C07": {}}


def test_workers_draw_the_bytes_this_process_draws_once_per_plot():
    with PlotWorkers(2) as workers:
        bars = workers.submit("category_bars", CATEGORIES, dict(PILLARS))
        intensity = workers.submit("intensity_over_time", SERIES)
        nothing = workers.submit("horizon_curve", {}, {})
        assert workers.submit("category_bars", CATEGORIES, dict(PILLARS)) is bars  # the same data: drawn once
        assert workers.submitted == 3
        assert bars.result(timeout=120) == plots.category_bars(CATEGORIES, PILLARS)
        assert intensity.result(timeout=120) == plots.intensity_over_time(SERIES)
        assert nothing.result(timeout=120) is None
        with pytest.raises(ValueError, match="expected one of"):
            workers.submit("savefig", CATEGORIES)


def test_a_dead_worker_fails_its_plot_and_collect_draws_it_here():
    with PlotWorkers(1) as workers:
        assert workers.submit("horizon_curve", {}, {}).result(timeout=120) is None  # started
        [proc] = workers._procs
        proc.kill()
        proc.wait(timeout=10)
        future = workers.submit("category_bars", CATEGORIES, dict(PILLARS))
        with pytest.raises(PlotWorkerError, match="gone"):
            future.result(timeout=120)
        assert collect(future, "category_bars", CATEGORIES, dict(PILLARS)) == plots.category_bars(CATEGORIES, PILLARS)
        later = workers.submit("intensity_over_time", SERIES)  # the worker is not restarted: every plot fails over
        with pytest.raises(PlotWorkerError):
            later.result(timeout=120)


def test_a_plot_that_fails_in_a_worker_fails_here_too_and_closed_workers_draw_nothing():
    workers = PlotWorkers(1)
    try:
        broken = workers.submit("category_bars", {"C01": {"score": "x", "measured": True}}, {})
        with pytest.raises(PlotWorkerError, match="TypeError"):
            broken.result(timeout=120)
        with pytest.raises(TypeError):  # drawn here, it raises what it raised before the workers existed
            collect(broken, "category_bars", {"C01": {"score": "x", "measured": True}}, {})
    finally:
        workers.close()
    late = workers.submit("intensity_over_time", SERIES)
    with pytest.raises(PlotWorkerError, match="closed"):
        late.result(timeout=1)
    workers.close()  # idempotent
