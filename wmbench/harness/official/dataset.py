"""``wmbench export --dataset DIR``: the spec and every scenario record in the official dataset layout.

Card
----
Writes (the layout of the spec's ``HF_DATASET_STRUCTURE``)::

    DIR/benchmark_spec.json            pillars, categories, grades, point tables, the Track-A maximum
    DIR/scenarios/c01_environmental_awareness.json ... c10_cross_body_transfer.json   (S01-S05, ...)
    DIR/scoring/keyword_banks.json     wmbench's keyword banks (the spec's intensity levels + extensions)
    DIR/scoring/intensity_scale.json   the intensity tiers and their levels

Each scenario record has the spec's fields (``id``, ``category``, ``name``, ``setup``,
``expected_perception``, ``difficulty``) plus ``correct_actions``, ``incorrect_actions``, ``expected_pattern``,
``mode``; a bench-mode (C01..C08) record also carries the official Track-A fields of its canonical instance
(seed 0): ``scene_context`` (the first decision's scene, official keys only) and ``ground_truth``
(``predict``: the ray-cast truth per direction; ``motion_keywords``: the words of the record's correct
actions — derived, since wmbench records state actions, not keyword lists). So the Track-A reader
(:func:`~wmbench.scenarios.track_a.read_track_a` on ``DIR``) reads the export back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import wmbench
from wmbench.core.taxonomy import (
    CATEGORY_MAX_POINTS,
    CATEGORY_PILLARS,
    CATEGORY_SCENARIOS,
    CATEGORY_TITLES,
    GRADE_THRESHOLDS,
    PILLAR_RESCALED_MAX,
    PILLAR_TITLES,
    PILLARS,
    SCENARIO_MAX_POINTS,
    WM_SCORE_MAX,
)
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.official.static import TRACK_A_OFFICIAL_MAX
from wmbench.harness.run.results import write_json
from wmbench.protocol.scene import OFFICIAL_KEYS
from wmbench.scenarios import Scenario, all_scenarios
from wmbench.scenarios.track_a import PHYSICAL_PREFIX
from wmbench.scoring.keywords import DEFAULT_BANKS_PATH, INTENSITY_LEVELS

#: the reply that makes the env take its first decision (nothing is scored; only the scene and truth are kept)
_PROBE_REPLY = "PREDICT: fwd=safe(open)\nMOTION: a person stands still"
_STOP_WORDS = frozenset({"a", "an", "the", "to", "of", "and", "or", "in", "on", "at", "with", "from", "into",
                         "away", "then", "is", "it", "its"})


#: the spec's scenario file names (HF_DATASET_STRUCTURE), by category
SPEC_SCENARIO_FILES: Mapping[str, str] = {
    "C01": "c01_environmental_awareness.json", "C02": "c02_entity_recognition.json",
    "C03": "c03_predictive_reasoning.json", "C04": "c04_threat_differentiation.json",
    "C05": "c05_emotional_escalation.json", "C06": "c06_contextual_memory.json",
    "C07": "c07_threat_resolution.json", "C08": "c08_motion_expressiveness.json",
    "C09": "c09_realtime_performance.json", "C10": "c10_cross_body_transfer.json",
}


def category_file(category: str) -> str:
    """``C01`` -> ``c01_environmental_awareness.json`` (the spec's file names)."""
    return SPEC_SCENARIO_FILES[category]


def benchmark_spec() -> dict[str, Any]:
    """The spec's structure as wmbench implements it (read from core/taxonomy, never restated)."""
    return {
        "name": "World Model Bench", "version": "1.0", "exported_by": f"wmbench {wmbench.__version__}",
        "pillars": {p: {"name": PILLAR_TITLES[p], "categories": list(cats), "max": PILLAR_RESCALED_MAX[p]}
                    for p, cats in PILLARS.items()},
        "categories": {c: {"name": CATEGORY_TITLES[c], "pillar": CATEGORY_PILLARS[c], "max_score": CATEGORY_MAX_POINTS,
                           "scenarios": list(CATEGORY_SCENARIOS[c])} for c in CATEGORY_TITLES},
        "scenario_max": SCENARIO_MAX_POINTS, "wm_score_max": WM_SCORE_MAX, "track_a_max": TRACK_A_OFFICIAL_MAX,
        "grades": {letter: minimum for letter, minimum in GRADE_THRESHOLDS},
    }


def canonical_first_decision(record: Scenario) -> tuple[dict[str, Any], dict[str, str]]:
    """(official scene_context, ground-truth predict) of the record's first decision at seed 0."""
    env = WMBenchEnv(scenario=record)
    try:
        env.reset(seed=0)
        env.step(_PROBE_REPLY)
        decision = env.trace.decisions[0]
        recorded: Mapping[str, object] = decision.scene
        scene: dict[str, Any] = {key: recorded[key] for key in OFFICIAL_KEYS if key in recorded}
        walls = decision.scene["walls"]
        scene["walls"] = {"left": walls["left"], "right": walls["right"], "front": walls["front"]}  # official keys
        predict = {d: f"{'safe' if t.safe else 'danger'}({t.reason})" for d, t in decision.truth.directions.items()}
    finally:
        env.close()
    return scene, predict


def motion_keywords(record: Scenario) -> list[str]:
    """The distinct content words of the record's correct actions (derived; see the module card)."""
    words = [w for action in record.expectations.correct_actions for w in re.findall(r"[a-z]+", action.lower())]
    return list(dict.fromkeys(w for w in words if w not in _STOP_WORDS))


def scenario_entry(record: Scenario) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": record.id, "category": record.category, "name": record.name, "setup": record.setup,
        "expected_perception": record.expectations.perception, "difficulty": record.difficulty,
        "correct_actions": list(record.expectations.correct_actions),
        "incorrect_actions": list(record.expectations.incorrect_actions),
        "expected_pattern": record.expectations.pattern, "mode": record.mode,
    }
    if record.mode == "bench":
        scene, predict = canonical_first_decision(record)
        entry["scene_context"] = scene
        entry["ground_truth"] = {"predict": predict, "motion_keywords": motion_keywords(record)}
    return entry


def export_dataset(out: Path | str) -> list[Path]:
    """Write the dataset layout into ``out`` (see the module card); the paths written."""
    out = Path(out)
    written = [write_json(out / "benchmark_spec.json", benchmark_spec())]
    records = [r for r in all_scenarios() if r.id in _official_ids()]
    for category in CATEGORY_TITLES:
        entries = [scenario_entry(r) for r in records if r.category == category]
        written.append(write_json(out / "scenarios" / category_file(category), entries))
    banks = json.loads(DEFAULT_BANKS_PATH.read_text(encoding="utf-8"))
    written.append(write_json(out / "scoring" / "keyword_banks.json", banks))
    written.append(write_json(out / "scoring" / "intensity_scale.json", intensity_scale(banks)))
    return written


def intensity_scale(banks: Mapping[str, Any]) -> dict[str, Any]:
    return {tier: {"level": level, "keywords": list(banks.get("intensity", {}).get(tier, []))}
            for tier, level in INTENSITY_LEVELS.items()}


def _official_ids() -> frozenset[str]:
    return frozenset(s for ids in CATEGORY_SCENARIOS.values() for s in ids if not s.startswith(PHYSICAL_PREFIX))
