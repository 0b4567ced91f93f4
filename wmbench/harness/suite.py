"""The suite runner behind ``wmbench run``: every selected bench scenario × seed, then ``scores.json``.

::

    scores = run_suite("reference", body="smpl", scenarios="C01,C03", seeds=2, workers=2, out=Path("runs/x"))

1. Resolve the selection; build the brain once in the parent (an unknown brain, body or scenario fails here
   with :class:`RunConfigError`, before anything runs).
2. Skip episodes already in ``out/episodes.jsonl`` (resume), run the rest — in this process (``workers=1``),
   in worker processes that each build the brain once (``workers>1``, :mod:`wmbench.harness.run.workers`),
   or in threads for remote brains (``openai/...``), one brain instance per concurrent episode — and append
   each line as it finishes.
3. Score *every* line of the run from ``episodes.jsonl``, sorted by (scenario, seed), so a resumed run scores
   exactly like an uninterrupted one (the lines this run wrote were scored as they were written, while other
   episodes waited: :mod:`wmbench.harness.report.overlap`); hand non-bench scenarios (C09 live, C10 transfer)
   to the measurer passed for their mode (:func:`default_measurers` unless the caller passes its own), or
   report them as not measured (:mod:`wmbench.harness.run.scores`); write ``scores.json``.

Ctrl-C stops cleanly: nothing new starts, episodes already running finish and are kept (a second Ctrl-C
abandons them), and :class:`RunInterrupted` says how many are done. Rerun the same command to resume.
"""

from __future__ import annotations

import queue
import sys
import threading
import warnings
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import wmbench
from wmbench.body.motion.registry import selected_generator_name
from wmbench.body.registry import resolve_body_class
from wmbench.brain.base import Brain
from wmbench.brain.providers.endpoint_gate import connection_budget, episode_priority
from wmbench.brain.registry import get_brain
from wmbench.core.errors import ConfigError, RunError, WMBenchError
from wmbench.core.progress import progress_bar
from wmbench.core.redaction import Redactor
from wmbench.envs.pacing import BODY_PACE, run_pace
from wmbench.harness.executors.base import EpisodeJob, Executor, expected_decisions, longest_first
from wmbench.harness.executors.local import EPISODES_PER_CONNECTION
from wmbench.harness.live.c09 import skip_live
from wmbench.harness.report.overlap import RunOverlap
from wmbench.harness.report.plots import prewarm_in_background
from wmbench.harness.report.writer import REPORT_HTML, REPORT_MD, write_reports
from wmbench.harness.run.env_reuse import close_all
from wmbench.harness.run.episode import EpisodeResult, run_episode
from wmbench.harness.run.guard import RunGuard, RunStopped, mark_stopped
from wmbench.harness.run.instances import InstanceDraw, scored_seeds, split_record
from wmbench.harness.run.lock import holds_run_lock
from wmbench.harness.run.measure import MeasureContext, Measurer, registered_measurers
from wmbench.harness.run.out_dir import check_run_dir
from wmbench.harness.run.rerun import (
    keys_to_score,
    merge_with_previous,
    previous_selection,
    union_config,
)
from wmbench.harness.run.results import (
    EPISODES_FILE,
    EpisodeKey,
    EpisodeLog,
    write_run_config,
    write_scores,
)
from wmbench.harness.run.scores import not_measured_score, score_run
from wmbench.harness.run.selection import EpisodeSpec, SuitePlan, plan_suite
from wmbench.harness.run.workers import results_in_processes, stream_results
from wmbench.harness.transfer import measure as _transfer  # noqa: F401  (registers the ``transfer`` measurer)
from wmbench.scenarios import Scenario
from wmbench.scoring.report_types import ScenarioScore
from wmbench.scoring.scores_file import Scores

#: Brain spec prefixes served over the network: threads are enough for them (the work is waiting).
REMOTE_BRAIN_PREFIXES: tuple[str, ...] = ("openai/",)
#: Concurrent episodes (so requests in flight) for remote brains, independent of ``--workers``.
DEFAULT_MAX_CONNECTIONS = 8
#: Brains that load a model in-process: one episode at a time, so there is one copy of the model in memory
#: (simplified: no overlap of simulation and inference; the simulation is a small part of an episode's time).
LOCAL_MODEL_PREFIXES: tuple[str, ...] = ("hf/", "onnx/")


class RunConfigError(ConfigError):
    """The run cannot start: unknown scenario, brain or body, or an out directory holding another run."""


class RunFailed(RunError):
    """The run could not go on (a worker process died); finished episodes are kept and a rerun resumes."""


class RunInterrupted(WMBenchError):
    """Ctrl-C: the run stopped; ``done`` of ``total`` episodes are in ``out`` and a rerun resumes."""

    def __init__(self, done: int, total: int, out: Path) -> None:
        super().__init__(f"interrupted: {done} of {total} episodes finished and kept in {out}; "
                         f"rerun the same command to resume")
        self.done, self.total, self.out = done, total, out


@holds_run_lock  # one writer per run directory (harness/run/lock.py)
def run_suite(
    brain: str,
    body: str = "smpl",
    scenarios: str = "all",
    seeds: int | Sequence[int] | InstanceDraw = 1,
    workers: int = 1,
    out: Path | str = Path("runs/latest"),
    brain_options: Mapping[str, Any] | None = None,
    progress: bool = True,
    *,
    env_kwargs: Mapping[str, Any] | None = None,
    measurers: Mapping[str, Measurer] | None = None,
    live: bool = True,
    reports: bool = True,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    limit: int | None = None,
    guard: RunGuard | None = None,
    executor: Executor | None = None,
    overlap: bool = True,
) -> Scores:
    """Run (or resume) a suite into ``out`` and return the ``scores.json`` dict (also written there).

    ``seeds``: a count (0..N-1), explicit seeds, or an :class:`~wmbench.harness.run.instances.InstanceDraw`
    (seed 0 and the test seeds drawn from its nonce, recorded in run.json and scores.json). Seed 0 is spec
    fidelity, reported apart; the WM Score is over the other seeds (:mod:`wmbench.harness.run.instances`).
    ``measurers`` maps non-bench modes to their measurer (default: :func:`default_measurers`).
    ``live``: measure C09 with short live runs (:mod:`wmbench.harness.live.c09`, kept in ``live.json``); False
    reports C09 as not measured. ``reports``: write report.md, report.html and leaderboard_entry.json.
    ``max_connections``: concurrent episodes for remote (``openai/``) brains, whatever ``workers`` says.
    ``limit``: run only the first N episodes of the selection (a quick try). ``guard`` decides when a failing
    brain stops the run early (default :class:`~wmbench.harness.run.guard.RunGuard`).
    ``executor`` runs the episodes (:mod:`wmbench.harness.executors`: ``local`` or ``ray``; default: this
    machine, as described above). API brains' episodes start longest first.
    ``overlap``: score each line as it is written and, for API brains, draw the report's plots in helper
    processes started during the run (:mod:`wmbench.harness.report.overlap`; the same scores and report);
    False does both after the last episode, as before the overlap (kept for the benchmark).
    Raises :class:`RunConfigError` before running anything if the configuration is wrong,
    :class:`RunInterrupted` on Ctrl-C (finished episodes are kept), and :class:`RunStopped` after writing
    the scores of the finished episodes when the brain could not go on.
    """
    out = Path(out)
    options = dict(brain_options or {})
    env_kwargs = dict(env_kwargs or {})
    workers = max(1, int(workers))
    draw = seeds if isinstance(seeds, InstanceDraw) else None
    try:
        plan = plan_suite(scenarios, seeds.seeds if isinstance(seeds, InstanceDraw) else seeds)
        check_run_dir(out)
    except ValueError as err:
        raise RunConfigError(str(err)) from None
    if limit is not None and limit < 1:
        raise RunConfigError(f"--limit must be at least 1, got {limit}")
    if measurers is not None and "bench" in measurers:
        raise RunConfigError("bench scenarios are run by run_suite itself; pass measurers for other modes only")
    scored_plan, merged_fields = merge_with_previous(plan, previous_selection(out))
    parent_brain = _build_brain(brain, options)
    stopped: str | None = None
    running: RunOverlap | None = None
    try:
        _check_body(body)
        redactor = Redactor.for_options(options)
        try:
            write_run_config(out, union_config({**_run_config(brain, body, plan, workers, options, env_kwargs, draw),
                                                **_providers_of(parent_brain)}, merged_fields), redactor)
        except ValueError as err:
            raise RunConfigError(str(err)) from None
        log = EpisodeLog(out / EPISODES_FILE, redactor)
        episodes = plan.episodes if limit is None else plan.episodes[:limit]
        keys = {_key(spec, body, brain): spec for spec in episodes}
        done = log.done_keys()
        todo = sorted(spec for key, spec in keys.items() if key not in done)
        remote = brain.startswith(REMOTE_BRAIN_PREFIXES)
        if remote:  # latency-bound: the run ends with its longest episode, so that one starts first
            todo = longest_first(todo)
        # lines scored as they are written; API brains: plots drawn by helper processes (overlap.py)
        running = RunOverlap(out / EPISODES_FILE, todo, plots=remote and reports, scores=overlap)
        if remote and reports and not overlap:  # as before: the report's imports load while the episodes wait
            prewarm_in_background()
        concurrency = max_connections if remote else workers
        job = EpisodeJob(brain, body, options, env_kwargs, _selected_motion_model(), workers, max_connections)
        try:
            _run_episodes(todo, brain, options, body, env_kwargs, concurrency, log, parent_brain,
                          total=len(keys), progress=progress, out=out, guard=guard or RunGuard(),
                          executor=executor, job=job, overlap=running)
        except RunStopped as stop:
            stopped = stop.reason
    except BaseException:  # only cleans up and re-raises (Ctrl-C and errors alike)
        if running is not None:
            running.close()  # its plot workers (the run stops here)
        raise
    finally:
        parent_brain.close()
    # C09/C10 measure on the test instances only (seed 0 is spec fidelity, reported for bench episodes)
    context = MeasureContext(brain, options, body, scored_seeds(scored_plan.seeds), workers, out, progress,
                             env_kwargs)
    chosen = _with_live(measurers, live) if stopped is None else _stopped_measurers(plan, stopped)
    assert running is not None  # set before the episodes run, or the block above raised
    try:
        scores = score_run(scored_plan, log, keys_to_score(keys, log.done_keys(), body, brain), context, chosen,
                           split_record(scored_plan.seeds, draw), running.scores)
        if stopped is not None:
            mark_stopped(scores, stopped)
        write_scores(out, scores)
        if reports:
            _write_reports(out, scores, running)
    finally:
        running.close()
    if stopped is not None:
        raise RunStopped(stopped, scores)
    return scores


def default_measurers(live: bool = True) -> dict[str, Measurer]:
    """The measurers of a default run: every registered one (:func:`~wmbench.harness.run.measure.measurer`:
    C10's closed-loop transfer, C09's live runs); ``live`` False puts a stand-in that reports C09 as skipped
    in the live mode's place, as ``--no-live`` does. This module imports both measuring modules, so both
    are registered whoever imports the suite."""
    chosen = registered_measurers()
    if not live:
        chosen["live"] = skip_live
    return chosen


def _with_live(measurers: Mapping[str, Measurer] | None, live: bool) -> dict[str, Measurer]:
    """The measurers to use: those given, exactly (without ``live`` the live mode gets the skipping stand-in);
    by default :func:`default_measurers`."""
    chosen = default_measurers(live) if measurers is None else dict(measurers)
    if not live:
        chosen["live"] = skip_live
    return chosen


def _stopped_measurers(plan: SuitePlan, reason: str) -> dict[str, Measurer]:
    """Stand-ins for every non-bench mode of a stopped run: a broken brain is not measured (no silent zero)."""
    def not_measured(group: Sequence[Scenario], context: MeasureContext) -> dict[str, list[ScenarioScore]]:
        return {s.id: [not_measured_score(s, f"the run stopped early ({reason})")] for s in group}

    return {mode: not_measured for mode in plan.by_mode}


def _write_reports(out: Path, scores: Scores, overlap: RunOverlap | None = None) -> None:
    """report.md, report.html, leaderboard_entry.json; a failure warns but never loses the scores."""
    try:
        write_reports(out, scores, plot_workers=overlap.plots if overlap is not None else None)
    except Exception as err:  # plotting/HTML (optional extras, disk) must never lose the written scores.json
        for stale in (REPORT_HTML, REPORT_MD):  # an older report would not describe these scores
            (out / stale).unlink(missing_ok=True)
        warnings.warn(f"could not write the report in {out} ({type(err).__name__}: {err}); "
                      f"scores.json is complete, retry with `wmbench report {out}`", stacklevel=2)


# ---------------------------------------------------------------------------------------------- configuration


def _build_brain(spec: str, options: Mapping[str, Any]) -> Brain:
    try:
        return get_brain(spec, **options)
    except Exception as err:  # the user's brain (spec, plugin, constructor) refused: one clear config error
        raise RunConfigError(f"cannot build brain {spec!r}: {err}") from None


def _check_body(body: str) -> None:
    """Resolve the body's class now, so an unknown body fails before the run, not once per episode."""
    try:
        resolve_body_class(body)
    except (KeyError, ImportError) as err:
        raise RunConfigError(err.args[0] if err.args else str(err)) from None


def _run_config(brain: str, body: str, plan: SuitePlan, workers: int, options: Mapping[str, Any],
                env_kwargs: Mapping[str, Any], draw: InstanceDraw | None = None) -> dict[str, Any]:
    return {
        "brain": brain,
        "body": body,
        "motion_model": _selected_motion_model(),
        "selection": plan.selection,
        "scenarios": list(plan.scenario_ids),
        "seeds": list(plan.seeds),
        "instances": split_record(plan.seeds, draw),
        "workers": workers,
        "brain_options": dict(options),
        "env_kwargs": dict(env_kwargs),
        **_pace_field(body, env_kwargs),
        "version": wmbench.__version__,
        "python": sys.version.split()[0],
        "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def _pace_field(body: str, env_kwargs: Mapping[str, Any]) -> dict[str, float]:
    """``pace``: the pace the bench scenes are played at, on a body slower than the character (absent on the
    character, so its run.json is as before; :func:`~wmbench.envs.pacing.run_pace`)."""
    pace = run_pace(body, env_kwargs.get("pace", BODY_PACE))
    return {} if pace is None else {"pace": pace}


def _providers_of(brain: Brain) -> dict[str, list[str]]:
    """``brain_providers``: the execution providers a local model's session really got (``onnx/``), if any."""
    providers = getattr(brain, "providers", None)
    return {"brain_providers": [str(p) for p in providers]} if isinstance(providers, (list, tuple)) else {}


def _selected_motion_model() -> str:
    return selected_generator_name()


def _key(spec: EpisodeSpec, body: str, brain: str) -> EpisodeKey:
    return EpisodeKey(spec.scenario, spec.seed, body, brain)


def executor_kind(brain: str, workers: int) -> str:
    """``"inline"`` (workers=1, local model brains), ``"thread"`` (remote brains) or ``"process"``."""
    if workers <= 1 or brain.startswith(LOCAL_MODEL_PREFIXES):
        return "inline"
    return "thread" if brain.startswith(REMOTE_BRAIN_PREFIXES) else "process"


# ------------------------------------------------------------------------------------------------ running


def _run_episodes(todo: Sequence[EpisodeSpec], brain: str, options: Mapping[str, Any], body: str,
                  env_kwargs: Mapping[str, Any], workers: int, log: EpisodeLog, parent_brain: Brain, *,
                  total: int, progress: bool, out: Path, guard: RunGuard | None = None,
                  executor: Executor | None = None, job: EpisodeJob | None = None,
                  overlap: RunOverlap | None = None) -> None:
    kind = executor_kind(brain, min(workers, max(1, len(todo))))
    # a bar on a terminal, a line per 10 % in a log (wmbench.core.progress)
    bar = progress_bar(total, f"wmbench {brain}", "ep", enabled=progress, initial=total - len(todo))
    finished = total - len(todo)
    try:
        if executor is not None and job is not None:  # a sweep's executor (local or Ray) runs them
            results = executor.results(todo, job)
        elif kind == "process":  # each worker process builds its own brain; the parent's stays idle
            results = results_in_processes(todo, brain, options, body, env_kwargs, workers)
        else:
            brains = _BrainPool(brain, options, first=parent_brain)
            results = (_results_in_threads(todo, brains, body, env_kwargs, 1) if kind != "thread" else
                       _api_results_in_threads(todo, brains, body, env_kwargs, workers))
        for result in results:
            if guard is not None and guard.void(result):
                raise RunStopped(guard.check(result) or f"the brain cannot go on: {result.error}")
            text = log.append(result)
            if overlap is not None:
                overlap.written(result.scenario, result.seed, text)
            finished += 1
            bar.update(1)
            if result.error:
                headline = result.error.splitlines()[0]
                bar.write(f"episode {result.scenario} seed {result.seed} failed: {headline}")
            if guard is not None and (reason := guard.check(result)) is not None:
                raise RunStopped(reason)
    except KeyboardInterrupt:
        raise RunInterrupted(finished, total, out) from None
    except BrokenProcessPool as err:
        raise RunFailed(
            f"a worker process died ({err}); {finished} of {total} episodes are kept in {out}. "
            f"Rerun to resume; --workers 1 shows which scenario crashes"
        ) from None
    finally:
        bar.close()
        if kind == "inline":  # this thread's reused env (threads' and workers' envs end with them)
            close_all()


class _BrainPool:
    """Idle brain instances for inline/thread runs: at most one concurrent episode per instance."""

    def __init__(self, spec: str, options: Mapping[str, Any], first: Brain) -> None:
        self.spec, self.options = spec, dict(options)
        self._idle: queue.SimpleQueue[Brain] = queue.SimpleQueue()
        self._idle.put(first)
        self._extra: list[Brain] = []
        self._building = threading.Lock()

    def run(self, spec: EpisodeSpec, body: str, env_kwargs: Mapping[str, Any]) -> EpisodeResult:
        try:
            brain = self._idle.get_nowait()
        except queue.Empty:
            # one build at a time (an API client costs ~50 ms of CPU): built all at once under the GIL, every
            # episode's first request would wait for the last build; one by one, the first ones go out at once
            with self._building:
                brain = _build_brain(self.spec, self.options)
            self._extra.append(brain)
        try:
            with episode_priority(expected_decisions(spec)):  # API brains: most decisions to come, first served
                return run_episode(spec.scenario, brain, body, spec.seed, env_kwargs, brain_label=self.spec,
                                   reuse_env=True)  # one env per thread, reset between episodes (env_reuse)
        finally:
            self._idle.put(brain)

    def close_extra(self) -> None:
        """Close the instances this pool built (the first one belongs to the caller)."""
        for brain in self._extra:
            brain.close()


def _api_results_in_threads(todo: Sequence[EpisodeSpec], brains: _BrainPool, body: str,
                            env_kwargs: Mapping[str, Any], connections: int) -> Iterator[EpisodeResult]:
    """An API brain's episodes: :data:`EPISODES_PER_CONNECTION` × ``connections`` at once under one connection
    budget of ``connections`` requests in flight (:mod:`wmbench.brain.providers.endpoint_gate`), so the connections
    stay busy while episodes build worlds and step motion (the local executor does the same)."""
    with connection_budget(connections):
        yield from _results_in_threads(todo, brains, body, env_kwargs, EPISODES_PER_CONNECTION * connections)


def _results_in_threads(todo: Sequence[EpisodeSpec], brains: _BrainPool, body: str,
                        env_kwargs: Mapping[str, Any], workers: int) -> Iterator[EpisodeResult]:
    try:
        if workers <= 1:
            for spec in todo:
                yield brains.run(spec, body, env_kwargs)
            return
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="wmbench-episode")
        yield from stream_results(pool, lambda spec: pool.submit(brains.run, spec, body, env_kwargs), todo,
                                  window=2 * workers)  # bounded: results are logged and dropped as they come
    finally:
        brains.close_extra()
