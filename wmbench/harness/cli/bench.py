"""``wmbench bench``: performance benchmarks with targets, one table row per measured number.

Card
----
- **What runs.** The scripts in the source checkout's ``benchmarks/`` folder (one module per concern:
  bodies, suite, live, brain plumbing, memory). Each exposes ``measure(quick: bool) -> list[BenchRow]``;
  :func:`run_benchmarks` runs them in that order and collects the rows. The scripts ship with the
  repository, not the wheel: an installed package without the folder gets one skipped row saying so.
- **Rows.** A :class:`BenchRow` holds a median over repeats (or a ratio taken in the same run), its unit, an
  optional :class:`Target` and a note on how it was measured. A row that could not be measured (a piece not
  built yet, an optional dependency missing) is *skipped* with the reason; a benchmark that crashed gives an
  *error* row — neither stops the others.
- **Status.** ``ok`` (target met), ``MISS`` (target missed), ``info`` (no target), ``skipped``, ``error``.
- **Exit code** of the subcommand: 0 when every target is met; 1 when a benchmark errored or a target was
  missed (``MISS``), so a script or CI job notices. ``--allow-miss`` keeps missed targets report-only (for a
  busy shared machine, where timings are noisy); errors still exit 1.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import wmbench
from wmbench.harness.cli.motion_model_option import add_motion_model_argument, apply_motion_model

#: The benchmark modules of ``benchmarks/`` by short name (their rows' group), in the order they run.
BENCHMARKS: dict[str, str] = {
    "bodies": "bench_bodies", "suite": "bench_suite", "live": "bench_live", "brain": "bench_brain_plumbing",
    "memory": "bench_memory", "motion": "bench_motion", "render": "bench_render",
    "floor": "bench_floor",
}
BENCH_MODULES: tuple[str, ...] = tuple(BENCHMARKS.values())
_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": lambda v, b: v >= b, "<=": lambda v, b: v <= b, "<": lambda v, b: v < b, ">": lambda v, b: v > b,
}


@dataclass(frozen=True)
class Target:
    """A bound a measured value must meet, e.g. ``Target(">=", 3000)``."""

    op: str
    bound: float

    def __post_init__(self) -> None:
        if self.op not in _OPS:
            raise ValueError(f"Target op must be one of {sorted(_OPS)}, got {self.op!r}")

    def met_by(self, value: float) -> bool:
        return _OPS[self.op](value, self.bound)

    def shortfall(self, value: float) -> float:
        """How far ``value`` is from the bound as a fraction of the bound (0 when met)."""
        if self.met_by(value) or self.bound == 0:
            return 0.0
        return abs(value - self.bound) / abs(self.bound)

    def __str__(self) -> str:
        return f"{self.op} {_fmt(self.bound)}"


@dataclass(frozen=True)
class BenchRow:
    """One measured number (see the module card). ``value`` is None exactly when skipped or errored."""

    group: str
    name: str
    value: float | None
    unit: str
    target: Target | None = None
    note: str = ""
    skipped: str | None = None
    error: str | None = None

    @property
    def met(self) -> bool | None:
        """True/False against the target; None without a target or a value."""
        if self.target is None or self.value is None or not math.isfinite(self.value):
            return None
        return self.target.met_by(self.value)

    @property
    def status(self) -> str:
        if self.error is not None:
            return "error"
        if self.skipped is not None:
            return "skipped"
        met = self.met
        return "info" if met is None else ("ok" if met else "MISS")

    @classmethod
    def skip(cls, group: str, name: str, unit: str, why: str, target: Target | None = None) -> BenchRow:
        return cls(group, name, None, unit, target, skipped=why)

    def to_dict(self) -> dict[str, object]:
        return {"group": self.group, "name": self.name, "value": self.value, "unit": self.unit,
                "target": None if self.target is None else str(self.target), "status": self.status,
                "note": self.note, "skipped": self.skipped, "error": self.error}


def benchmarks_dir() -> Path:
    """The source checkout's ``benchmarks/`` folder (next to the ``wmbench`` package)."""
    return Path(wmbench.__file__).resolve().parent.parent / "benchmarks"


def load_bench_module(name: str):  # -> module
    """Import ``benchmarks.<name>`` from the source checkout (adds the checkout root to ``sys.path``)."""
    root = str(benchmarks_dir().parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    return importlib.import_module(f"benchmarks.{name}")


def run_benchmarks(quick: bool, only: Sequence[str] | None = None,
                   on_rows: Callable[[list[BenchRow]], None] | None = None) -> list[BenchRow]:
    """Run the benchmark modules (all, or those named in ``only``: short names such as ``bodies`` or module
    names such as ``bench_bodies``) and return their rows in order.

    ``on_rows`` is called with each module's rows as soon as they are ready (the CLI prints them).
    """
    wanted = [BENCHMARKS.get(n.strip(), n.strip()) for n in (only or ())]
    unknown = [n for n in wanted if n not in BENCH_MODULES]
    if unknown:
        raise ValueError(f"unknown benchmark(s) {', '.join(unknown)}; expected some of {', '.join(BENCHMARKS)}")
    names = tuple(m for m in BENCH_MODULES if m in wanted) if wanted else BENCH_MODULES
    if not (benchmarks_dir() / "common.py").is_file():
        missing = [BenchRow.skip("all", "benchmarks", "", f"{benchmarks_dir()} not found: `wmbench bench` "
                                 "runs from a source checkout of wmbench (the scripts are not in the wheel)")]
        if on_rows:
            on_rows(missing)
        return missing
    rows: list[BenchRow] = []
    groups = {module: short for short, module in BENCHMARKS.items()}
    for name in names:
        group = groups[name]
        try:
            module_rows = list(load_bench_module(name).measure(quick))
        except Exception as exc:  # one broken benchmark must not hide the others
            frames = traceback.format_tb(exc.__traceback__)[-2:]
            module_rows = [BenchRow(group, name, None, "", error=f"{type(exc).__name__}: {exc} "
                                    f"({''.join(frames).strip().splitlines()[0].strip()})")]
        rows += module_rows
        if on_rows:
            on_rows(module_rows)
    return rows


# ------------------------------------------------------------------------------------------------ printing

_HEADER = ("group", "metric", "value", "unit", "target", "status", "note")


def format_rows(rows: Sequence[BenchRow], header: bool = True) -> str:
    """The rows as an aligned plain-text table (what ``wmbench bench`` prints)."""
    table = [_cells(r) for r in rows]
    widths = [max([len(h)] + [len(c[i]) for c in table]) for i, h in enumerate(_HEADER[:-1])]
    lines = []
    if header:
        lines.append("  ".join(h.ljust(w) for h, w in zip(_HEADER, widths)) + "  note")
        lines.append("  ".join("-" * w for w in widths) + "  ----")
    for cells in table:
        lines.append("  ".join(c.rjust(w) if i == 2 else c.ljust(w)
                               for i, (c, w) in enumerate(zip(cells, widths))) + "  " + cells[-1])
    return "\n".join(lines)


def format_markdown(rows: Sequence[BenchRow]) -> str:
    """The rows as a Markdown table (for ``benchmarks/README.md``)."""
    lines = ["| " + " | ".join(_HEADER) + " |", "|" + "---|" * len(_HEADER)]
    for cells in (_cells(r) for r in rows):
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)


def _cells(row: BenchRow) -> tuple[str, ...]:
    value = "-" if row.value is None else _fmt(row.value)
    note = row.note
    if row.skipped is not None:
        note = f"skipped: {row.skipped}"
    elif row.error is not None:
        note = f"error: {row.error}"
    elif row.met is False and row.target is not None and row.value is not None:
        note = f"misses by {100 * row.target.shortfall(row.value):.0f}%" + (f"; {note}" if note else "")
    target = "" if row.target is None else str(row.target)
    return (row.group, row.name, value, row.unit, target, row.status, note)


def _fmt(value: float) -> str:
    if not math.isfinite(value):
        return str(value)
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 0.1 or value == 0:
        return f"{value:.2f}"
    return f"{value:.3g}"


# ----------------------------------------------------------------------------------------------- the command


def configure_bench(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quick", action="store_true",
                   help="smaller workloads and fewer repeats (about a minute instead of several)")
    p.add_argument("--only", default=None, help=f"comma-separated subset of: {', '.join(BENCHMARKS)}")
    p.add_argument("--markdown", action="store_true", help="also print the table as Markdown at the end")
    p.add_argument("--allow-miss", action="store_true",
                   help="exit 0 even when a target is missed (errors still exit 1)")

    add_motion_model_argument(p)


def bench_command(args: argparse.Namespace) -> int:
    """``wmbench bench [--quick] [--only bodies,suite] [--markdown]``: run, print; 1 on an error or a miss."""
    apply_motion_model(args)
    only = [n for n in args.only.split(",") if n.strip()] if args.only else None
    started = time.perf_counter()
    printed = [False]

    def show(rows: list[BenchRow]) -> None:
        print(format_rows(rows, header=not printed[0]), flush=True)
        printed[0] = True

    try:
        rows = run_benchmarks(bool(args.quick), only, on_rows=show)
    except ValueError as err:
        print(f"wmbench bench: error: {err}", file=sys.stderr)
        return 2
    counts = {status: sum(r.status == status for r in rows) for status in ("MISS", "skipped", "error")}
    mode = "quick" if args.quick else "full"
    print(f"\n{len(rows)} rows in {time.perf_counter() - started:.0f} s ({mode}); {counts['MISS']} missed, "
          f"{counts['skipped']} skipped, {counts['error']} errors")
    if args.markdown:
        print("\n" + format_markdown(rows))
    missed = counts["MISS"] and not getattr(args, "allow_miss", False)
    return 1 if counts["error"] or missed else 0
