"""Whole bench-mode suite wall time: ``run_suite`` over every bench scenario (reference brain, smpl, 2 workers).

Rows:

- **40 bench scenarios (C01-C08)**: ``run_suite("reference", "smpl", "C01,...,C08", seeds=1, workers=2,
  progress=False, measurers={})`` into a fresh temporary folder — episodes in 2 worker processes, scoring,
  ``scores.json``; ``measurers={}`` switches every non-bench measurement (C09 live, C10 transfer) off.
  Target <= 30 s wall.
- **45 = all but C09**: the same call with C10 selected too; its five scenarios run as ordinary bench
  episodes (reference brain, smpl) inside the same ``run_suite`` call, through a measurer that runs them
  in-process after the pool and scores them with the bench scorer (not the transfer measurement).
- **episodes/s**: 40 / wall seconds, for a per-episode view.

Wall time is what a user waits for, so it is measured on the wall clock (median over repeats; every repeat
starts worker processes from scratch). Run: ``.venv/bin/python -m benchmarks.bench_suite [--quick]``.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks.common import BenchRow, Target, Timing, run_script, spread_note

GROUP = "suite"
BENCH_SELECTION = "C01,C02,C03,C04,C05,C06,C07,C08"
TARGET_WALL_S = 30.0


class TransferAsBench:
    """A measurer that runs C10's scenarios as plain bench episodes (each seed) and scores the traces with
    the bench scorer (which reports C10 as not measured: the point is the episodes' cost). ``errors`` lists
    the episodes that failed."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.episodes = 0

    def __call__(self, scenarios: Sequence[Any], context: Any) -> Mapping[str, Sequence[Any]]:
        from wmbench.brain.registry import get_brain
        from wmbench.harness.run.episode import run_episode
        from wmbench.harness.run.scores import score_line

        brain = get_brain(context.brain, **dict(context.brain_options))
        scores: dict[str, list[Any]] = {}
        try:
            for record in scenarios:
                for seed in context.seeds:
                    result = run_episode(record.id, brain, context.body, seed, dict(context.env_kwargs),
                                         brain_label=context.brain)
                    self.episodes += 1
                    if result.error:
                        self.errors.append(f"{record.id}: {result.error.splitlines()[0]}")
                    line = {"scenario": record.id, "seed": seed, "trace": result.trace, "error": result.error}
                    scores.setdefault(record.id, []).append(score_line(line))
        finally:
            brain.close()
        return scores


def time_suite(selection: str, workers: int, measurers: Mapping[str, Any]) -> tuple[float, dict[str, Any]]:
    """Wall seconds of one ``run_suite`` call into a fresh folder, and its scores."""
    from wmbench.harness.suite import run_suite

    with tempfile.TemporaryDirectory(prefix="wmbench-bench-suite-") as tmp:
        start = time.perf_counter()
        scores = run_suite("reference", body="smpl", scenarios=selection, seeds=1, workers=workers,
                           out=Path(tmp) / "run", progress=False, measurers=measurers)
        return time.perf_counter() - start, scores


def measure(quick: bool, selection: str = BENCH_SELECTION, with_c10: bool = True, workers: int = 2,
            repeats: int | None = None) -> list[BenchRow]:
    from wmbench.scenarios import select

    repeats = repeats or (1 if quick else 3)
    n_bench = len(select(selection))
    target = Target("<=", TARGET_WALL_S)
    runs = [time_suite(selection, workers, {}) for _ in range(repeats)]
    walls = Timing(tuple(w for w, _ in runs))
    run_info = runs[-1][1].get("run", {})
    problems = (f"; {run_info.get('error_episodes')} episode errors"
                if run_info.get("error_episodes") else "")
    rows = [
        BenchRow(GROUP, f"{n_bench} bench scenarios, workers={workers}", walls.median, "s wall", target,
                 f"{spread_note(walls, unit='s')}; run_suite incl. worker start-up and scoring, "
                 f"live off{problems}"),
        BenchRow(GROUP, f"{n_bench} bench scenarios: episodes/s", n_bench / walls.median, "episodes/s",
                 note="from the median wall time above"),
    ]
    if with_c10:
        c10 = ",".join(s.id for s in select("C10"))
        measurer = TransferAsBench()
        runs45 = [time_suite(f"{selection},{c10}", workers, {"transfer": measurer}) for _ in range(repeats)]
        walls45 = Timing(tuple(w for w, _ in runs45))
        n45 = n_bench + len(select("C10"))
        failed = (f"; {len(measurer.errors)} C10 episode errors: {measurer.errors[0]}"
                  if measurer.errors else "")
        rows.append(BenchRow(
            GROUP, f"{n45} = all but C09, workers={workers}", walls45.median, "s wall", target,
            f"{spread_note(walls45, unit='s')}; C10's {len(select('C10'))} run as bench episodes in-process "
            f"after the pool; {walls45.median / walls.median:.2f}x the {n_bench}-scenario run{failed}"))
    return rows


if __name__ == "__main__":
    raise SystemExit(run_script(measure, __doc__.splitlines()[0]))
