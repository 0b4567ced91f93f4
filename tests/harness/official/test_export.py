"""`wmbench export`: a real run's submission and entry follow the published schemas; the dataset export
round-trips through the Track-A reader."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from wmbench.brain.registry import get_brain
from wmbench.harness.cli.main import main
from wmbench.harness.official.dataset import SPEC_SCENARIO_FILES
from wmbench.harness.official.schema_check import SCHEMA_DIR, SCHEMA_FILES, load_schema, schema_problems
from wmbench.harness.official.static import run_static
from wmbench.scenarios.track_a import read_track_a


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("export") / "run"
    assert main(["run", "--brain", "reference", "--scenarios", "S01,S12", "--seeds", "1", "--no-live",
                 "--no-progress", "--workers", "1", "--out", str(out)]) == 0
    return out


def _jsonschema_ok(kind: str, data: dict) -> bool:
    validator = jsonschema.Draft202012Validator(load_schema(kind))
    return not list(validator.iter_errors(data))


def test_the_schemas_are_valid_json_schema():
    for name in SCHEMA_FILES.values():
        jsonschema.Draft202012Validator.check_schema(json.loads((SCHEMA_DIR / name).read_text()))


def test_export_of_a_run_follows_the_schemas(run_dir, capsys):
    assert main(["export", str(run_dir)]) == 0
    assert "track C" in capsys.readouterr().out
    files = {"scores": "scores.json", "leaderboard_entry": "leaderboard_entry.json", "submission": "submission.json"}
    for kind, name in files.items():
        data = json.loads((run_dir / name).read_text())
        assert schema_problems(kind, data) == [] and _jsonschema_ok(kind, data), kind
    submission = json.loads((run_dir / "submission.json").read_text())
    assert submission["track"] == "C"
    assert [(r["id"], r["category"], r["seed"]) for r in submission["responses"]] == [("S01", "C01", 0),
                                                                                       ("S12", "C03", 0)]
    assert submission["responses"][0]["response"].startswith("PREDICT:")


@pytest.mark.parametrize(("kind", "edit", "problem"), [
    ("leaderboard_entry", {"wm_score": 1200}, "$.wm_score: expected at most 1000, got 1200"),
    ("leaderboard_entry", {"grade": "B+"}, "$.grade: expected one of"),
    ("leaderboard_entry", {"track": "B"}, "$.track: expected one of ['A', 'C'], got 'B'"),
    ("submission", {"track": "B"}, "$.track: expected one of ['A', 'C'], got 'B'"),
    ("scores", {"wm_score": "730"}, "$.wm_score: expected number, got string"),
])
def test_the_validator_names_what_is_wrong_and_agrees_with_jsonschema(run_dir, kind, edit, problem):
    name = {"scores": "scores.json", "leaderboard_entry": "leaderboard_entry.json",
            "submission": "submission.json"}[kind]
    main(["export", str(run_dir)])
    data = copy.deepcopy(json.loads((run_dir / name).read_text()))
    data.update(edit)
    problems = schema_problems(kind, data)
    assert any(problem in p for p in problems), problems
    assert not _jsonschema_ok(kind, data)
    del data[next(iter(edit))]
    assert any("missing required key" in p for p in schema_problems(kind, data))


def test_the_dataset_export_round_trips_through_the_track_a_reader(tmp_path, capsys):
    assert main(["export", "--dataset", str(tmp_path / "ds")]) == 0
    ds = tmp_path / "ds"
    assert {p.name for p in (ds / "scenarios").iterdir()} == set(SPEC_SCENARIO_FILES.values())
    assert (ds / "benchmark_spec.json").is_file() and (ds / "scoring" / "keyword_banks.json").is_file()
    assert json.loads((ds / "scoring" / "intensity_scale.json").read_text())["high"]["level"] == 3
    records = read_track_a(ds)
    assert len(records) == 40 and records[0].id == "S01"  # C01..C08: five each (C09/C10 carry no scene)
    by_id = {r.id: r for r in records}
    assert by_id["S01"].predict["fwd"] == ("danger", "wall") and by_id["S01"].scene_context["walls"]["front"] == 3.0
    assert by_id["S12"].predict["left"] == ("danger", "wall") and by_id["S12"].predict["fwd"] == ("danger", "beast")
    # what was written is what is read: every exported field of a record comes back unchanged
    exported = json.loads((ds / "scenarios" / SPEC_SCENARIO_FILES["C03"]).read_text())
    s12 = next(e for e in exported if e["id"] == "S12")
    assert by_id["S12"].scene_context == s12["scene_context"] and by_id["S12"].name == s12["name"]
    assert list(by_id["S12"].motion_keywords) == s12["ground_truth"]["motion_keywords"]
    # and the re-read records run through the static scorer like upstream ones
    result = run_static(records, get_brain("reference"), "reference", str(ds))
    assert len(result["categories"]) == 8 and result["official_scale"] is not None


def test_export_refuses_what_is_not_a_run(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["export", str(tmp_path / "empty")]) == 2
    assert "expected a run directory (scores.json) or a static Track-A run" in capsys.readouterr().err
