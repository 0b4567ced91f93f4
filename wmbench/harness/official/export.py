"""``wmbench export RUN``: a run directory -> the official submission file and a leaderboard entry with a track.

Card
----
- A harness run (``scores.json`` + ``episodes.jsonl``): ``submission.json`` (track C: the first reply of every
  episode, see :mod:`wmbench.harness.official.submission`) and ``leaderboard_entry.json`` rebuilt from the
  run's files (track C, consistency fields, S42 latency; :mod:`wmbench.harness.report.leaderboard`).
- A static Track-A run (``track_a_static.json``): ``submission.json`` and ``leaderboard_entry.json`` with track A.

Both files are validated against the JSON Schemas shipped in ``wmbench/harness/official/schemas/`` before they
are written; a problem is an :class:`ExportError` naming the file and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wmbench.core.errors import ConfigError
from wmbench.core.redaction import Redactor
from wmbench.harness.official.schema_check import schema_problems
from wmbench.harness.official.static_run import ENTRY_FILE, STATIC_FILE, SUBMISSION_FILE, static_entry
from wmbench.harness.official.submission import run_responses, static_responses, submission
from wmbench.harness.report.leaderboard import leaderboard_entry
from wmbench.harness.report.writer import load_run
from wmbench.harness.run.results import read_json, write_json
from wmbench.scenarios import get_scenario


class ExportError(ConfigError):
    """A run directory that cannot be exported (missing files, an entry the schema refuses)."""


@dataclass(frozen=True)
class ExportFiles:
    track: str
    submission: Path
    entry: Path


def export_run(run_dir: Path | str, out: Path | str | None = None, model_name: str | None = None) -> ExportFiles:
    """Write ``submission.json`` and ``leaderboard_entry.json`` for ``run_dir`` into ``out`` (default: the run)."""
    run_dir = Path(run_dir)
    target = Path(out) if out is not None else run_dir
    if (run_dir / STATIC_FILE).is_file():
        result = read_json(run_dir / STATIC_FILE)
        name = model_name or str(result["brain"])
        sub: dict[str, Any] = dict(submission(name, "A", str(result["source"]), static_responses(result)))
        entry = static_entry(result, name)
        track = "A"
    elif (run_dir / "scores.json").is_file():
        run = load_run(run_dir)
        if run.scores is None:
            raise ExportError(f"{run_dir}/scores.json: expected this version's scores.json, got an unreadable one")
        name = model_name or run.brain
        lines = [dict(line) for line in run.lines]
        for line in lines:
            line.setdefault("trace", None)
        responses = run_responses(lines)
        for response in responses:
            response["category"] = response["category"] or _category(response["id"])
        sub = dict(submission(name, "C", str(run_dir), responses))
        entry = Redactor().data(leaderboard_entry(run.scores, brain=run.brain, body=run.body, live=run.live,
                                                  motion_model=run.config.get("motion_model"), model_name=name))
        track = "C"
    else:
        raise ExportError(f"{run_dir}: expected a run directory (scores.json) or a static Track-A run "
                          f"({STATIC_FILE}), got neither")
    for kind, data in (("submission", sub), ("leaderboard_entry", entry)):
        problems = schema_problems(kind, data)
        if problems:
            raise ExportError(f"{kind} of {run_dir} does not follow its schema: {'; '.join(problems[:5])}")
    return ExportFiles(track, write_json(target / SUBMISSION_FILE, sub), write_json(target / ENTRY_FILE, entry))


def _category(scenario_id: str) -> str:
    try:
        return get_scenario(scenario_id).category
    except KeyError:
        return ""
