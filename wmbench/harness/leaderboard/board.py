"""A ranked, multi-entry leaderboard over run directories (plus baseline rows), per embodiment.

Card
----
``build_leaderboard(run_dirs) -> Leaderboard`` (reusable: ``wmbench leaderboard`` and sweeps call it):

- each run directory becomes a :class:`LeaderboardRow` (its leaderboard entry, rebuilt from its files with
  :func:`~wmbench.harness.report.leaderboard.leaderboard_entry`, its WM Score CI from ``scores.json``, and its
  *instance set*: every (scenario, seed) it was scored on, read from ``scores.json``'s per-seed results);
- rows are ranked by WM Score (ties share a rank) inside each *embodiment* — (body, observation mode, motion
  model) — and every embodiment gets its own table (after WM4VLA's per-embodiment reporting);
- runs scored on different scenario or instance sets are refused (:class:`LeaderboardError`, naming the runs and
  what differs) unless ``allow_mixed``: then the board says so in ``notes`` and in every rendering;
- baseline rows (:mod:`wmbench.harness.leaderboard.baselines`) are *placed* in the table of their embodiment
  (in WM Score order) but get no rank: they were not scored on the runs' instances (self-reported ones are
  marked and say where their numbers come from). Only run rows are numbered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wmbench.core.errors import ConfigError
from wmbench.harness.official.static_run import STATIC_FILE, static_entry
from wmbench.harness.report.leaderboard import leaderboard_entry
from wmbench.harness.report.writer import load_run
from wmbench.harness.run.results import read_json

Instance = tuple[str, int]


class LeaderboardError(ConfigError):
    """Runs that cannot be ranked together (different scenario or instance sets), or an unreadable run."""


@dataclass(frozen=True)
class LeaderboardRow:
    """One entry on the board: its leaderboard entry and what it was measured on."""

    name: str
    source: str                       # run directory, or the baseline's origin
    kind: str                         # "measured" | "self-reported"
    entry: Mapping[str, Any]
    ci95: tuple[float, float] | None
    embodiment: str
    instances: frozenset[Instance] = frozenset()
    note: str = ""

    @property
    def wm_score(self) -> int:
        return int(self.entry["wm_score"])

    @property
    def scenario_set(self) -> frozenset[str]:
        return frozenset(s for s, _ in self.instances)


@dataclass(frozen=True)
class RankedRow:
    """A row in its table: its rank among the run rows, or None for a placed (unranked) baseline."""

    rank: int | None
    row: LeaderboardRow


@dataclass(frozen=True)
class Leaderboard:
    """Tables by embodiment (each ranked), and notes (mixed instance sets, etc.)."""

    tables: Mapping[str, tuple[RankedRow, ...]]
    notes: tuple[str, ...] = field(default=())

    @property
    def rows(self) -> tuple[RankedRow, ...]:
        return tuple(r for table in self.tables.values() for r in table)


def embodiment_of(body: str, observation: str, motion_model: str) -> str:
    return f"body={body} · observation={observation} · motion={motion_model}"


#: the embodiment of a static Track-A run (text only: no body, no motion model)
STATIC_EMBODIMENT = "Track A static (text only: no body, no motion model)"


def row_from_run(run_dir: Path | str, name: str | None = None) -> LeaderboardRow:
    """A measured row from a run directory: a harness run, or a static Track-A run (``--track A``), whose
    instances are its records (``(id, 0)``) and whose embodiment is :data:`STATIC_EMBODIMENT`."""
    run_dir = Path(run_dir)
    if (run_dir / STATIC_FILE).is_file() and not (run_dir / "scores.json").is_file():
        return _row_from_static(run_dir, name)
    run = load_run(run_dir)
    if run.scores is None:
        raise LeaderboardError(f"{run_dir}: expected a run directory with a readable scores.json, got none")
    scores = run.scores
    entry = leaderboard_entry(scores, brain=run.brain, body=run.body, live=run.live,
                              motion_model=run.config.get("motion_model"), model_name=name)
    observation = str((run.config.get("env_kwargs") or {}).get("observation", "scene"))
    motion = str(run.config.get("motion_model") or "procedural")
    ci = scores["ci"]["wm_score"]
    instances = frozenset((sid, int(s["seed"])) for sid, e in scores["scenarios"].items()
                          for s in e["per_seed"] if s["seed"] is not None)
    return LeaderboardRow(name=name or run.brain, source=str(run_dir), kind="measured", entry=entry,
                          ci95=(float(ci[0]), float(ci[1])) if ci else None,
                          embodiment=embodiment_of(run.body, observation, motion), instances=instances)


def _row_from_static(run_dir: Path, name: str | None) -> LeaderboardRow:
    try:
        result = read_json(run_dir / STATIC_FILE)
    except (OSError, ValueError) as err:
        raise LeaderboardError(f"{run_dir}/{STATIC_FILE}: expected a static Track-A result, got {err}") from None
    model = name or str(result["brain"])
    return LeaderboardRow(name=model, source=str(run_dir), kind="measured", entry=static_entry(result, model),
                          ci95=None, embodiment=STATIC_EMBODIMENT,
                          instances=frozenset((str(r["id"]), 0) for r in result["records"]))


def build_leaderboard(run_dirs: Iterable[Path | str], *, baselines: Sequence[LeaderboardRow] = (),
                      allow_mixed: bool = False, names: Mapping[str, str] | None = None) -> Leaderboard:
    """Rank the runs (and baseline rows) per embodiment; see the module card."""
    rows = [row_from_run(d, (names or {}).get(str(d))) for d in run_dirs]
    notes = list(_instance_notes(rows, allow_mixed))
    rows.extend(baselines)
    tables: dict[str, list[LeaderboardRow]] = {}
    for row in rows:
        tables.setdefault(row.embodiment, []).append(row)
    return Leaderboard({emb: rank_rows(group) for emb, group in sorted(tables.items())}, tuple(notes))


def rank_rows(rows: Sequence[LeaderboardRow]) -> tuple[RankedRow, ...]:
    """Sorted by WM Score, best first. Run rows are ranked (equal scores share a rank: 1, 2, 2, 4); baseline rows
    are placed between them, unranked (``rank`` None)."""
    ordered = sorted(rows, key=lambda r: (-r.wm_score, r.name))
    ranked: list[RankedRow] = []
    previous: RankedRow | None = None
    count = 0
    for row in ordered:
        if row.kind != "measured":
            ranked.append(RankedRow(None, row))
            continue
        count += 1
        rank = previous.rank if previous and previous.row.wm_score == row.wm_score else count
        previous = RankedRow(rank, row)
        ranked.append(previous)
    return tuple(ranked)


def _instance_notes(rows: Sequence[LeaderboardRow], allow_mixed: bool) -> Iterable[str]:
    if len(rows) < 2:
        return
    first = rows[0]
    for other in rows[1:]:
        if other.instances == first.instances:
            continue
        what = ("scenario sets" if other.scenario_set != first.scenario_set else "instance sets (seeds)")
        only_a = sorted(first.instances - other.instances)[:3]
        only_b = sorted(other.instances - first.instances)[:3]
        message = (f"{first.source} and {other.source} were scored on different {what} "
                   f"(only in the first: {only_a or 'none'}; only in the second: {only_b or 'none'})")
        if not allow_mixed:
            raise LeaderboardError(f"cannot rank: {message}; rerun on the same scenarios and seeds, or pass "
                                   "--allow-mixed to rank them anyway (marked)")
        yield f"MIXED: {message}; ranks are not comparable"
