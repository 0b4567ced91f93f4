"""``wmbench leaderboard RUN_DIR...`` and ``wmbench compare RUN_A RUN_B``.

::

    wmbench leaderboard runs/a runs/b runs/c --out board/     # leaderboard.json/.md/.html, with baselines
    wmbench compare runs/a runs/b                              # paired bootstrap per category
"""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from wmbench.core.errors import ConfigError
from wmbench.harness.cli.base import EXIT_OK, Command, UsageError
from wmbench.harness.leaderboard.baselines import all_baselines
from wmbench.harness.leaderboard.board import build_leaderboard
from wmbench.harness.leaderboard.compare import compare_runs, format_comparison
from wmbench.harness.leaderboard.render import leaderboard_markdown, write_leaderboard
from wmbench.harness.run.out_dir import out_dir_while


def configure_leaderboard(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dirs", type=Path, nargs="+", help="run directories of `wmbench run`")
    p.add_argument("--out", type=Path, default=None,
                   help="write leaderboard.json/.md/.html here (default: print the Markdown only)")
    p.add_argument("--no-baselines", action="store_true", help="leave out the PROMETHEUS and measured baselines")
    p.add_argument("--allow-mixed", action="store_true",
                   help="rank runs scored on different scenario/instance sets anyway (marked as not comparable)")


def leaderboard_command(args: argparse.Namespace) -> int:
    for run_dir in args.run_dirs:
        if not run_dir.is_dir():
            raise UsageError(f"{run_dir} is not a directory; expected a run directory of `wmbench run`")
    try:  # --out is tried first (an OutDirError is one line, exit 2) and not left behind if a run is refused
        with out_dir_while(args.out) if args.out is not None else contextlib.nullcontext():
            board = build_leaderboard(args.run_dirs, baselines=() if args.no_baselines else all_baselines(),
                                      allow_mixed=args.allow_mixed)
    except (ConfigError, OSError) as err:
        raise UsageError(str(err)) from None
    print(leaderboard_markdown(board))
    if args.out is not None:
        for path in write_leaderboard(board, args.out):
            print(f"written: {path}")
    return EXIT_OK


def configure_compare(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_a", type=Path, help="run directory A")
    p.add_argument("run_b", type=Path, help="run directory B")
    p.add_argument("--allow-mixed", action="store_true",
                   help="compare runs scored on different instance sets on the instances they share")


def compare_command(args: argparse.Namespace) -> int:
    for run_dir in (args.run_a, args.run_b):
        if not run_dir.is_dir():
            raise UsageError(f"{run_dir} is not a directory; expected a run directory of `wmbench run`")
    try:
        print(format_comparison(compare_runs(args.run_a, args.run_b, allow_mixed=args.allow_mixed)))
    except (ConfigError, OSError) as err:
        raise UsageError(str(err)) from None
    return EXIT_OK


LEADERBOARD_COMMAND = Command("leaderboard", "rank run directories (with CIs, baselines, per embodiment)",
                              configure_leaderboard, leaderboard_command)
COMPARE_COMMAND = Command("compare", "compare two runs per category (paired bootstrap over shared instances)",
                          configure_compare, compare_command)
