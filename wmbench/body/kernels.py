"""Per-frame kernels compiled by numba when it is installed, the same source run as plain Python otherwise.

Card
----
- :func:`compile_kernel` turns a scalar kernel (plain floats, ``math.*``, flat buffers indexed by hand) into
  numba's compiled function when numba imports (optional extra ``wmbench[fast]``) and ``WMBENCH_NO_NUMBA`` is
  unset, else returns it as it is; it says which (``"numba"`` / ``"python"``). numba compiles without
  ``fastmath`` (no FMA contraction, no reassociation) and calls libm through ``math.*`` as CPython does, so
  both paths give the same doubles; a compile that fails warns and falls back (decided once per kernel).
- :func:`fma` is ``a * b + c`` rounded once (IEEE 754's fused multiply-add), what BLAS's dot and
  matrix-vector kernels compute on this project's machines. Python 3.11 has no ``math.fma``: the plain path
  computes it exactly on integers (every finite double is an integer times a power of two; CPython's integer
  true division rounds correctly), the compiled path runs the CPU's ``fma`` instruction (LLVM's
  ``llvm.fma.f64``). Both are the correctly rounded result, so they agree bit for bit.
- :class:`LazyKernel` holds one kernel of a module: compiled by :func:`compile_kernel` on first use and then
  shared by the process (``get()`` the function, ``path()`` which one runs).

Used by the drone's :mod:`~wmbench.body.drone.flight_kernel`, the robot's servo kernel and the procedural
pose kernel.
"""

from __future__ import annotations

import math
import os
import types
import warnings
from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

K = TypeVar("K", bound=Callable[..., Any])

_FMA_REGISTERED: list[bool] = []


def fma(a: float, b: float, c: float) -> float:
    """``a * b + c`` with one rounding (IEEE fused multiply-add; round to nearest, ties to even).

    Exact on integers: ``a * b + c = (na * nb * dc + nc * da * db) / (da * db * dc)`` with every ``d`` a power
    of two, and ``int / int`` in CPython is correctly rounded. An exact zero takes the sign IEEE gives it
    (``a * b + c`` with the exact product, which a zero product or an exact cancellation is). Infinities and
    NaN go through ``a * b + c`` (no double in this project's kernels is ever one; an invalid input stays
    invalid). Subnormal results may round twice in the integer division's float conversion: the kernels here
    never come near 1e-308."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    na, da = a.as_integer_ratio()
    nb, db = b.as_integer_ratio()
    nc, dc = c.as_integer_ratio()
    num = na * nb * dc + nc * da * db
    if num == 0:
        return a * b + c
    return num / (da * db * dc)


def _register_fma() -> None:
    """Teach numba :func:`fma` (once): compiled code calling it runs ``llvm.fma.f64``."""
    if _FMA_REGISTERED:
        return
    from numba import types
    from numba.extending import intrinsic, overload

    @intrinsic
    def _llvm_fma(typingctx: Any, a: Any, b: Any, c: Any) -> Any:
        sig = types.float64(types.float64, types.float64, types.float64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.fma(args[0], args[1], args[2])
        return sig, codegen

    fused: Any = _llvm_fma   # called with (a, b, c) in compiled code (numba supplies the typing context)

    @overload(fma, jit_options={"fastmath": False})
    def _fma_overload(a, b, c):  # numba wants the overloaded function's own, unannotated, argument names
        def impl(a, b, c):  # pragma: no cover - compiled by numba
            return fused(float(a), float(b), float(c))
        return impl

    _FMA_REGISTERED.append(True)


def compile_kernel(kernel: Callable[..., Any], warm_up: Callable[[Callable[..., Any]], object],
                   helpers: tuple[Callable[..., Any], ...] = ()) -> tuple[Callable[..., Any], str]:
    """``(numba's compiled kernel, "numba")`` when numba imports, ``WMBENCH_NO_NUMBA`` is unset and the
    compile plus ``warm_up(compiled)`` (one call on typical arguments, so the compile happens now and a
    failure falls back here instead of mid-run) succeed; else ``(kernel, "python")``. ``helpers``: plain
    functions the kernel (or another helper) calls by their global name; on the numba path they are compiled
    too and the compiled kernel calls those (the plain functions stay what every other caller uses)."""
    if os.environ.get("WMBENCH_NO_NUMBA"):
        return kernel, "python"
    try:
        import numba
    except ImportError:
        return kernel, "python"
    try:  # cache=True raises at decoration when no cache directory is writable: caught here too
        _register_fma()
        compiled = _jit_family(numba, kernel, helpers)
        warm_up(compiled)
    except Exception as exc:  # numba's compiler or cache (an optional extra): warn, run Python
        warnings.warn(f"wmbench: numba could not compile {kernel.__name__} ({exc!r}); using the pure-Python "
                      "one", RuntimeWarning, stacklevel=2)
        return kernel, "python"
    return compiled, "numba"


def _jit_family(numba: Any, kernel: Callable[..., Any], helpers: tuple[Callable[..., Any], ...]) -> Any:
    """numba dispatchers of ``kernel`` and ``helpers`` whose globals name each other's dispatchers: copies of
    the functions (same code) with their own globals, so the module's plain functions are left alone."""
    jit = numba.njit(cache=True, fastmath=False, nogil=True)
    if not helpers:
        return jit(kernel)
    family = (kernel, *helpers)
    scopes = [dict(fn.__globals__) for fn in family]
    copies = [types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__, fn.__closure__)
              for fn, scope in zip(family, scopes)]
    for copy, fn in zip(copies, family):
        copy.__qualname__, copy.__module__ = fn.__qualname__, fn.__module__
    dispatchers = [jit(copy) for copy in copies]
    by_name = {fn.__name__: d for fn, d in zip(family[1:], dispatchers[1:])}
    for scope in scopes:   # numba reads the globals when it compiles (first call), after this
        scope.update(by_name)
    return dispatchers[0]


class LazyKernel(Generic[K]):
    """``kernel`` compiled by :func:`compile_kernel` (with ``warm_up`` and ``helpers``) the first time it is
    asked for, then the same for the whole process."""

    def __init__(self, kernel: K, warm_up: Callable[[K], object],
                 helpers: tuple[Callable[..., Any], ...] = ()) -> None:
        self.kernel, self.warm_up, self.helpers = kernel, warm_up, helpers
        self.resolved: tuple[K, str] | None = None

    def _resolve(self) -> tuple[K, str]:
        if self.resolved is None:
            compiled, path = compile_kernel(self.kernel, self.warm_up, self.helpers)  # type: ignore[arg-type]
            self.resolved = (cast(K, compiled), path)
        return self.resolved

    def get(self) -> K:
        """The kernel this process runs: numba's compiled one or the plain function."""
        return self._resolve()[0]

    def path(self) -> str:
        """``"numba"`` or ``"python"``: which :meth:`get` returns."""
        return self._resolve()[1]
