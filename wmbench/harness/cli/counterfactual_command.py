"""``wmbench fork`` and ``wmbench blame``: counterfactual replay of a finished run's episodes.

Card
----
- ``wmbench fork RUN SCENARIO --seed N --at K --reply "…" [--brain B] [--json FILE]``: rebuild the episode's world
  at decision ``K`` (deterministic re-simulation of the recorded prefix; see
  :mod:`wmbench.harness.counterfactual.fork`), play the reply, then the run's brain (or ``--brain B``) onward,
  and print both branches' scores and decisions side by side. ``--reply`` left out replays the original reply
  (a check: the branch equals the original).
- ``wmbench blame RUN [--top 5] [--limit N] [--alternative reference]``: per lost episode, the earliest decision
  whose replacement by the alternative brain's answer recovers the points, and the run's costliest decisions
  (:mod:`wmbench.harness.counterfactual.blame`).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wmbench.core.taxonomy import SCENARIO_MAX_POINTS
from wmbench.harness.cli.base import EXIT_OK, Command, UsageError
from wmbench.harness.counterfactual.blame import blame_episode, brain_factory, costliest, format_blame
from wmbench.harness.counterfactual.fork import EpisodeSetup, comparable, fork_episode
from wmbench.harness.run.out_dir import check_out_file
from wmbench.harness.run.results import EPISODES_FILE, RUN_FILE, EpisodeLog, line_trace, read_json
from wmbench.protocol.trace import TraceDict
from wmbench.scoring import score_trace


def _run_config(run: Path) -> Mapping[str, Any]:
    if not (run / EPISODES_FILE).is_file():
        raise UsageError(f"{run} holds no run: expected {EPISODES_FILE} (a `wmbench run --out` directory)")
    config = read_json(run / RUN_FILE) if (run / RUN_FILE).is_file() else {}
    if not isinstance(config, dict):
        raise UsageError(f"{run / RUN_FILE}: expected a JSON object, got {type(config).__name__}")
    return config


def _setup(config: Mapping[str, Any], scenario: str, seed: int, body: str) -> EpisodeSetup:
    env_kwargs = config.get("env_kwargs") or {}
    return EpisodeSetup(scenario, seed, body, dict(env_kwargs) if isinstance(env_kwargs, dict) else {})


def _episodes(run: Path) -> list[Mapping[str, Any]]:
    return [line for line in EpisodeLog(run / EPISODES_FILE).iter_lines()
            if line.get("trace") and not line.get("error")]


def _configure_fork(p: argparse.ArgumentParser) -> None:
    p.add_argument("run", type=Path, help="a finished run directory")
    p.add_argument("scenario", help="scenario id, e.g. S12")
    p.add_argument("--seed", type=int, default=None, help="the episode's seed (default: the run's first)")
    p.add_argument("--at", type=int, required=True, help="the decision to replace (0 = the first)")
    p.add_argument("--reply", default=None, help="the alternative reply (default: the original: a replay check)")
    p.add_argument("--brain", default=None, help="brain that plays on after the fork (default: the run's brain)")
    p.add_argument("--json", type=Path, default=None, help="also write both traces and scores to this file")


def _fork(args: argparse.Namespace) -> int:
    config = _run_config(args.run)
    wanted = args.scenario.strip().upper()
    lines = [line for line in _episodes(args.run) if line["scenario"] == wanted
             and (args.seed is None or int(line["seed"]) == args.seed)]
    if not lines:
        seeds = sorted({int(line["seed"]) for line in _episodes(args.run) if line["scenario"] == wanted})
        raise UsageError(f"no finished episode of {wanted}" + (f" with seed {args.seed}" if args.seed is not None
                         else "") + f" in {args.run}" + (f"; its seeds: {seeds}" if seeds else ""))
    if args.json is not None:
        check_out_file(args.json, "--json", "a .json file")  # before the fork is played, not after
    line = lines[0]
    line_trace(line, args.run / EPISODES_FILE)  # a damaged trace is one line naming the episode
    spec = args.brain or str(config.get("brain") or line["brain"])
    options = config.get("brain_options") if args.brain is None else {}
    trace: TraceDict = line["trace"]
    setup = _setup(config, wanted, int(line["seed"]), str(line["body"]))
    fork = fork_episode(setup, trace, args.at, args.reply, brain_factory(spec, dict(options or {}))()
                        if args.reply is not None else None)
    print(f"{wanted} seed {setup.seed} on {setup.body}, forked at decision {args.at}"
          + ("" if args.reply is not None else " with the original reply (replay check)"))
    print(f"  original:       {fork.original_score.score:5.1f} / {SCENARIO_MAX_POINTS:.0f}  "
          f"{fork.original_score.explanation}")
    print(f"  counterfactual: {fork.branch_score.score:5.1f} / {SCENARIO_MAX_POINTS:.0f}  "
          f"{fork.branch_score.explanation}")
    if args.reply is None:
        same = comparable(fork.branch) == comparable(fork.original)
        print(f"  replay identical to the recorded trace: {'yes' if same else 'NO'}")
    _side_by_side(fork.original, fork.branch, args.at)
    if args.json:
        args.json.write_text(json.dumps({
            "scenario": wanted, "seed": setup.seed, "body": setup.body, "at": args.at, "reply": fork.reply,
            "onward_brain": spec if args.reply is not None else None,
            "original": {"score": fork.original_score.score, "explanation": fork.original_score.explanation,
                         "trace": fork.original},
            "counterfactual": {"score": fork.branch_score.score, "explanation": fork.branch_score.explanation,
                               "trace": fork.branch},
        }, indent=1), encoding="utf-8")
        print(f"wrote {args.json}")
    return EXIT_OK


def _side_by_side(original: TraceDict, branch: TraceDict, at: int) -> None:
    print("  decision  original MOTION -> events            | counterfactual MOTION -> events")
    for k in range(at, max(len(original["decisions"]), len(branch["decisions"]))):
        print(f"  {k:>8}  {_cell(original, k):<42} | {_cell(branch, k)}")


def _cell(trace: TraceDict, k: int) -> str:
    if k >= len(trace["decisions"]):
        return "(ended)"
    decision = trace["decisions"][k]
    motion = str((decision.get("parse") or {}).get("motion") or "-")
    events = ",".join(e["kind"] for e in decision.get("events", ())) or "-"
    text = f"{motion[:28]} -> {events}"
    return text.encode("ascii", "backslashreplace").decode("ascii")


def _configure_blame(p: argparse.ArgumentParser) -> None:
    p.add_argument("run", type=Path, help="a finished run directory")
    p.add_argument("--top", type=int, default=5, help="how many costly decisions to list (default 5)")
    p.add_argument("--limit", type=int, default=None, help="blame at most this many lost episodes")
    p.add_argument("--max-decisions", type=int, default=None, help="try at most this many decisions per episode")
    p.add_argument("--alternative", default="reference", help="the brain whose answers replace decisions")


def _blame(args: argparse.Namespace) -> int:
    config = _run_config(args.run)
    if args.top < 1:
        raise UsageError(f"--top must be at least 1, got {args.top}")
    if args.max_decisions is not None and args.max_decisions < 1:  # a slice bound: -1 meant "all but the last"
        raise UsageError(f"--max-decisions must be at least 1, got {args.max_decisions}")
    lost = []
    for line in _episodes(args.run):
        points = float(score_trace(line_trace(line, args.run / EPISODES_FILE)).score)
        if points < SCENARIO_MAX_POINTS:
            lost.append(line)
    lost = lost[: args.limit] if args.limit else lost
    onward = brain_factory(str(config.get("brain") or (lost[0]["brain"] if lost else "reference")),
                           dict(config.get("brain_options") or {}))
    alternative = brain_factory(args.alternative)
    blames = []
    for number, line in enumerate(lost, start=1):
        print(f"[{number}/{len(lost)}] blaming {line['scenario']} seed {line['seed']} ...", flush=True)
        setup = _setup(config, str(line["scenario"]), int(line["seed"]), str(line["body"]))
        blames.append(blame_episode(setup, line["trace"], onward, alternative, args.max_decisions))
    if not blames:
        print(f"{args.run}: no episode lost points: nothing to blame")
        return EXIT_OK
    print(format_blame(blames, costliest(blames, args.top)))
    return EXIT_OK


FORK_COMMAND = Command("fork", "counterfactual replay: fork a run's episode at a decision with another reply",
                       _configure_fork, _fork)
BLAME_COMMAND = Command("blame", "per lost episode, the earliest decision whose replacement recovers the points",
                        _configure_blame, _blame)
