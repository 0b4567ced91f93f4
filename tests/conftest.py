"""Session-wide fixtures: expensive results computed once per test session and shared by every module.

Card
----
- ``validity_panel``: ``validity_panel(brains, seeds, include_c10)`` -> a :class:`ValidityResult` of those panel
  brains, equal to ``run_validity(brains=..., seeds=..., include_c10=...)`` (checked by
  ``test_the_shared_session_panel_is_run_validity``), but *lazy*: a brain's category is measured the first time
  a test reads it (C01–C08: that category's bench scenarios on every seed; C10: the C10 job on the first seed,
  as in ``run_validity``), in one 2-worker pool kept for the session, and each (brain, seed, category) job runs
  at most once per session whichever result asks for it. A brain no test reads costs nothing, and a brain whose
  bounds read two categories pays for those two only. Constant replies that share a MOTION share their episodes
  (:mod:`wmbench.harness.validity.motion_groups`: the env acts out only the MOTION, so their worlds are the same;
  each member is scored on its own replies, the same scores as ``panel_job``): the quick panel's 15 constants
  run 10 worlds per job. Exact because every episode starts with
  ``brain.reset(seed)`` and a category's points and bootstrap come from its own scenarios.
- ``quick_validity``: the quick validity panel (``wmbench validity --quick``: every brain of
  ``panel_names(quick=True)``, seeds 0-3, C10 on seed 0), served by ``validity_panel``. The brain list comes
  from the panel's own configuration (:mod:`wmbench.brain.panel`), so a bound that names a new panel brain gets
  it without any change here. ``tests/harness/validity/`` reads its bounds and its tie-breakers from it.
  Read-only: the result is a frozen dataclass.
- ``reference_transfer``: ``reference_transfer(seed=0)`` -> ``measure_c10("reference", (seed,))``, the reference
  brain's full C10 measurement (every body and variant, with the pipeline diagnostics), run once per session. The
  C10 tests read it, and the panel's reference C10 job is served from it (its points are those of the
  score-only job ``run_validity`` runs: score-only runs stop only where the score is already settled,
  ``tests/harness/transfer/test_outcome.py``; its failure labels come from the full runs).
- ``reference_episode``: ``reference_episode(scenario, body="smpl", seed=0)`` -> the reference brain's closed-
  loop :class:`~wmbench.harness.run.episode.EpisodeResult` of that episode, run on first use and then shared by
  every module that asks for the same (scenario, body, seed). Episodes are deterministic (same seed, same
  replies, same trace), so sharing changes no result; callers must not modify what they get.

Add a fixture here when two test modules would otherwise compute the same expensive thing; keep one per concept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import replace
from typing import Any, Protocol

import pytest

from wmbench.brain.panel.brains import lacks, panel_names
from wmbench.brain.registry import get_brain
from wmbench.harness.run.episode import EpisodeResult, run_episode
from wmbench.harness.run.pool import GuardedPool, worker_pool
from wmbench.harness.transfer.measure import measure_c10
from wmbench.harness.validity.motion_groups import motion_groups
from wmbench.harness.validity.runner import (
    BENCH_CATEGORIES,
    CATEGORIES,
    QUICK_SEEDS,
    SOURCE_BODY,
    BrainScores,
    CategoryScore,
    ValidityResult,
    brain_scores,
    labels_only,
    panel_jobs,
)
from wmbench.scoring.report_types import ScenarioScore

from .cpu_profile import PANEL_JOBS_CPU, timed

ReferenceEpisode = Callable[..., EpisodeResult]
#: one panel job: (brain, seed, category), one of C01–C08 (that category's bench scenarios) or C10
Job = tuple[str, int, str]


class ValidityPanel(Protocol):
    def __call__(self, brains: Sequence[str], seeds: Sequence[int], include_c10: bool = True,
                 quick: bool = False) -> ValidityResult: ...


class _PanelJobs:
    """The session's panel jobs: each (brain, seed, category) runs once, in a 2-worker spawn pool, on demand."""

    def __init__(self, workers: int = 2, reference_c10: Callable[[int], Mapping[str, Sequence[Any]]] | None = None
                 ) -> None:
        self.workers = workers
        self.done: dict[Job, list[Any]] = {}
        self._pool: GuardedPool | None = None
        self._reference_c10 = reference_c10

    def run(self, jobs: Sequence[Job], groups: Mapping[str, tuple[str, ...]] | None = None) -> list[Any]:
        """The scores of ``jobs`` (run those not run yet), in job order. ``groups``: a brain's
        :func:`~wmbench.harness.validity.motion_groups.motion_groups` group; a job of a constant reply runs as
        its group's job (one episode per world for the whole group, each member scored on its own replies)
        and keeps every member's scores."""
        todo = [job for job in dict.fromkeys(jobs) if job not in self.done]
        for job in [job for job in todo if job[0] == "reference" and job[2] == "C10" and self._reference_c10]:
            assert self._reference_c10 is not None
            # the session's full measurement (reference_transfer), cut as panel_job cuts its scores
            self.done[job] = [replace(score, evidence=labels_only(score.evidence), seed=job[1])
                              for scores in self._reference_c10(job[1]).values() for score in scores]
            todo.remove(job)
        if todo:
            if self._pool is None:
                self._pool = worker_pool(self.workers)
            # run_validity's own job: one category's bench scenarios, or C10 alone (no bench category)
            futures: dict[tuple[tuple[str, ...], int, str], Future[tuple[dict[str, list[Any]], float]]] = {}
            for name, seed, category in todo:
                members = (groups or {}).get(name, (name,))
                key = (members, seed, category)
                if key in futures:
                    continue
                futures[key] = self._pool.submit(timed, panel_jobs, members, seed, category == "C10", SOURCE_BODY,
                                                 () if category == "C10" else (category,))
            for key, future in futures.items():
                by_member, PANEL_JOBS_CPU[key] = future.result()  # the job's CPU, for -p tests.cpu_profile
                _members, seed, category = key
                for member, scores in by_member.items():
                    self.done[(member, seed, category)] = scores
        return [score for job in jobs for score in self.done[job]]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)  # reaped: their CPU time counts in `time`
            self._pool = None


class _LazyCategories(Mapping[str, CategoryScore]):
    """One brain's categories; reading one runs that category's jobs (see module card)."""

    def __init__(self, jobs: _PanelJobs, name: str, seeds: tuple[int, ...], categories: tuple[str, ...],
                 groups: Mapping[str, tuple[str, ...]]) -> None:
        self._jobs, self._name, self._seeds, self._keys, self._groups = jobs, name, seeds, categories, groups
        self._scores: dict[str, CategoryScore] = {}

    def jobs(self, category: str) -> list[Job]:
        """C01–C08: one job per seed; C10: one job, on the first seed (as ``run_validity``)."""
        seeds = self._seeds[:1] if category == "C10" else self._seeds
        return [(self._name, seed, category) for seed in seeds]

    def brain_scores(self, categories: Sequence[str]) -> BrainScores:
        """``run_validity``'s aggregation of this brain's scores in ``categories``."""
        by_scenario: dict[str, list[Any]] = {}
        for score in self._jobs.run([job for c in categories for job in self.jobs(c)], self._groups):
            by_scenario.setdefault(score.scenario_id, []).append(score)
        return brain_scores(self._name, by_scenario, tuple(categories))

    def __getitem__(self, category: str) -> CategoryScore:
        if category not in self._keys:
            raise KeyError(category)
        if category not in self._scores:  # a category's points and bootstrap come from its own scenarios only
            self._scores[category] = self.brain_scores((category,)).categories[category]
        return self._scores[category]

    def __contains__(self, category: object) -> bool:
        return category in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


class _LazyScenarios(Mapping[str, float]):
    """One brain's per-scenario means over every category of the result (reading it runs them all)."""

    def __init__(self, categories: _LazyCategories, keys: tuple[str, ...]) -> None:
        self._categories, self._keys = categories, keys

    def _all(self) -> Mapping[str, float]:
        return self._categories.brain_scores(self._keys).scenarios

    def __getitem__(self, scenario: str) -> float:
        return self._all()[scenario]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


class _LazyLabels(Mapping[str, Mapping[str, int]]):
    """One brain's failure labels per category (reading them runs every category of the result)."""

    def __init__(self, categories: _LazyCategories, keys: tuple[str, ...]) -> None:
        self._categories, self._keys = categories, keys

    def _all(self) -> Mapping[str, Mapping[str, int]]:
        return self._categories.brain_scores(self._keys).labels

    def __getitem__(self, category: str) -> Mapping[str, int]:
        return self._all()[category]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


_TRANSFERS: dict[int, dict[str, list[ScenarioScore]]] = {}


@pytest.fixture(scope="session")
def reference_transfer() -> Callable[[int], dict[str, list[ScenarioScore]]]:
    """``reference_transfer(seed=0)``: ``measure_c10("reference", (seed,))``, run once per session (read-only)."""

    def transfer(seed: int = 0) -> dict[str, list[ScenarioScore]]:
        if seed not in _TRANSFERS:
            _TRANSFERS[seed] = measure_c10("reference", (seed,))
        return _TRANSFERS[seed]

    return transfer


@pytest.fixture(scope="session")
def validity_panel(reference_transfer: Callable[[int], dict[str, list[ScenarioScore]]]
                   ) -> Iterator[ValidityPanel]:
    """``validity_panel(brains, seeds, include_c10=True)``: a lazy ``run_validity`` result (see module card)."""
    jobs = _PanelJobs(reference_c10=reference_transfer)

    def panel(brains: Sequence[str], seeds: Sequence[int], include_c10: bool = True,
              quick: bool = False) -> ValidityResult:
        chosen = tuple(seeds)
        if not brains or not chosen:
            raise ValueError(f"validity_panel needs at least one brain and one seed, got {brains!r}, {seeds!r}")
        categories = CATEGORIES if include_c10 else BENCH_CATEGORIES
        groups = {name: group for group in motion_groups(brains) for name in group}
        scores = []
        for name in brains:
            lazy = _LazyCategories(jobs, name, chosen, categories, groups)
            scores.append(BrainScores(name, lacks(name), lazy, _LazyScenarios(lazy, categories),
                                      _LazyLabels(lazy, categories)))
        return ValidityResult(quick=quick, seeds=chosen, brains=tuple(scores), elapsed_s=0.0,
                              workers=jobs.workers, categories=categories)

    try:
        yield panel
    finally:
        jobs.close()


@pytest.fixture(scope="session")
def quick_validity(validity_panel: ValidityPanel) -> ValidityResult:
    """The quick validity panel: every brain of ``panel_names(quick=True)``, seeds 0-3, C10 on seed 0 (see
    module card; a brain runs when a test first reads it)."""
    return validity_panel(panel_names(True), QUICK_SEEDS, include_c10=True, quick=True)


_EPISODES: dict[tuple[str, str, int], EpisodeResult] = {}


@pytest.fixture(scope="session")
def reference_episode() -> ReferenceEpisode:
    """``reference_episode(scenario, body="smpl", seed=0)``: the reference brain's episode, run once per session."""

    def episode(scenario: str, body: str = "smpl", seed: int = 0) -> EpisodeResult:
        key = (scenario, body, seed)
        if key not in _EPISODES:
            _EPISODES[key] = run_episode(scenario, get_brain("reference"), body=body, seed=seed)
        return _EPISODES[key]

    return episode
