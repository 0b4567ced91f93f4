"""What ``wmbench live`` and ``wmbench report`` do, and their arguments (:func:`configure_live` /
:func:`live_main`, :func:`configure_report` / :func:`report_main`, registered lazily by
:mod:`wmbench.harness.cli.main`).

::

    wmbench live S42 --brain reference --body smpl --fps 60 --out runs/live-s42     # prints 1 line/s
    wmbench report runs/x                                                           # rebuilds the reports
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from wmbench.core.errors import ConfigError
from wmbench.core.visible import visible
from wmbench.envs.pacing import BODY_PACE, SCENE_PACE
from wmbench.harness.cli.base import EXIT_OK, UsageError
from wmbench.harness.cli.motion_model_option import add_motion_model_argument, apply_motion_model
from wmbench.harness.cli.options import add_unpaced_argument, default_out_dir, parse_options
from wmbench.harness.live.loop import LIVE_FPS_CHOICES, live_summary_line, run_live
from wmbench.harness.live.store import LIVE_FILE, LiveStore
from wmbench.harness.report.writer import write_reports
from wmbench.harness.run.out_dir import describe_os_error, out_dir_while
from wmbench.harness.run.results import EPISODES_FILE, RUN_FILE, SCORES_FILE, read_json
from wmbench.scenarios import get_scenario
from wmbench.scoring.c09 import C09_IDS, score_c09
from wmbench.scoring.live_run import LiveResult, LiveTick

Printer = Callable[[str], None]


class LiveCommandError(ConfigError):
    """A mistake in the ``live``/``report`` arguments (printed as one line by the CLI)."""


def live_command(
    scenario: str,
    brain: str,
    body: str,
    out: Path,
    *,
    fps: int = 60,
    seed: int = 0,
    duration: float | None = None,
    gui: bool = False,
    record: Path | None = None,
    brain_options: Mapping[str, Any] | None = None,
    say: Printer = print,
    observation: str = "scene",
    unpaced: bool = False,
) -> LiveResult:
    """Run ``scenario`` live, print progress once per wall second, write ``out/live.json`` (with trace).
    ``unpaced`` plays a bench scene at its own speeds on a slow body (the ``--unpaced`` diagnostic)."""
    try:
        record_id = get_scenario(scenario).id
    except KeyError as err:
        raise LiveCommandError(err.args[0] if err.args else str(err)) from None
    if fps not in LIVE_FPS_CHOICES:
        choices = ", ".join(map(str, LIVE_FPS_CHOICES))
        raise LiveCommandError(f"--fps must be one of {choices} (dividing the 240 Hz physics), got {fps}")
    if record is not None:
        say("note: the video is rendered from the trace after the run (it costs the live loop nothing)")
    next_print = [1.0]

    def on_frame(tick: LiveTick) -> None:
        if tick.wall_s >= next_print[0]:
            next_print[0] += 1.0
            say(live_summary_line(tick))

    try:
        result = run_live(record_id, brain, body, fps, seed, duration, record, on_frame, gui=gui,
                          brain_options=brain_options, keep_trace=True, observation=observation,
                          pace=SCENE_PACE if unpaced else BODY_PACE)
    except (KeyError, TypeError) as err:  # unknown body, bad brain options
        raise LiveCommandError(err.args[0] if err.args else str(err)) from None
    LiveStore(out).put(result, include_trace=True)
    return result


def format_live_result(result: LiveResult) -> str:
    """The lines printed after a live run."""
    lat = "-" if result.cognitive_latency_ms is None else f"{result.cognitive_latency_ms:.1f} ms"
    p95 = "-" if result.cognitive_latency_p95_ms is None else f"{result.cognitive_latency_p95_ms:.1f} ms"
    lines = [
        f"{result.scenario} live with {result.brain} on {result.body}: {result.sim_s:.2f} s sim in "
        f"{result.wall_s:.2f} s wall" + (" (caught)" if result.caught else ""),
        f"fps {result.fps:.2f} (target {result.fps_target}; capacity {result.work_fps or 0:.0f})  "
        f"late frames {100 * result.late_frame_rate:.2f} %  dropped {100 * result.dropped_frame_rate:.2f} %",
        f"cognitive latency median {lat}, p95 {p95} over {len(result.decisions)} decisions",
    ]
    lines.append(live_score_line(result))
    if result.error:
        lines.append(f"error: {result.error}")
    return "\n".join(lines)


def live_score_line(result: LiveResult) -> str:
    """``score: S42 20.0 / 20 — <why>`` for a C09 scenario (its rule, :func:`score_c09`); a bench scenario
    run live is not scored (its rule reads a bench episode) and the line says how to score it."""
    if result.scenario not in C09_IDS:
        return (f"score: not scored live ({result.scenario} is a bench scenario; "
                f"`wmbench run --scenarios {result.scenario}` scores it)")
    (score,) = score_c09({result.scenario: result}, (result.scenario,))[result.scenario]
    if not score.measured:
        return f"score: {result.scenario} not measured: {score.explanation}"
    return f"score: {result.scenario} {score.score:.1f} / {score.max:g} — {score.explanation}"


#: Files of which a run directory holds at least one; ``wmbench report`` refuses a folder with none of them.
RUN_MARKERS: tuple[str, ...] = (RUN_FILE, EPISODES_FILE, SCORES_FILE, LIVE_FILE)


def report_command(run_dir: Path, *, model_name: str | None = None, organization: str = "",
                   paper_url: str = "", demo_url: str = "") -> Any:
    """Rebuild the reports of ``run_dir`` from its episodes.jsonl and live.json; returns the ReportFiles."""
    if not run_dir.is_dir():
        raise LiveCommandError(f"{run_dir} is not a directory; expected a run directory of `wmbench run`")
    present = [name for name in RUN_MARKERS if (run_dir / name).is_file()]
    if not present:
        raise LiveCommandError(f"{run_dir} holds no wmbench run (none of {', '.join(RUN_MARKERS)}); expected a "
                               "directory written by `wmbench run` or `wmbench live`")
    if not any(_readable(run_dir / name) for name in present):  # else: a report of nothing, "0.0 / 1000"
        raise LiveCommandError(f"{run_dir} holds no readable wmbench run ({', '.join(present)}: unreadable); "
                               "expected a directory written by `wmbench run` or `wmbench live`")
    try:
        return write_reports(run_dir, rebuild=True, model_name=model_name, organization=organization,
                             paper_url=paper_url, demo_url=demo_url)
    except FileNotFoundError as err:
        raise LiveCommandError(str(err)) from None
    except OSError as err:  # a read-only or full run dir: nothing half-written (writes are atomic)
        raise LiveCommandError(f"cannot write the reports in {run_dir}: {describe_os_error(err)}") from None


def _readable(path: Path) -> bool:
    """Whether a run file holds data: ``episodes.jsonl`` not empty, a JSON file an object with something in it."""
    if path.name == EPISODES_FILE:
        return path.stat().st_size > 0  # its damaged lines are the run reader's to skip and count
    try:
        data = read_json(path)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and bool(data)


# -------------------------------------------------------------------------------------- the subcommands


def configure_live(p: argparse.ArgumentParser) -> None:
    """The arguments of ``wmbench live``."""
    p.add_argument("scenario", help="scenario id, e.g. S42")
    p.add_argument("--brain", default="reference", help="brain spec (default: reference)")
    p.add_argument("--body", default="smpl", help="body: smpl, robot, drone or a plugin (default: smpl)")
    p.add_argument("--fps", type=int, default=60, help="target frame rate: 30, 60, 120 or 240 (default: 60)")
    p.add_argument("--seed", type=int, default=0, help="seed (default: 0)")
    p.add_argument("--duration", type=float, default=None, help="stop after this many sim seconds")
    p.add_argument("--gui", action="store_true", help="show the PyBullet GUI (needs a display)")
    p.add_argument("--record", type=Path, default=None, help="write an mp4 of the run (extra: video)")
    p.add_argument("--observation", default="scene", choices=("scene", "image", "scene+image", "rays"),
                   help="what the brain is shown (default: scene, the JSON); see docs/vision.md")
    add_unpaced_argument(p)
    p.add_argument("--out", type=Path, default=None,
                   help="directory for live.json (default: runs/live-<scenario>-<brain>-<body>-<timestamp>)")
    p.add_argument("--option", action="append", nargs="+", default=[], metavar="KEY=VALUE",
                   help="brain options, repeatable and multi-valued")
    add_motion_model_argument(p)


def live_main(args: argparse.Namespace) -> int:
    """``wmbench live``: one scenario in real time; prints the result line and where live.json is."""
    apply_motion_model(args)
    try:
        options = parse_options(args.option)
        out = args.out or default_out_dir(f"live-{args.scenario}-{args.brain}", args.body)
        with out_dir_while(out):  # tried before the episode is played; not left behind if the run is refused
            result = live_command(args.scenario, args.brain, args.body, out, fps=args.fps, seed=args.seed,
                                  duration=args.duration, gui=args.gui, record=args.record, brain_options=options,
                                  observation=args.observation, unpaced=args.unpaced)
    except (LiveCommandError, ValueError, ImportError) as err:  # bad spec, bad value, missing extra
        raise UsageError(str(err)) from None
    print(visible(format_live_result(result)))
    if args.record is not None and args.record.exists():
        print(f"video: {args.record}")
    print(f"live: {out / 'live.json'}")
    return EXIT_OK


def configure_report(p: argparse.ArgumentParser) -> None:
    """The arguments of ``wmbench report``."""
    p.add_argument("run_dir", type=Path, help="a run directory written by `wmbench run`")
    p.add_argument("--model-name", default=None, help="leaderboard model_name (default: the brain spec)")
    p.add_argument("--organization", default="", help="leaderboard organization")
    p.add_argument("--paper-url", default="", help="leaderboard paper_url")
    p.add_argument("--demo-url", default="", help="leaderboard demo_url")


def report_main(args: argparse.Namespace) -> int:
    """``wmbench report``: rebuild a run directory's reports; prints where they are."""
    try:
        files = report_command(args.run_dir, model_name=args.model_name, organization=args.organization,
                               paper_url=args.paper_url, demo_url=args.demo_url)
    except LiveCommandError as err:
        raise UsageError(str(err)) from None
    print(f"markdown: {files.markdown}\nleaderboard entry: {files.leaderboard}\nreport: {files.html}")
    return EXIT_OK
