"""The command line's shared option helpers: ``--option KEY=VALUE`` items, secrets on a command line, the
default output directory.

Card
----
- :func:`parse_options`: ``--option KEY=VALUE`` items (repeatable and multi-valued: ``--option a=1 b=2``),
  values read as JSON when they parse, else as text; a secret-looking name warns (:func:`warn_secret_options`).
- :func:`warn_secret_on_command_line`: one stderr line saying a secret given on the command line is visible in
  ``ps``, and what to use instead.
- :func:`default_out_dir`: ``runs/<brain>-<body>-<timestamp>``, the brain spec made safe for a file name.
- :func:`add_unpaced_argument`: ``--unpaced``, the bench-scene pacing diagnostic of ``run`` and ``live``.

A light module (standard library only), so ``serve`` and ``live`` read their options without importing the run
machinery of :mod:`wmbench.harness.cli.run_command`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any


def parse_options(items: Sequence[str | Sequence[str]]) -> dict[str, Any]:
    """``["temperature=0", "model=x"]`` -> ``{"temperature": 0, "model": "x"}`` (JSON values, else text).

    Items may also be lists (``--option a=1 b=2 --option c=3`` arrives as ``[["a=1", "b=2"], ["c=3"]]``)."""
    options: dict[str, Any] = {}
    flat = [item for group in items for item in ([group] if isinstance(group, str) else group)]
    for item in flat:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bad --option {item!r}; expected KEY=VALUE such as temperature=0")
        try:
            value: Any = json.loads(raw)
        except ValueError:
            value = raw
        options[key.strip()] = value
    warn_secret_options(options)
    return options


#: Option names whose value is a secret that must not travel on a command line.
SECRET_OPTION = re.compile(r"(key|token|secret|password)$", re.IGNORECASE)


def warn_secret_options(options: Mapping[str, Any]) -> None:
    """One stderr line per secret-looking ``--option`` (``ps`` shows a command line to every user)."""
    for name in options:
        if SECRET_OPTION.search(name):
            warn_secret_on_command_line(f"--option {name}=...", f"OPENAI_API_KEY or --option {name}_file=PATH")


def warn_secret_on_command_line(given: str, instead: str) -> None:
    """Warn that ``given`` (a secret on the command line) is visible in ``ps``; suggest ``instead``."""
    print(f"wmbench: warning: {given} is visible to every user of this machine in `ps` and may land in shell "
          f"history; use {instead}", file=sys.stderr)


def default_out_dir(brain: str, body: str, now: datetime | None = None) -> Path:
    """``runs/<brain>-<body>-<YYYYmmdd-HHMMSS>`` with the brain spec made safe for a file name."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    safe_brain = re.sub(r"[^A-Za-z0-9._-]+", "_", brain).strip("_.") or "brain"
    return Path("runs") / f"{safe_brain}-{body}-{stamp}"


def add_unpaced_argument(p: argparse.ArgumentParser) -> None:
    """``--unpaced``: bench scenes at their own NPC speeds on a body slower than the character (a diagnostic of
    the body's raw limits; :mod:`wmbench.envs.pacing`)."""
    p.add_argument("--unpaced", action="store_true",
                   help="a diagnostic: play bench scenes at their own NPC speeds and timings on a body slower than "
                        "the character (the body's raw physical limits), instead of at the body's pace "
                        "(docs/simulation.md, 'Bench scenes paced to the body')")
