"""An old or broken scores.json met by the report (one warning line, then a rebuild) and by the perception
gap (one error line naming the file)."""

from __future__ import annotations

import json
import warnings

import pytest

from wmbench.harness.report.perception_gap import GapError, perception_gap
from wmbench.harness.report.writer import load_run
from wmbench.harness.run.results import RUN_FILE, SCORES_FILE, write_scores
from wmbench.scoring import ScenarioScore, summarize


def _scores():
    return summarize({"S01": [ScenarioScore("S01", "C01", 20.0, seed=0)]})


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
