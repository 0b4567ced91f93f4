"""``wmbench export``: everything that leaves wmbench as files — one verb, three modes (exactly one a call).

::

    wmbench export runs/my-run                       # a run's official submission.json + leaderboard_entry.json
    wmbench export --dataset out/wm-bench            # the benchmark itself: benchmark_spec.json, scenarios/, scoring/
    wmbench export --episodes runs/sweep data/       # your episodes as a per-body training dataset (npz + json)

The episode mode is :mod:`wmbench.harness.cli.export_episodes_command` (``export-episodes`` is its deprecated
0.4 spelling).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from wmbench.core.errors import ConfigError
from wmbench.harness.cli.base import EXIT_OK, Command, UsageError
from wmbench.harness.cli.export_episodes_command import add_episode_options, run_episode_export
from wmbench.harness.official.dataset import export_dataset
from wmbench.harness.official.export import export_run
from wmbench.harness.run.out_dir import out_dir_while
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
                   help="write the benchmark itself (spec, every scenario record, scoring) in the official "
                        "dataset layout into DIR")
    p.add_argument("--episodes", type=Path, nargs=2, default=None, metavar=("RUN_OR_SWEEP", "DIR"),
                   help="write the episodes of a run or sweep as a per-body training dataset (frozen manifest; "
                        "per episode npz + json: trajectories, cameras, captions) into DIR, then check it")
    add_episode_options(p)


def export_command(args: argparse.Namespace) -> int:
    modes = [m for m, v in (("a run directory", args.run_dir), ("--dataset", args.dataset),
                            ("--episodes", args.episodes)) if v is not None]
    if len(modes) != 1:
        raise UsageError("expected one of a run directory, --dataset DIR or --episodes RUN_OR_SWEEP DIR, got "
                         + (" and ".join(modes) if modes else "none"))
    if args.run_dir is None and (args.out is not None or args.model_name is not None or args.bundle is not None):
        raise UsageError("--out, --model-name and --bundle belong to the run-directory mode (wmbench export RUN)")
    if args.episodes is not None:
        return run_episode_export(args.episodes[0], args.episodes[1], args)
    if args.video or args.pose_log_only or args.no_check:
        raise UsageError("--video, --pose-log-only and --no-check belong to --episodes RUN_OR_SWEEP DIR")
    try:
        if args.dataset is not None:
            with out_dir_while(args.dataset):  # an OutDirError is one line, not a raw [Errno ...]
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


EXPORT_COMMAND = Command("export", "write files out: a run's official submission and leaderboard entry (RUN), "
                         "the benchmark's dataset layout (--dataset DIR), or your episodes as a training dataset "
                         "(--episodes RUN_OR_SWEEP DIR)", configure_export, export_command)
