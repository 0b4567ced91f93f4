"""``wmbench video`` and ``wmbench gap``: render a finished episode; compare a brain's JSON and pixel runs."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from wmbench.harness.cli.base import EXIT_OK, Command, UsageError
from wmbench.harness.report.perception_gap import GapError, perception_gap, write_gap
from wmbench.harness.report.writer import write_reports
from wmbench.harness.run.out_dir import check_out_file, describe_os_error
from wmbench.harness.run.results import EPISODES_FILE, EpisodeLog
from wmbench.harness.video.recorder import MissingVideoExtraError
from wmbench.harness.video.replay import ReplayError, render_episode
from wmbench.scenarios import get_scenario


def _configure_video(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path, help="a run directory written by `wmbench run`")
    p.add_argument("scenario", help="scenario id, e.g. S21")
    p.add_argument("--seed", type=int, default=None, help="which seed (default: the first one run)")
    p.add_argument("--out", type=Path, default=None, help="mp4 path (default: RUN/videos/<scenario>-s<seed>.mp4)")


def _video(args: argparse.Namespace) -> int:
    """``wmbench video RUN SCENARIO``: read the episode with the run reader every command uses
    (:class:`~wmbench.harness.run.results.EpisodeLog`: unreadable lines are skipped and counted, never a
    traceback), check the scenario against the registry (a name from a file never becomes a path), and write
    under ``RUN/videos/`` unless ``--out`` names another file."""
    try:
        record = get_scenario(args.scenario)
    except KeyError as err:
        raise UsageError(err.args[0] if err.args else str(err)) from None
    episodes = args.run_dir / EPISODES_FILE
    if not episodes.is_file():
        raise UsageError(f"{args.run_dir} has no {EPISODES_FILE}; expected a run directory of `wmbench run`")
    log = EpisodeLog(episodes)
    with warnings.catch_warnings(record=True):  # counted below in one line instead of one warning each
        warnings.simplefilter("always")
        try:
            lines = log.read()  # all of it: the unreadable count is known at the end
        except OSError as err:
            raise UsageError(f"cannot read {episodes}: {describe_os_error(err)}") from None
    found = next((line for line in lines if line["scenario"] == record.id
                  and (args.seed is None or line["seed"] == args.seed)), None)
    if log.unreadable:
        print(f"wmbench video: {log.unreadable} unreadable line(s) of {episodes} skipped", file=sys.stderr)
    trace = found.get("trace") if found is not None else None
    if found is None or not isinstance(trace, dict):
        seed = "" if args.seed is None else f" with seed {args.seed}"
        raise UsageError(f"no finished episode of {record.id}{seed} in {episodes}")
    out = args.out or args.run_dir / "videos" / f"{record.id}-s{int(found['seed'])}.mp4"
    check_out_file(out, "--out", "an .mp4 file")  # an OutDirError is one line, exit 2 (cli/main.py)
    try:
        path = render_episode(trace, out, record)
    except (ReplayError, MissingVideoExtraError) as err:
        raise UsageError(str(err)) from None
    except OSError as err:  # the first line: imageio-ffmpeg appends ffmpeg's whole report to the reason
        reason = next(iter(describe_os_error(err).strip().splitlines()), "unknown error")
        raise UsageError(f"cannot write the video {out}: {reason}") from None
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
