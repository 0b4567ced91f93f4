"""The wmbench error hierarchy.

Every error wmbench raises on purpose derives from :class:`WMBenchError`, so a caller can catch "anything
wmbench refused" in one clause while programming errors (``KeyError``, ``TypeError`` in wmbench's own code)
still surface as what they are. Each class also keeps the builtin base its 0.1/0.2 predecessor had, so code
written against those keeps working:

- :class:`ConfigError` (``ValueError``): a user's setting, name, file or request is not what wmbench expects;
  :class:`UnknownNameError` a registry lookup that found nothing.
- :class:`MissingExtraError` (``ImportError``): an optional dependency is not installed; names the extra.
- :class:`RunError` (``RuntimeError``): wmbench cannot carry on (a run stopped, a worker died, a brain was
  closed, a plugin did not load).

Part-specific errors (``RecordError``, ``RunConfigError``, ``UsageError``, ...) live in their part and derive
from these; ``tests/core/test_errors.py`` walks every module and fails on an exception class that does not.
"""

from __future__ import annotations

from collections.abc import Iterable

from wmbench.core.suggest import nearest


class WMBenchError(Exception):
    """Base of every error wmbench raises deliberately."""


class ConfigError(WMBenchError, ValueError):
    """A user's setting, name or file is not what wmbench expects; the message says what was expected."""


class UnknownNameError(ConfigError, KeyError):
    """A name looked up in a registry (brain, body, motion generator, scenario, measurer) that is not there.

    The message suggests the nearest known name when one is close (``did you mean 'smpl'?``,
    :mod:`wmbench.core.suggest`). Also a ``KeyError`` (a failed lookup, so 0.2 callers that caught
    ``KeyError`` keep working), printed as its one-line message rather than ``KeyError``'s quoted repr.
    """

    def __init__(self, kind: str, name: str, known: Iterable[str], suggestion: str | None = None) -> None:
        self.kind = kind
        self.name = name
        self.known = tuple(sorted(known))
        #: the nearest known name (``suggestion`` when the caller knows better, e.g. a brain spec's form)
        self.suggestion = suggestion or (nearest(name, self.known) if isinstance(name, str) else None)
        hint = f"did you mean {self.suggestion!r}? " if self.suggestion else ""
        super().__init__(f"unknown {kind} {name!r}; {hint}expected one of: {', '.join(self.known)}")

    def __str__(self) -> str:
        return str(self.args[0])


class PluginLoadError(WMBenchError, ImportError):
    """A registry entry (a built-in's ``"module:attr"`` target or an installed entry point) could not be loaded,
    or loaded something unusable; the message names the registry kind, the name and the entry point."""

class MissingExtraError(WMBenchError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it."""

    def __init__(self, what: str, extra: str, missing_module: str, detail: str = "") -> None:
        self.spec_pattern = what
        self.extra = extra
        self.missing_module = missing_module
        suffix = f"; {detail}" if detail else ""
        super().__init__(
            f"{what} needs the '{extra}' extra: pip install 'wmbench[{extra}]' "
            f"(could not import {missing_module!r}{suffix})",
            name=missing_module,
        )


class RunError(WMBenchError, RuntimeError):
    """wmbench cannot carry on with what it was doing; the message says what stopped it."""
