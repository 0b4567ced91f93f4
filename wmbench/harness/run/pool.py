"""The one worker pool every command that starts worker processes uses (run, validity, and what builds on them).

Card
----
- :func:`worker_pool` returns a ``spawn`` :class:`~concurrent.futures.ProcessPoolExecutor` (fork is unsafe with
  threads and pybullet clients) whose workers, before anything else:

  * **die with the parent**: Linux's parent-death signal (``PR_SET_PDEATHSIG``, SIGKILL) and, everywhere, a
    watchdog thread that exits the worker once its parent process is gone — a ``kill -9`` of the parent
    leaves no orphan workers (and so no orphan ``resource_tracker``, which exits when its last user does);
  * **ignore Ctrl-C**: the terminal sends SIGINT to the whole process group; the parent decides what stops.
    SIGINT is *blocked* in the parent's thread while a worker is being started (the mask is inherited through
    fork and exec), and the worker ignores it before unblocking, so a Ctrl-C that lands while workers start
    prints no worker ``KeyboardInterrupt`` traceback; the parent gets its Ctrl-C as soon as the start is done.

  then run the caller's ``initializer``.
- :meth:`GuardedPool.stop_now`: drop the queued work and kill the running workers at once, for a caller that
  stops and throws the running jobs' results away (``wmbench validity`` on Ctrl-C or SIGTERM: a job is a whole
  brain and seed, minutes of work the interpreter's exit would otherwise wait for). ``wmbench run`` does not use
  it: it lets its running episodes (seconds each) finish and keeps them.
- **Ending a pool joins it** (``shutdown(wait=True)``, here and in every caller). CPython 3.11's exit hook wakes
  each executor manager thread still alive by writing to its pipe after checking, without a lock, that the pipe
  is open; a manager thread closing the pipe in between makes the exit print an ``OSError`` traceback (seen
  after a SIGTERM of ``wmbench run --workers 2``). A joined manager thread has closed its pipe: the hook writes
  nothing.
- :func:`die_with_parent` is the guarantee itself, for a process started another way.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

#: How often (s) a worker's watchdog checks that its parent is still alive.
PARENT_CHECK_S = 0.5
_PR_SET_PDEATHSIG = 1


class GuardedPool(ProcessPoolExecutor):
    """A ProcessPoolExecutor whose worker starts happen with SIGINT blocked (see module card)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with _sigint_blocked():  # spawn happens inside submit, on this thread
            return super().submit(fn, *args, **kwargs)

    def stop_now(self) -> None:
        """Cancel what has not started and kill the workers running the rest (Python 3.14's
        ``kill_workers()``; 3.11 has none, so the executor's own process table is read)."""
        workers = list((getattr(self, "_processes", None) or {}).values())
        self.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            with contextlib.suppress(OSError, ValueError):
                worker.kill()
        self.shutdown(wait=True)  # the manager thread sees its workers die and ends (see module card)


def worker_pool(workers: int, initializer: Callable[..., None] | None = None,
                initargs: tuple[Any, ...] = ()) -> GuardedPool:
    """A pool of ``workers`` spawn processes with the guarantees of the module card, then ``initializer``."""
    return GuardedPool(max_workers=max(1, int(workers)), mp_context=multiprocessing.get_context("spawn"),
                       initializer=_guarded_init, initargs=(os.getpid(), initializer, initargs))


def _guarded_init(parent_pid: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a pending Ctrl-C is dropped (ignored)
    die_with_parent(parent_pid)
    if initializer is not None:
        initializer(*initargs)


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)  # a Ctrl-C meanwhile arrives now, in the parent


def die_with_parent(parent_pid: int) -> None:
    """Exit this process as soon as ``parent_pid`` is gone: the kernel's parent-death signal where there is
    one (Linux), and a watchdog thread everywhere (also covers a parent that died before this ran)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_S)
            if os.getppid() != parent_pid:
                os._exit(1)  # the parent died: no one will read this worker's results

    threading.Thread(target=watch, name="wmbench-parent-watchdog", daemon=True).start()
