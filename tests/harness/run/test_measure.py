"""Measurers by decorator: one per non-bench run mode, each category's mode covered, mistakes one clear line."""

from __future__ import annotations

import pytest

from wmbench.core.errors import RunError
from wmbench.core.registry import Registry
from wmbench.harness import suite
from wmbench.harness.live.c09 import measure_live
from wmbench.harness.run import measure
from wmbench.harness.run.measure import MeasurerRegistrationError, measurer, registered_measurers
from wmbench.harness.transfer.measure import measure_transfer
from wmbench.scoring.registry import measured_modes


def _stand_in(scenarios, context):  # pragma: no cover - never called
    return {}


def test_every_measured_category_has_its_mode_registered() -> None:
    table = registered_measurers()
    assert table == {"live": measure_live, "transfer": measure_transfer}
    assert set(measured_modes().values()) <= set(table)
    assert suite.default_measurers() == table


def test_a_second_measurer_for_a_mode_is_a_clear_error() -> None:
    with pytest.raises(MeasurerRegistrationError,
                       match=r"'live' has two measurers: wmbench\.harness\.live\.c09 and tests\.harness"):
        measurer("live")(_stand_in)
    assert registered_measurers()["live"] is measure_live


def test_a_bench_measurer_is_refused() -> None:
    with pytest.raises(MeasurerRegistrationError, match="registers a 'bench' measurer"):
        measurer("bench")(_stand_in)


def test_a_measured_mode_without_a_measurer_is_an_error_naming_the_category(monkeypatch) -> None:
    # as if harness/transfer/measure.py had not been imported: C10's mode has no measurer
    partial: Registry[measure.Measurer] = Registry("measurer")
    partial.register("live", measure_live)
    monkeypatch.setattr(measure, "_MEASURERS", partial)
    with pytest.raises(RunError, match=r"got none for: C10 needs 'transfer'"):
        registered_measurers()
