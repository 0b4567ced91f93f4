"""The scores.json model: one writer (the byte format every run writes), one reader that names what is wrong
with an old or broken file in one WMBenchError line, and per-seed scores read back from an entry."""

from __future__ import annotations

import json
import warnings

import pytest

from wmbench.core.errors import WMBenchError
from wmbench.harness.perception_gap import GapError, perception_gap
from wmbench.harness.report import load_run
from wmbench.harness.results import RUN_FILE, SCORES_FILE, read_scores, write_scores
from wmbench.harness.scoring import ScenarioScore, summarize
from wmbench.harness.scoring.scores_file import (
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
], ids=["not-json", "not-object", "old-layout", "broken-category", "broken-scenario"])
def test_an_old_or_broken_file_is_one_clear_error_line(text, says) -> None:
    if text is None:
        data = _scores()
        if "categories" in says:
            del data["categories"]["C01"]["measured_max"]  # type: ignore[misc]
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


def test_the_report_warns_in_one_line_and_goes_on_without_an_old_scores_file(tmp_path) -> None:
    (tmp_path / SCORES_FILE).write_text('{"wm_score": 700}', encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = load_run(tmp_path)
    assert run.scores is None
    (warning,) = [w for w in caught if "scores.json" in str(w.message)]
    assert "expected the keys" in str(warning.message) and "report goes on without it" in str(warning.message)


def test_the_perception_gap_names_an_old_scores_file(tmp_path) -> None:
    for name, mode in (("a", "scene"), ("b", "image")):
        (tmp_path / name).mkdir()
        (tmp_path / name / RUN_FILE).write_text(json.dumps({"brain": "x", "env_kwargs": {"observation": mode}}))
        write_scores(tmp_path / name, _scores())
    (tmp_path / "b" / SCORES_FILE).write_text('{"wm_score": 700}', encoding="utf-8")
    with pytest.raises(GapError, match=r"b/scores.json: expected the keys .* got an object without"):
        perception_gap(tmp_path / "a", tmp_path / "b")
