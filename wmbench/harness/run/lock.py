"""One writer per run directory: an OS-level lock that dies with its process.

Card
----
- :func:`acquire_run_lock` takes an exclusive, non-blocking ``fcntl.flock`` on ``RUN/.wmbench.lock`` and
  writes who holds it (pid, host, start time, command) into that file. The kernel drops the lock when the
  holding process exits for any reason (``kill -9`` included), so a stale lock file never blocks a rerun:
  the file may stay, the lock does not.
- A second run on the same directory gets :class:`RunLockedError` at once, one line naming the holder:
  ``runs/x is in use by another wmbench run (pid 4242 on host lab1, started 2026-11-26T22:01:03Z: wmbench
  run ...); wait for it to finish or use another --out``. Nothing of the run starts (no brain is built, no
  episode runs), so two processes on one ``--out`` never both pay for the same episodes.
- :func:`holds_run_lock` decorates a function whose ``out`` argument is a run directory (``run_suite``):
  the lock is held for the whole call and released when it returns or raises.
- Where ``fcntl`` does not exist (Windows) the lock is a no-op (documented simplification).

The lock file is named in :data:`wmbench.harness.run.results.LOCK_FILE`;
:func:`wmbench.harness.run.out_dir.check_run_dir` ignores it when it decides whether a folder is empty.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import os
import socket
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, ParamSpec, TypeVar

from wmbench.core.errors import ConfigError
from wmbench.harness.run.out_dir import check_run_dir
from wmbench.harness.run.results import LOCK_FILE

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class LockHolder:
    """Who holds a run directory's lock (as written in the lock file; fields may be unknown)."""

    pid: int | None
    host: str
    started: str
    command: str

    def describe(self) -> str:
        pid = "pid ?" if self.pid is None else f"pid {self.pid}"
        command = f": {self.command}" if self.command else ""
        return f"{pid} on host {self.host or '?'}, started {self.started or '?'}{command}"


class RunLockedError(ConfigError):
    """Another process holds the run directory's lock; the message names it (pid, host, start time)."""

    def __init__(self, out: Path, holder: LockHolder) -> None:
        super().__init__(f"{out} is in use by another wmbench run ({holder.describe()}); wait for it to finish "
                         "or use another --out")
        self.out = out
        self.holder = holder


class RunLock:
    """A held lock on a run directory; :meth:`release` (or leaving the ``with`` block) gives it back."""

    def __init__(self, out: Path, handle: IO[str] | None) -> None:
        self.out = out
        self._handle = handle

    def release(self) -> None:
        handle, self._handle = self._handle, None
        if handle is None:
            return
        with contextlib.suppress(OSError):
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        handle.close()

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def read_holder(out: Path | str) -> LockHolder:
    """What the lock file of ``out`` says about its holder (unknown fields when it is missing or damaged)."""
    try:
        data = json.loads((Path(out) / LOCK_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    pid = data.get("pid")
    return LockHolder(pid=pid if isinstance(pid, int) else None, host=str(data.get("host", "")),
                      started=str(data.get("started", "")), command=str(data.get("command", "")))


def acquire_run_lock(out: Path | str) -> RunLock:
    """Lock ``out`` (created if missing) for this process; :class:`RunLockedError` if another process has it."""
    out = Path(out)
    if fcntl is None:  # pragma: no cover - Windows: no lock (see module card)
        return RunLock(out, None)
    out.mkdir(parents=True, exist_ok=True)
    # "a+": never truncate before the lock is ours (the holder's details must stay readable)
    handle = open(out / LOCK_FILE, "a+", encoding="utf-8")  # noqa: SIM115 - held until release()
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise RunLockedError(out, read_holder(out)) from None
    except BaseException:  # cleanup only (the file handle), then re-raised
        handle.close()
        raise
    holder = {"pid": os.getpid(), "host": socket.gethostname(),
              "started": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
              "command": " ".join(["wmbench", *sys.argv[1:2]]) if sys.argv else ""}
    handle.seek(0)
    handle.truncate()
    handle.write(json.dumps(holder) + "\n")
    handle.flush()
    return RunLock(out, handle)


@contextlib.contextmanager
def run_lock(out: Path | str) -> Iterator[RunLock]:
    """``with run_lock(out):`` — :func:`acquire_run_lock` for the block."""
    lock = acquire_run_lock(out)
    try:
        yield lock
    finally:
        lock.release()


def holds_run_lock(func: Callable[P, R]) -> Callable[P, R]:
    """Hold the lock of the call's ``out`` argument (a run directory) while ``func`` runs.

    The directory is checked first with :func:`~wmbench.harness.run.out_dir.check_run_dir`; when that refuses it
    (a file, a foreign folder, the source tree) nothing is created or locked and ``func`` reports the problem
    itself. A folder the lock created is removed again when the call wrote nothing else into it (a
    configuration refused before anything ran)."""
    signature = inspect.signature(func)

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        out = Path(bound.arguments["out"])
        try:
            check_run_dir(out)
        except ValueError:
            return func(*args, **kwargs)
        created = not out.exists()
        try:
            with run_lock(out):
                return func(*args, **kwargs)
        finally:
            if created:  # a call refused before writing anything leaves no folder behind
                _remove_if_only_the_lock(out)

    return wrapper


def _remove_if_only_the_lock(out: Path) -> None:
    """Remove ``out`` when the lock file is all it holds (the lock made it and nothing else was written)."""
    with contextlib.suppress(OSError):
        if [entry.name for entry in out.iterdir()] == [LOCK_FILE]:
            (out / LOCK_FILE).unlink()
            out.rmdir()
