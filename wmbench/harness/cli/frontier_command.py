"""``wmbench frontier``: a brain's category scores over think times and token budgets (the latency–accuracy curve).

::

    wmbench frontier --brain reference --think-times 0,0.5,1,2,4 --scenarios C03,C05 --out runs/frontier-ref
    wmbench frontier --brain openai/my-model --think-times 0,1,2 --token-budgets 16,64 --out runs/frontier-mine
    wmbench frontier --brain reference --live --out runs/ref      # + C09 live; into a run: its report plots it

Writes ``frontier.json``, ``frontier.md`` and ``frontier.png`` (see :mod:`wmbench.harness.frontier.curve`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from wmbench.brain.base import Brain
from wmbench.brain.registry import get_brain
from wmbench.harness.cli.base import EXIT_OK, Command, UsageError
from wmbench.harness.cli.options import parse_options
from wmbench.harness.frontier.curve import Frontier, measure_frontier, write_frontier
from wmbench.harness.report.writer import write_reports
from wmbench.harness.run.out_dir import out_dir_while
from wmbench.harness.run.results import SCORES_FILE
from wmbench.harness.run.selection import parse_seed_list

_N = TypeVar("_N", int, float)


def _numbers(text: str, what: str, kind: Callable[[str], _N]) -> list[_N]:
    try:
        values = [kind(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise UsageError(f"{what}: expected comma-separated numbers such as 0,0.5,1, got {text!r}") from None
    if not values or any(v < 0 for v in values):
        raise UsageError(f"{what}: expected one or more numbers >= 0, got {text!r}")
    return values


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--brain", default="reference", help="brain spec (default reference)")
    p.add_argument("--option", nargs="*", default=[], metavar="KEY=VALUE", help="brain options, as for run")
    p.add_argument("--think-times", default="0,0.5,1,2,4", help="think times in s of sim time (default 0,0.5,1,2,4)")
    p.add_argument("--token-budgets", default=None, help="token budgets, e.g. 16,64 (default: none)")
    p.add_argument("--scenarios", default="all", help="selection (default all: its bench scenarios, C01-C08)")
    p.add_argument("--seed-list", default="1", help="seeds (default 1)")
    p.add_argument("--body", default="smpl", help="body (default smpl)")
    p.add_argument("--live", action="store_true",
                   help="also run the selection's live C09 scenarios at each think time (wall-clock, ~40 s each)")
    p.add_argument("--out", type=Path, required=True,
                   help="folder for frontier.json / .md / .png; a run folder's report.html then shows the curve")


def _frontier(args: argparse.Namespace) -> int:
    think_times = _numbers(args.think_times, "--think-times", float)
    budgets: list[int | None] = [None]
    if args.token_budgets:
        budgets = list(_numbers(args.token_budgets, "--token-budgets", int))
    options = parse_options(args.option)
    try:
        seeds = parse_seed_list(args.seed_list)
    except ValueError as err:
        raise UsageError(f"--seed-list: {err}") from None

    def brain_for(budget: int | None = None) -> Brain:  # a real budget for API brains, not only a cut
        extra = {"max_tokens": budget} if budget and args.brain.startswith("openai/") else {}
        return get_brain(args.brain, **{**options, **extra})

    brain_for()  # a wrong spec or option fails here, before any episode
    try:
        with out_dir_while(args.out):  # tried first; not left behind if the selection is refused
            frontier = measure_frontier(brain_for, args.brain, args.scenarios, seeds, think_times, budgets,
                                        args.body, progress=lambda line: print(line, file=sys.stderr, flush=True),
                                        live=args.live)
    except ValueError as err:  # an unknown selection token, a selection with no bench scenario
        raise UsageError(str(err)) from None
    for path in write_frontier(frontier, args.out):
        print(f"wrote {path}")
    if (args.out / SCORES_FILE).is_file():  # a run folder: its report shows the curve from now on
        print(f"updated {write_reports(args.out).html}")
    print(frontier_summary(frontier))
    return EXIT_OK


def frontier_summary(frontier: Frontier) -> str:
    """The area table, the command's headline."""
    rows = [f"area under the curve (score/100 over think time), {frontier.brain}:"]
    for budget, areas in frontier.area.items():
        rows.append(f"  budget {budget}: " + ", ".join(f"{c} {a:.2f}" for c, a in areas.items()))
    return "\n".join(rows)


FRONTIER_COMMAND = Command("frontier", "latency-accuracy frontier: scores over think times and token budgets",
                           _configure, _frontier)
