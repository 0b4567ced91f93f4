"""The local executor: this machine's worker processes (or threads for API brains) — ``wmbench run``'s default.

Card
----
- **Processes** (``workers > 1``, a brain computed in Python): :func:`wmbench.harness.run.workers.
  results_in_processes`, each worker building the brain once and reusing one env.
- **Threads** (API brains, ``openai/...``): ``episodes_per_connection × max_connections`` episodes at once
  (default 2×), one brain instance per thread, under one connection budget of ``max_connections`` requests
  in flight per endpoint (:func:`wmbench.brain.providers.endpoint_gate.connection_budget`): a brain holds a slot only
  while its request is out, so while one episode builds its world or steps its motion another one's
  request uses the connection. Episodes start longest first, and a free slot goes to the waiting request
  of the episode with the most decisions still to come (:func:`~wmbench.brain.providers.endpoint_gate.
  episode_priority`), so the run's tail is as short as the episodes allow.
  The threads' brains are built one at a time (an API client costs ~50 ms of CPU; built all at once under
  the GIL, every episode's first request waits for the last build). ``episodes_per_connection=1,
  serial_builds=False`` is the 0.4 behaviour (one episode per connection), kept for the benchmark.
- **Inline** (``workers == 1``, or local-model brains ``hf/``/``onnx/``: one model copy in memory).

This is the same split :func:`wmbench.harness.suite.run_suite` makes when it is given no executor; a sweep
passes one so that both executors go through one seam (:class:`~wmbench.harness.executors.base.Executor`).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

from wmbench.brain.base import Brain
from wmbench.brain.providers.endpoint_gate import connection_budget, episode_priority
from wmbench.brain.registry import get_brain
from wmbench.harness.executors.base import EpisodeJob, expected_decisions, longest_first
from wmbench.harness.run.env_reuse import close_all
from wmbench.harness.run.episode import EpisodeResult, run_episode
from wmbench.harness.run.selection import EpisodeSpec
from wmbench.harness.run.workers import results_in_processes, stream_results

#: API brains: episodes running per connection of the budget (their requests share ``max_connections`` slots;
#: the suite's API path reads it too). Two keep a connection busy while one episode simulates between requests.
EPISODES_PER_CONNECTION = 2

#: Brain spec prefixes served over the network (threads: the work is waiting).
REMOTE_PREFIXES: tuple[str, ...] = ("openai/",)
#: Brains that load a model in-process: one episode at a time.
LOCAL_MODEL_PREFIXES: tuple[str, ...] = ("hf/", "onnx/")


class LocalExecutor:
    """Episodes on this machine (see the module card)."""

    name = "local"

    def __init__(self, order: str = "longest", episodes_per_connection: int = EPISODES_PER_CONNECTION,
                 serial_builds: bool = True) -> None:
        if order not in ("longest", "given"):
            raise ValueError(f"order must be 'longest' or 'given', got {order!r}")
        if episodes_per_connection < 1:
            raise ValueError(f"episodes_per_connection must be at least 1, got {episodes_per_connection}")
        #: API brains' episodes: ``longest`` first (default), or in the ``given`` order (the old behaviour,
        #: kept for the before/after benchmark)
        self.order = order
        #: API brains: episodes running per connection of the budget (1: one each, the 0.4 behaviour)
        self.episodes_per_connection = episodes_per_connection
        #: build the threads' brains one at a time (False: all at once, the 0.4 behaviour)
        self.serial_builds = serial_builds
        self._brains: list[Brain] = []
        self._lock = threading.Lock()
        self._building = threading.Lock()

    def results(self, todo: Sequence[EpisodeSpec], job: EpisodeJob) -> Iterator[EpisodeResult]:
        if not todo:
            return iter(())
        if job.brain.startswith(REMOTE_PREFIXES):
            ordered = longest_first(todo) if self.order == "longest" else sorted(todo)
            connections = max(1, job.max_connections)
            return self._threads(ordered, job, connections * self.episodes_per_connection, connections)
        if job.workers > 1 and not job.brain.startswith(LOCAL_MODEL_PREFIXES):
            return results_in_processes(todo, job.brain, job.brain_options, job.body, job.env_kwargs,
                                        job.workers)
        return self._threads(todo, job, 1)

    def _threads(self, todo: Sequence[EpisodeSpec], job: EpisodeJob, threads: int,
                 connections: int | None = None) -> Iterator[EpisodeResult]:
        """``todo`` on ``threads`` threads; ``connections``: the endpoint budget of an API brain (None: none)."""
        local = threading.local()

        def run(spec: EpisodeSpec) -> EpisodeResult:
            brain = getattr(local, "brain", None)
            if brain is None:
                with self._building if self.serial_builds else contextlib.nullcontext():  # one at a time: the
                    # first episodes start at once (suite.py's _BrainPool says why)
                    brain = local.brain = get_brain(job.brain, **dict(job.brain_options))
                with self._lock:
                    self._brains.append(brain)
            with episode_priority(expected_decisions(spec)):  # most decisions to come: first to a free slot
                return run_episode(spec.scenario, brain, job.body, spec.seed, job.env_kwargs,
                                   brain_label=job.brain, reuse_env=True)

        budget = connection_budget(connections) if connections is not None else contextlib.nullcontext()
        try:
            with budget:
                if threads <= 1:
                    for spec in todo:
                        yield run(spec)
                    return
                pool = ThreadPoolExecutor(max_workers=min(threads, len(todo)), thread_name_prefix="wmbench-episode")
                yield from stream_results(pool, lambda spec: pool.submit(run, spec), todo, window=2 * threads)
        finally:
            if threads <= 1:
                close_all()  # this thread's reused env (pool threads' envs end with them)
            self.close()

    def close(self) -> None:
        with self._lock:
            brains, self._brains = self._brains, []
        for brain in brains:
            brain.close()
