"""``wmbench validity``: run the validity panel over the family seeds and say what each category measures.

::

    result = run_validity(quick=True)                       # ~2 min on 2 cores
    result.brain("reference").score("C03")                  # category points (0-100)
    result.best_constant().name, result.best_constant().total
    result.within_ci("left-first", "right-first", "C06")    # counterbalancing check
    result.loss("perceive-only", "C03")                     # points below the reference
    print(result.to_markdown())

Card
----
- **Panel**: :mod:`wmbench.brain.panel.brains` — reference, null, random, the memoryless left-first / right-first
  tie-breakers, mirror-swapped, perceive-only, act-only, two keyword stuffers, a trailing remark, and the
  constant-reply sweep (65 replies; the quick panel keeps 15 of them, see ``QUICK_CONSTANTS``).
- **Episodes**: every bench scenario (C01–C08) for every seed on the SMPL character (paired rules
  applied as in a run), and C10 (S46–S50: the brain itself closed loop on the character, the robot and the
  drone, :func:`wmbench.harness.transfer.measure.measure_c10_brain`) — scored by the same scorers as
  ``wmbench run``. C09 (live, real-time) is not part of the panel. Seeds are family instances
  (:mod:`wmbench.scenarios.families`): both panels run seeds 0–3, one whole family cycle (canonical, mirrored,
  and the turned threat directions; with seeds 0–1 alone a constant "step back from a beast ahead" is never
  tested against a turned threat). C10's scenarios have fixed layouts and each C10 measurement turns the scene
  to four headings on three bodies, so both panels run C10 on the first seed only.
- **Numbers**: per brain and category the category points (sum of its scenarios' seed means, 0–100) and the
  95 % bootstrap CI over seeds (the same aggregation as ``scores.json``); ``total`` is C01–C08 + C10 (of 900).
- **Failure labels**: each brain's labels of lost points (:mod:`wmbench.scoring.failure_labels`), counted per
  category over its seeds (``BrainScores.labels``; the rest of the evidence is dropped).
- **Partial reruns**: ``categories=`` runs only those categories' scenarios (the ones whose rules changed) and
  :func:`merge_results` puts them over a full result of the same brains and seeds (:func:`result_from_dict`
  reads a ``validity.json`` back); ``body=`` runs the bench scenarios on another body (rank stability).
- **Work**: one job per (brain, seed) in a ``spawn`` process pool of ``workers`` processes; constant replies of
  one MOTION share their episodes (:mod:`wmbench.harness.validity.motion_groups`, :func:`group_job`: the full
  sweep's 65 constants run 13 worlds per seed, each constant scored on its own replies), one task per group and
  seed, each member kept (and checkpointed) as its own job.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from wmbench.brain.base import Brain
from wmbench.brain.panel.brains import DIAGNOSTIC_BRAINS, get_panel_brain, lacks, panel_names
from wmbench.core.errors import WMBenchError
from wmbench.core.taxonomy import TRACE_SCORED_CATEGORIES
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.interrupts import completed, interrupts_after
from wmbench.harness.run.pool import worker_pool
from wmbench.harness.run.results import EpisodeLine, episode_line
from wmbench.harness.run.scores import paired_trace, score_line
from wmbench.harness.transfer.measure import measure_c10_brain
from wmbench.harness.transfer.outcome import TRANSFER_BODIES, run_bodies
from wmbench.harness.validity.motion_groups import constant_reply, motion_groups, motion_key, with_reply
from wmbench.protocol.trace import Trace
from wmbench.scenarios import all_scenarios, get_scenario
from wmbench.scoring import summarize
from wmbench.scoring.c10.diagnostics import C10_IDS
from wmbench.scoring.c10.rule import score_brain_transfer
from wmbench.scoring.dispatch import official_category
from wmbench.scoring.failure_labels import count_labels, episode_labels
from wmbench.scoring.pairs import rescore_pairs
from wmbench.scoring.report_types import ScenarioScore

BENCH_CATEGORIES: tuple[str, ...] = TRACE_SCORED_CATEGORIES
CATEGORIES: tuple[str, ...] = (*BENCH_CATEGORIES, "C10")
QUICK_SEEDS: tuple[int, ...] = (0, 1, 2, 3)
FULL_SEEDS: tuple[int, ...] = (0, 1, 2, 3)
SOURCE_BODY = "smpl"


@dataclass(frozen=True)
class CategoryScore:
    """A brain's points in one category (0-100) and their 95 % bootstrap CI over seeds."""

    score: float
    ci95: tuple[float, float] | None = None

    @property
    def half_width(self) -> float:
        return 0.0 if self.ci95 is None else (self.ci95[1] - self.ci95[0]) / 2


@dataclass(frozen=True)
class BrainScores:
    """One panel brain's result: per category, per scenario (mean over seeds), the total of 900, and the failure
    labels (:mod:`wmbench.scoring.failure_labels`) of its lost points, counted per category over all seeds."""

    name: str
    lacks: str
    categories: Mapping[str, CategoryScore]
    scenarios: Mapping[str, float] = field(default_factory=dict)
    labels: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def score(self, category: str) -> float:
        return self.categories[category].score

    @property
    def total(self) -> float:
        """C01–C08 + C10 (of 900)."""
        return round(sum(self.categories[c].score for c in CATEGORIES if c in self.categories), 3)

    @property
    def is_constant(self) -> bool:
        return self.name.startswith("constant:")


@dataclass(frozen=True)
class ValidityResult:
    """Everything ``wmbench validity`` measured (see the module card); JSON via :meth:`to_dict`."""

    quick: bool
    seeds: tuple[int, ...]
    brains: tuple[BrainScores, ...]
    elapsed_s: float
    workers: int
    load_before: tuple[float, float, float] | None = None
    categories: tuple[str, ...] = CATEGORIES

    def brain(self, name: str) -> BrainScores:
        for b in self.brains:
            if b.name == name:
                return b
        raise KeyError(f"no panel brain {name!r} in this result; expected one of "
                       f"{', '.join(b.name for b in self.brains)}")

    def constants(self) -> tuple[BrainScores, ...]:
        return tuple(b for b in self.brains if b.is_constant)

    def best_constant(self, category: str | None = None) -> BrainScores:
        """The constant reply with the highest total (or the highest score in ``category``)."""
        pool = self.constants()
        if not pool:
            raise ValueError("this result has no constant replies")
        return max(pool, key=lambda b: b.total if category is None else b.score(category))

    def loss(self, name: str, category: str, against: str = "reference") -> float:
        """How many points brain ``name`` scores below ``against`` (the reference) in ``category``."""
        return round(self.brain(against).score(category) - self.brain(name).score(category), 3)

    def spread(self, category: str) -> float:
        """Highest minus lowest score of the whole panel in ``category``."""
        values = [b.score(category) for b in self.brains]
        return round(max(values) - min(values), 3)

    def within_ci(self, a: str, b: str, category: str) -> bool:
        """Whether brains ``a`` and ``b`` score alike in ``category``: each one's score lies within the other's
        95 % CI, or they differ by at most the wider half-width (a CI of zero width counts as exact)."""
        x, y = self.brain(a).categories[category], self.brain(b).categories[category]
        if x.ci95 is not None and y.ci95 is not None and (
                x.ci95[0] <= y.score <= x.ci95[1] or y.ci95[0] <= x.score <= y.ci95[1]):
            return True
        return abs(x.score - y.score) <= max(x.half_width, y.half_width) + 1e-9

    def to_dict(self) -> dict[str, Any]:
        return {
            "quick": self.quick, "seeds": list(self.seeds), "elapsed_s": round(self.elapsed_s, 1),
            "workers": self.workers, "load_before": list(self.load_before) if self.load_before else None,
            "categories": list(self.categories),
            "brains": {b.name: {"lacks": b.lacks, "total": b.total,
                                "categories": {c: {"score": s.score, "ci95": list(s.ci95) if s.ci95 else None}
                                               for c, s in b.categories.items()},
                                "scenarios": dict(b.scenarios),
                                "labels": {c: dict(n) for c, n in b.labels.items()}} for b in self.brains},
            "best_constant": {"overall": self.best_constant().name, **{
                c: self.best_constant(c).name for c in self.categories}} if self.constants() else None,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def to_markdown(self) -> str:
        """The per-category table (reference, best constant and which, null, random, each diagnostic brain,
        spread) and the strongest constant replies."""
        diagnostics = [n for n in DIAGNOSTIC_BRAINS if n not in ("reference", "null", "random")]
        present = {b.name for b in self.brains}
        diagnostics = [n for n in diagnostics if n in present]
        head = ["category", "reference", "best constant", "which", "null", "random", *diagnostics, "spread"]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

        def cell(name: str, category: str) -> str:
            if name not in present:
                return "–"
            s = self.brain(name).categories[category]
            return f"{s.score:.1f}" + (f" ±{s.half_width:.1f}" if s.half_width else "")

        def total(name: str) -> str:
            return f"{self.brain(name).total:.1f}" if name in present else "–"

        has_constants = bool(self.constants())
        for c in self.categories:
            best = self.best_constant(c) if has_constants else None
            row = [c, cell("reference", c), f"{best.score(c):.1f}" if best else "–",
                   f"`{best.name[len('constant:'):]}`" if best else "–",
                   cell("null", c), cell("random", c), *(cell(n, c) for n in diagnostics),
                   f"{self.spread(c):.1f}"]
            lines.append("| " + " | ".join(row) + " |")
        best = self.best_constant() if has_constants else None
        row = ["**total /900**", total("reference"), f"{best.total:.1f}" if best else "–",
               f"`{best.name[len('constant:'):]}`" if best else "–", total("null"), total("random"),
               *(total(n) for n in diagnostics), ""]
        lines.append("| " + " | ".join(row) + " |")
        lines += ["", "Strongest constant replies (total of 900, C01–C08 + C10):", ""]
        lines += ["| constant | total | " + " | ".join(self.categories) + " |",
                  "|---|---|" + "---|" * len(self.categories)]
        for b in sorted(self.constants(), key=lambda b: -b.total)[:10]:
            lines.append(f"| `{b.name[len('constant:'):]}` | {b.total:.1f} | "
                         + " | ".join(f"{b.score(c):.1f}" for c in self.categories) + " |")
        return "\n".join(lines)


def result_from_dict(d: Mapping[str, Any]) -> ValidityResult:
    """A :class:`ValidityResult` read back from its :meth:`ValidityResult.to_dict` form (``validity.json``)."""
    brains = []
    for name, b in d["brains"].items():
        cats = {c: CategoryScore(float(v["score"]),
                                 (float(v["ci95"][0]), float(v["ci95"][1])) if v.get("ci95") else None)
                for c, v in b["categories"].items()}
        brains.append(BrainScores(name, str(b.get("lacks", "")), cats, dict(b.get("scenarios") or {}),
                                  {c: dict(n) for c, n in (b.get("labels") or {}).items()}))
    load = d.get("load_before")
    return ValidityResult(quick=bool(d["quick"]), seeds=tuple(d["seeds"]), brains=tuple(brains),
                          elapsed_s=float(d["elapsed_s"]), workers=int(d["workers"]),
                          load_before=(float(load[0]), float(load[1]), float(load[2])) if load else None,
                          categories=tuple(d["categories"]))


def merge_results(base: ValidityResult, update: ValidityResult) -> ValidityResult:
    """``base`` with every category that ``update`` measured (and those categories' scenarios) replaced by
    ``update``'s: a partial rerun (``categories=``) of the categories whose rules changed, over a full run of
    the same brains and seeds. Refuses results of other brains or seeds (they would not be comparable)."""
    if base.seeds != update.seeds or {b.name for b in base.brains} != {b.name for b in update.brains}:
        raise ValueError(f"merge_results needs the same brains and seeds: base {len(base.brains)} brains seeds "
                         f"{list(base.seeds)}, update {len(update.brains)} brains seeds {list(update.seeds)}")
    replaced = set(update.categories)
    merged = []
    for b in base.brains:
        u = update.brain(b.name)
        categories = {c: (u.categories[c] if c in replaced else s) for c, s in b.categories.items()}
        scenarios = {**{sid: v for sid, v in b.scenarios.items() if official_category(sid) not in replaced},
                     **dict(u.scenarios)}
        labels = {**{c: n for c, n in b.labels.items() if c not in replaced}, **dict(u.labels)}
        merged.append(BrainScores(b.name, b.lacks, categories, scenarios, labels))
    return replace(base, brains=tuple(merged), elapsed_s=base.elapsed_s + update.elapsed_s)


# ------------------------------------------------------------------------------------------------ running
def run_validity(
    quick: bool = False,
    *,
    seeds: Sequence[int] | None = None,
    brains: Sequence[str] | None = None,
    workers: int = 2,
    include_c10: bool = True,
    progress: Callable[[str], None] | None = None,
    checkpoint: Path | None = None,
    body: str = SOURCE_BODY,
    categories: Sequence[str] | None = None,
) -> ValidityResult:
    """Run the panel (quick or full, or just ``brains``) over ``seeds`` and return the frozen result.

    ``checkpoint``: a JSONL file that gets one line per finished (brain, seed) job; jobs already in it are
    not run again, so a run stopped by Ctrl-C, SIGTERM or ``kill -9`` resumes where it was. Workers come from
    :func:`~wmbench.harness.run.pool.worker_pool` (they die with this process). Ctrl-C raises
    :class:`ValidityInterrupted` after keeping what finished. ``body``: the body the bench scenarios run on
    (default the SMPL character; the rank-stability check also runs ``robot`` and ``drone``). ``categories``: only
    these categories' scenarios (C10 only if named), e.g. the ones whose rules changed; :func:`merge_results`
    puts such a partial result over a full one."""
    names = tuple(brains) if brains is not None else panel_names(quick)
    chosen_seeds = tuple(seeds) if seeds is not None else (QUICK_SEEDS if quick else FULL_SEEDS)
    if not names or not chosen_seeds:
        raise ValueError(f"run_validity needs at least one brain and one seed, got {names!r}, {chosen_seeds!r}")
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    start = time.perf_counter()
    # C10's transfer scenarios have fixed layouts (no family) and each measurement already turns the scene to four
    # headings on three bodies, so C10 runs on the first seed only
    if categories is not None:
        unknown = sorted(set(categories) - set(CATEGORIES))
        if unknown or not categories:
            raise ValueError(f"categories must be among {', '.join(CATEGORIES)}, got {list(categories)!r}")
        include_c10 = include_c10 and "C10" in categories
    bench = tuple(c for c in BENCH_CATEGORIES if categories is None or c in categories)
    c10_seeds = chosen_seeds[:1] if include_c10 else ()
    jobs = [(name, seed, seed in c10_seeds) for name in names for seed in chosen_seeds]
    collected: dict[str, dict[str, list[Any]]] = {name: {} for name in names}
    finished = read_checkpoint(checkpoint, jobs) if checkpoint is not None else {}
    for (name, _seed, _c10), scores in finished.items():
        _collect(collected, name, scores)
    todo = [job for job in jobs if job not in finished]
    done = len(jobs) - len(todo)
    if progress and done:
        progress(f"resuming: {done}/{len(jobs)} jobs already in {checkpoint}")

    def keep(job: tuple[str, int, bool], scores: list[Any]) -> None:
        nonlocal done
        _collect(collected, job[0], scores)
        if checkpoint is not None:
            append_checkpoint(checkpoint, job, scores)
        done += 1
        if progress:
            progress(f"{done}/{len(jobs)} {job[0]}")

    # constant replies of one motion share their episodes (motion_groups): one task per group, seed and C10 flag
    group_of = {name: group for group in motion_groups(names) for name in group}
    tasks = list(dict.fromkeys(
        (tuple(m for m in group_of[name] if (m, seed, c10) in todo), seed, c10) for name, seed, c10 in todo))

    def keep_all(task: tuple[tuple[str, ...], int, bool], scores: Mapping[str, list[Any]]) -> None:
        for member in task[0]:
            keep((member, task[1], task[2]), scores[member])

    try:
        if workers <= 1:
            for task in tasks:
                keep_all(task, panel_jobs(*task, body, bench))
        elif tasks:
            pool = worker_pool(min(workers, len(tasks)))
            try:
                with interrupts_after():  # a signal never leaves an executor lock held (run/interrupts.py)
                    futures = {pool.submit(panel_jobs, *task, body, bench): task for task in tasks}
                for future in completed(futures):
                    keep_all(futures[future], future.result())
            except KeyboardInterrupt:
                pool.stop_now()  # a running job's result would be thrown away: exit now, not when it ends
                raise
            finally:  # joined, so the interpreter's exit never races the pool's manager thread (run/pool.py)
                pool.shutdown(wait=True, cancel_futures=True)
    except KeyboardInterrupt:
        raise ValidityInterrupted(done, len(jobs), checkpoint) from None
    wanted = (*bench, "C10") if include_c10 else bench
    results = tuple(brain_scores(name, collected[name], wanted) for name in names)
    return ValidityResult(quick=quick, seeds=chosen_seeds, brains=results,
                          elapsed_s=time.perf_counter() - start, workers=workers, load_before=load,
                          categories=wanted)


class ValidityInterrupted(WMBenchError):
    """Ctrl-C (or SIGTERM) stopped the panel; ``done`` of ``total`` jobs are kept in the checkpoint."""

    def __init__(self, done: int, total: int, checkpoint: Path | None) -> None:
        kept = f"kept in {checkpoint}; rerun the same command to resume" if checkpoint else "not kept"
        super().__init__(f"interrupted: {done} of {total} (brain, seed) jobs finished, {kept}")
        self.done, self.total, self.checkpoint = done, total, checkpoint


def read_checkpoint(path: Path, jobs: Sequence[tuple[str, int, bool]]) -> dict[tuple[str, int, bool], list[Any]]:
    """The finished jobs among ``jobs`` recorded in ``path`` (unreadable or foreign lines are ignored)."""
    wanted = set(jobs)
    finished: dict[tuple[str, int, bool], list[Any]] = {}
    if not path.is_file():
        return finished
    for raw in path.read_bytes().splitlines():
        try:
            line = json.loads(raw)
            job = (str(line["brain"]), int(line["seed"]), bool(line["c10"]))
            scores = [ScenarioScore(**s) for s in line["scores"]]
        except (ValueError, KeyError, TypeError):
            continue  # a torn last line (killed mid-write) or a line of another shape: that job runs again
        if job in wanted:
            finished[job] = scores
    return finished


def append_checkpoint(path: Path, job: tuple[str, int, bool], scores: Sequence[Any]) -> None:
    """One line for a finished job, flushed and fsync-ed (a kill loses at most the line being written)."""
    line = json.dumps({"brain": job[0], "seed": job[1], "c10": job[2], "scores": [s.to_dict() for s in scores]})
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())


def _collect(collected: dict[str, dict[str, list[Any]]], name: str, scores: Sequence[Any]) -> None:
    for score in scores:
        collected[name].setdefault(score.scenario_id, []).append(score)


def panel_job(name: str, seed: int, include_c10: bool, body: str = SOURCE_BODY,
         bench: Sequence[str] = BENCH_CATEGORIES) -> tuple[str, list[Any]]:
    """Every bench scenario (and C10) for one panel brain and one seed; scores without their evidence. Paired
    rules (:mod:`wmbench.scoring.pairs`) are applied as in a run; C10 runs the brain itself closed loop on
    every transfer body (:func:`wmbench.harness.transfer.measure.measure_c10_brain`)."""
    brain = get_panel_brain(name)
    try:
        lines = _bench_lines(brain, name, seed, body, bench)
    finally:
        brain.close()
    by_scenario = _bench_scores(lines)
    if include_c10:
        by_scenario.update(measure_c10_brain(lambda: get_panel_brain(name), seeds=(seed,), brain_label=name,
                                             diagnostics=False, score_only=True))
    return name, _without_evidence(by_scenario, seed)


def _bench_lines(brain: Brain, label: str, seed: int, body: str, bench: Sequence[str]) -> list[EpisodeLine]:
    """The episode lines of ``brain`` on every bench scenario of the categories ``bench`` (one reused env)."""
    return [episode_line(run_episode(record.id, brain, body, seed, brain_label=label, reuse_env=True))
            for record in all_scenarios() if record.mode == "bench" and record.category in bench]


def _bench_scores(lines: Sequence[EpisodeLine]) -> dict[str, list[Any]]:
    """``{scenario: [score]}`` of episode ``lines``, paired rules (:mod:`wmbench.scoring.pairs`) applied as in a
    run."""
    by_scenario: dict[str, list[Any]] = {}
    paired = []
    for line in lines:
        by_scenario[line["scenario"]] = [score_line(line)]
        trace = paired_trace(line)
        if trace is not None:
            paired.append(trace)
    rescore_pairs(paired, by_scenario)
    return by_scenario


def _without_evidence(by_scenario: Mapping[str, list[Any]], seed: int) -> list[Any]:
    """The scores with their evidence dropped (it is large) but for the failure labels of the lost points."""
    return [replace(score, evidence=labels_only(score.evidence), seed=seed)
            for entries in by_scenario.values() for score in entries]


def labels_only(evidence: Mapping[str, Any]) -> dict[str, Any]:
    """An episode's evidence cut down to its failure labels (what :func:`count_labels` reads)."""
    labels = episode_labels(evidence) if isinstance(evidence, Mapping) else []
    return {"decisions": [{"label": label} for label in labels]} if labels else {}


def brain_scores(name: str, by_scenario: Mapping[str, list[Any]], wanted: Sequence[str]) -> BrainScores:
    summary = summarize({sid: sorted(scores, key=lambda s: s.seed or 0) for sid, scores in by_scenario.items()})
    categories = {}
    for c in wanted:
        entry = summary["categories"][c]
        ci = entry.get("ci95")
        categories[c] = CategoryScore(float(entry["score"]), (float(ci[0]), float(ci[1])) if ci else None)
    scenarios = {sid: e["score"] for sid, e in summary["scenarios"].items()
                 if e["measured"] and e["score"] is not None}  # measured: the score is never None
    counts = count_labels(by_scenario)["categories"]
    return BrainScores(name, lacks(name), categories, scenarios, {c: counts[c] for c in wanted if c in counts})


def _member_line(line: EpisodeLine, name: str, reply: str) -> EpisodeLine:
    trace = line.get("trace")
    return {**line, "brain": name, "trace": with_reply(trace, reply) if trace else trace}


def group_job(names: Sequence[str], seed: int, include_c10: bool, body: str = SOURCE_BODY,
              bench: Sequence[str] = BENCH_CATEGORIES, transfer: Sequence[str] = C10_IDS
              ) -> dict[str, list[ScenarioScore]]:
    """:func:`panel_job` for every brain of one :func:`~wmbench.harness.validity.motion_groups.motion_groups`
    group of constant replies: ``{name: scores}``, each brain's scores as ``panel_job(name, ...)`` gives them.
    Each bench episode and each C10 run (score-only) is run once, with the group's first constant; every member
    is scored on its own trace (:func:`~wmbench.harness.validity.motion_groups.with_reply`) by the same scorers,
    paired rules applied, evidence cut to the failure labels. C10's score-only runs stop where a body's quality is
    settled, which reads only the physical outcome and whether each reply was read: the same for every member.
    ``transfer``: the C10 scenarios measured when ``include_c10`` (all of them, as ``panel_job``)."""
    replies = {name: constant_reply(name) for name in names}
    if not names or any(reply is None for reply in replies.values()) or len(
            {motion_key(reply) for reply in replies.values() if reply is not None}) != 1:
        raise ValueError(f"group_job needs constant replies of one motion (a group of motion_groups), got "
                         f"{list(names)!r}")
    first = names[0]
    brain = get_panel_brain(first)
    try:
        lines = _bench_lines(brain, first, seed, body, bench)
        runs = {sid: run_bodies(get_scenario(sid), brain, seed, TRANSFER_BODIES, brain_label=first,
                                score_only=True) for sid in (transfer if include_c10 else ())}
    finally:
        brain.close()
    out: dict[str, list[ScenarioScore]] = {}
    for name in names:
        reply = replies[name]
        assert reply is not None  # checked above
        by_scenario = _bench_scores([line if name == first else _member_line(line, name, reply) for line in lines])
        for sid, per_body in runs.items():
            own_runs = per_body if name == first else {
                body_name: [(variant, None if trace is None else Trace.from_dict(with_reply(trace.to_dict(), reply)),
                             error) for variant, trace, error in body_runs]
                for body_name, body_runs in per_body.items()}
            by_scenario[sid] = [score_brain_transfer(sid, seed, own_runs, {})]
        out[name] = _without_evidence(by_scenario, seed)
    return out


def panel_jobs(names: Sequence[str], seed: int, include_c10: bool, body: str = SOURCE_BODY,
               bench: Sequence[str] = BENCH_CATEGORIES) -> dict[str, list[ScenarioScore]]:
    """``{name: scores}`` of the brains ``names``, one :func:`~wmbench.harness.validity.motion_groups.motion_groups`
    group (several constant replies of one motion: :func:`group_job`) or one brain (:func:`panel_job`)."""
    if len(names) == 1:
        return {names[0]: panel_job(names[0], seed, include_c10, body, bench)[1]}
    return group_job(names, seed, include_c10, body, bench)
