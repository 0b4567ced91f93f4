"""The ``scores.json`` file: its typed model and its one reader/writer pair.

Card
----
- The model is a tree of TypedDicts (plain dicts at run time, so the JSON is exactly what the aggregate
  builds): :class:`Scores` at the top, with :class:`PillarEntry`, :class:`CategoryEntry` (and its CI),
  :class:`ScenarioEntry` (one :class:`PerSeedResult` and one :class:`Evidence` per seed), :class:`CiBlock`,
  :class:`HiddenInconsistencyRate`, the run's :class:`RunBlock` with its :class:`BrainUsage`, the test split
  (:class:`SplitBlock`: which seeds the WM Score is over) and :class:`SpecFidelity` (seed 0, reported apart).
  :func:`wmbench.scoring.aggregate.summarize` builds it; the run scorer adds ``run``; report,
  leaderboard, CLI, validity and the inspect task read it.
- :func:`scores_to_json` is the one writer (``indent=2``, key order as built, trailing newline — the
  byte format every run has written); :func:`scores_from_json` the one reader: it checks the shape the
  readers rely on (the top-level keys, every pillar, category and scenario entry; not the evidence, whose
  shape differs per rule) and raises :class:`ScoresFileError` (a :class:`~wmbench.core.errors.WMBenchError`) with one
  line — "expected X, got Y" — for a file that is not JSON, is from an older wmbench or is cut short.
- :func:`per_seed_scores` turns a scenario entry back into its per-seed
  :class:`~wmbench.scoring.report_types.ScenarioScore` records (what ``wmbench report --rebuild``
  carries over for scenarios it cannot rescore from episodes).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

from wmbench.core.errors import WMBenchError
from wmbench.scoring.failure_labels import FailureLabelCounts
from wmbench.scoring.report_types import Evidence, ScenarioScore

#: the top-level keys every scores.json written since 0.2 has (``run`` is added by a suite run)
REQUIRED_KEYS: tuple[str, ...] = (
    "wm_score", "wm_score_max", "complete", "grade", "pillars", "categories", "scenarios", "ci",
)
CATEGORY_KEYS: tuple[str, ...] = ("score", "max", "measured", "measured_max")
SCENARIO_KEYS: tuple[str, ...] = ("score", "max", "measured", "category", "per_seed", "evidence", "explanation")
PILLAR_KEYS: tuple[str, ...] = ("sum", "max", "rescaled", "rescaled_max", "measured")


class ScoresFileError(WMBenchError, ValueError):
    """A scores.json that cannot be read as this version's model (not JSON, older layout, cut short)."""


class PerSeedResult(TypedDict):
    """One seed's points for a scenario."""

    seed: int | None
    score: float
    measured: bool
    explanation: str


class ScenarioEntry(TypedDict):
    """A scenario: mean over its measured seeds (None when none was), the seeds, their evidence, why."""

    score: float | None
    max: float
    measured: bool
    category: str | None
    per_seed: list[PerSeedResult]
    evidence: list[Evidence]
    explanation: str


class CategoryEntry(TypedDict):
    """A category: the sum of its five scenarios, what part was measured, its 95 % CI (None: too few seeds)."""

    score: float
    max: float
    measured: bool
    measured_max: float
    missing_scenarios: list[str]
    ci95: list[float] | None
    ci95_note: str


class PillarEntry(TypedDict):
    """A pillar: the sum of its categories and, separately labelled, rescaled to the spec's pillar scale."""

    sum: float
    max: float
    rescaled: float
    rescaled_max: float
    rescaled_note: str
    measured: bool


class CiBlock(TypedDict):
    """The WM Score's bootstrap CI and how it was made."""

    wm_score: list[float] | None
    note: str
    n_seeds: int
    n_seeds_min: int
    method: str


class HiddenInconsistencyRate(TypedDict):
    """Decisions whose action was safe but whose PREDICT was not exact, over all measured episodes."""

    count: int
    safe_decisions: int
    rate: float | None


class BrainUsage(TypedDict):
    """What the brain cost over the run (:mod:`wmbench.harness.run.accounting`)."""

    decisions: int
    prompt_tokens: int | None
    completion_tokens: int | None
    cache_hits: int
    retries: int
    failed_decisions: int


class NotMeasuredNote(TypedDict):
    """A mode the run could not measure, and why."""

    mode: str
    scenarios: str
    note: str


class RunBlock(TypedDict):
    """The deterministic summary of a suite run (no wall times, paths or worker counts)."""

    brain: str
    body: str
    selection: str
    seeds: list[int]
    episodes: int
    error_episodes: int
    failed_decisions: int
    parse_errors: int
    not_measured_notes: list[NotMeasuredNote]
    brain_usage: BrainUsage
    stopped: NotRequired[str]
    #: on a body slower than the character: the pace its bench scenes were played at (the body's pace, or 1.0
    #: with the ``pace="scene"`` diagnostic opt-out; :mod:`wmbench.envs.pacing`); absent on the character
    pace: NotRequired[float]


class SplitBlock(TypedDict):
    """How a run chose its instances (``run.json``'s ``instances``, ``scores.json``'s ``split``): the drawn
    ``nonce`` (None for explicit seeds), the test seeds the WM Score is computed over, the seed reported
    apart as spec fidelity (0, or None), and ``canonical_only`` for a run of seed 0 alone (its WM Score is
    then the canonical instance's, not a test-split score). See :mod:`wmbench.harness.run.instances`."""

    nonce: int | None
    count: int
    test_seeds: list[int]
    spec_fidelity_seed: int | None
    canonical_only: bool


class SpecFidelity(TypedDict):
    """The canonical instance (seed 0), reported apart from the WM Score: per bench category and scenario
    points on the spec's published layouts, their sum and what it is out of."""

    seed: int
    score: float
    max: float
    categories: dict[str, float | None]
    scenarios: dict[str, float | None]
    note: str


class Scores(TypedDict):
    """The whole ``scores.json``."""

    wm_score: float
    wm_score_max: float
    wm_score_measured_max: float
    complete: bool
    missing_categories: list[str]
    wm_score_note: str
    grade: str
    grade_provisional: bool
    pillars: dict[str, PillarEntry]
    categories: dict[str, CategoryEntry]
    scenarios: dict[str, ScenarioEntry]
    ci: CiBlock
    hidden_inconsistency_rate: HiddenInconsistencyRate
    #: why points were lost: label counts overall / per category / per scenario (scoring/failure_labels.py)
    failure_labels: NotRequired[FailureLabelCounts]
    extra_scenarios: NotRequired[dict[str, ScenarioEntry]]
    problems: NotRequired[list[str]]
    split: NotRequired[SplitBlock]
    spec_fidelity: NotRequired[SpecFidelity]
    run: NotRequired[RunBlock]


def scores_to_json(scores: Scores) -> str:
    """The text of a scores.json file (the byte format every run writes)."""
    return json.dumps(scores, indent=2, sort_keys=False) + "\n"


def scores_from_json(text: str | bytes, source: str = "scores.json") -> Scores:
    """Read a scores.json text; :class:`ScoresFileError` (one line naming ``source``) if it is not this
    version's model."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        raise ScoresFileError(f"{source}: expected JSON, got unreadable text ({err})") from None
    return check_scores(data, source)


def check_scores(data: Any, source: str = "scores.json") -> Scores:
    """``data`` as :class:`Scores` once its shape is checked (top-level keys, every category and scenario
    entry); :class:`ScoresFileError` otherwise."""
    if not isinstance(data, dict):
        raise ScoresFileError(f"{source}: expected a JSON object, got {type(data).__name__}")
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise ScoresFileError(f"{source}: expected the keys {', '.join(REQUIRED_KEYS)}, got an object without "
                              f"{', '.join(missing)} (written by an older wmbench? rebuild it with "
                              "`wmbench report DIR --rebuild`)")
    for block, keys in (("pillars", PILLAR_KEYS), ("categories", CATEGORY_KEYS), ("scenarios", SCENARIO_KEYS),
                        ("extra_scenarios", SCENARIO_KEYS)):
        _check_entries(data.get(block, {}), block, keys, source)
    return cast(Scores, data)


def _check_entries(entries: Any, block: str, keys: tuple[str, ...], source: str) -> None:
    if not isinstance(entries, dict):
        raise ScoresFileError(f"{source}: expected {block} to be an object, got {type(entries).__name__}")
    for name, entry in entries.items():
        absent = [key for key in keys if not isinstance(entry, dict) or key not in entry]
        if absent:
            raise ScoresFileError(f"{source}: expected {block}.{name} to have {', '.join(keys)}, got it "
                                  f"without {', '.join(absent)}")


def per_seed_scores(scenario_id: str, entry: ScenarioEntry | Mapping[str, Any]) -> list[ScenarioScore]:
    """A scenario entry's seeds as :class:`ScenarioScore` records (evidence paired by position)."""
    evidence = entry.get("evidence") or []
    return [ScenarioScore(scenario_id, str(entry.get("category")), float(s.get("score") or 0.0),
                          measured=bool(s.get("measured")), explanation=str(s.get("explanation", "")),
                          evidence=cast(Evidence, dict(evidence[i])) if i < len(evidence) else Evidence(),
                          seed=s.get("seed"))
            for i, s in enumerate(entry.get("per_seed") or [])]
