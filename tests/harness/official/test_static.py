"""Track A static: the official rules on one reply per record, and `wmbench run --track A` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wmbench.brain.registry import get_brain
from wmbench.harness.cli.main import main
from wmbench.harness.official.schema_check import schema_problems
from wmbench.harness.official.static import run_static, score_record
from wmbench.scenarios.track_a import read_track_a
from wmbench.scoring.keywords import load_banks

FIXTURE = Path(__file__).parents[2] / "scenarios" / "data" / "track_a_fixture.jsonl"


@pytest.fixture(scope="module")
def records():
    return {r.id: r for r in read_track_a(FIXTURE)}


@pytest.mark.parametrize(("predict", "tier", "points"), [
    ("left=safe(open), right=safe(open), fwd=danger(wall), back=safe(open)", "exact", 20),
    ("left=safe, right=safe, fwd=danger(beast), back=safe", "partial", 10),   # verdicts right, reason wrong
    ("left=safe(open), right=safe(open), fwd=safe(open), back=danger(wall)", "partial", 10),  # 2 of 4 match
    ("left=danger(wall), right=danger(wall), fwd=safe(open), back=safe(open)", "miss", 0),
])
def test_predict_tiers_follow_the_spec_table(records, predict, tier, points):
    score = score_record(records["S001"], f"PREDICT: {predict}\nMOTION: a person turns and walks away", load_banks())
    assert (score.predict_tier, score.predict_points) == (tier, points)


def test_motion_keyword_tiers_count_whole_words_and_respect_negation(records):
    banks = load_banks()
    record = records["S031"]  # keywords: sprint, terror, flee
    predict = "PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=danger(beast)\nMOTION: "
    cases = {"a person sprints forward in terror, fleeing": 20, "a person sprints forward in terror": 15,
             "a person sprints forward": 10, "a person does not sprint, no terror, calm walk": 0}
    for motion, points in cases.items():
        assert score_record(record, predict + motion, banks).motion_points == points, motion
    assert score_record(record, "", banks).points == 0.0  # an empty reply is a miss, not a crash


def test_a_scripted_world_model_beats_constant_and_random_replies(records):
    fixture = tuple(records.values())
    results = {b: run_static(fixture, get_brain(b), b, str(FIXTURE)) for b in ("reference", "null", "random")}
    assert results["reference"]["total"] > results["null"]["total"] > results["random"]["total"]
    ref = results["reference"]
    assert ref["not_applicable"] == ["S081"] and len(ref["records"]) == 11
    assert ref["total_max"] == 800 and ref["official_scale"] == pytest.approx(ref["total"] * 750 / 800, abs=1e-3)
    assert set(ref["categories"]) == {f"C0{i}" for i in range(1, 9)}


def test_run_track_a_writes_schema_valid_static_files(tmp_path, capsys):
    out = tmp_path / "ta"
    assert main(["run", "--scenarios", str(FIXTURE), "--track", "A", "--brain", "reference", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Track A static total" in printed and "N/A in Track A (C09/C10): S081" in printed
    submission = json.loads((out / "submission.json").read_text())
    entry = json.loads((out / "leaderboard_entry.json").read_text())
    assert schema_problems("submission", submission) == [] and schema_problems("leaderboard_entry", entry) == []
    assert submission["track"] == "A" and [r["id"] for r in submission["responses"]][:2] == ["S001", "S002"]
    assert entry["track"] == "A" and entry["c01_to_c10"]["C09"] is None and entry["fps"] is None
    assert sum(v for v in entry["c01_to_c10"].values() if v is not None) == entry["wm_score"]


def test_track_a_needs_a_file_and_never_writes_over_a_harness_run(tmp_path, capsys):
    assert main(["run", "--scenarios", "C01", "--track", "A", "--out", str(tmp_path / "x")]) == 2
    assert "--track A needs --scenarios to be one Track-A file" in capsys.readouterr().err
    (tmp_path / "harness").mkdir()
    (tmp_path / "harness" / "scores.json").write_text("{}")
    assert main(["run", "--scenarios", str(FIXTURE), "--track", "A", "--out", str(tmp_path / "harness")]) == 2
    assert "holds a harness run" in capsys.readouterr().err
    assert not (tmp_path / "harness" / "leaderboard_entry.json").exists()
