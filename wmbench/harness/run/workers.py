"""Running suite episodes concurrently: worker processes, and collecting results so Ctrl-C loses nothing.

Card
----
- :func:`results_in_processes`: a ``spawn`` process pool (fork is unsafe with threads and pybullet clients)
  whose workers ignore Ctrl-C (the parent decides), build the brain once each (closed when the worker exits)
  and run one episode per task. Each worker is handed the scenario records of the episodes it may run and
  registers any its own registry lacks or holds differently, so a scenario added with ``register()`` in the
  parent runs (and is scored) with any number of workers. The pool is
  :func:`~wmbench.harness.run.pool.worker_pool`: workers die with the parent (a ``kill -9`` of the parent
  leaves no orphans) and a Ctrl-C while they start prints no worker traceback.
- :func:`stream_results`: results as they finish, with at most ``window`` tasks submitted at a time, so the
  parent holds a bounded number of results however long the run (a finished result is handed on and
  forgotten). On Ctrl-C it submits nothing more, lets what is running finish and yields it, then re-raises;
  the pool is shut down either way. Every executor call runs inside
  :func:`~wmbench.harness.run.interrupts.interrupts_after`, so a signal never leaves one of its locks held.
  The runner streams its thread pool (remote brains) with it too.

The runner (:mod:`wmbench.harness.suite`) chooses the executor and logs each result as it arrives.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from itertools import chain
from typing import Any

from wmbench.brain.base import Brain
from wmbench.brain.registry import get_brain
from wmbench.harness.run.episode import EpisodeResult, run_episode
from wmbench.harness.run.interrupts import POLL_S, completed, interrupts_after, resend
from wmbench.harness.run.pool import worker_pool
from wmbench.harness.run.selection import EpisodeSpec
from wmbench.scenarios import Scenario, get_scenario, register
from wmbench.scenarios.registry import all_scenarios

#: Tasks in flight per worker: enough to keep every worker busy, few enough that memory stays bounded.
TASKS_PER_WORKER = 2


def results_in_processes(todo: Sequence[EpisodeSpec], brain: str, options: Mapping[str, Any], body: str,
                         env_kwargs: Mapping[str, Any], workers: int) -> Iterator[EpisodeResult]:
    """The episodes of ``todo`` run by up to ``workers`` worker processes (each builds brain ``brain`` once),
    as they finish (see :func:`stream_results`)."""
    size = min(workers, len(todo))
    records = _records_for(todo)
    # spawn workers that die with this process and ignore Ctrl-C (harness/run/pool.py)
    pool = worker_pool(size, _init_worker, (brain, dict(options), records))
    kwargs = dict(env_kwargs)
    yield from stream_results(pool, lambda spec: pool.submit(_run_in_worker, spec, body, kwargs, brain), todo,
                              window=TASKS_PER_WORKER * size)


def stream_results(pool: Executor, start: Callable[[EpisodeSpec], Future[EpisodeResult]],
                   todo: Iterable[EpisodeSpec], window: int) -> Iterator[EpisodeResult]:
    """Results of ``start(spec)`` for each spec of ``todo`` as they finish, at most ``window`` in flight."""
    specs = iter(todo)
    pending: set[Future[EpisodeResult]] = set()
    ready: list[Future[EpisodeResult]] = []
    try:  # every executor call sits inside interrupts_after: a signal never leaves one of its locks held
        for spec in specs:
            with interrupts_after():
                pending.add(start(spec))
            if len(pending) >= max(1, window):
                break
        while pending or ready:
            while not ready:
                with interrupts_after():
                    done, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
                    ready.extend(done)
            with interrupts_after():  # refill before handing the result on, so the workers stay busy
                refill = next(specs, None)
                if refill is not None:
                    pending.add(start(refill))
            with interrupts_after(resend_on_exit=False) as noted:  # a finished result is handed on first
                future = ready.pop()
                result = future.result()
            del future  # nothing keeps a handed-on result alive
            yield result
            resend(noted)
    except KeyboardInterrupt:
        for future in pending:
            future.cancel()  # only those not yet started can be cancelled
        running = [f for f in pending if not f.cancelled()]
        print(f"\nstopping: waiting for {len(ready) + len(running)} running episode(s) to finish", file=sys.stderr)
        # the results that had finished go first, in order; then the running ones as they finish
        for future in chain(ready, completed(running)):
            if future.exception() is None:
                yield future.result()
        raise
    finally:  # joined, so the interpreter's exit never races the pool's manager thread (run/pool.py)
        pool.shutdown(wait=True, cancel_futures=True)


def _records_for(todo: Sequence[EpisodeSpec]) -> tuple[Scenario, ...]:
    """The records of the scenarios in ``todo``, as this (parent) process's registry holds them."""
    return tuple(get_scenario(sid) for sid in sorted({spec.scenario for spec in todo}))


_WORKER_BRAIN: Brain | None = None


def _init_worker(spec: str, options: dict[str, Any], records: Sequence[Scenario]) -> None:
    """Process-pool initializer (after :func:`~wmbench.harness.run.pool.worker_pool` made the worker die with
    the parent and ignore Ctrl-C): register the parent's scenario records, build this worker's brain once."""
    global _WORKER_BRAIN
    _register_records(records)

    _WORKER_BRAIN = get_brain(spec, **options)
    multiprocessing.util.Finalize(None, _WORKER_BRAIN.close, exitpriority=10)


def _register_records(records: Sequence[Scenario]) -> None:
    """Make this process's registry hold exactly the parent's version of each record."""
    here = {r.id: r for r in all_scenarios()}
    for record in records:
        if here.get(record.id) != record:
            register(record, overwrite=True)


def _run_in_worker(spec: EpisodeSpec, body: str, env_kwargs: dict[str, Any], label: str) -> EpisodeResult:
    assert _WORKER_BRAIN is not None, "worker brain missing: _init_worker did not run"
    return run_episode(spec.scenario, _WORKER_BRAIN, body, spec.seed, env_kwargs, brain_label=label,
                       reuse_env=True)  # one PyBullet client per worker, reset between episodes
