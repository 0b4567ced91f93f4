"""``wmbench validity``: the command line of :func:`wmbench.harness.validity.runner.run_validity`.

::

    wmbench validity --quick                         # CI-sized panel: table on stdout, JSON + Markdown files
    wmbench validity --docs docs/validity.md         # full panel, and regenerate the docs page
    wmbench validity --rank-stability                # Spearman rho: two drawn sets, smpl vs robot / drone
    wmbench validity --quick --categories C03,C08 --merge-into runs/validity-quick/validity.json
                                                     # rerun the categories whose rules changed over a full run

Writes ``validity.json`` and ``validity.md`` into ``--out`` (default ``runs/validity[-quick]``); ``--docs``
also rewrites the generated part of a docs page (:mod:`wmbench.harness.validity.docs`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from wmbench.brain.panel.brains import get_panel_brain
from wmbench.core.visible import visible
from wmbench.harness.cli.base import EXIT_INTERRUPTED, EXIT_OK, UsageError
from wmbench.harness.run.out_dir import check_out_file, describe_os_error
from wmbench.harness.validity.docs import write_docs
from wmbench.harness.validity.rank_stability import run_rank_stability
from wmbench.harness.validity.runner import (
    CATEGORIES,
    ValidityInterrupted,
    ValidityResult,
    merge_results,
    result_from_dict,
    run_validity,
)

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
    p.add_argument("--categories", default=None,
                   help="comma-separated categories to run (e.g. C03,C08: the ones whose rules changed); "
                        "default all")
    p.add_argument("--merge-into", type=Path, default=None,
                   help="a full run's validity.json (same brains and seeds): the categories run here replace "
                        "its own, and the merged result is what is written (and put in --docs)")
    p.add_argument("--rank-from", type=Path, default=None,
                   help="with --docs: a rank_stability.json whose Spearman numbers the page prints")
    p.add_argument("--labels-from", type=Path, default=None,
                   help="with --docs: a validity.json of prompt-only and the cheats (all categories) whose "
                        "failure labels the page prints (default: this run's)")
    p.add_argument("--rank-stability", action="store_true",
                   help="instead of the table: Spearman rho of the panel's C01-C08 totals between two disjoint "
                        "drawn instance sets, and between smpl and robot / drone (writes rank_stability.json)")
    p.add_argument("--instances", type=int, default=4,
                   help="with --rank-stability: drawn instances per set (default: 4)")
    p.add_argument("--bodies", default="robot,drone",
                   help="with --rank-stability: the other bodies set A runs on (default: robot,drone; '' for none)")


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
    if args.rank_stability:
        return _rank_stability(args, brains, out)
    categories = [c.strip().upper() for c in args.categories.split(",") if c.strip()] if args.categories else None
    if categories is not None and (not categories or set(categories) - set(CATEGORIES)):
        raise UsageError(f"--categories must name some of {', '.join(CATEGORIES)}, got {args.categories!r}")
    if args.docs is not None:
        check_out_file(args.docs, "--docs", "a Markdown page")  # before the panel runs, not after
    base = _read_base(args.merge_into) if args.merge_into is not None else None
    labels = _read_base(args.labels_from) if args.labels_from is not None else None
    rank = None
    if args.rank_from is not None:
        try:
            rank = json.loads(args.rank_from.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise UsageError(f"--rank-from: cannot read {args.rank_from}: {err}") from None
    # finished (brain, seed) jobs: a stopped panel resumes (one file per category selection)
    checkpoint = out / (CHECKPOINT_FILE if categories is None
                        else CHECKPOINT_FILE.replace(".partial", ".partial-" + "-".join(categories)))
    try:
        result = run_validity(
            args.quick, seeds=tuple(range(args.seeds)) if args.seeds else None, brains=brains,
            workers=args.workers, include_c10=not args.no_c10, checkpoint=checkpoint, categories=categories,
            progress=lambda line: print(visible(f"  {line}"), file=sys.stderr, flush=True))
    except ValidityInterrupted as stop:
        print(f"\nwmbench validity: {stop}", file=sys.stderr)
        return EXIT_INTERRUPTED
    if base is not None:
        try:
            result = merge_results(base, result)
        except ValueError as err:
            raise UsageError(f"--merge-into {args.merge_into}: {err}") from None
    (out / "validity.json").write_text(result.to_json() + "\n", encoding="utf-8")
    table = result.to_markdown()
    (out / "validity.md").write_text(table + "\n", encoding="utf-8")
    checkpoint.unlink(missing_ok=True)  # the results are written: the next run starts fresh
    print(table)
    load = f", load average before {result.load_before[0]:.1f}" if result.load_before else ""
    print(f"\n{len(result.brains)} brains x seeds {list(result.seeds)} in {result.elapsed_s:.0f} s "
          f"({result.workers} workers{load}); {out / 'validity.json'}")
    if args.docs is not None:
        try:
            write_docs(result, args.docs, rank=rank, labels=labels)
        except KeyError as err:  # a --brains subset: the page compares brains this panel did not run
            raise UsageError(f"--docs {args.docs}: the page needs a brain this panel did not run ({err.args[0]}); "
                             f"expected the whole panel, or --merge-into a validity.json that has it "
                             f"({out / 'validity.json'} is written)") from None
        print(f"docs: {args.docs}")
    return EXIT_OK


def _read_base(path: Path) -> ValidityResult:
    """A validity.json (``--merge-into``, ``--labels-from``)."""
    try:
        return result_from_dict(json.loads(path.read_text(encoding="utf-8")))
    except OSError as err:
        raise UsageError(f"cannot read {path}: {describe_os_error(err)}") from None
    except (ValueError, KeyError, TypeError) as err:
        raise UsageError(f"{path} is not a validity.json ({err})") from None


def _rank_stability(args: argparse.Namespace, brains: list[str] | None, out: Path) -> int:
    """``--rank-stability``: :func:`wmbench.harness.validity.rank_stability.run_rank_stability`."""
    if args.instances < 1:
        raise UsageError(f"--instances must be at least 1, got {args.instances}")
    try:
        result = run_rank_stability(
            brains=brains, instances=args.instances, workers=args.workers, checkpoint_dir=out,
            bodies=tuple(b.strip() for b in args.bodies.split(",") if b.strip()),
            progress=lambda line: print(visible(f"  {line}"), file=sys.stderr, flush=True))
    except ValidityInterrupted as stop:
        print(f"\nwmbench validity: {stop}", file=sys.stderr)
        return EXIT_INTERRUPTED
    (out / "rank_stability.json").write_text(result.to_json() + "\n", encoding="utf-8")
    print(result.to_markdown())
    print(f"\n{result.elapsed_s:.0f} s; {out / 'rank_stability.json'}")
    return EXIT_OK
