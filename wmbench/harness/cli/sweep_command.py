"""``wmbench sweep FILE``: a grid of runs from a TOML sweep file, one run directory per cell, one merged
leaderboard; and ``wmbench sweep --print-config RUN_DIR``: the run file that replays a run directory.

Card
----
- Prints the estimate (episodes, decisions; time and tokens for API brains) before anything runs; a sweep
  above the bound needs ``--yes`` (exit 2 otherwise). ``--executor local|ray`` and ``--ray-address`` override
  the file. Rerunning the same command resumes: finished cells are skipped, a half-done cell resumes from its
  ``episodes.jsonl``. Exit 0 when every cell finished, 1 when one stopped (the others still ran), 130 on
  Ctrl-C. See docs/sweeps.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from wmbench.core.errors import ConfigError, MissingExtraError, RunError
from wmbench.harness.cli.base import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, UsageError
from wmbench.harness.run.out_dir import out_dir_while
from wmbench.harness.run.results import RUN_FILE, read_json
from wmbench.harness.suite import RunConfigError, RunFailed, RunInterrupted
from wmbench.harness.sweep.estimate import estimate_sweep
from wmbench.harness.sweep.runner import LEADERBOARD_MD, run_sweep
from wmbench.harness.sweep.toml_file import read_sweep, run_config_from_run_json


def configure_sweep(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, nargs="?", help="the sweep file (TOML), e.g. examples/sweep.toml")
    p.add_argument("--out", type=Path, default=None, help="sweep directory (default: the file's 'out')")
    p.add_argument("--executor", default=None, help="local (this machine) or ray (default: the file's, else local)")
    p.add_argument("--ray-address", default=None,
                   help="join an existing Ray cluster (e.g. auto or ray://head:10001) instead of starting one")
    p.add_argument("--yes", action="store_true", help="run a sweep larger than the bound without asking")
    p.add_argument("--dry-run", action="store_true", help="print the cells and the estimate, run nothing")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--print-config", type=Path, default=None, metavar="RUN_DIR",
                   help="print the run file (TOML) that replays RUN_DIR (for `wmbench run --config`)")


def sweep_command(args: argparse.Namespace) -> int:
    if args.print_config is not None:
        path = args.print_config / RUN_FILE if args.print_config.is_dir() else args.print_config
        try:
            print(run_config_from_run_json(read_json(path)), end="")
        except (OSError, ValueError) as err:
            raise UsageError(f"--print-config {args.print_config}: expected a run directory with {RUN_FILE}, "
                             f"got {err}") from None
        return EXIT_OK
    if args.file is None:
        raise UsageError("expected a sweep file, e.g. `wmbench sweep examples/sweep.toml`")
    try:
        spec = read_sweep(args.file)
    except ConfigError as err:
        raise UsageError(str(err)) from None
    changes: dict[str, object] = {}
    if args.out is not None:
        changes["out"] = args.out
    if args.executor is not None:
        changes["executor"] = args.executor
    if args.ray_address is not None:
        changes["ray_address"], changes["executor"] = args.ray_address, "ray"
    spec = dataclasses.replace(spec, **changes)  # type: ignore[arg-type]
    if args.dry_run:
        for cell in spec.cells():
            print(f"cell {cell.name}")
        print(estimate_sweep(spec).describe())
        return EXIT_OK
    try:  # --out tried before any cell runs (an OutDirError is one line, exit 2), not left behind if refused
        with out_dir_while(spec.out):
            result = run_sweep(spec, yes=args.yes, progress=not args.no_progress)
    except (ConfigError, RunConfigError, MissingExtraError) as err:
        raise UsageError(str(err)) from None
    except RunInterrupted as stop:
        print(f"\nwmbench sweep: {stop}; rerun the same command to resume the sweep", file=sys.stderr)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print("\nwmbench sweep: interrupted; rerun the same command to resume the sweep", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (RunFailed, RunError) as err:  # a dead worker, Ray that would not start
        print(f"wmbench sweep: failed: {err}", file=sys.stderr)
        return EXIT_FAILED
    print(f"ran {len(result.ran)} cell(s), skipped {len(result.skipped)} finished, "
          f"{len(result.stopped)} stopped")
    print((result.out / LEADERBOARD_MD).read_text(encoding="utf-8"))
    return EXIT_FAILED if result.stopped else EXIT_OK
