"""The scores.json model: one writer (the byte format every run writes), one reader that names what is wrong
with an old or broken file in one WMBenchError line, and per-seed scores read back from an entry (the report
and the perception gap reading such a file: tests/harness/report/test_old_scores_file.py)."""

from __future__ import annotations

import json

import pytest

from wmbench.core.errors import WMBenchError
from wmbench.harness.run.results import SCORES_FILE, read_scores, write_scores
from wmbench.scoring import ScenarioScore, summarize
from wmbench.scoring.scores_file import (
    REQUIRED_KEYS,
    ScoresFileError,
    per_seed_scores,
    scores_from_json,
    scores_to_json,
)


def _scores():
    evidence = {"rule": "spatial_accuracy", "raw": 15.0, "caps": [], "keyword": {"levels": ["exact"]},
                "sim": {"hidden_inconsistency": {"count": 1, "safe_decisions": 4, "rate": 0.25, "indices": [2]}},
                "decisions": [{"index": 0, "points": 20.0, "why": "exact: 4/4 right, all right"}]}
    return summarize({
        "S01": [ScenarioScore("S01", "C01", 20.0, evidence=evidence, seed=0),
                ScenarioScore("S01", "C01", 10.0, evidence={"rule": "spatial_accuracy"}, seed=1)],
        "S02": [ScenarioScore("S02", "C01", 0.0, measured=False, explanation="S02: not measured: x", seed=0)],
    })


def test_the_writer_keeps_the_byte_format_and_the_reader_reads_it_back(tmp_path) -> None:
    scores = _scores()
    text = scores_to_json(scores)
    assert text == json.dumps(scores, indent=2, sort_keys=False) + "\n"
    path = write_scores(tmp_path, scores)
    assert path == tmp_path / SCORES_FILE and path.read_text(encoding="utf-8") == text
    assert read_scores(tmp_path) == scores == scores_from_json(text)
    assert list(read_scores(tmp_path)) == list(scores)  # key order as built


@pytest.mark.parametrize(("text", "says"), [
    ("{not json", "expected JSON, got unreadable text"),
    ("[1, 2]", "expected a JSON object, got list"),
    ('{"wm_score": 700, "grade": "B"}', "got an object without wm_score_max, complete, pillars, categories"),
    (None, "expected categories.C01 to have score, max, measured, measured_max, got it without measured_max"),
    (None, "expected scenarios.S01 to have score"),
    (None, "expected pillars.P2 to have sum, max, rescaled, rescaled_max, measured, got it without rescaled"),
], ids=["not-json", "not-object", "old-layout", "broken-category", "broken-scenario", "broken-pillar"])
def test_an_old_or_broken_file_is_one_clear_error_line(text, says) -> None:
    if text is None:
        data = _scores()
        if "categories" in says:
            del data["categories"]["C01"]["measured_max"]  # type: ignore[misc]
        elif "pillars" in says:
            del data["pillars"]["P2"]["rescaled"]  # type: ignore[misc]
        else:
            data["scenarios"]["S01"] = {"score": 1.0}  # type: ignore[typeddict-item]
        text = json.dumps(data)
    with pytest.raises(ScoresFileError, match=r"some/run/scores\.json: ") as err:
        scores_from_json(text, "some/run/scores.json")
    message = str(err.value)
    assert isinstance(err.value, WMBenchError) and says in message and "\n" not in message


def test_required_keys_are_what_the_aggregate_writes() -> None:
    assert set(REQUIRED_KEYS) <= set(_scores())


def test_per_seed_scores_read_an_entry_back_into_the_scores_it_was_built_from() -> None:
    scores = _scores()
    back = per_seed_scores("S01", scores["scenarios"]["S01"])
    assert [(s.seed, s.score, s.measured, s.category) for s in back] == [(0, 20.0, True, "C01"),
                                                                          (1, 10.0, True, "C01")]
    assert summarize({"S01": back, "S02": per_seed_scores("S02", scores["scenarios"]["S02"])}) == scores
