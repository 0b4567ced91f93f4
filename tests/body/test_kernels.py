"""The kernels' shared pieces: the exact fused multiply-add and the compile-or-fall-back step."""

from __future__ import annotations

import math
import sys
import types
from fractions import Fraction

import numpy as np
import pytest

from wmbench.body import kernels
from wmbench.body.kernels import compile_kernel, fma


def _exact(a: float, b: float, c: float) -> float:
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def test_fma_rounds_once():
    rng = np.random.default_rng(0)
    values = rng.normal(size=(5000, 3)) * rng.choice([1e-12, 1e-3, 1.0, 1e6], size=(5000, 3))
    plain_differs = 0
    for a, b, c in values.tolist():
        assert fma(a, b, c) == _exact(a, b, c)
        plain_differs += a * b + c != _exact(a, b, c)
    assert plain_differs > 0  # the cases include ones where two roundings differ from one
    # a case where the product's rounding error is all that is left
    x = 1.0 + 2.0 ** -30
    assert fma(x, x, -(x * x)) == 2.0 ** -60


def test_fma_signed_zeros_and_non_finite_values_follow_ieee():
    assert math.copysign(1.0, fma(-0.0, 1.0, -0.0)) == -1.0
    assert math.copysign(1.0, fma(0.0, -1.0, 0.0)) == 1.0
    assert math.copysign(1.0, fma(2.0, 3.0, -6.0)) == 1.0     # exact cancellation: +0
    assert math.copysign(1.0, fma(-0.0, 5.0, 0.0)) == 1.0
    assert math.isnan(fma(math.nan, 1.0, 0.0)) and fma(math.inf, 1.0, 1.0) == math.inf


def _twice(k, x):  # a tiny kernel for the compile step (module level: numba caches by source file)
    return fma(x, 2.0, 1.0) + k[0]


@pytest.mark.skipif(compile_kernel(_twice, lambda f: f(np.ones(1), 1.0))[1] != "numba",
                    reason="numba not installed: only the pure-Python kernels run")
def test_the_compiled_fma_is_the_cpus_single_rounding():
    compiled, _ = compile_kernel(_twice, lambda f: f(np.ones(1), 1.0))
    rng = np.random.default_rng(1)
    for x in rng.normal(size=2000).tolist():
        assert compiled(np.zeros(1), x) == fma(x, 2.0, 1.0)

    def prod(k, a, b, c):
        return fma(a, b, c)
    exact = compile_kernel(prod, lambda f: f(np.ones(1), 1.0, 1.0, 1.0))[0]
    for a, b, c in (rng.normal(size=(3000, 3)) * 1e3).tolist():
        assert exact(np.zeros(1), a, b, c) == _exact(a, b, c)


def test_a_numba_that_cannot_compile_falls_back_to_python(monkeypatch):
    fake = types.ModuleType("numba")

    def njit(**_options):
        def decorate(_fn):
            raise RuntimeError("no compiler here")
        return decorate
    fake.njit = njit  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "numba", fake)
    monkeypatch.setattr(kernels, "_register_fma", lambda: None)
    monkeypatch.delenv("WMBENCH_NO_NUMBA", raising=False)
    with pytest.warns(RuntimeWarning, match="could not compile _twice"):
        fn, path = compile_kernel(_twice, lambda f: f(np.ones(1), 1.0))
    assert (fn, path) == (_twice, "python")


def test_no_numba_asked_for_gives_python(monkeypatch):
    monkeypatch.setenv("WMBENCH_NO_NUMBA", "1")
    assert compile_kernel(_twice, lambda f: f(np.ones(1), 1.0)) == (_twice, "python")


def _inner(x):  # a helper the family kernel calls by its global name
    return fma(x, x, 0.5)


def _outer(k, x):
    return _inner(x) + k[0]


@pytest.mark.skipif(compile_kernel(_twice, lambda f: f(np.ones(1), 1.0))[1] != "numba",
                    reason="numba not installed: only the pure-Python kernels run")
def test_a_kernel_family_compiles_its_helpers_and_leaves_the_plain_ones_alone():
    compiled, path = compile_kernel(_outer, lambda f: f(np.zeros(1), 1.0), helpers=(_inner,))
    assert path == "numba" and compiled is not _outer
    assert _outer.__globals__["_inner"] is _inner  # the module's own functions stay plain Python
    for x in np.random.default_rng(2).normal(size=500).tolist():
        assert compiled(np.zeros(1), x) == _outer([0.0], x)
