"""``wmbench compare RUN_A RUN_B``: per-category differences with a paired bootstrap over shared instances.

Card
----
An *instance* is a (scenario, seed) both runs were scored on (``scores.json`` per-seed results). For one
instance the paired difference is ``A's points − B's points`` (of 20). A category's difference is what its score
difference is: the sum over its scenarios of the mean paired difference over that scenario's seeds; the WM
Score difference sums the categories. The 95 % CI comes from a paired bootstrap: 2000 resamples, each drawing,
per scenario, its seeds with replacement (the same seeds for A and B: pairing is kept), with a fixed seed
(``numpy.random.default_rng(0)``) so the same two runs always give the same answer. A difference is
*significant* when its CI excludes 0 and each of its scenarios had at least 2 seeds (one seed has no spread:
no claim is made). A static Track-A run is paired by record: a category's records are its resampling units.
Scenario points a run could not measure are left out of that pair.

Runs scored on different instance sets are refused (:class:`~wmbench.harness.leaderboard.board.LeaderboardError`)
unless ``allow_mixed``; then only the shared instances are compared, and the result says how many were dropped.
Both runs' bodies, observation modes and motion models are reported; a comparison across embodiments says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wmbench.core.taxonomy import CATEGORY_TITLES, SCENARIOS_PER_CATEGORY
from wmbench.harness.leaderboard.board import LeaderboardError, row_from_run
from wmbench.harness.official.static_run import STATIC_FILE
from wmbench.harness.report.writer import load_run
from wmbench.harness.run.results import read_json

RESAMPLES = 2000
#: fewer seeds (or records) than this in a scenario: no significance is claimed (the bootstrap has no spread)
MIN_UNITS = 2
BOOTSTRAP_SEED = 0


@dataclass(frozen=True)
class CategoryDiff:
    category: str
    a: float
    b: float
    diff: float
    ci95: tuple[float, float]
    instances: int
    #: the fewest resampling units (seeds; records of a static run) of any of its scenarios
    min_units: int = 0

    @property
    def significant(self) -> bool:
        """The CI excludes 0 — and every scenario had at least 2 units (one seed has no spread to resample)."""
        return self.min_units >= MIN_UNITS and (self.ci95[0] > 0 or self.ci95[1] < 0)


@dataclass(frozen=True)
class Comparison:
    a: str
    b: str
    categories: tuple[CategoryDiff, ...]
    total: CategoryDiff
    shared: int
    dropped: int
    notes: tuple[str, ...]


def _points(run_dir: Path) -> dict[str, dict[int, float]]:
    """Scenario -> seed -> points. A static Track-A run: category -> record number -> points × 5 (a
    category's records are its resampling units, and their mean × 5 is the category's static score)."""
    if (run_dir / STATIC_FILE).is_file() and not (run_dir / "scores.json").is_file():
        records = read_json(run_dir / STATIC_FILE)["records"]
        static: dict[str, dict[int, float]] = {}
        for record in records:
            index = int(str(record["id"])[1:])
            static.setdefault(str(record["category"]), {})[index] = float(record["points"]) * SCENARIOS_PER_CATEGORY
        return static
    run = load_run(run_dir)
    if run.scores is None:
        raise LeaderboardError(f"{run_dir}: expected a run directory with a readable scores.json, got none")
    out: dict[str, dict[int, float]] = {}
    for sid, entry in run.scores["scenarios"].items():
        for s in entry["per_seed"]:
            if s["seed"] is not None and s["measured"]:
                out.setdefault(sid, {})[int(s["seed"])] = float(s["score"])
    return out


def _categories(run_dir: Path) -> dict[str, str]:
    if (run_dir / STATIC_FILE).is_file() and not (run_dir / "scores.json").is_file():
        return {c: c for c in CATEGORY_TITLES}  # a static run's points are keyed by category already
    run = load_run(run_dir)
    assert run.scores is not None
    return {sid: str(e["category"]) for sid, e in run.scores["scenarios"].items()}


def compare_runs(run_a: Path | str, run_b: Path | str, *, allow_mixed: bool = False,
                 resamples: int = RESAMPLES) -> Comparison:
    """Paired comparison of two run directories (see the module card)."""
    run_a, run_b = Path(run_a), Path(run_b)
    row_a, row_b = row_from_run(run_a), row_from_run(run_b)
    notes: list[str] = []
    if row_a.instances != row_b.instances:
        only = len(row_a.instances ^ row_b.instances)
        if not allow_mixed:
            raise LeaderboardError(f"cannot compare: {run_a} and {run_b} were scored on different instance sets "
                                   f"({only} (scenario, seed) pairs not shared); rerun on the same scenarios and "
                                   "seeds, or pass --allow-mixed to compare the shared ones")
        notes.append(f"MIXED: {only} instance(s) not shared were left out")
    if row_a.embodiment != row_b.embodiment:
        notes.append(f"different embodiments: A {row_a.embodiment}; B {row_b.embodiment}")
    pa, pb = _points(run_a), _points(run_b)
    category_of = _categories(run_a)
    shared: dict[str, list[tuple[float, float]]] = {}
    for sid in sorted(set(pa) & set(pb)):
        seeds = sorted(set(pa[sid]) & set(pb[sid]))
        if seeds:
            shared[sid] = [(pa[sid][s], pb[sid][s]) for s in seeds]
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    # one resampling plan for every scenario: indices into its seeds, shared by A and B (paired)
    plans = {sid: rng.integers(0, len(pairs), size=(resamples, len(pairs))) for sid, pairs in shared.items()}
    per_cat: dict[str, list[str]] = {}
    for sid in shared:
        per_cat.setdefault(category_of.get(sid, "?"), []).append(sid)
    diffs = [_diff(cat, sids, shared, plans) for cat, sids in sorted(per_cat.items())]
    total = _diff("WM Score", list(shared), shared, plans)
    n_shared = sum(len(p) for p in shared.values())
    dropped = len(row_a.instances | row_b.instances) - n_shared
    return Comparison(str(run_a), str(run_b), tuple(diffs), total, n_shared, dropped, tuple(notes))


def _diff(label: str, sids: list[str], shared: Mapping[str, list[tuple[float, float]]],
          plans: Mapping[str, np.ndarray]) -> CategoryDiff:
    a = sum(float(np.mean([x for x, _ in shared[s]])) for s in sids)
    b = sum(float(np.mean([y for _, y in shared[s]])) for s in sids)
    boot = np.zeros(next(iter(plans.values())).shape[0]) if plans else np.zeros(1)
    for s in sids:
        d = np.array([x - y for x, y in shared[s]])
        boot = boot + d[plans[s]].mean(axis=1)
    lo, hi = (float(v) for v in np.percentile(boot, [2.5, 97.5]))
    return CategoryDiff(label, round(a, 3), round(b, 3), round(a - b, 3), (round(lo, 3), round(hi, 3)),
                        sum(len(shared[s]) for s in sids), min((len(shared[s]) for s in sids), default=0))


def format_comparison(c: Comparison) -> str:
    lines = [f"A: {c.a}", f"B: {c.b}", f"paired over {c.shared} shared (scenario, seed) instances"
             + (f", {c.dropped} not shared" if c.dropped else ""), *c.notes,
             f"{'category':<30} {'A':>7} {'B':>7} {'A-B':>7}  {'95% CI':<18} significant"]
    for d in (*c.categories, c.total):
        label = f"{d.category} {CATEGORY_TITLES.get(d.category, '')}".rstrip()
        ci = f"[{d.ci95[0]:.1f}, {d.ci95[1]:.1f}]"
        verdict = "YES" if d.significant else ("no" if d.min_units >= MIN_UNITS else "n/a: 1 seed/record")
        lines.append(f"{label:<30} {d.a:>7.1f} {d.b:>7.1f} {d.diff:>+7.1f}  {ci:<18} {verdict}")
    significant = [d.category for d in c.categories if d.significant]
    lines.append("significant differences: " + (", ".join(significant) if significant else "none"))
    return "\n".join(lines)
