"""Running suite episodes concurrently: worker processes, and collecting results so Ctrl-C loses nothing.

Card
----
- :func:`results_in_processes`: a ``spawn`` process pool (fork is unsafe with threads and pybullet clients)
  whose workers ignore Ctrl-C (the parent decides), build the brain once each (closed when the worker exits)
  and run one episode per task.
- :func:`drain`: results of an executor's futures as they finish. On Ctrl-C it cancels what has not
  started, lets what is running finish and yields it, then re-raises; the pool is shut down either way.
  The runner drains its thread pool (remote brains) with it too.

The runner (:mod:`wmbench.harness.runner`) chooses the executor and logs each result as it arrives.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any

from wmbench.brain.base import Brain
from wmbench.harness.episode import EpisodeResult, run_episode
from wmbench.harness.selection import EpisodeSpec


def results_in_processes(todo: Sequence[EpisodeSpec], brain: str, options: Mapping[str, Any], body: str,
                         env_kwargs: Mapping[str, Any], workers: int) -> Iterator[EpisodeResult]:
    """The episodes of ``todo`` run by up to ``workers`` worker processes (each builds brain ``brain`` once),
    as they finish (see :func:`drain`)."""
    context = multiprocessing.get_context("spawn")  # fork is unsafe with threads and with pybullet clients
    pool = ProcessPoolExecutor(max_workers=min(workers, len(todo)), mp_context=context,
                               initializer=_init_worker, initargs=(brain, dict(options)))
    futures = [pool.submit(_run_in_worker, spec, body, dict(env_kwargs), brain) for spec in todo]
    yield from drain(pool, futures)


def drain(pool: Executor, futures: Sequence[Future[EpisodeResult]]) -> Iterator[EpisodeResult]:
    """Results as they finish. On Ctrl-C: cancel what has not started, let what is running finish and yield
    it (an episode is seconds of work; threads and processes cannot be stopped mid-call), then re-raise."""
    yielded: set[Future[EpisodeResult]] = set()
    try:
        for future in as_completed(futures):
            yielded.add(future)
            yield future.result()
    except KeyboardInterrupt:
        for future in futures:
            future.cancel()  # only those not yet started can be cancelled
        left = [f for f in futures if f not in yielded and not f.cancelled()]
        print(f"\nstopping: waiting for {len(left)} running episode(s) to finish", file=sys.stderr)
        for future in as_completed(left):
            if future.exception() is None:
                yield future.result()
        raise
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


_WORKER_BRAIN: Brain | None = None


def _init_worker(spec: str, options: dict[str, Any]) -> None:
    """Process-pool initializer: ignore Ctrl-C (the parent decides) and build this worker's brain once."""
    global _WORKER_BRAIN
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from wmbench.brain.registry import get_brain

    _WORKER_BRAIN = get_brain(spec, **options)
    multiprocessing.util.Finalize(None, _WORKER_BRAIN.close, exitpriority=10)


def _run_in_worker(spec: EpisodeSpec, body: str, env_kwargs: dict[str, Any], label: str) -> EpisodeResult:
    assert _WORKER_BRAIN is not None, "worker brain missing: _init_worker did not run"
    return run_episode(spec.scenario, _WORKER_BRAIN, body, spec.seed, env_kwargs, brain_label=label)
