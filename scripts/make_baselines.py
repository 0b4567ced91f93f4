"""Regenerate the measured baseline rows shipped in ``wmbench/harness/leaderboard/baselines/``.

::

    python scripts/make_baselines.py --work /tmp/baselines            # runs each brain, then writes the rows
    python scripts/make_baselines.py --work /tmp/baselines --reuse    # writes the rows from finished runs

Each brain runs C01-C08 on seeds 0-3 without live runs (C09/C10 not measured: the rows say so in
``measured_categories``); each row stores its leaderboard entry, the WM Score CI, the embodiment and the exact
command that produced it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from wmbench.harness.leaderboard.board import row_from_run
from wmbench.harness.report.baselines import BASELINE_DIR

BRAINS = ("reference", "null", "random")
SELECTION, SEEDS = "C01,C02,C03,C04,C05,C06,C07,C08", "0-3"


def command_for(brain: str, out: Path) -> list[str]:
    return ["wmbench", "run", "--brain", brain, "--scenarios", SELECTION, "--seed-list", SEEDS, "--no-live",
            "--no-progress", "--out", str(out)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="where the runs are (or go)")
    parser.add_argument("--reuse", action="store_true", help="use finished runs in --work instead of running")
    parser.add_argument("--brains", default=",".join(BRAINS), help=f"comma-separated (default: {','.join(BRAINS)})")
    args = parser.parse_args(argv)
    BASELINE_DIR.mkdir(parents=True, exist_ok=True)
    for brain in args.brains.split(","):
        out = args.work / brain.replace(":", "_")
        command = command_for(brain, out)
        if not args.reuse:
            subprocess.run(command, check=True)
        row = row_from_run(out)
        entry = {**row.entry, "model_name": brain}
        data = {"entry": entry, "ci95": list(row.ci95) if row.ci95 else None, "embodiment": row.embodiment,
                "command": " ".join([*command[:-2], "--out", "RUN"]),
                "note": "measured by scripts/make_baselines.py; C09/C10 not measured (--no-live)"}
        path = BASELINE_DIR / f"{brain.replace(':', '_')}.json"
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"{path}: {brain} wm_score {entry['wm_score']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
