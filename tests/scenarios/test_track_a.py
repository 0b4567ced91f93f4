"""The Track-A reader: official records in, one-line errors per bad record, upstream ids never alias wmbench's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.track_a_worlds import forget_track_a_worlds  # noqa: F401  (autouse fixture)
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.scenarios import get_scenario, select
from wmbench.scenarios.track_a import (
    FILLED_IN,
    TrackAError,
    is_upstream_id,
    physical_scenario,
    read_track_a,
    record_sha256,
)
from wmbench.scoring.dispatch import official_category

FIXTURE = Path(__file__).parent / "data" / "track_a_fixture.jsonl"


def fixture_items() -> list[dict]:
    return [json.loads(line) for line in FIXTURE.read_text().splitlines()]


def write_lines(path: Path, items: list) -> Path:
    path.write_text("\n".join(i if isinstance(i, str) else json.dumps(i) for i in items) + "\n")
    return path


def test_the_fixture_reads_back_whole():
    records = read_track_a(FIXTURE)
    assert len(records) == 12 and records[0].id == "S001" and records[0].category == "C01"
    assert records[0].predict["fwd"] == ("danger", "wall") and records[0].motion_keywords == ("turn", "walk")
    assert {r.category for r in records} == {f"C0{i}" for i in range(1, 10)}
    assert len({record_sha256(r) for r in records}) == 12


def test_every_bad_record_is_one_line_naming_line_field_and_what_was_expected(tmp_path):
    good = fixture_items()
    bad_id = {**good[0], "id": "S01"}
    bad_cat = {**good[1], "id": "S902", "cat": "C11"}
    bad_wall = {**good[2], "id": "S903", "scene_context": {**good[2]["scene_context"], "walls": {"left": -1}}}
    bad_npc = {**good[3], "id": "S904", "scene_context": {**good[3]["scene_context"], "npc_type": "dragon"}}
    bad_truth = {**good[4], "id": "S905", "ground_truth": {"predict": {"up": "safe(open)"}}}
    path = write_lines(tmp_path / "bad.jsonl", [good[0], bad_id, bad_cat, bad_wall, bad_npc, bad_truth,
                                                "{not json", good[0]])
    with pytest.raises(TrackAError) as caught:
        read_track_a(path)
    lines = str(caught.value).splitlines()
    assert lines[0] == "7 bad Track-A record(s):"
    assert "bad.jsonl:2: id: expected an upstream id 'S' + three digits (S001), got 'S01'" in lines[1]
    assert "wmbench's own S01..S50 are not Track-A records" in lines[1]
    assert "bad.jsonl:3: cat: expected a category C01..C10, got 'C11'" in lines[2]
    assert "bad.jsonl:4: scene_context.walls.left: expected metres > 0 or null, got -1" in lines[3]
    assert "bad.jsonl:5: scene_context.npc_type: expected one of beast, woman, man or null, got 'dragon'" in lines[4]
    assert "bad.jsonl:6: ground_truth.predict: expected directions" in lines[5]
    assert "bad.jsonl:7: expected one JSON object per line" in lines[6]
    assert "bad.jsonl:8: id: expected a unique id, got 'S001' again (first on line 1)" in lines[7]


def test_a_missing_or_empty_file_is_one_clear_line(tmp_path):
    with pytest.raises(TrackAError, match=r"not found; expected a wm_bench\.jsonl file"):
        read_track_a(tmp_path / "nope.jsonl")
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(TrackAError, match="expected at least one record, got an empty file"):
        read_track_a(tmp_path / "empty.jsonl")


def test_upstream_ids_never_alias_wmbench_scenarios():
    # regression: S001 used to normalise to S01 and silently run wmbench's S01 world (and S01's rule)
    assert is_upstream_id("S001") and not is_upstream_id("S01")
    with pytest.raises(ValueError, match=r"'S003' is an upstream WM Bench Track-A id .* did you mean S03"):
        select("S003")
    with pytest.raises(KeyError, match=r"'S001' is an upstream WM Bench Track-A id"):
        get_scenario("S001")
    assert official_category("S001") is None and official_category("TA-C01-S001") is None
    assert official_category("S5") == "C01" and get_scenario("S5").id == "S05"  # short ids still work


def test_selecting_the_file_builds_its_worlds_and_all_stays_wmbenchs():
    chosen = select(str(FIXTURE))
    assert [s.id for s in chosen][:3] == ["TA-C01-S001", "TA-C01-S002", "TA-C01-S003"]
    assert len(chosen) == 11  # the C09 record is N/A physically
    assert not any(s.id.startswith("TA-") for s in select("all")) and len(select("C01")) == 5


def test_a_physical_world_has_the_records_walls_and_npc():
    records = {r.id: r for r in read_track_a(FIXTURE)}
    for rid in ("S003", "S021"):
        record = records[rid]
        env = WMBenchEnv(scenario=physical_scenario(record))
        try:
            env.reset(seed=0)
            env.step("PREDICT: fwd=safe(open)\nMOTION: a person stands still")
            scene = env.trace.decisions[0].scene
        finally:
            env.close()
        for side in ("left", "right", "front"):
            want = record.scene_context["walls"][side]
            got = scene["walls"][side]
            assert (got is None) == (want is None) and (want is None or abs(got - want) < 0.1), (rid, side, got)
        want_npc = record.scene_context["npc_type"]
        assert scene["npc_type"] == want_npc
        if want_npc:
            assert scene["npc_direction"] == record.scene_context["npc_direction"]
            assert abs(scene["npc_distance"] - record.scene_context["npc_distance"]) < 0.3
    assert "sound" in FILLED_IN and "NPC timeline" in FILLED_IN


def test_a_c09_record_is_refused_for_a_physical_run():
    c09 = next(r for r in read_track_a(FIXTURE) if r.category == "C09")
    with pytest.raises(TrackAError, match=r"C09/C10 are measured by wmbench's own S41\.\.S50"):
        physical_scenario(c09)
