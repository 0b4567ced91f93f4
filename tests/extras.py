"""Skipping tests of optional extras that are not installed, with a reason that says how to get them.

::

    pytestmark = needs_extra("openai")                # a whole module
    @needs_extra("hf")                                 # one test
    pytest.param("onnx", marks=needs_extra("onnx"))    # one parameter

The modules each extra must provide mirror ``pyproject.toml``'s optional dependencies (import names).
"""

from __future__ import annotations

import importlib.util

import pytest

EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "openai": ("openai",),
    "hf": ("torch", "transformers"),
    "onnx": ("onnxruntime", "onnx", "torch", "transformers"),
    "motion": ("torch", "diffusers"),
    "report": ("matplotlib",),
    "video": ("imageio", "imageio_ffmpeg", "PIL"),
    "inspect": ("inspect_ai", "openai"),
}


def missing_modules(extra: str) -> list[str]:
    """The import names of ``extra`` that cannot be found here."""
    return [m for m in EXTRA_MODULES[extra] if importlib.util.find_spec(m) is None]


def needs_extra(*extras: str) -> pytest.MarkDecorator:
    """Skip unless every extra in ``extras`` is installed; the reason names the extra and the install line."""
    missing = {extra: missing_modules(extra) for extra in extras}
    absent = {extra: mods for extra, mods in missing.items() if mods}
    reason = "; ".join(f"needs the '{extra}' extra (missing {', '.join(mods)}): pip install -e '.[{extra}]'"
                       for extra, mods in absent.items())
    return pytest.mark.skipif(bool(absent), reason=reason or "all extras present")
