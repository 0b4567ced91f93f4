"""The ``wmbench`` command line's building blocks: exit codes, the usage error, and the subcommand table.

Card
----
- A subcommand is a :class:`Command` (``configure`` adds its arguments to its parser, ``run`` does the work and
  returns the exit code), registered in :data:`COMMANDS` with :func:`register_command` (a second registration
  of a name is refused unless ``overwrite``).
- A user mistake raises :class:`UsageError`: :func:`wmbench.harness.cli.main.main` prints it as one line and exits
  with :data:`EXIT_USAGE` (2), no traceback.

The parser and ``main`` are in :mod:`wmbench.harness.cli.main`, which registers the built-in subcommands.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wmbench.core.errors import WMBenchError
from wmbench.core.suggest import nearest

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(WMBenchError):
    """A user mistake: printed as one line, exit code 2."""


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, one-line help, how to add its arguments, and what it does."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


COMMANDS: dict[str, Command] = {}


def register_command(command: Command, *, overwrite: bool = False) -> Command:
    """Add ``command`` to :data:`COMMANDS` (refused for a name already there unless ``overwrite``)."""
    if command.name in COMMANDS and not overwrite:
        raise ValueError(f"wmbench subcommand {command.name!r} is already registered")
    COMMANDS[command.name] = command
    return command


def command_hint(argv: Sequence[str]) -> str | None:
    """``wmbench: did you mean 'run'?`` when the first word of ``argv`` is not a command but is close to one."""
    words = [a for a in argv if not a.startswith("-")]
    if not words or words[0] in COMMANDS:
        return None
    found = nearest(words[0], COMMANDS)
    return f"wmbench: did you mean {found!r}?" if found else None
