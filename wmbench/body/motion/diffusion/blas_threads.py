"""One BLAS thread while the numpy denoiser runs: small matrix products on a busy CPU.

The denoiser multiplies (25 x 128) by (128 x 384) matrices. OpenBLAS splits even these across its threads,
and on a machine whose cores are busy (the physics, the brain, other processes) each product then waits for a
descheduled thread: measured on a shared 2-core box, 2 BLAS threads made streaming 20x slower than 1.
:func:`single_blas_thread` sets OpenBLAS (the library numpy loaded, found in ``/proc/self/maps``) to one
thread for the duration of a ``with`` block and restores the previous count; where no OpenBLAS is found
(another BLAS, another OS) it does nothing.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache

_LOCK = threading.Lock()
#: (setter, getter) symbol names across OpenBLAS builds (plain, 64-bit-int suffixed, scipy-openblas).
_SYMBOLS = (("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
            ("openblas_set_num_threads64_", "openblas_get_num_threads64_"),
            ("openblas_set_num_threads", "openblas_get_num_threads"))


@lru_cache(maxsize=1)
def _openblas() -> tuple[Callable[[int], object], Callable[[], int]] | None:
    """(set, get) functions of the OpenBLAS loaded in this process, or None."""
    import numpy  # noqa: F401  (make sure numpy's BLAS is loaded before looking for it)

    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower() and "/" in line}
    except OSError:
        return None
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for set_name, get_name in _SYMBOLS:
            setter, getter = getattr(lib, set_name, None), getattr(lib, get_name, None)
            if setter is not None and getter is not None:
                setter.argtypes, getter.restype = [ctypes.c_int], ctypes.c_int
                return setter, getter
    return None


@contextmanager
def single_blas_thread() -> Iterator[None]:
    """OpenBLAS limited to one thread inside the block (a no-op without OpenBLAS)."""
    functions = _openblas()
    if functions is None:
        yield
        return
    setter, getter = functions
    with _LOCK:
        before = getter()
        setter(1)
        try:
            yield
        finally:
            setter(before)
