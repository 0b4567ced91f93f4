"""The ``wmbench`` command line.

::

    wmbench run --brain reference --body smpl --scenarios all --seeds 1   # the benchmark -> scores.json
    wmbench list [--category C03]                                       # the scenarios
    wmbench show S12                                                    # one scenario's card
    wmbench serve --brain hf/./my-model --port 8000                     # a brain behind an HTTP endpoint
    wmbench export-onnx ./my-model ./my-model-onnx                      # a transformers model -> ONNX

Each subcommand is a :class:`Command` in :data:`COMMANDS` (``configure`` adds its arguments, ``run`` does
the work and returns the exit code), registered with :func:`register_command`. A subcommand that lives in its
own module is registered **lazily** (:func:`~wmbench.harness.cli.base.lazy`,
:func:`~wmbench.harness.cli.base.lazy_command`: its name and help here, its module imported only when it runs),
and ``main`` adds only the named command's arguments, so ``wmbench --help`` and each command import only what
they use. Mistakes a user can make (unknown scenario, brain or body, a bad option)
print one line and exit with code 2 — no traceback. Ctrl-C during ``run`` or ``validity`` keeps what finished,
exit code 130; SIGTERM does the same with exit code 143 (:mod:`wmbench.harness.cli.signals`).

The table, exit codes and :class:`UsageError` live in :mod:`wmbench.harness.cli.base`, the ``run``
subcommand (with its summary table) in :mod:`wmbench.harness.cli.run_command`, the ``--option`` parsing and
the default run directory in :mod:`wmbench.harness.cli.options`. This module builds the parser, runs ``main``,
holds the smaller subcommands and registers every subcommand in help order.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import wmbench
from wmbench.core.errors import ConfigError
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
    lazy,
    lazy_command,
    register_command,
)
from wmbench.harness.cli.options import parse_options, warn_secret_on_command_line
from wmbench.harness.cli.signals import EXIT_TERMINATED, terminate_as_interrupt
from wmbench.scenarios import get_scenario, select

#: ``show``'s card (its module reads the scorers' bands: imported when ``show`` runs)
_scenario_card = lazy("wmbench.harness.cli.scenario_cards:scenario_card")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand; with ``only``, only that subcommand's arguments are added (the others
    keep their name and help for ``wmbench --help``), so only its module is imported."""
    parser = argparse.ArgumentParser(
        prog="wmbench", description="World Model Bench v1.0 as a closed-loop PyBullet testbed.")
    parser.add_argument("--version", action="version", version=f"wmbench {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS.values():
        command_parser = sub.add_parser(command.name, help=command.help, description=command.help)
        if only is None or command.name == only:
            command.configure(command_parser)
    return parser


def _named_command(argv: Sequence[str]) -> str:
    """The subcommand ``argv`` names: its first word that is not an option (the top-level options take no
    value); "" when there is none (``wmbench --help``, ``wmbench --version``)."""
    return next((word for word in argv if not word.startswith("-")), "")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``wmbench`` script. Returns the exit code."""
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(only=_named_command(words))
    try:
        args = parser.parse_args(words)
    except SystemExit as exit_:  # argparse: --help (0) or a bad argument (2, message already printed)
        if exit_.code == EXIT_USAGE and (hint := command_hint(words)):
            print(hint, file=sys.stderr)
        return int(exit_.code or 0)
    try:
        with terminate_as_interrupt() as term:  # SIGTERM takes the Ctrl-C path (keeps what finished)
            code = COMMANDS[args.command].run(args)
        sys.stdout.flush()  # inside the try: a reader that left shows up here, not at interpreter exit
        return EXIT_TERMINATED if term.signalled and code == EXIT_INTERRUPTED else code
    except (UsageError, ConfigError) as err:  # ConfigError: a setting, name or file not as expected, anywhere
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
    heading = _scenario_card(record) if record.card else (
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


for _command in (
    Command("run", "run the benchmark (bench mode) and write scores.json",
            lazy("wmbench.harness.cli.run_command:configure_run"),
            lazy("wmbench.harness.cli.run_command:run_command")),
    Command("live", "run one scenario in real time; write live.json (FPS, latency)",
            lazy("wmbench.harness.cli.live_command:configure_live"),
            lazy("wmbench.harness.cli.live_command:live_main")),
    Command("report", "rebuild report.md/.html and leaderboard_entry.json of a run directory",
            lazy("wmbench.harness.cli.live_command:configure_report"),
            lazy("wmbench.harness.cli.live_command:report_main")),
    Command("list", "list the scenarios", _configure_list, _list),
    Command("show", "print a scenario's card", _configure_show, _show),
    Command("serve", "serve a brain over HTTP (OpenAI-compatible)", _configure_serve, _serve),
    Command("export-onnx", "export a transformers model directory to ONNX", _configure_export, _export),
    Command("bench", "performance benchmarks with targets (needs a source checkout)",
            lazy("wmbench.harness.cli.bench:configure_bench"),
            lazy("wmbench.harness.cli.bench:bench_command")),
    Command("train-motion", "train the diffusion motion model on DeepMimic mocap (extra: motion)",
            lazy("wmbench.harness.cli.motion_model_option:configure_train_motion"),
            lazy("wmbench.harness.cli.motion_model_option:train_motion_command")),
    lazy_command("video", "render a finished episode: chase + top-down, PREDICT/MOTION captions",
                 "wmbench.harness.cli.vision_commands:VIDEO_COMMAND"),
    lazy_command("export", "write files out: a run's official submission and leaderboard entry (RUN), "
                 "the benchmark's dataset layout (--dataset DIR), or your episodes as a training dataset "
                 "(--episodes RUN_OR_SWEEP DIR)", "wmbench.harness.cli.export_command:EXPORT_COMMAND"),
    lazy_command("leaderboard", "rank run directories (with CIs, baselines, per embodiment)",
                 "wmbench.harness.cli.leaderboard_command:LEADERBOARD_COMMAND"),
    lazy_command("compare", "compare two runs per category (paired bootstrap over shared instances)",
                 "wmbench.harness.cli.leaderboard_command:COMPARE_COMMAND"),
    lazy_command("verify", "verify a submission bundle: hashes, re-scoring, bit-identical re-simulation",
                 "wmbench.harness.cli.verify_command:VERIFY_COMMAND"),
    lazy_command("gap", "perception gap: a brain's scores from the JSON minus from images",
                 "wmbench.harness.cli.vision_commands:GAP_COMMAND"),
    lazy_command("fork", "counterfactual replay: fork a run's episode at a decision with another reply",
                 "wmbench.harness.cli.counterfactual_command:FORK_COMMAND"),
    lazy_command("blame", "per lost episode, the earliest decision whose replacement recovers the points",
                 "wmbench.harness.cli.counterfactual_command:BLAME_COMMAND"),
    lazy_command("frontier", "latency-accuracy frontier: scores over think times and token budgets",
                 "wmbench.harness.cli.frontier_command:FRONTIER_COMMAND"),
    lazy_command("forecast", "score a run's FORECAST lines against what the world then did",
                 "wmbench.harness.cli.forecast_command:FORECAST_COMMAND"),
    Command("validity", "run the adversarial/diagnostic brain panel: what each category measures",
            lazy("wmbench.harness.cli.validity_command:configure_validity"),
            lazy("wmbench.harness.cli.validity_command:validity_command")),
    Command("cache", "show (info) or empty (clear) the API brains' response cache",
            lazy("wmbench.harness.cli.cache_command:configure_cache"),
            lazy("wmbench.harness.cli.cache_command:cache_command")),
    Command("sweep", "run a grid of runs from a TOML sweep file (local or Ray)",
            lazy("wmbench.harness.cli.sweep_command:configure_sweep"),
            lazy("wmbench.harness.cli.sweep_command:sweep_command")),
    Command("export-episodes", "deprecated: use `wmbench export --episodes RUN_OR_SWEEP DIR`",
            lazy("wmbench.harness.cli.export_episodes_command:configure_export_episodes"),
            lazy("wmbench.harness.cli.export_episodes_command:export_episodes_command")),
):
    register_command(_command)


if __name__ == "__main__":
    sys.exit(main())
