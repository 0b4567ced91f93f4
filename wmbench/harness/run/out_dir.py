"""Checking a run's output directory before anything runs, so a bad ``--out`` is one line, not a traceback.

Card
----
- :func:`check_out_dir` creates the directory (and its parents) if needed and writes, fsyncs and removes a
  small probe file in it. It raises :class:`OutDirError` (a ``ValueError``) that says what was expected and
  what was found: an existing *file* given as ``--out``, a directory that cannot be created or written
  (read-only, permission denied), or a full disk.
- :func:`describe_os_error` turns an ``OSError`` met later (the disk filling up mid-run) into the same kind
  of one-line message.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

from wmbench.core.errors import ConfigError

#: Bytes the probe writes: enough that a disk with no room at all fails here rather than mid-run.
PROBE_BYTES = 4096


class OutDirError(ConfigError):
    """The output directory cannot hold a run; the message says why in one line."""


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
