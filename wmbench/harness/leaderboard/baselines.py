"""Baseline rows for the leaderboard: the entries of :mod:`wmbench.harness.report.baselines` as rows.

PROMETHEUS v1.0 (self-reported, from the spec) and the measured rows shipped with wmbench; they carry no
instance sets, so they are placed on the board, never paired (``wmbench compare`` takes run directories).
"""

from __future__ import annotations

from wmbench.harness.leaderboard.board import LeaderboardRow
from wmbench.harness.report.baselines import BaselineEntry, all_entries, measured_entries, prometheus_entry


def as_row(base: BaselineEntry) -> LeaderboardRow:
    name = str(base.entry["model_name"])
    return LeaderboardRow(name=name if base.kind == "self-reported" else f"{name} (baseline)", source=base.source,
                          kind=base.kind, entry=base.entry, ci95=base.ci95, embodiment=base.embodiment,
                          note=base.note)


def prometheus_row() -> LeaderboardRow:
    return as_row(prometheus_entry())


def measured_baselines() -> list[LeaderboardRow]:
    return [as_row(b) for b in measured_entries()]


def all_baselines() -> list[LeaderboardRow]:
    return [as_row(b) for b in all_entries()]
