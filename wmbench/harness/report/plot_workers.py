"""The report's plots drawn by helper processes started early, so a latency-bound run's report is not matplotlib.

Card
----
- :class:`PlotWorkers` starts ``workers`` Python processes at once (a run starts them while its episodes
  wait on a remote brain); each imports matplotlib and :mod:`wmbench.harness.report.plots` and then draws
  what it is sent: :meth:`PlotWorkers.submit` (``"pillar_radar"``, its arguments) returns a
  :class:`~concurrent.futures.Future` of the PNG bytes (or None), drawn by the first free worker. The
  report submits all its plots first and collects them after, so they are drawn side by side and, under a
  busy machine's fair-share scheduler, with one share each instead of one for all.
- **Drawn once.** A plot whose function and arguments (pickled) were submitted before gets the first
  future back: a run can submit a plot as soon as its data is final (the intensity plot, once its
  scenarios' episodes are in) and the report's own later submit finds it drawn.
- **Same bytes.** The workers call the very functions the report calls in-process, with the same
  arguments, so the PNG bytes are the same (matplotlib's Agg output is deterministic). A worker that cannot
  start, dies, answers with an error or takes longer than :data:`RESULT_TIMEOUT_S` fails its futures with
  :class:`PlotWorkerError`; :func:`collect` then draws that plot in this process, as before, so a broken
  worker never changes a report (and a plot that fails in-process still fails as before).
- The workers ignore Ctrl-C (their own session), die with this process (Linux's parent-death signal; the
  end of their stdin everywhere) and leave when :meth:`PlotWorkers.close` closes their stdin. They import
  this module (and with it the ``wmbench`` package and the plots) while the run waits, and speak
  length-prefixed pickles over their stdin/stdout (their own stdout goes to stderr, so a stray print cannot
  break it).
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import IO, Any

from wmbench.core.errors import RunError
from wmbench.harness.report import plots

#: The plotting functions of :mod:`wmbench.harness.report.plots` a worker may be asked to call.
PLOT_FUNCTIONS = frozenset({"pillar_radar", "category_bars", "intensity_over_time", "latency_histogram",
                            "horizon_curve", "frontier_curves"})
#: Longest wait for one plot before it is drawn in-process instead (a machine can be very busy).
RESULT_TIMEOUT_S = 300.0
_HEADER = struct.Struct("!I")
#: A worker's first lines: the parent's sys.path (so it imports the same wmbench), then :func:`serve`.
_BOOT = ("import json, sys; sys.path[:0] = json.loads(sys.argv[1]); "
         "from wmbench.harness.report.plot_workers import serve; serve(int(sys.argv[2]))")


class PlotWorkerError(RunError):
    """A plot worker could not draw a plot (it did not start, died, timed out or raised)."""


class PlotWorkers:
    """Helper processes drawing the report's plots (see the module card)."""

    def __init__(self, workers: int = 3) -> None:
        self._jobs: queue.SimpleQueue[tuple[str, bytes, Future[bytes | None]] | None] = queue.SimpleQueue()
        self._memo: dict[tuple[str, bytes], Future[bytes | None]] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._procs: list[subprocess.Popen[bytes]] = []
        self._threads = [threading.Thread(target=self._serve_jobs, name=f"wmbench-plot-worker-{i}", daemon=True)
                         for i in range(max(1, int(workers)))]
        for thread in self._threads:
            thread.start()

    def submit(self, name: str, *args: Any) -> Future[bytes | None]:
        """The PNG bytes (or None) of ``plots.<name>(*args)``, drawn by a worker; the same future for the same
        function and arguments as an earlier submit."""
        if name not in PLOT_FUNCTIONS:
            raise ValueError(f"expected one of {sorted(PLOT_FUNCTIONS)}, got {name!r}")
        payload = pickle.dumps(args, protocol=pickle.HIGHEST_PROTOCOL)
        with self._lock:
            known = self._memo.get((name, payload))
            if known is not None:
                return known
            future: Future[bytes | None] = Future()
            self._memo[(name, payload)] = future
            if self._closed:
                future.set_exception(PlotWorkerError("the plot workers are closed"))
            else:
                self._jobs.put((name, payload, future))
        return future

    @property
    def submitted(self) -> int:
        """Distinct plots submitted so far (a repeated submit is not counted)."""
        with self._lock:
            return len(self._memo)

    def close(self) -> None:
        """Let the workers go (idempotent); plots not drawn yet fail with :class:`PlotWorkerError`."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for _ in self._threads:
            self._jobs.put(None)
        for thread in self._threads:
            thread.join(timeout=10)
        while True:  # jobs no thread took (all of them gone)
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is not None and not job[2].done():
                job[2].set_exception(PlotWorkerError("the plot workers are closed"))
        for proc in self._procs:
            with contextlib.suppress(OSError):
                proc.kill()
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                proc.wait(timeout=5)

    def __enter__(self) -> PlotWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------ parent side

    def _serve_jobs(self) -> None:
        """One worker's thread: start the process, then send it jobs one at a time; once it is gone, fail
        every job this thread takes (the report draws those in-process)."""
        proc: subprocess.Popen[bytes] | None
        try:
            proc = subprocess.Popen([sys.executable, "-c", _BOOT, json.dumps(sys.path), str(os.getpid())],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
        except OSError:
            proc = None
        if proc is not None:
            with self._lock:
                self._procs.append(proc)
        while (job := self._jobs.get()) is not None:
            name, payload, future = job
            if not future.set_running_or_notify_cancel():
                continue
            if proc is None:
                future.set_exception(PlotWorkerError("no plot worker process"))
                continue
            try:
                assert proc.stdin is not None and proc.stdout is not None
                _send(proc.stdin, pickle.dumps((name, payload), protocol=pickle.HIGHEST_PROTOCOL))
                ok, value = pickle.loads(_receive(proc.stdout))
            except (OSError, EOFError, pickle.UnpicklingError, ValueError) as err:
                future.set_exception(PlotWorkerError(f"the plot worker is gone ({type(err).__name__}: {err})"))
                with contextlib.suppress(OSError):
                    proc.kill()
                proc = None
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(PlotWorkerError(str(value)))
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()  # the worker's EOF: it exits
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)


def collect(future: Future[bytes | None], name: str, *args: Any,
            draw: Callable[..., bytes | None] | None = None) -> bytes | None:
    """The plot ``future`` holds, or — when its worker failed — ``name`` drawn in this process with ``args``
    (``draw``: the function to call instead of ``plots.<name>``)."""
    try:
        return future.result(timeout=RESULT_TIMEOUT_S)
    except Exception:  # PlotWorkerError or a timeout: this process draws it (and raises what it raises)
        if draw is None:
            draw = getattr(plots, name)
        return draw(*args)


def _send(stream: IO[bytes], data: bytes) -> None:
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> bytes:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("no answer")
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("a cut answer")
    return data


# ------------------------------------------------------------------------------------------------ worker side


def serve(parent_pid: int) -> None:
    """A worker's main loop (run by :class:`PlotWorkers` in a fresh interpreter): load matplotlib, then draw
    each plot asked for on stdin and answer ``(ok, PNG bytes or None | error text)`` on stdout. It leaves at
    the end of stdin (its parent closed it, or died) and, on Linux, is killed with its parent (the
    parent-death signal)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent_pid:
        return
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print goes to stderr, not into the answers
    requests = sys.stdin.buffer

    for module in plots.MATPLOTLIB_MODULES:  # loaded now, while the run waits on its brain
        with contextlib.suppress(ImportError):
            __import__(module)
    while True:
        try:
            name, payload = pickle.loads(_receive(requests))
        except EOFError:
            return
        try:
            if name not in PLOT_FUNCTIONS:
                raise ValueError(f"unknown plot {name!r}")
            answer: tuple[bool, Any] = (True, getattr(plots, name)(*pickle.loads(payload)))
        except Exception as err:  # reported to the parent, which draws the plot itself (and raises there)
            answer = (False, f"{type(err).__name__}: {err}")
        _send(answers, pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))
