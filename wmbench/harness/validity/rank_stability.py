"""Rank stability of the validity panel: does the panel's order of brains survive new instances and new bodies?

::

    wmbench validity --rank-stability                 # quick panel, two disjoint drawn sets, smpl/robot/drone
    result = run_rank_stability(brains=("reference", "null", "prompt-only"), instances=4)
    result.comparisons[0].rho                          # Spearman rho, set A vs set B on the SMPL character

Card
----
- **What it checks** (issue 20): a score that measures capability ranks the same brains in the same order on
  any fair sample of worlds and on any body. The whole panel (default: the quick panel's brains, constants
  included) is scored by C01–C08 total (of 800; C09/C10 are not bench scenarios) on
  - set A: ``instances`` test seeds drawn from nonce ``nonces[0]`` (:func:`~wmbench.harness.run.instances.
    draw_test_seeds`, the same draw as ``wmbench run``), on the SMPL character;
  - set B: the same count drawn from ``nonces[1]``, disjoint from set A (checked), on the SMPL character;
  - set A again on each of ``bodies`` (default robot and drone), its bench scenes played at each body's pace
    (:mod:`wmbench.envs.pacing`: the same story, slower, so a slow body is not simply outrun by the character's
    threats and the comparison measures the brains, not the body's top speed).
- **Numbers**: Spearman's rho between the totals of set A and set B (smpl), and between smpl and each body
  (set A). rho is the Pearson correlation of the average ranks (ties share the mean of their ranks), computed by
  hand with numpy (:func:`spearman`); rho is undefined (``nan``) when either side has one value only.
- **Target**: rho >= :data:`RHO_TARGET` for every comparison.
- **Work**: each set is one :func:`~wmbench.harness.validity.runner.run_validity` call without C10, so the cost is
  (1 + 1 + len(bodies)) quick panels without C10.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from wmbench.brain.panel.brains import panel_names
from wmbench.harness.run.instances import draw_test_seeds
from wmbench.harness.validity.runner import BENCH_CATEGORIES, SOURCE_BODY, ValidityResult, run_validity

#: the issue's target for every comparison
RHO_TARGET = 0.95
#: the other bodies the panel is ranked on (set A)
DEFAULT_BODIES: tuple[str, ...] = ("robot", "drone")
#: the nonces of set A and set B (any two nonces whose draws are disjoint)
DEFAULT_NONCES: tuple[int, int] = (20, 21)


def average_ranks(values: Sequence[float]) -> np.ndarray:
    """Ranks 1..n of ``values`` (ascending); tied values share the mean of the ranks they occupy."""
    x = np.asarray(values, dtype=float)
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(len(x), dtype=float)
    i = 0
    while i < len(x):
        j = i
        while j + 1 < len(x) and x[order[j + 1]] == x[order[i]]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1  # positions i..j (0-based) -> mean rank, 1-based
        i = j + 1
    return ranks


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rho of two paired samples: the Pearson correlation of their average ranks (nan when either
    sample is constant, where no order exists)."""
    if len(a) != len(b):
        raise ValueError(f"spearman needs paired samples of one length, got {len(a)} and {len(b)}")
    if len(a) < 2:
        return float("nan")
    ra, rb = average_ranks(a), average_ranks(b)
    da, db = ra - ra.mean(), rb - rb.mean()
    denom = float(np.sqrt((da * da).sum() * (db * db).sum()))
    return float("nan") if denom == 0.0 else float((da * db).sum() / denom)


@dataclass(frozen=True)
class PanelSet:
    """One scored set: which seeds, on which body, and each brain's C01–C08 total (of 800)."""

    label: str
    body: str
    seeds: tuple[int, ...]
    totals: Mapping[str, float]


@dataclass(frozen=True)
class RankComparison:
    """Spearman's rho between two sets' totals over the brains both scored."""

    a: str
    b: str
    rho: float
    brains: int

    @property
    def passes(self) -> bool:
        return bool(self.rho >= RHO_TARGET)


@dataclass(frozen=True)
class RankStabilityResult:
    sets: tuple[PanelSet, ...]
    comparisons: tuple[RankComparison, ...]
    elapsed_s: float

    def to_dict(self) -> dict[str, Any]:
        return {"target": RHO_TARGET, "elapsed_s": round(self.elapsed_s, 1),
                "sets": [{"label": s.label, "body": s.body, "seeds": list(s.seeds), "totals": dict(s.totals)}
                         for s in self.sets],
                "comparisons": [{"a": c.a, "b": c.b, "rho": round(c.rho, 4), "brains": c.brains,
                                 "passes": c.passes} for c in self.comparisons]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def to_markdown(self) -> str:
        lines = [f"| comparison | brains | Spearman rho | >= {RHO_TARGET:.2f} |", "|---|---|---|---|"]
        lines += [f"| {c.a} vs {c.b} | {c.brains} | {c.rho:.3f} | {'yes' if c.passes else 'NO'} |"
                  for c in self.comparisons]
        lines += ["", "Sets: " + "; ".join(f"{s.label} = {s.body}, seeds {list(s.seeds)}" for s in self.sets)]
        return "\n".join(lines)


def bench_totals(result: ValidityResult) -> dict[str, float]:
    """Each brain's C01–C08 total (of 800)."""
    return {b.name: round(sum(b.score(c) for c in BENCH_CATEGORIES), 3) for b in result.brains}


def compare(a: PanelSet, b: PanelSet) -> RankComparison:
    """Spearman's rho of two sets over the brains both hold (in ``a``'s order)."""
    names = [n for n in a.totals if n in b.totals]
    return RankComparison(a.label, b.label, spearman([a.totals[n] for n in names], [b.totals[n] for n in names]),
                          len(names))


def run_rank_stability(
    *,
    brains: Sequence[str] | None = None,
    instances: int = 4,
    nonces: tuple[int, int] = DEFAULT_NONCES,
    bodies: Sequence[str] = DEFAULT_BODIES,
    workers: int = 2,
    progress: Callable[[str], None] | None = None,
    checkpoint_dir: Path | None = None,
) -> RankStabilityResult:
    """Score the panel (default: the quick panel's brains) on set A and set B (SMPL) and on set A for every
    body in ``bodies``; compare the C01–C08 totals by Spearman's rho (see the module card).

    ``checkpoint_dir``: one checkpoint file per set (``rank_stability.<set>.jsonl``, see
    :func:`~wmbench.harness.validity.runner.run_validity`), so a stopped run resumes where it was."""
    names = tuple(brains) if brains is not None else panel_names(True)
    seeds_a, seeds_b = draw_test_seeds(nonces[0], instances), draw_test_seeds(nonces[1], instances)
    if set(seeds_a) & set(seeds_b):
        raise ValueError(f"nonces {nonces} draw overlapping seeds {seeds_a} and {seeds_b}; pick other nonces")
    start = time.perf_counter()
    plan = [("A/" + SOURCE_BODY, SOURCE_BODY, seeds_a), ("B/" + SOURCE_BODY, SOURCE_BODY, seeds_b),
            *((f"A/{body}", body, seeds_a) for body in bodies)]
    sets = []
    for label, body, seeds in plan:
        if progress:
            progress(f"rank stability: set {label}, seeds {list(seeds)}")
        checkpoint = (checkpoint_dir / f"rank_stability.{label.replace('/', '-')}.jsonl"
                      if checkpoint_dir is not None else None)
        result = run_validity(seeds=seeds, brains=names, workers=workers, include_c10=False, body=body,
                              progress=progress, checkpoint=checkpoint)
        sets.append(PanelSet(label, body, tuple(seeds), bench_totals(result)))
    comparisons = [compare(sets[0], sets[1]), *(compare(sets[0], s) for s in sets[2:])]
    return RankStabilityResult(tuple(sets), tuple(comparisons), time.perf_counter() - start)
