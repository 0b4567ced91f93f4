"""``wmbench verify BUNDLE``: re-score (and, for deterministic brains, re-simulate) a submission bundle.

Exit code 0 when the verdict is ``verified`` or ``consistent``, 1 when anything differs (each finding named).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from wmbench.core.errors import ConfigError
from wmbench.harness.cli.base import EXIT_FAILED, EXIT_OK, Command, UsageError
from wmbench.harness.verify.bundle import format_report, verify_bundle


def configure_verify(p: argparse.ArgumentParser) -> None:
    p.add_argument("bundle", type=Path, help="a bundle written by `wmbench export RUN --bundle DIR`")
    p.add_argument("--no-resimulate", action="store_true", help="check hashes and scores only (fast)")


def verify_command(args: argparse.Namespace) -> int:
    if not args.bundle.is_dir():
        raise UsageError(f"{args.bundle} is not a directory; expected a bundle of `wmbench export RUN --bundle DIR`")
    try:
        report = verify_bundle(args.bundle, resimulate=not args.no_resimulate)
    except ConfigError as err:
        raise UsageError(str(err)) from None
    print(format_report(report))
    return EXIT_FAILED if report.verdict == "FAILED" else EXIT_OK


VERIFY_COMMAND = Command("verify", "verify a submission bundle: hashes, re-scoring, bit-identical re-simulation",
                         configure_verify, verify_command)
