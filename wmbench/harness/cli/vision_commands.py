"""``wmbench video`` and ``wmbench gap``: render a finished episode; compare a brain's JSON and pixel runs."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from wmbench.harness.cli.base import EXIT_OK, Command, UsageError
from wmbench.harness.report.perception_gap import GapError, perception_gap, write_gap
from wmbench.harness.report.writer import write_reports
from wmbench.harness.video.recorder import MissingVideoExtraError
from wmbench.harness.video.replay import ReplayError, render_episode


def _configure_video(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path, help="a run directory written by `wmbench run`")
    p.add_argument("scenario", help="scenario id, e.g. S21")
    p.add_argument("--seed", type=int, default=None, help="which seed (default: the first one run)")
    p.add_argument("--out", type=Path, default=None, help="mp4 path (default: RUN/videos/<scenario>-s<seed>.mp4)")


def _video(args: argparse.Namespace) -> int:
    episodes = args.run_dir / "episodes.jsonl"
    if not episodes.is_file():
        raise UsageError(f"{args.run_dir} has no episodes.jsonl; expected a run directory of `wmbench run`")
    wanted = args.scenario.upper()
    found = None
    with episodes.open(encoding="utf-8") as lines:
        for line in lines:
            try:
                episode = json.loads(line)
            except json.JSONDecodeError:
                continue  # a torn last line of an interrupted run
            if episode.get("scenario") == wanted and (args.seed is None or episode.get("seed") == args.seed):
                found = episode
                break
    if found is None or not found.get("trace"):
        seed = "" if args.seed is None else f" with seed {args.seed}"
        raise UsageError(f"no finished episode of {wanted}{seed} in {episodes}")
    out = args.out or args.run_dir / "videos" / f"{wanted}-s{found.get('seed')}.mp4"
    try:
        path = render_episode(found["trace"], out)
    except (ReplayError, MissingVideoExtraError) as err:
        raise UsageError(str(err)) from None
    print(f"video: {path}")
    return EXIT_OK


def _configure_gap(p: argparse.ArgumentParser) -> None:
    p.add_argument("scene_run", type=Path, help="run directory of the brain with --observation scene")
    p.add_argument("image_run", type=Path, help="run directory of the same brain with --observation image")


def _gap(args: argparse.Namespace) -> int:
    try:
        gap = perception_gap(args.scene_run, args.image_run)
    except GapError as err:
        raise UsageError(str(err)) from None
    print(gap.table())
    print(f"\ngap: {write_gap(gap, args.image_run)}")

    try:
        files = write_reports(args.image_run)
    except (OSError, ValueError) as err:  # the gap is written; only the report could not be rebuilt
        print(f"report not rebuilt: {err}")
    else:
        print(f"report: {files.markdown}")
    return EXIT_OK


#: ``wmbench video`` (registered by :mod:`wmbench.harness.cli.main`).
VIDEO_COMMAND = Command("video", "render a finished episode: chase + top-down, PREDICT/MOTION captions",
                        _configure_video, _video)
#: ``wmbench gap`` (registered by :mod:`wmbench.harness.cli.main`).
GAP_COMMAND = Command("gap", "perception gap: a brain's scores from the JSON minus from images",
                      _configure_gap, _gap)
