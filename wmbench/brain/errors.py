"""Errors raised while *building* a brain (bad spec, missing optional dependency, broken plugin).

Once a brain exists, ``decide`` never raises for provider failures: it returns a ``BrainReply`` with ``error``
set. These exceptions are for configuration mistakes, which should stop a run before it starts; they derive
from :mod:`wmbench.core.errors` (:class:`~wmbench.core.errors.MissingExtraError` is raised from there).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from wmbench.core import errors as core_errors
from wmbench.core.errors import ConfigError, MissingExtraError, RunError, UnknownNameError


class UnknownBrainError(UnknownNameError):
    """A brain spec that matches no built-in provider and no installed plugin (a ConfigError/ValueError)."""


class BrainSpecError(ConfigError):
    """A spec whose prefix is known but whose argument is missing or malformed (e.g. ``openai/``)."""


class PluginLoadError(RunError, core_errors.PluginLoadError):
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
