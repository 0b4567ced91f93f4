"""A static Track-A run into a directory: ``track_a_static.json``, ``submission.json``, ``leaderboard_entry.json``.

::

    wmbench run --scenarios path/to/wm_bench.jsonl --track A --brain openai/MODEL --out runs/track-a

The brain sees each C01..C08 record's ``scene_context`` once (:mod:`wmbench.harness.official.static`); nothing
is simulated. The leaderboard entry has ``track`` "A", C09/C10 null (N/A in Track A), ``wm_score`` the static
total (of 800) and ``official_scale`` the total on the official Track-A scale (of 750), formula stated.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import wmbench
from wmbench.brain.registry import get_brain
from wmbench.core.taxonomy import CATEGORY_PILLARS
from wmbench.harness.official.static import StaticResult, run_static
from wmbench.harness.official.submission import static_responses, submission
from wmbench.harness.report.leaderboard import PILLAR_KEYS, PILLAR_RESCALE, largest_remainder
from wmbench.harness.run.results import write_json
from wmbench.scenarios.track_a import read_track_a
from wmbench.scoring.aggregate import grade_for

STATIC_FILE = "track_a_static.json"
SUBMISSION_FILE = "submission.json"
ENTRY_FILE = "leaderboard_entry.json"


@dataclass(frozen=True)
class StaticRunFiles:
    result: StaticResult
    static: Path
    submission: Path
    entry: Path


def static_entry(result: StaticResult, model_name: str, submission_date: str | None = None) -> dict[str, Any]:
    """The leaderboard entry of a static run (track A): the same keys and formula as a harness entry."""
    categories = {c: float(e["score"]) for c, e in result["categories"].items()}
    wm_score = round(sum(categories.values()))
    ints = largest_remainder(categories, wm_score)
    pillar_sums = {p: sum(v for c, v in ints.items() if CATEGORY_PILLARS[c] == p) for p in PILLAR_KEYS}
    rescaled = {p: round(pillar_sums[p] * PILLAR_RESCALE[p]) for p in PILLAR_KEYS}
    return {
        "model_name": model_name, "organization": "", "paper_url": "", "demo_url": "",
        "submission_date": submission_date or datetime.now(timezone.utc).date().isoformat(),
        "wm_score": wm_score, "grade": grade_for(wm_score),
        **{key: rescaled[p] for p, key in PILLAR_KEYS.items()},
        "c01_to_c10": {f"C{i:02d}": ints.get(f"C{i:02d}") for i in range(1, 11)},
        "fps": None, "cognitive_latency_ms": None, "decision_latency_ms": None,
        "gpu": "none (Track A: text only)", "brain_model": result["brain"], "motion_model": "none (Track A)",
        "wmbench_version": wmbench.__version__, "measured_categories": sorted(result["categories"]),
        "run_status": "complete" if not any(r["error"] for r in result["records"]) else "partial: brain errors",
        "track": "A", "pillar_sums": pillar_sums, "rescaled_total": sum(rescaled.values()),
        "score_formula": "Track A static: " + result["formula"] + "; wm_score = sum(c01_to_c10) = "
                         "sum(pillar_sums); p1/p2/p3 = pillar sums x 250/200, 450/500, 300/300",
        "official_scale": result["official_scale"],
    }


def run_static_track_a(source: Path, brain_spec: str, out: Path, brain_options: dict[str, Any] | None = None,
                       model_name: str | None = None) -> StaticRunFiles:
    """Read ``source``, ask the brain once per record, write the three files into ``out``."""
    records = read_track_a(source)
    brain = get_brain(brain_spec, **(brain_options or {}))
    try:
        result = run_static(records, brain, brain_spec, str(source))
    finally:
        brain.close()
    out.mkdir(parents=True, exist_ok=True)
    static = write_json(out / STATIC_FILE, result)
    sub = write_json(out / SUBMISSION_FILE, submission(model_name or brain_spec, "A", str(source),
                                                       static_responses(result)))
    entry = write_json(out / ENTRY_FILE, static_entry(result, model_name or brain_spec))
    return StaticRunFiles(result, static, sub, entry)
