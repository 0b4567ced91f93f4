"""``wmbench run``: the benchmark in bench mode -> ``scores.json``, and the summary table it prints.

Card
----
- :func:`configure_run` / :func:`run_command`: the subcommand (registered by :mod:`wmbench.harness.cli.main`);
  a bad selection, brain, body, option or ``--out`` is a :class:`~wmbench.harness.cli.base.UsageError`
  (exit 2); Ctrl-C keeps the finished episodes (exit 130); a dead worker process is exit 1, and so is a run
  the brain could not finish (:class:`~wmbench.harness.run.guard.RunStopped`: one line with the reason).
  ``--max-connections`` sets the API concurrency, ``--limit`` the number of episodes.
- :func:`choose_instances`: the test split (:mod:`wmbench.harness.run.instances`): by default
  ``--instances`` (4) test seeds drawn with a random nonce, plus seed 0 reported apart as spec fidelity
  (``--no-spec-fidelity`` drops it); a rerun of the same ``--out`` reuses the recorded draw;
  ``--instances-from RUN`` another run's; ``--seeds N``/``--seed-list`` explicit seeds and no nonce.
- ``--option`` items and the default ``--out``: :mod:`wmbench.harness.cli.options` (shared with ``serve`` and
  ``live``, which import no run machinery).
- :func:`format_summary`: each category's points (or why not), the WM Score and the grade, the brain's
  decisions/tokens/cache hits/retries/failures, and why a run stopped early;
  :data:`~wmbench.core.taxonomy.CATEGORY_TITLES` names the categories.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from wmbench.core.taxonomy import CATEGORY_TITLES
from wmbench.core.visible import visible
from wmbench.envs.pacing import SCENE_PACE
from wmbench.harness.cli.base import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, UsageError
from wmbench.harness.cli.motion_model_option import add_motion_model_argument, apply_motion_model
from wmbench.harness.cli.options import add_unpaced_argument, default_out_dir, parse_options
from wmbench.harness.cli.track_a_option import track_a_command
from wmbench.harness.run.accounting import format_usage
from wmbench.harness.run.guard import RunStopped
from wmbench.harness.run.instances import (
    DEFAULT_INSTANCES,
    InstanceDraw,
    InstancesError,
    instances_from,
    resume_or_draw,
)
from wmbench.harness.run.lock import RunLockedError
from wmbench.harness.run.out_dir import OutDirError, check_out_dir, check_run_dir, describe_os_error
from wmbench.harness.run.selection import parse_seed_list, plan_suite
from wmbench.harness.suite import (
    DEFAULT_MAX_CONNECTIONS,
    RunConfigError,
    RunFailed,
    RunInterrupted,
    default_measurers,
    run_suite,
)
from wmbench.harness.sweep.estimate import MAX_EPISODES_WITHOUT_YES
from wmbench.harness.sweep.model import SweepSpec
from wmbench.harness.sweep.toml_file import SweepFileError, load_run_config
from wmbench.protocol.observation import OBSERVATION_MODES
from wmbench.scoring.scores_file import Scores


def configure_run(p: argparse.ArgumentParser) -> None:
    """The arguments of ``wmbench run``."""
    p.add_argument("--brain", default="reference",
                   help="brain spec: reference, null, random, replay:FILE, openai/MODEL, hf/PATH, onnx/PATH "
                        "(default: reference)")
    p.add_argument("--body", default="smpl", help="body: smpl, robot, drone or a plugin (default: smpl)")
    p.add_argument("--scenarios", default="all",
                   help="'all' or a comma-separated mix of ids, categories and pillars, e.g. S12,C03,P1")
    p.add_argument("--seeds", type=int, default=None,
                   help="explicit seeds 0..N-1 per scenario instead of drawn instances (no nonce; seed 0 is "
                        "reported as spec fidelity, the others make the WM Score)")
    p.add_argument("--seed-list", default=None,
                   help="explicit seeds, e.g. 0,1,2 or 0-4 (overrides --seeds; reproduces a drawn run from "
                        "the test_seeds in its scores.json)")
    p.add_argument("--instances", type=int, default=DEFAULT_INSTANCES,
                   help=f"test instances per scenario drawn with a random nonce (default: {DEFAULT_INSTANCES}); "
                        "the WM Score is over them. A rerun of the same --out reuses the recorded ones")
    p.add_argument("--instances-from", type=Path, default=None, metavar="RUN",
                   help="reuse the instances of an earlier run folder (paired comparison of two brains)")
    p.add_argument("--no-spec-fidelity", action="store_true",
                   help="do not play seed 0, the spec's canonical instance (reported apart, never in the WM "
                        "Score)")
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                   help="episodes run in parallel (default: min(2, CPUs))")
    p.add_argument("--out", type=Path, default=None,
                   help="run directory (default: runs/<brain>-<body>-<timestamp>); an existing one resumes")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--option", action="append", nargs="+", default=[], metavar="KEY=VALUE",
                   help="brain options, repeatable and multi-valued (e.g. --option temperature=0 history=4); "
                        "values are read as JSON when they parse, else as text. API keys: set OPENAI_API_KEY "
                        "or pass api_key_file=PATH; api_key=... on a command line is visible to every user "
                        "in `ps` (a warning says so)")
    p.add_argument("--max-connections", type=int, default=None,
                   help="concurrent requests for API brains (openai/...), independent of --workers "
                        "(default: 8)")
    p.add_argument("--limit", type=int, default=None, help="run only the first N episodes (a quick try)")
    p.add_argument("--observation", default="scene", choices=OBSERVATION_MODES,
                   help="what the brain is shown: scene (the JSON, default), image (egocentric panorama), "
                        "scene+image, rays (the raw ray fan as text); bench-mode scenarios only (C09 live and "
                        "C10 transfer are measured with the JSON)")
    add_unpaced_argument(p)
    p.add_argument("--no-live", action="store_true",
                   help="do not measure C09 with live runs (reported as not measured)")
    p.add_argument("--track", default=None, choices=("A",),
                   help="A: score a Track-A file (--scenarios wm_bench.jsonl) statically as the official Track A "
                        "does (one decision per record, no simulation); without it a Track-A file runs "
                        "physically, each record a closed-loop world (docs/official.md)")
    add_motion_model_argument(p)
    p.add_argument("--config", type=Path, default=None, metavar="FILE",
                   help="take the run's settings from a run file (TOML, see docs/sweeps.md), a run.json or a run "
                        "directory: replays that run (--out still applies)")
    p.add_argument("--yes", action="store_true",
                   help=f"run more than {MAX_EPISODES_WITHOUT_YES:,} episodes without refusing")


def run_env_kwargs(observation: str, unpaced: bool) -> dict[str, Any]:
    """The env keyword arguments a run's options set (only those off their default, so a default run's
    run.json is as before): ``observation`` and, with ``--unpaced``, ``pace="scene"``."""
    return {**({"observation": observation} if observation != "scene" else {}),
            **({"pace": SCENE_PACE} if unpaced else {})}


def run_command(args: argparse.Namespace) -> int:
    """``wmbench run``: the suite into ``--out`` (resuming it), then the summary table; the exit code."""
    if args.config is not None:
        try:
            apply_run_config(args, load_run_config(args.config))
        except SweepFileError as err:
            raise UsageError(str(err)) from None
    try:
        options = parse_options(args.option)
    except ValueError as err:
        raise UsageError(str(err)) from None
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    apply_motion_model(args)
    max_connections = DEFAULT_MAX_CONNECTIONS if args.max_connections is None else args.max_connections
    if max_connections < 1:
        raise UsageError(f"--max-connections must be at least 1, got {max_connections}")
    if args.limit is not None and args.limit < 1:
        raise UsageError(f"--limit must be at least 1, got {args.limit}")
    out = args.out or default_out_dir(args.brain, args.body)
    if args.track == "A":
        return track_a_command(args.scenarios, args.brain, out, options)
    seeds = choose_instances(args, out)
    _check_size(args.scenarios, seeds.seeds if isinstance(seeds, InstanceDraw) else seeds, args.limit,
                args.yes)

    try:
        check_run_dir(out)  # new, empty or a wmbench run, outside the source tree (before anything is created)
        check_out_dir(out)  # and writable
    except OutDirError as err:
        raise UsageError(str(err)) from None
    try:
        scores = run_suite(args.brain, args.body, args.scenarios, seeds, args.workers, out,
                           brain_options=options, progress=not args.no_progress,
                           measurers=default_measurers(live=not args.no_live),
                           max_connections=max_connections, limit=args.limit,
                           env_kwargs=run_env_kwargs(args.observation, args.unpaced) or None)
    except (RunConfigError, RunLockedError) as err:  # RunLockedError: another run holds --out
        raise UsageError(str(err)) from None
    except RunInterrupted as stop:
        print(visible(f"\nwmbench run: {stop}"), file=sys.stderr)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:  # after the episodes, while scoring: everything is on disk
        print(f"\nwmbench run: interrupted while scoring; rerun the same command to score {out}",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    except RunFailed as err:
        print(visible(f"wmbench run: failed: {err}"), file=sys.stderr)
        return EXIT_FAILED
    except RunStopped as stop:  # the reason once, first; the table only when something was measured
        print(visible(f"wmbench run: stopped early (run incomplete, results so far in {out}): {stop.reason}"),
              file=sys.stderr, flush=True)
        if stop.scores and measured_anything(stop.scores):
            print(visible(format_summary(stop.scores, reason_shown=True)))
        return EXIT_FAILED
    except OSError as err:  # the disk filled up (or went read-only) mid-run: finished episodes are kept
        raise UsageError(f"cannot write the run in {out}: {describe_os_error(err)}; finished episodes are "
                         f"kept, free some space and rerun to resume") from None
    print(visible(format_summary(scores)))
    print(f"\nscores: {out / 'scores.json'}")
    if not (Path(out) / "report.html").exists():  # the runner warned why; scores.json is complete
        print(f"wmbench run: error: the report could not be written in {out}; scores.json is complete, "
              f"retry with `wmbench report {out}`", file=sys.stderr)
        return EXIT_FAILED
    print(f"report: {Path(out) / 'report.html'}")
    return EXIT_OK


def choose_instances(args: argparse.Namespace, out: Path) -> int | tuple[int, ...] | InstanceDraw:
    """What ``wmbench run`` plays: explicit seeds (``--seed-list``/``--seeds``: no nonce), another run's
    instances (``--instances-from``), the draw recorded in ``out`` (a resumed run) or a fresh draw."""
    explicit = args.seed_list is not None or args.seeds is not None
    if explicit and args.instances_from is not None:
        raise UsageError("--instances-from takes the seeds of another run; expected it without --seeds and "
                         "--seed-list")
    try:
        if args.seed_list is not None:
            return parse_seed_list(args.seed_list)
        if args.seeds is not None:
            return int(args.seeds)
        if args.instances_from is not None:
            return instances_from(args.instances_from, spec_fidelity=not args.no_spec_fidelity)
        return resume_or_draw(out, args.instances, spec_fidelity=not args.no_spec_fidelity)
    except (ValueError, InstancesError) as err:
        raise UsageError(str(err)) from None


def apply_run_config(args: argparse.Namespace, spec: SweepSpec) -> None:
    """Put a one-cell run file's settings into ``args`` (``--out`` given on the command line wins)."""
    cells = spec.cells()
    if len(cells) != 1:
        raise UsageError(f"--config {args.config}: a run file names one brain, body, observation and motion "
                         f"model; this one makes {len(cells)} cells (run it with `wmbench sweep`)")
    cell = cells[0]
    args.brain, args.body, args.observation = cell.brain.spec, cell.body, cell.observation
    args.motion_model, args.scenarios, args.workers = cell.motion_model, spec.scenarios, spec.workers
    args.option = [[f"{k}={json.dumps(v)}" for k, v in cell.brain.options.items()]]
    args.seed_list = ",".join(map(str, spec.seeds)) if spec.seeds is not None else None
    args.seeds = spec.instances or 1
    args.no_live = not spec.live
    args.unpaced = args.unpaced or cell.unpaced
    args.max_connections = spec.max_connections
    if args.out is None and spec.out != SweepSpec.__dataclass_fields__["out"].default:
        args.out = spec.out


def _check_size(scenarios: str, seeds: int | tuple[int, ...], limit: int | None, yes: bool) -> None:
    """Refuse a run of more than MAX_EPISODES_WITHOUT_YES bench episodes without ``--yes``."""
    try:
        plan = plan_suite(scenarios, seeds)
    except ValueError:
        return  # run_suite says what is wrong with the selection
    episodes = len(plan.bench) * len(plan.seeds)
    if limit is not None:
        episodes = min(episodes, limit)
    if episodes > MAX_EPISODES_WITHOUT_YES and not yes:
        raise UsageError(f"this run has {episodes:,} episodes ({len(plan.bench)} scenarios x {len(plan.seeds):,} "
                         f"seeds), more than {MAX_EPISODES_WITHOUT_YES:,}; pass --yes to run it")


def split_lines(scores: Scores) -> list[str]:
    """The summary's lines on the test split: which instances the WM Score is over, and spec fidelity."""
    split = scores.get("split")
    if split is None:
        return []
    how = (f"drawn with nonce {split['nonce']}" if split["nonce"] is not None else "explicit seeds")
    if split["canonical_only"]:
        lines = ["instances: seed 0 only, the spec's canonical instance: this WM Score is spec fidelity, not a "
                 "test-split score"]
    else:
        lines = [f"instances: WM Score over {len(split['test_seeds'])} test instance(s) per scenario, {how} "
                 f"(--seed-list {','.join(map(str, split['test_seeds']))})"]
    fidelity = scores.get("spec_fidelity")
    if fidelity is not None:
        lines.append(f"spec fidelity (seed 0, not in the WM Score): {fidelity['score']:.1f} / {fidelity['max']:g} "
                     f"over {len(fidelity['categories'])} bench categories")
    return lines


def measured_anything(scores: Scores) -> bool:
    """Whether any category has measured points (a run stopped before its first episode has none)."""
    return any(entry["measured"] or entry["measured_max"] for entry in scores["categories"].values())


def format_summary(scores: Scores, *, reason_shown: bool = False) -> str:
    """The table printed after a run: each category's points (or why not), the WM Score and the grade.

    ``reason_shown``: the caller already printed why the run stopped, so the table does not repeat it."""
    run = scores.get("run")
    stopped = run.get("stopped") if run is not None and reason_shown else None
    lines = [f"{'category':<30} {'points':>8}"]
    for cat, entry in scores["categories"].items():
        label = f"{cat} {CATEGORY_TITLES.get(cat, '')}".rstrip()
        if entry["measured"]:
            value = f"{entry['score']:>8.1f} / {entry['max']:g}"
        elif entry["measured_max"]:
            value = (f"{entry['score']:>8.1f} / {entry['measured_max']:g} measured "
                     f"(missing {', '.join(entry['missing_scenarios'])})")
        else:
            value = f"{'-':>8}   not measured"
        lines.append(f"{label:<30} {value}")
    lines.append("-" * 50)
    grade = scores.get("grade", "?") + (" (provisional)" if scores.get("grade_provisional") else "")
    lines.append(f"{'WM Score':<30} {scores.get('wm_score', 0):>8.1f} / {scores.get('wm_score_max', 1000):g}"
                 f"   grade {grade}")
    note = scores.get("wm_score_note") or ""
    if stopped and note.startswith(f"run stopped early: {stopped}"):
        note = note[len(f"run stopped early: {stopped}"):].lstrip(". ")
    if note and not scores.get("complete", True):
        lines.append(note)
    lines += split_lines(scores)
    for sid, extra in scores.get("extra_scenarios", {}).items():  # registered user scenarios
        points = f"{extra['score']:.1f} / {extra['max']:g}" if extra["measured"] else "not measured"
        lines.append(f"extra scenario {sid} ({extra['category']}, not part of the WM Score): {points}")
    if run is None:
        return "\n".join(lines)
    usage = format_usage(run)
    if usage:
        lines.append(f"brain: {usage}")
    if run.get("stopped") and not stopped:
        lines.append(f"INCOMPLETE: stopped early: {run['stopped']}")
    if run.get("error_episodes") or run.get("failed_decisions"):
        lines.append(f"{run.get('error_episodes', 0)} episode(s) failed, "
                     f"{run.get('failed_decisions', 0)} brain decision(s) failed, "
                     f"{run.get('parse_errors', 0)} unreadable repl(ies)")
    return "\n".join(lines)
