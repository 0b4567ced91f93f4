"""``wmbench run --track A``: a Track-A file scored statically (see :mod:`wmbench.harness.official.static_run`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wmbench.core.errors import ConfigError
from wmbench.harness.cli.base import EXIT_OK, UsageError
from wmbench.harness.official.static import format_static
from wmbench.harness.official.static_run import run_static_track_a
from wmbench.scenarios.track_a import looks_like_track_a


def track_a_command(selection: str, brain: str, out: Path, options: dict[str, Any]) -> int:
    """Run the static Track A on the file ``selection`` into ``out``; print the table; the exit code."""
    if not looks_like_track_a(selection) or "," in selection:
        raise UsageError(f"--track A needs --scenarios to be one Track-A file (wm_bench.jsonl), got {selection!r}")
    if (Path(out) / "scores.json").exists() or (Path(out) / "episodes.jsonl").exists():
        raise UsageError(f"{out} holds a harness run; expected a new or static Track-A directory for --track A "
                         "(its leaderboard_entry.json would be replaced)")
    try:
        files = run_static_track_a(Path(selection), brain, Path(out), options)
    except (ConfigError, ImportError) as err:
        raise UsageError(str(err)) from None
    print(format_static(files.result))
    print(f"\nstatic scores: {files.static}\nsubmission: {files.submission}\nleaderboard entry: {files.entry}")
    return EXIT_OK
