"""Silencing what PyBullet's C code prints while it loads a model.

Card
----
PyBullet's URDF importer writes warnings (``b3Warning[...]: urdfdom: no axis element for Joint ...``) straight
to the process's stdout/stderr file descriptors, past Python's ``sys.stdout``: loading pybullet_data's DeepMimic
humanoid for ``wmbench train-motion`` printed two lines per joint. :func:`quiet_native_output` points file
descriptors 1 and 2 at /dev/null for the duration of its block (Python errors still surface as exceptions;
``sys.stdout``/``sys.stderr`` are flushed first so nothing of ours is lost). File descriptors are process-wide:
use it only around the loading call itself, never around a long block while other threads print.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress


@contextmanager
def quiet_native_output() -> Iterator[None]:
    """Native (C-level) writes to stdout and stderr go to /dev/null inside the block (see module card)."""
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, ValueError, OSError):
            stream.flush()
    saved: list[tuple[int, int]] = []
    try:
        with open(os.devnull, "w") as devnull:
            for fd in (1, 2):
                try:
                    saved.append((fd, os.dup(fd)))
                except OSError:  # no such descriptor (a daemon without stdio)
                    continue
                os.dup2(devnull.fileno(), fd)
            yield
    finally:
        for fd, copy in saved:
            os.dup2(copy, fd)
            os.close(copy)
