"""Timing helpers shared by the benchmark scripts: medians over repeats, CPU vs wall time, RSS, ratios.

Rules the scripts follow (the machine is shared and noisy):
- every number is the **median** over repeats (the spread is printed in the note);
- a comparison is a **ratio of two medians measured in the same run**, interleaved, never against a number
  remembered from another run;
- throughput "per core" is divided by the process's **CPU time** (``time.process_time``), which a busy
  neighbour slows far less than the wall clock; wall-clock numbers are given beside it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # `python benchmarks/bench_x.py` as well as `python -m benchmarks.bench_x`
    sys.path.insert(0, str(REPO_ROOT))

from wmbench.harness.cli.bench import BenchRow, Target, format_rows  # noqa: E402

__all__ = ["REPO_ROOT", "BenchRow", "Lap", "Target", "Timing", "lap", "median_of", "ratio", "rss_bytes",
           "run_script", "spread_note", "time_repeats"]


@dataclass(frozen=True)
class Lap:
    """One timed run: wall seconds and process CPU seconds (all threads of this process)."""

    wall_s: float
    cpu_s: float


@dataclass(frozen=True)
class Timing:
    """Samples of one measurement (seconds, or any unit) and their median / spread."""

    samples: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def low(self) -> float:
        return min(self.samples)

    @property
    def high(self) -> float:
        return max(self.samples)

    def __len__(self) -> int:
        return len(self.samples)


_Result = TypeVar("_Result")


def lap(fn: Callable[[], _Result]) -> tuple[Lap, _Result]:
    """Run ``fn`` once; its wall and CPU time, and what it returned."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    result = fn()
    return Lap(time.perf_counter() - wall0, time.process_time() - cpu0), result


def time_repeats(fn: Callable[[], object], repeats: int, warmup: int = 1,
                 clock: Callable[[], float] = time.perf_counter) -> Timing:
    """Median-ready samples of ``fn``'s duration on ``clock`` after ``warmup`` untimed calls."""
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        start = clock()
        fn()
        samples.append(clock() - start)
    return Timing(tuple(samples))


def median_of(values: Iterable[float]) -> float:
    values = list(values)
    if not values:
        raise ValueError("median of no values")
    return statistics.median(values)


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``; inf for a zero denominator (never a ZeroDivisionError in a report)."""
    return numerator / denominator if denominator else float("inf")


def spread_note(timing: Timing, scale: float = 1.0, unit: str = "") -> str:
    """``"median of 5 (min 1.2, max 1.4 ms)"`` for a row's note."""
    if len(timing) == 1:
        return "1 sample"
    return (f"median of {len(timing)} (min {timing.low * scale:.3g}, max {timing.high * scale:.3g}"
            f"{' ' + unit if unit else ''})")


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_bytes() -> int:
    """Resident set size of this process now (``/proc/self/statm``; peak RSS where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(peak * (1 if sys.platform == "darwin" else 1024))


def run_script(measure: Callable[..., list[BenchRow]], description: str) -> int:
    """``main()`` of a benchmark script: ``--quick``, print the table, exit 1 if a row errored."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="smaller workload, fewer repeats")
    args = parser.parse_args()
    rows = measure(args.quick)
    print(format_rows(rows))
    return 1 if any(r.status == "error" for r in rows) else 0
