"""Allocator tuning for worlds that come and go: keep PyBullet's client buffers in the heap (opt-in).

Card
----
- **Why.** Every PyBullet client allocates about 30 MB of buffers (several chunks of 8-12 MB) and frees them
  on ``disconnect``. glibc serves chunks that large with fresh ``mmap``s and unmaps them on free, so each new
  client page-faults its buffers in again (~6,000 faults, 5-20 ms of mostly kernel time). Bench mode builds
  one client per episode, and for short episodes that was 40 % of the wall time. The harness now reuses one
  env (one client) per worker across episodes (:mod:`wmbench.harness.run.env_reuse`) and a closed world's client
  is kept for the next world (:mod:`wmbench.envs.client_pool`), so this tuning is off by default; it still
  helps code that holds more worlds at once than the process keeps idle clients for.
- **What.** Once per process, before the first client, :func:`keep_client_buffers` sets glibc's
  ``M_MMAP_THRESHOLD`` to :data:`MMAP_THRESHOLD_BYTES` (16 MB), so those chunks come from the heap, and
  ``M_TRIM_THRESHOLD`` to :data:`TRIM_THRESHOLD_BYTES` (64 MB), so freeing them does not hand them straight
  back to the OS; the next client reuses them without faulting. Measured on the 40 bench scenarios (smpl,
  reference brain): page faults per episode 5,066 -> 0, CPU time -41 %; the cost is a steady ~20 MB more
  RSS (one client's buffers kept for reuse), not growth.
- **Scope.** Linux with glibc only; elsewhere, or if ``mallopt`` is missing, nothing happens. It changes
  where memory comes from, never what the simulation computes (traces are byte-identical).
- **Opt-in.** ``WMBENCH_MALLOC_TUNING=1`` applies it (anything else, or unset, skips it); a
  ``MALLOC_MMAP_THRESHOLD_`` already in the environment (the user's own choice) is respected. Note that
  fixing the thresholds switches glibc's dynamic thresholds off for the whole process, as setting
  ``MALLOC_MMAP_THRESHOLD_`` would.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys
import threading

#: glibc's mallopt parameter numbers (malloc.h).
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
#: Above PyBullet's largest client buffer (8-12 MB), far below what would keep big numpy/torch arrays.
MMAP_THRESHOLD_BYTES = 16 * 1024 * 1024
#: Free memory at the top of the heap kept rather than returned to the OS: more than one client's ~30 MB,
#: so a closed client's buffers are still there for the next one (glibc's own rule is 2x the mmap threshold).
TRIM_THRESHOLD_BYTES = 64 * 1024 * 1024
OPT_IN_ENV = "WMBENCH_MALLOC_TUNING"
OPT_OUT_ENV = OPT_IN_ENV  # the old name of the same variable

_lock = threading.Lock()
_state: dict[str, bool | None] = {"applied": None}


def keep_client_buffers() -> bool:
    """Apply the tuning once per process if opted in (see the module card). Returns whether it is in
    effect."""
    with _lock:
        if _state["applied"] is None:
            _state["applied"] = _apply()
        return bool(_state["applied"])


def _apply() -> bool:
    if os.environ.get(OPT_IN_ENV, "").strip().lower() not in ("1", "true", "yes", "on"):
        return False
    if "MALLOC_MMAP_THRESHOLD_" in os.environ or not sys.platform.startswith("linux"):
        return False
    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(None)
        return bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
                    and libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES))
    except (OSError, AttributeError):  # no mallopt in this libc
        return False
