"""The suite's C10 measurer plays the first two test seeds only (fixed layouts: the cost of the main job)."""

from __future__ import annotations

from pathlib import Path

from wmbench.harness.run.measure import MeasureContext
from wmbench.harness.transfer import measure
from wmbench.scenarios import get_scenario


def test_measure_transfer_takes_the_first_two_test_seeds(monkeypatch):
    seen = []
    monkeypatch.setattr(measure, "measure_c10", lambda brain, seeds, **kw: seen.append(tuple(seeds)) or {})
    context = MeasureContext("reference", {}, "smpl", (11, 12, 13, 14), 1, Path("."), False)
    measure.measure_transfer([get_scenario("S46")], context)
    assert seen == [(11, 12)] and measure.TRANSFER_SEEDS == 2
