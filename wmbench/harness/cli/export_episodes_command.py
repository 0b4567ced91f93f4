"""``wmbench export-episodes RUN_OR_SWEEP DIR``: a run's (or a sweep's) episodes as a per-embodiment dataset.

Writes ``DIR/<body>/manifest.json`` and ``DIR/<body>/episodes/*.npz|.json`` (layout in docs/sweeps.md,
:mod:`wmbench.harness.dataset.export`), then reads every episode back and checks it against its trace
(:func:`wmbench.harness.dataset.reader.check_dataset`) unless ``--no-check``. Separate from ``wmbench export``
(official submissions).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from wmbench.harness.cli.base import EXIT_OK, UsageError
from wmbench.harness.dataset.export import DatasetError, export_episodes
from wmbench.harness.dataset.reader import check_dataset


def configure_export_episodes(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", type=Path, help="a run directory, or a sweep directory (all its cells)")
    p.add_argument("out", type=Path, help="the dataset folder to create")
    p.add_argument("--no-check", action="store_true", help="skip reading the dataset back against the traces")


def export_episodes_command(args: argparse.Namespace) -> int:
    try:
        summary = export_episodes(args.source, args.out)
        counts = ", ".join(f"{body}: {n}" for body, n in summary.episodes.items()) or "none"
        print(f"wrote {args.out}: episodes per body {counts}; {summary.skipped} line(s) skipped (errors, no pose log)")
        if not args.no_check:
            print(f"checked {check_dataset(args.out)} episode(s) against their traces: identical")
    except DatasetError as err:
        raise UsageError(str(err)) from None
    return EXIT_OK
