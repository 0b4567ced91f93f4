"""The wmbench error hierarchy.

Every error wmbench raises on purpose derives from :class:`WMBenchError`, so a caller can catch "anything
wmbench refused" in one clause while programming errors (``KeyError``, ``TypeError`` in wmbench's own code)
still surface as what they are. Configuration errors also derive from ``ValueError`` so that code written
against the 0.1/0.2 exceptions keeps working.
"""

from __future__ import annotations

from collections.abc import Iterable


class WMBenchError(Exception):
    """Base of every error wmbench raises deliberately."""


class ConfigError(WMBenchError, ValueError):
    """A user's setting, name or file is not what wmbench expects; the message says what was expected."""


class UnknownNameError(ConfigError, KeyError):
    """A name looked up in a registry (brain, body, motion generator, scenario, measurer) that is not there.

    Also a ``KeyError`` (a failed lookup, so 0.2 callers that caught ``KeyError`` keep working), printed as
    its one-line message rather than ``KeyError``'s quoted repr.
    """

    def __init__(self, kind: str, name: str, known: Iterable[str]) -> None:
        self.kind = kind
        self.name = name
        self.known = tuple(sorted(known))
        super().__init__(f"unknown {kind} {name!r}; expected one of: {', '.join(self.known)}")

    def __str__(self) -> str:
        return str(self.args[0])


class PluginLoadError(WMBenchError, ImportError):
    """A registry entry (a built-in's ``"module:attr"`` target or an installed entry point) could not be loaded,
    or loaded something unusable; the message names the registry kind, the name and the entry point."""
