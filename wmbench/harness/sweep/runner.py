"""Running a sweep: each cell a run directory, resumable at cell and episode level, one merged leaderboard.

::

    result = run_sweep(read_sweep("examples/sweep.toml"), yes=False)

Card
----
- **Size first.** :func:`run_sweep` estimates the sweep (:mod:`~wmbench.harness.sweep.estimate`) and refuses
  one above :data:`~wmbench.harness.sweep.estimate.MAX_EPISODES_WITHOUT_YES` episodes unless ``yes``
  (:class:`SweepTooLarge`, before anything is written).
- **Cells.** Each cell runs :func:`~wmbench.harness.suite.run_suite` into ``<out>/<cell.name>`` with the
  sweep's executor (one executor for the whole sweep: one Ray instance, one process-pool policy), its motion
  model selected for the cell and put back afterwards. A finished cell writes ``cell.json`` with its
  fingerprint (everything that decides its episodes and scores); a rerun skips a cell whose ``cell.json``
  matches and resumes any other from its ``episodes.jsonl`` — a killed sweep does only what is missing.
- **A cell that stops** (a broken endpoint: :class:`~wmbench.harness.run.guard.RunStopped`) is recorded as
  stopped and the sweep goes on with the next cell; :attr:`SweepResult.stopped` lists them.
- **Merged leaderboard.** ``sweep_leaderboard.json`` and ``sweep_leaderboard.md`` in ``<out>``: one row per
  cell (brain, body, observation, motion model, WM Score, grade, each category), best first, read from the
  cells' ``scores.json``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from wmbench.body.motion.registry import MOTION_MODEL_ENV, select_generator
from wmbench.core.errors import ConfigError
from wmbench.core.taxonomy import CATEGORY_TITLES
from wmbench.harness.executors.base import Executor
from wmbench.harness.executors.registry import make_executor
from wmbench.harness.run.guard import RunStopped
from wmbench.harness.run.results import SCORES_FILE, read_json, read_scores, write_json, write_text_atomic
from wmbench.harness.suite import default_measurers, run_suite
from wmbench.harness.sweep.estimate import MAX_EPISODES_WITHOUT_YES, SweepEstimate, estimate_sweep
from wmbench.harness.sweep.model import Cell, SweepSpec

CELL_FILE = "cell.json"
SWEEP_FILE = "sweep.json"
LEADERBOARD_JSON = "sweep_leaderboard.json"
LEADERBOARD_MD = "sweep_leaderboard.md"


class SweepTooLarge(ConfigError):
    """The sweep is larger than the bound and ``--yes`` was not given."""


class LeaderboardRow(TypedDict):
    """One cell's line of the merged leaderboard."""

    cell: str
    brain: str
    body: str
    observation: str
    motion_model: str
    wm_score: float | None
    grade: str | None
    #: the pace the cell's bench scenes were played at (``scores.json``'s ``run.pace``; None on the character)
    pace: float | None
    complete: bool
    stopped: str | None
    categories: dict[str, float | None]


@dataclass(frozen=True)
class SweepResult:
    """What a sweep did: its estimate, the cells run now and skipped as finished, the stopped ones, and the
    merged leaderboard rows (best first)."""

    estimate: SweepEstimate
    ran: tuple[str, ...]
    skipped: tuple[str, ...]
    stopped: tuple[str, ...]
    rows: tuple[LeaderboardRow, ...]
    out: Path


def cell_fingerprint(spec: SweepSpec, cell: Cell) -> dict[str, Any]:
    """Everything that decides a cell's episodes and scores (executor, workers and paths excluded)."""
    return {"brain": cell.brain.spec, "brain_options": dict(cell.brain.options), "body": cell.body,
            "observation": cell.observation, "motion_model": cell.motion_model, "scenarios": spec.scenarios,
            "seeds": list(spec.seeds) if spec.seeds is not None else None, "instances": spec.instances,
            "live": spec.live, **({"unpaced": True} if spec.unpaced else {})}


def run_sweep(spec: SweepSpec, *, yes: bool = False, progress: bool = True, executor: Executor | None = None,
              say: Callable[[str], None] = print) -> SweepResult:
    """Run (or resume) the sweep ``spec`` (see the module card). ``executor`` overrides the file's."""
    try:
        estimate = estimate_sweep(spec)
    except ValueError as err:
        raise ConfigError(f"sweep {spec.name!r}: {err}") from None
    say(f"sweep {spec.name}: {estimate.describe()}")
    if estimate.needs_yes and not yes:
        raise SweepTooLarge(f"sweep {spec.name!r} has {estimate.episodes:,} episodes, more than "
                            f"{MAX_EPISODES_WITHOUT_YES:,}; pass --yes to run it")
    out = Path(spec.out)
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / SWEEP_FILE, {"name": spec.name, "cells": [c.name for c in spec.cells()],
                                  "executor": spec.executor})
    own = executor is None
    runner = executor if executor is not None else _executor(spec)
    ran: list[str] = []
    skipped: list[str] = []
    stopped: dict[str, str] = {}
    selected = os.environ.get(MOTION_MODEL_ENV)
    try:
        for cell in spec.cells():
            cell_dir = out / cell.name
            fingerprint = cell_fingerprint(spec, cell)
            if _finished(cell_dir, fingerprint):
                skipped.append(cell.name)
                continue
            say(f"cell {cell.name}")
            select_generator(cell.motion_model)
            try:
                run_suite(cell.brain.spec, cell.body, spec.scenarios, spec.seed_arg(), spec.workers, cell_dir,
                          brain_options=cell.brain.options, progress=progress, env_kwargs=cell.env_kwargs,
                          measurers=default_measurers(spec.live), live=spec.live,
                          max_connections=spec.max_connections, executor=runner)
            except RunStopped as stop:
                stopped[cell.name] = stop.reason
                say(f"cell {cell.name} stopped: {stop.reason}")
                continue
            write_json(cell_dir / CELL_FILE, {"cell": cell.name, "fingerprint": fingerprint})
            ran.append(cell.name)
    finally:
        if selected is None:
            os.environ.pop(MOTION_MODEL_ENV, None)
        else:
            os.environ[MOTION_MODEL_ENV] = selected
        if own:
            runner.close()
    rows = merged_leaderboard(spec, stopped)
    write_leaderboard(out, spec.name, rows)
    return SweepResult(estimate, tuple(ran), tuple(skipped), tuple(stopped), tuple(rows), out)


def _executor(spec: SweepSpec) -> Executor:
    options: dict[str, Any] = {}
    if spec.executor == "ray":
        options["address"] = spec.ray_address
        options["num_cpus"] = spec.workers
    return make_executor(spec.executor, **options)


def _finished(cell_dir: Path, fingerprint: Mapping[str, Any]) -> bool:
    """True when ``cell_dir`` holds a finished cell of this fingerprint (and its scores)."""
    path = cell_dir / CELL_FILE
    if not path.is_file() or not (cell_dir / SCORES_FILE).is_file():
        return False
    try:
        return bool(read_json(path).get("fingerprint") == json.loads(json.dumps(fingerprint)))
    except (OSError, ValueError, AttributeError):
        return False


def merged_leaderboard(spec: SweepSpec, stopped: Mapping[str, str] | None = None) -> list[LeaderboardRow]:
    """One row per cell from its ``scores.json`` (a cell without one has no score), best WM Score first."""
    rows: list[LeaderboardRow] = []
    for cell in spec.cells():
        row = LeaderboardRow(cell=cell.name, brain=cell.brain.label or cell.brain.spec, body=cell.body,
                             observation=cell.observation, motion_model=cell.motion_model, wm_score=None,
                             grade=None, pace=None, complete=False, stopped=(stopped or {}).get(cell.name),
                             categories={})
        try:
            scores = read_scores(Path(spec.out) / cell.name)
        except (OSError, ValueError):
            rows.append(row)
            continue
        row["wm_score"] = scores.get("wm_score")
        row["grade"] = scores.get("grade")
        row["pace"] = scores["run"].get("pace") if "run" in scores else None
        row["complete"] = bool(scores.get("complete", True)) and row["stopped"] is None
        row["categories"] = {cat: (entry["score"] if entry["measured"] or entry["measured_max"] else None)
                             for cat, entry in scores["categories"].items()}
        rows.append(row)
    rows.sort(key=lambda r: (r["wm_score"] is None, -(r["wm_score"] or 0.0), r["cell"]))
    return rows


def write_leaderboard(out: Path, name: str, rows: list[LeaderboardRow]) -> None:
    """``sweep_leaderboard.json`` and ``sweep_leaderboard.md`` in ``out``."""
    write_json(out / LEADERBOARD_JSON, {"sweep": name, "rows": rows})
    categories = [c for c in CATEGORY_TITLES if any(c in r["categories"] for r in rows)]
    head = ["cell", "brain", "body", "observation", "motion model", "WM Score", "grade", *categories]
    lines = [f"# Sweep {name}: merged leaderboard", "", "| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    for r in rows:
        score = "-" if r["wm_score"] is None else f"{r['wm_score']:.1f}"
        grade = (r["grade"] or "-") + (" (stopped)" if r["stopped"] else "")
        cats = ["-" if r["categories"].get(c) is None else f"{r['categories'][c]:.1f}" for c in categories]
        body = r["body"] if r["pace"] is None else f"{r['body']} ({_pace_text(r['pace'])})"
        lines.append("| " + " | ".join([r["cell"], r["brain"], body, r["observation"], r["motion_model"],
                                        score, grade, *cats]) + " |")
    write_text_atomic(out / LEADERBOARD_MD, "\n".join(lines) + "\n")


def _pace_text(pace: float) -> str:
    """How a cell's pace reads in the Markdown leaderboard (1.0 on a slow body: the unpaced diagnostic)."""
    return f"pace {pace:.2f}" if pace < 1.0 else "unpaced"
