"""The ``wmbench`` command line.

::

    wmbench run --brain reference --body smpl --scenarios all --seeds 1   # the benchmark -> scores.json
    wmbench list [--category C03]                                       # the scenarios
    wmbench show S12                                                    # one scenario's card
    wmbench serve --brain hf/./my-model --port 8000                     # a brain behind an HTTP endpoint
    wmbench export-onnx ./my-model ./my-model-onnx                      # a transformers model -> ONNX

Each subcommand is a :class:`Command` in :data:`COMMANDS` (``configure`` adds its arguments, ``run`` does
the work and returns the exit code); later subcommands (``live``, ``report``, ``bench``) register the same way
with :func:`register_command`. Mistakes a user can make (unknown scenario, brain or body, a bad option)
print one line and exit with code 2 — no traceback. Ctrl-C during ``run`` or ``validity`` keeps what finished,
exit code 130; SIGTERM does the same with exit code 143 (:mod:`wmbench.harness.cli.signals`).

The table, exit codes and :class:`UsageError` live in :mod:`wmbench.harness.cli.base`, the ``run``
subcommand (with its option parsing, default run directory and summary table) in
:mod:`wmbench.harness.cli.run_command`. This module builds the parser, runs ``main``, holds the smaller
subcommands and registers every subcommand in help order.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import wmbench
from wmbench.core.key_file import read_key_file
from wmbench.core.visible import visible
from wmbench.harness.cli.base import (
    COMMANDS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    Command,
    UsageError,
    command_hint,
    register_command,
)
from wmbench.harness.cli.bench import bench_command, configure_bench
from wmbench.harness.cli.cache_command import cache_command, configure_cache
from wmbench.harness.cli.counterfactual_command import BLAME_COMMAND, FORK_COMMAND
from wmbench.harness.cli.export_command import EXPORT_COMMAND
from wmbench.harness.cli.export_episodes_command import configure_export_episodes, export_episodes_command
from wmbench.harness.cli.forecast_command import FORECAST_COMMAND
from wmbench.harness.cli.frontier_command import FRONTIER_COMMAND
from wmbench.harness.cli.leaderboard_command import COMPARE_COMMAND, LEADERBOARD_COMMAND
from wmbench.harness.cli.live_command import LiveCommandError, format_live_result, live_command, report_command
from wmbench.harness.cli.motion_model_option import (
    add_motion_model_argument,
    apply_motion_model,
    configure_train_motion,
    train_motion_command,
)
from wmbench.harness.cli.run_command import (
    configure_run,
    default_out_dir,
    parse_options,
    run_command,
    warn_secret_on_command_line,
)
from wmbench.harness.cli.scenario_cards import scenario_card
from wmbench.harness.cli.signals import EXIT_TERMINATED, terminate_as_interrupt
from wmbench.harness.cli.sweep_command import configure_sweep, sweep_command
from wmbench.harness.cli.validity_command import configure_validity, validity_command
from wmbench.harness.cli.verify_command import VERIFY_COMMAND
from wmbench.harness.cli.vision_commands import GAP_COMMAND, VIDEO_COMMAND
from wmbench.scenarios import get_scenario, select


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wmbench", description="World Model Bench v1.0 as a closed-loop PyBullet testbed.")
    parser.add_argument("--version", action="version", version=f"wmbench {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS.values():
        command.configure(sub.add_parser(command.name, help=command.help, description=command.help))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``wmbench`` script. Returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse: --help (0) or a bad argument (2, message already printed)
        if exit_.code == EXIT_USAGE and (hint := command_hint(sys.argv[1:] if argv is None else argv)):
            print(hint, file=sys.stderr)
        return int(exit_.code or 0)
    try:
        with terminate_as_interrupt() as term:  # SIGTERM takes the Ctrl-C path (keeps what finished)
            code = COMMANDS[args.command].run(args)
        sys.stdout.flush()  # inside the try: a reader that left shows up here, not at interpreter exit
        return EXIT_TERMINATED if term.signalled and code == EXIT_INTERRUPTED else code
    except UsageError as err:
        print(visible(f"wmbench {args.command}: error: {err}"), file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # `wmbench list | head`: the reader left; not an error of ours, and no traceback
        _silence_stdout()
        return EXIT_OK


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not raise BrokenPipeError again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout is not a real file (e.g. captured)
        pass


# ------------------------------------------------------------------------------------------------- list/show


def _configure_list(p: argparse.ArgumentParser) -> None:
    p.add_argument("--category", default="all",
                   help="a category (C03), pillar (P2), ids or 'all' (default: all)")


def _list(args: argparse.Namespace) -> int:
    records = _select(args.category)
    width = max(len(r.name) for r in records)
    for r in records:
        print(f"{r.id}  {r.category}  {r.name:<{width}}  {r.mode:<8}  {r.difficulty}")
    return EXIT_OK


def _configure_show(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario", help="scenario id, e.g. S12")


def _show(args: argparse.Namespace) -> int:
    try:
        record = get_scenario(args.scenario)
    except KeyError as err:
        raise UsageError(err.args[0]) from None
    facts = (f"pillar {record.pillar} · mode {record.mode} · {len(record.phases)} phase(s), "
             f"{record.duration:g} s" + (f" · mirror of {record.mirror_of}" if record.mirror_of else ""))
    # the card already names the scenario and gives its setup; the rule comes from its scorer
    heading = scenario_card(record) if record.card else (
        f"{record.id} · {record.name} ({record.category}, {record.difficulty})\n\n{record.setup}")
    print(f"{heading}\n\n{facts}")
    return EXIT_OK


def _select(selection: str) -> tuple[Any, ...]:
    try:
        return select(selection)
    except (KeyError, ValueError) as err:
        raise UsageError(err.args[0] if err.args else str(err)) from None


# -------------------------------------------------------------------------------------------- serve/export


def _configure_serve(p: argparse.ArgumentParser) -> None:
    p.add_argument("--brain", default="reference", help="brain spec to serve (default: reference)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port 0-65535 (default: 8000)")
    p.add_argument("--api-key", default=None,
                   help="require 'Authorization: Bearer KEY' (default: $WMBENCH_SERVE_API_KEY; unset: no check). "
                        "A key on the command line is visible in `ps`: prefer the variable or --api-key-file")
    p.add_argument("--api-key-file", type=Path, default=None,
                   help="read the required key from this file's first line (kept out of `ps`)")
    p.add_argument("--option", action="append", nargs="+", default=[], metavar="KEY=VALUE",
                   help="options for each brain instance, repeatable and multi-valued")
    p.add_argument("--quiet", action="store_true", help="do not log each request")


def _port(text: str) -> int:
    """A TCP port for argparse: an integer from 0 to 65535 (0 lets the system choose)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer port from 0 to 65535, got {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {port}")
    return port


def _serve(args: argparse.Namespace) -> int:
    serve_main = _optional("wmbench.brain.server.endpoint", "serve_main")
    try:
        options = parse_options(args.option)
        if args.api_key is not None:
            warn_secret_on_command_line("--api-key KEY", "$WMBENCH_SERVE_API_KEY or --api-key-file PATH")
        api_key = args.api_key or read_key_file(args.api_key_file)
        serve_main(args.brain, args.host, args.port, api_key=api_key, quiet=args.quiet, **options)
    except KeyboardInterrupt:
        return EXIT_OK
    except (ValueError, ImportError, OSError) as err:  # unknown brain spec, missing extra, port in use
        raise UsageError(str(err)) from None
    return EXIT_OK


def _configure_export(p: argparse.ArgumentParser) -> None:
    p.add_argument("hf_dir", type=Path, help="a local transformers model directory")
    p.add_argument("out_dir", type=Path, help="where to write the ONNX model")


def _export(args: argparse.Namespace) -> int:
    export_onnx = _optional("wmbench.brain.providers.onnx_export", "export_onnx")
    if not args.hf_dir.is_dir():
        raise UsageError(f"{args.hf_dir} is not a directory; expected a local transformers model directory")
    try:
        report = export_onnx(args.hf_dir, args.out_dir)
    except (ValueError, ImportError, FileNotFoundError) as err:
        raise UsageError(str(err)) from None
    onnx_path = getattr(report, "onnx_path", args.out_dir)
    check = getattr(report, "max_abs_logit_diff", None)
    checked = "" if check is None else f" (max |logit diff| vs transformers {check:.2e})"
    print(f"exported: {onnx_path}{checked}")
    print(f"run it with: wmbench run --brain onnx/{args.out_dir}")
    return EXIT_OK


def _optional(module: str, attr: str) -> Any:
    """An attribute of a module that needs optional extras; a missing extra is a usage error, not a crash."""
    import importlib

    try:
        return getattr(importlib.import_module(module), attr)
    except ImportError as err:
        raise UsageError(str(err)) from None


def _version() -> str:
    return wmbench.__version__


# --------------------------------------------------------------------------------------------- live/report


def _configure_live(p: argparse.ArgumentParser) -> None:
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
    p.add_argument("--out", type=Path, default=None,
                   help="directory for live.json (default: runs/live-<scenario>-<brain>-<body>-<timestamp>)")
    p.add_argument("--option", action="append", nargs="+", default=[], metavar="KEY=VALUE",
                   help="brain options, repeatable and multi-valued")
    add_motion_model_argument(p)


def _live(args: argparse.Namespace) -> int:
    apply_motion_model(args)
    try:
        options = parse_options(args.option)
        out = args.out or default_out_dir(f"live-{args.scenario}-{args.brain}", args.body)
        result = live_command(args.scenario, args.brain, args.body, out, fps=args.fps, seed=args.seed,
                              duration=args.duration, gui=args.gui, record=args.record, brain_options=options,
                              observation=args.observation)
    except (LiveCommandError, ValueError, ImportError) as err:  # bad spec, bad value, missing extra
        raise UsageError(str(err)) from None
    print(visible(format_live_result(result)))
    if args.record is not None and args.record.exists():
        print(f"video: {args.record}")
    print(f"live: {out / 'live.json'}")
    return EXIT_OK


def _configure_report(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path, help="a run directory written by `wmbench run`")
    p.add_argument("--model-name", default=None, help="leaderboard model_name (default: the brain spec)")
    p.add_argument("--organization", default="", help="leaderboard organization")
    p.add_argument("--paper-url", default="", help="leaderboard paper_url")
    p.add_argument("--demo-url", default="", help="leaderboard demo_url")


def _report(args: argparse.Namespace) -> int:
    try:
        files = report_command(args.run_dir, model_name=args.model_name, organization=args.organization,
                               paper_url=args.paper_url, demo_url=args.demo_url)
    except LiveCommandError as err:
        raise UsageError(str(err)) from None
    print(f"markdown: {files.markdown}\nleaderboard entry: {files.leaderboard}\nreport: {files.html}")
    return EXIT_OK


for _command in (
    Command("run", "run the benchmark (bench mode) and write scores.json", configure_run, run_command),
    Command("live", "run one scenario in real time; write live.json (FPS, latency)", _configure_live, _live),
    Command("report", "rebuild report.md/.html and leaderboard_entry.json of a run directory",
            _configure_report, _report),
    Command("list", "list the scenarios", _configure_list, _list),
    Command("show", "print a scenario's card", _configure_show, _show),
    Command("serve", "serve a brain over HTTP (OpenAI-compatible)", _configure_serve, _serve),
    Command("export-onnx", "export a transformers model directory to ONNX", _configure_export, _export),
):
    register_command(_command)


def _configure_bench(p: argparse.ArgumentParser) -> None:
    configure_bench(p)


def _bench(args: argparse.Namespace) -> int:
    return bench_command(args)


register_command(Command("bench", "performance benchmarks with targets (needs a source checkout)",
                         _configure_bench, _bench))
register_command(Command("train-motion", "train the diffusion motion model on DeepMimic mocap (extra: motion)",
                         configure_train_motion, train_motion_command))

register_command(VIDEO_COMMAND)
register_command(EXPORT_COMMAND)
register_command(LEADERBOARD_COMMAND)
register_command(COMPARE_COMMAND)
register_command(VERIFY_COMMAND)
register_command(GAP_COMMAND)
register_command(FORK_COMMAND)
register_command(BLAME_COMMAND)
register_command(FRONTIER_COMMAND)
register_command(FORECAST_COMMAND)


def _configure_validity(p: argparse.ArgumentParser) -> None:
    configure_validity(p)


def _validity(args: argparse.Namespace) -> int:
    return validity_command(args)


register_command(Command("validity", "run the adversarial/diagnostic brain panel: what each category measures",
                         _configure_validity, _validity))


def _configure_cache(p: argparse.ArgumentParser) -> None:
    configure_cache(p)


def _cache(args: argparse.Namespace) -> int:
    return cache_command(args)


register_command(Command("cache", "show (info) or empty (clear) the API brains' response cache",
                         _configure_cache, _cache))


register_command(Command("sweep", "run a grid of runs from a TOML sweep file (local or Ray)", configure_sweep,
                         sweep_command))
register_command(Command("export-episodes", "deprecated: use `wmbench export --episodes RUN_OR_SWEEP DIR`",
                         configure_export_episodes, export_episodes_command))


if __name__ == "__main__":
    sys.exit(main())
