"""``wmbench validity``: the command line of :func:`wmbench.harness.validity.runner.run_validity`.

::

    wmbench validity --quick                         # CI-sized panel: table on stdout, JSON + Markdown files
    wmbench validity --docs docs/validity.md         # full panel, and regenerate the docs page

Writes ``validity.json`` and ``validity.md`` into ``--out`` (default ``runs/validity[-quick]``); ``--docs``
also rewrites the generated part of a docs page (:mod:`wmbench.harness.validity.docs`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from wmbench.brain.panel.brains import get_panel_brain
from wmbench.core.visible import visible
from wmbench.harness.cli.base import EXIT_INTERRUPTED, EXIT_OK, UsageError
from wmbench.harness.run.out_dir import describe_os_error
from wmbench.harness.validity.docs import write_docs
from wmbench.harness.validity.runner import ValidityInterrupted, run_validity

#: The resume file of a panel run in ``--out`` (removed once validity.json is written).
CHECKPOINT_FILE = "validity.partial.jsonl"


def configure_validity(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quick", action="store_true",
                   help="the CI-sized panel (seeds 0-3, 15 constant replies, C10 on seed 0)")
    p.add_argument("--seeds", type=int, default=None,
                   help="number of family seeds 0..N-1 (default: 4)")
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                   help="processes (default: min(2, CPUs))")
    p.add_argument("--no-c10", action="store_true", help="leave out C10 (cross-body transfer)")
    p.add_argument("--brains", default=None,
                   help="comma-separated panel brains instead of the whole panel (e.g. left-first,right-first)")
    p.add_argument("--out", type=Path, default=None, help="output directory (default: runs/validity[-quick])")
    p.add_argument("--docs", type=Path, default=None, help="also regenerate this docs page (docs/validity.md)")


def validity_command(args: argparse.Namespace) -> int:
    if args.seeds is not None and args.seeds < 1:
        raise UsageError(f"--seeds must be at least 1, got {args.seeds}")
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    brains = [b.strip() for b in args.brains.split(",") if b.strip()] if args.brains else None
    if brains is not None:
        for name in brains:
            try:
                get_panel_brain(name).close()
            except ValueError as err:
                raise UsageError(str(err)) from None
    out = args.out or Path("runs") / ("validity-quick" if args.quick else "validity")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(f"cannot create {out}: {describe_os_error(err)}") from None
    checkpoint = out / CHECKPOINT_FILE  # finished (brain, seed) jobs: a stopped panel resumes
    try:
        result = run_validity(
            args.quick, seeds=tuple(range(args.seeds)) if args.seeds else None, brains=brains,
            workers=args.workers, include_c10=not args.no_c10, checkpoint=checkpoint,
            progress=lambda line: print(visible(f"  {line}"), file=sys.stderr, flush=True))
    except ValidityInterrupted as stop:
        print(f"\nwmbench validity: {stop}", file=sys.stderr)
        return EXIT_INTERRUPTED
    (out / "validity.json").write_text(result.to_json() + "\n", encoding="utf-8")
    table = result.to_markdown()
    (out / "validity.md").write_text(table + "\n", encoding="utf-8")
    checkpoint.unlink(missing_ok=True)  # the results are written: the next run starts fresh
    print(table)
    load = f", load average before {result.load_before[0]:.1f}" if result.load_before else ""
    print(f"\n{len(result.brains)} brains x seeds {list(result.seeds)} in {result.elapsed_s:.0f} s "
          f"({result.workers} workers{load}); {out / 'validity.json'}")
    if args.docs is not None:
        write_docs(result, args.docs)
        print(f"docs: {args.docs}")
    return EXIT_OK
