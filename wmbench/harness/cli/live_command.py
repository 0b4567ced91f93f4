"""What ``wmbench live`` and ``wmbench report`` do (the CLI module only wires their arguments here).

::

    wmbench live S42 --brain reference --body smpl --fps 60 --out runs/live-s42     # prints 1 line/s
    wmbench report runs/x                                                           # rebuilds the reports
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from wmbench.core.errors import ConfigError
from wmbench.harness.live.loop import LIVE_FPS_CHOICES, live_summary_line, run_live
from wmbench.harness.live.store import LIVE_FILE, LiveStore
from wmbench.harness.report.writer import write_reports
from wmbench.harness.run.out_dir import describe_os_error
from wmbench.harness.run.results import EPISODES_FILE, RUN_FILE, SCORES_FILE
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
) -> LiveResult:
    """Run ``scenario`` live, print progress once per wall second, write ``out/live.json`` (with trace)."""
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
                          brain_options=brain_options, keep_trace=True, observation=observation)
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
    if not any((run_dir / name).is_file() for name in RUN_MARKERS):
        raise LiveCommandError(f"{run_dir} holds no wmbench run (none of {', '.join(RUN_MARKERS)}); expected a "
                               "directory written by `wmbench run` or `wmbench live`")
    try:
        return write_reports(run_dir, rebuild=True, model_name=model_name, organization=organization,
                             paper_url=paper_url, demo_url=demo_url)
    except FileNotFoundError as err:
        raise LiveCommandError(str(err)) from None
    except OSError as err:  # a read-only or full run dir: nothing half-written (writes are atomic)
        raise LiveCommandError(f"cannot write the reports in {run_dir}: {describe_os_error(err)}") from None
