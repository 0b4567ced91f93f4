"""The one output-folder check: a bad ``--out`` is refused in one line before anything runs, not a traceback.

Card
----
- :func:`check_run_dir`: a run's ``--out`` must be a new path, an empty folder, or a wmbench run (it holds
  ``run.json``); a folder with other files, a file, or a folder inside wmbench's own source tree (other than
  its ``runs/``) is refused with one line saying why — a run never scatters files among someone's sources.
- :func:`check_out_dir` creates the directory (and its parents) if needed and writes, fsyncs and removes a
  small probe file in it. It raises :class:`OutDirError` (a ``ValueError``) that says what was expected and
  what was found: an existing *file* given as ``--out``, a directory that cannot be created or written
  (read-only, permission denied), or a full disk.
- :func:`out_dir_while` is :func:`check_out_dir` for a block of work that may still be refused (a bad argument
  found inside it): a folder it made is removed again, if still empty, when the block raises — a refused
  command leaves no empty run folder behind.
- :func:`check_out_file` is the same check for an output *file* (``--out`` of ``video``, ``--json`` of ``fork``):
  not a directory, no file where a folder must be, its folder created, and the file itself creatable — tried
  before the work, not found out when the work is done.
- :func:`describe_os_error` turns an ``OSError`` met later (the disk filling up mid-run) into the same kind
  of one-line message.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from pathlib import Path

import wmbench
from wmbench.core.errors import ConfigError
from wmbench.harness.run.results import LOCK_FILE, RUN_FILE

#: Bytes the probe writes: enough that a disk with no room at all fails here rather than mid-run.
PROBE_BYTES = 4096


class OutDirError(ConfigError):
    """The output directory cannot hold a run; the message says why in one line."""


def source_root() -> Path | None:
    """The source checkout wmbench runs from (the folder with ``pyproject.toml`` above the package), if any."""
    root = Path(wmbench.__file__).resolve().parents[1]
    return root if (root / "pyproject.toml").is_file() else None


def check_run_dir(out: Path | str) -> None:
    """Raise :class:`OutDirError` unless ``out`` is new, empty or a wmbench run (see module card)."""
    out = Path(out)
    root = source_root()
    resolved = out.resolve()
    if root is not None and resolved.is_relative_to(root) and not resolved.is_relative_to(root / "runs"):
        raise OutDirError(f"--out {out} is inside the wmbench source tree {root}; expected a folder outside "
                          f"it (or under {root / 'runs'})")
    if not out.exists():
        return
    if not out.is_dir():
        raise OutDirError(f"--out {out} is an existing file; expected a directory (new or from an earlier run)")
    if (out / RUN_FILE).is_file() or not any(p.name != LOCK_FILE for p in out.iterdir()):
        return
    raise OutDirError(f"--out {out} is not empty and holds no wmbench run ({RUN_FILE}); expected a new or "
                      f"empty folder, or a wmbench run folder to resume")


def check_out_dir(out: Path | str) -> Path:
    """Make sure ``out`` is (or can become) a writable directory; returns it as a Path."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise OutDirError(f"--out {out} is an existing file; expected a directory (new or from an earlier run)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutDirError(f"cannot create the output directory {out}: {describe_os_error(err)}") from None
    probe = out / f".wmbench-write-probe-{os.getpid()}"
    try:
        with open(probe, "wb") as f:
            f.write(b"\0" * PROBE_BYTES)
            f.flush()
            os.fsync(f.fileno())
    except OSError as err:
        raise OutDirError(f"cannot write in the output directory {out}: {describe_os_error(err)}") from None
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    return out


@contextlib.contextmanager
def out_dir_while(out: Path | str) -> Iterator[Path]:
    """:func:`check_out_dir` ``out`` for the block; the folder is removed if the block raises and it was made
    here and is still empty (see the module card)."""
    made = not Path(out).exists()
    path = check_out_dir(out)
    try:
        yield path
    except BaseException:  # cleans up and re-raises (Ctrl-C included)
        if made:
            with contextlib.suppress(OSError):  # not empty: something was written, keep it
                path.rmdir()
        raise


def check_out_file(out: Path | str, option: str, what: str) -> Path:
    """Raise :class:`OutDirError` unless ``out`` (given as ``option``) can become ``what`` (``"an .mp4 file"``):
    see the module card. A file made only to try is removed; returns ``out`` as a Path."""
    out = Path(out)
    if out.is_dir():
        raise OutDirError(f"{option} {out} is a directory; expected the path of {what}")
    for parent in out.parents:
        if parent.exists() and not parent.is_dir():
            raise OutDirError(f"{option} {out}: {parent} is a file; expected a directory there")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        existed = out.exists()
        with open(out, "ab"):
            pass
    except OSError as err:
        raise OutDirError(f"cannot write {option} {out}: {describe_os_error(err)}") from None
    if not existed:
        with contextlib.suppress(OSError):
            out.unlink()
    return out


def describe_os_error(err: OSError) -> str:
    """A short reason for a file-system error (``read-only file system``, ``no space left on device``)."""
    reasons = {
        errno.EROFS: "read-only file system",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.ENOSPC: "no space left on device",
        errno.EDQUOT: "disk quota exceeded",
        errno.EFBIG: "file too large (file-size limit reached)",
        errno.ENOTDIR: "a part of the path is a file, not a directory",
    }
    where = f" ({err.filename})" if err.filename else ""
    return reasons.get(err.errno or 0, err.strerror or str(err)) + where
