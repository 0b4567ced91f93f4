"""``wmbench export``: a run's official submission file and leaderboard entry, or the dataset layout.

::

    wmbench export runs/my-run                 # submission.json + leaderboard_entry.json (track C, or A)
    wmbench export --dataset out/wm-bench      # benchmark_spec.json, scenarios/, scoring/
"""

from __future__ import annotations

import argparse
from pathlib import Path

from wmbench.core.errors import ConfigError
from wmbench.harness.cli.base import EXIT_OK, Command, UsageError
from wmbench.harness.official.dataset import export_dataset
from wmbench.harness.official.export import export_run
from wmbench.harness.verify.bundle import make_bundle


def configure_export(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path, nargs="?", default=None,
                   help="a run directory of `wmbench run` (harness run: track C; --track A run: track A)")
    p.add_argument("--out", type=Path, default=None, help="where to write the files (default: the run directory)")
    p.add_argument("--model-name", default=None, help="model_name of the entry and submission (default: brain)")
    p.add_argument("--bundle", type=Path, default=None, metavar="DIR",
                   help="also write a submission bundle (episodes, run.json, scores, hashes) into DIR for "
                        "`wmbench verify DIR`")
    p.add_argument("--dataset", type=Path, default=None, metavar="DIR",
                   help="write the spec and every scenario record in the official dataset layout into DIR")


def export_command(args: argparse.Namespace) -> int:
    if (args.run_dir is None) == (args.dataset is None):
        raise UsageError("expected a run directory or --dataset DIR (one of them), got "
                         + ("both" if args.run_dir is not None else "neither"))
    try:
        if args.dataset is not None:
            written = export_dataset(args.dataset)
            print(f"dataset: {len(written)} files in {args.dataset}")
            return EXIT_OK
        if not args.run_dir.is_dir():
            raise UsageError(f"{args.run_dir} is not a directory; expected a run directory of `wmbench run`")
        files = export_run(args.run_dir, args.out, args.model_name)
        manifest = make_bundle(args.run_dir, args.bundle) if args.bundle is not None else None
    except (ConfigError, OSError) as err:
        raise UsageError(str(err)) from None
    print(f"track {files.track}\nsubmission: {files.submission}\nleaderboard entry: {files.entry}")
    if manifest is not None:
        print(f"bundle: {manifest.parent} (check it with `wmbench verify {manifest.parent}`)")
    return EXIT_OK


EXPORT_COMMAND = Command("export", "write a run's official submission file and leaderboard entry, or the "
                         "official dataset layout (--dataset)", configure_export, export_command)
