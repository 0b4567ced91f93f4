"""The episode-dataset mode of ``wmbench export``: ``wmbench export --episodes RUN_OR_SWEEP DIR``.

Writes ``DIR/<body>/manifest.json`` and ``DIR/<body>/episodes/*.npz|.json`` (and ``*.mp4`` with ``--video``;
layout in docs/sweeps.md, :mod:`wmbench.harness.dataset.export`), then reads every episode back and checks
it against its trace (:func:`wmbench.harness.dataset.reader.check_dataset`) unless ``--no-check``.

``wmbench export-episodes RUN_OR_SWEEP DIR`` (0.4's spelling) still works: it prints one deprecation line on
stderr and does the same.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from wmbench.core.errors import ConfigError
from wmbench.harness.cli.base import EXIT_OK, UsageError
from wmbench.harness.dataset.export import VideoRenderer, export_episodes
from wmbench.harness.dataset.reader import check_dataset
from wmbench.harness.video.replay import render_episode

DEPRECATION = ("wmbench: `export-episodes` is deprecated; use `wmbench export --episodes RUN_OR_SWEEP DIR` "
               "(same options)")


def add_episode_options(p: argparse.ArgumentParser) -> None:
    """The options of the episode-dataset mode (shared by ``export --episodes`` and ``export-episodes``)."""
    p.add_argument("--video", action="store_true",
                   help="with --episodes: also render an mp4 per episode (the `video` extra)")
    p.add_argument("--pose-log-only", action="store_true",
                   help="with --episodes: skip the re-simulation (no motion-rate joint/servo/rotor trajectories)")
    p.add_argument("--no-check", action="store_true",
                   help="with --episodes: skip reading the dataset back against the traces")


def run_episode_export(source: Path, out: Path, args: argparse.Namespace) -> int:
    """Export the episode dataset of ``source`` into ``out`` and check it (see the module card)."""
    try:
        summary = export_episodes(source, out, resimulate=not args.pose_log_only,
                                  video=_renderer() if args.video else None)
        if not summary.episodes:  # not "checked: no episodes found" about the empty folder it would read back
            raise UsageError(f"{source}: no episode to export; {summary.skipped} line(s) skipped (errors, no pose "
                             "log); expected episodes of a finished `wmbench run`")
        counts = ", ".join(f"{body}: {n}" for body, n in summary.episodes.items())
        print(f"wrote {out}: episodes per body {counts}; {summary.skipped} line(s) skipped (errors, no pose log)")
        if not args.no_check:
            print(f"checked {check_dataset(out)} episode(s) against their traces: identical")
    except (ConfigError, OSError) as err:
        raise UsageError(str(err)) from None
    return EXIT_OK


def _renderer() -> VideoRenderer:
    """The episode renderer of ``--video`` (:func:`wmbench.harness.video.replay.render_episode`, no bar)."""
    def render(trace: Any, path: Path) -> Path:
        return render_episode(trace, path, progress=False)

    return render


def configure_export_episodes(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", type=Path, help="a run directory, or a sweep directory (all its cells)")
    p.add_argument("out", type=Path, help="the dataset folder to create")
    add_episode_options(p)


def export_episodes_command(args: argparse.Namespace) -> int:
    print(DEPRECATION, file=sys.stderr)
    return run_episode_export(args.source, args.out, args)
