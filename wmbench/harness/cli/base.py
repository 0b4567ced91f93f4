"""The ``wmbench`` command line's building blocks: exit codes, the usage error, and the subcommand table.

Card
----
- A subcommand is a :class:`Command` (``configure`` adds its arguments to its parser, ``run`` does the work and
  returns the exit code), registered in :data:`COMMANDS` with :func:`register_command` (a second registration
  of a name is refused unless ``overwrite``).
- **Lazy subcommands**: :func:`lazy` (``"module:attribute"`` -> a function that imports the module on its first
  call) and :func:`lazy_command` (a :class:`Command` defined in its own module, named and described here) keep a
  subcommand's module unimported until its parser is built or it runs, so ``wmbench --help`` and every command
  import only what they use (``main`` configures only the named command's parser). The architecture test reads
  these ``"wmbench.…:attribute"`` strings as the command line's imports (layers, cycles, the import table).
- A user mistake raises :class:`UsageError`: :func:`wmbench.harness.cli.main.main` prints it as one line and exits
  with :data:`EXIT_USAGE` (2), no traceback.

The parser and ``main`` are in :mod:`wmbench.harness.cli.main`, which registers the built-in subcommands.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from wmbench.core.errors import WMBenchError
from wmbench.core.suggest import nearest

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(WMBenchError):
    """A user mistake: printed as one line, exit code 2."""


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, one-line help, how to add its arguments, and what it does; ``source``: the
    ``"module:COMMAND"`` a :func:`lazy_command` loads (empty for a command defined where it is registered)."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    source: str = ""


COMMANDS: dict[str, Command] = {}


def register_command(command: Command, *, overwrite: bool = False) -> Command:
    """Add ``command`` to :data:`COMMANDS` (refused for a name already there unless ``overwrite``)."""
    if command.name in COMMANDS and not overwrite:
        raise ValueError(f"wmbench subcommand {command.name!r} is already registered")
    COMMANDS[command.name] = command
    return command


def load(target: str) -> Any:
    """The object ``target`` names, ``"package.module:attribute"``, importing the module if it is not yet."""
    module, sep, attribute = target.partition(":")
    if not sep or not attribute:
        raise ValueError(f"expected 'package.module:attribute', got {target!r}")
    return getattr(importlib.import_module(module), attribute)


def lazy(target: str) -> Callable[..., Any]:
    """A function that calls the function ``target`` (``"package.module:function"``), importing its module on
    the first call: a :class:`Command`'s ``configure`` or ``run`` that costs no import until it is used."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return load(target)(*args, **kwargs)

    call.__qualname__ = call.__name__ = f"lazy({target})"
    return call


def lazy_command(name: str, help: str, target: str) -> Command:
    """The :class:`Command` ``target`` (``"package.module:COMMAND"``) under ``name`` and ``help``, its module
    imported only when its parser is built or it runs (``tests/harness/cli/test_cli.py`` checks that ``name``
    and ``help`` are the loaded command's own)."""

    def configure(parser: argparse.ArgumentParser) -> None:
        load(target).configure(parser)

    def run(args: argparse.Namespace) -> int:
        code: int = load(target).run(args)
        return code

    return Command(name, help, configure, run, source=target)


def command_hint(argv: Sequence[str]) -> str | None:
    """``wmbench: did you mean 'run'?`` when the first word of ``argv`` is not a command but is close to one."""
    words = [a for a in argv if not a.startswith("-")]
    if not words or words[0] in COMMANDS:
        return None
    found = nearest(words[0], COMMANDS)
    return f"wmbench: did you mean {found!r}?" if found else None
