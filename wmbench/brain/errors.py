"""Errors raised while *building* a brain (bad spec, missing optional dependency, broken plugin).

Once a brain exists, ``decide`` never raises for provider failures: it returns a ``BrainReply`` with ``error``
set. These exceptions are for configuration mistakes, which should stop a run before it starts.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from wmbench.core import errors as core_errors


class MissingExtraError(ImportError):
    """An optional dependency of a provider is not installed; the message names the extra that brings it."""

    def __init__(self, spec_pattern: str, extra: str, missing_module: str) -> None:
        self.spec_pattern = spec_pattern
        self.extra = extra
        self.missing_module = missing_module
        super().__init__(
            f"{spec_pattern} needs the '{extra}' extra: pip install 'wmbench[{extra}]' "
            f"(could not import {missing_module!r})",
            name=missing_module,
        )


class UnknownBrainError(core_errors.UnknownNameError):
    """A brain spec that matches no built-in provider and no installed plugin (a ValueError, as before)."""


class BrainSpecError(ValueError):
    """A spec whose prefix is known but whose argument is missing or malformed (e.g. ``openai/``)."""


class PluginLoadError(core_errors.PluginLoadError, RuntimeError):
    """An installed plugin entry point could not be loaded or did not produce a Brain."""


def require_module(module: str, *, spec_pattern: str, extra: str) -> ModuleType:
    """Import an optional dependency, or raise :class:`MissingExtraError` naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = exc.name or module
        if missing.split(".")[0] != module.split(".")[0]:
            raise  # the module exists but one of *its* imports is broken: show the real error
        raise MissingExtraError(spec_pattern, extra, missing) from exc
