"""The test split: drawn instances with a recorded nonce, seed 0 reported apart, resume and paired reuse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wmbench.harness.cli.main import main
from wmbench.harness.run.instances import (
    DEFAULT_INSTANCES,
    InstanceDraw,
    InstancesError,
    draw_test_seeds,
    instances_from,
    split_record,
)
from wmbench.harness.run.results import EPISODES_FILE
from wmbench.harness.run.selection import MAX_SEED


def test_a_nonce_draws_the_same_distinct_large_seeds_that_keep_the_family_cycle():
    seeds = draw_test_seeds(987654321, 8)
    assert seeds == draw_test_seeds(987654321, 8)
    assert seeds != draw_test_seeds(987654322, 8)
    assert len(set(seeds)) == 8 and all(4 <= s <= MAX_SEED for s in seeds)
    # the families read the low bits (mirror: bit 0, front: seed // 2): instance i keeps seed i's residue
    assert [s % 4 for s in seeds] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert InstanceDraw(5).seeds == (0, *draw_test_seeds(5, DEFAULT_INSTANCES))
    assert InstanceDraw(5, spec_fidelity=False).seeds == draw_test_seeds(5, DEFAULT_INSTANCES)


def test_fresh_draws_differ_and_bad_draws_are_refused():
    assert InstanceDraw.fresh().nonce != InstanceDraw.fresh().nonce
    with pytest.raises(InstancesError, match="--instances must be between 1"):
        InstanceDraw(1, count=0)
    with pytest.raises(InstancesError, match="nonce"):
        InstanceDraw(-1)


def test_the_split_of_explicit_seeds():
    assert split_record([0, 1, 2]) == {"nonce": None, "count": 2, "test_seeds": [1, 2],
                                       "spec_fidelity_seed": 0, "canonical_only": False}
    assert split_record([0])["canonical_only"] and split_record([0])["test_seeds"] == [0]
    assert split_record([3, 5])["spec_fidelity_seed"] is None


def _run(out: Path, *extra: str) -> dict:
    assert main(["run", "--brain", "reference", "--scenarios", "S01,S12", "--workers", "1", "--no-live",
                 "--no-progress", "--out", str(out), *extra]) == 0
    return json.loads((out / "scores.json").read_text())


def _episodes(out: Path) -> list[tuple[str, int]]:
    return [(line["scenario"], line["seed"])
            for line in map(json.loads, (out / EPISODES_FILE).read_text().splitlines())]


def test_a_default_run_draws_scores_the_draw_and_reports_seed_zero_apart(tmp_path, capsys):
    out = tmp_path / "drawn"
    scores = _run(out, "--instances", "2")
    split = scores["split"]
    assert isinstance(split["nonce"], int) and split["count"] == 2 and split["spec_fidelity_seed"] == 0
    test_seeds = split["test_seeds"]
    assert len(test_seeds) == 2 and 0 not in test_seeds and test_seeds == list(draw_test_seeds(split["nonce"], 2))
    # the WM Score is over the drawn instances only; seed 0 is the spec-fidelity block
    for sid in ("S01", "S12"):
        assert [s["seed"] for s in scores["scenarios"][sid]["per_seed"]] == sorted(test_seeds)
    assert set(scores["spec_fidelity"]["scenarios"]) == {"S01", "S12"}
    assert scores["spec_fidelity"]["seed"] == 0 and scores["spec_fidelity"]["max"] == 40
    assert sorted(_episodes(out)) == sorted((sid, s) for sid in ("S01", "S12") for s in (0, *test_seeds))
    run_json = json.loads((out / "run.json").read_text())
    entry = json.loads((out / "leaderboard_entry.json").read_text())
    assert run_json["instances"]["nonce"] == entry["instance_nonce"] == split["nonce"]
    assert entry["test_seeds"] == test_seeds and entry["spec_fidelity"]["max"] == 40
    assert "Spec fidelity (seed 0" in (out / "report.md").read_text()
    assert f"nonce {split['nonce']}" in capsys.readouterr().out

    # a rerun of the same folder resumes the recorded instances: nothing new is drawn or run
    before = (out / EPISODES_FILE).read_bytes()
    again = _run(out)
    assert again["split"] == split and (out / EPISODES_FILE).read_bytes() == before
    assert again["wm_score"] == scores["wm_score"]

    # --seed-list reproduces the WM Score exactly, with no nonce
    listed = _run(tmp_path / "listed", "--seed-list", ",".join(map(str, [0, *test_seeds])))
    assert listed["wm_score"] == scores["wm_score"] and listed["split"]["nonce"] is None
    assert listed["scenarios"] == scores["scenarios"]

    # --instances-from plays the same instances (a paired comparison), here without seed 0
    paired = _run(tmp_path / "paired", "--instances-from", str(out), "--no-spec-fidelity")
    assert paired["split"]["test_seeds"] == test_seeds and "spec_fidelity" not in paired
    assert sorted(_episodes(tmp_path / "paired")) == sorted((sid, s) for sid in ("S01", "S12") for s in test_seeds)


def test_explicit_seeds_and_instances_from_do_not_mix(tmp_path, capsys):
    assert main(["run", "--scenarios", "S01", "--brain", "null", "--seeds", "2", "--instances-from",
                 str(tmp_path), "--out", str(tmp_path / "x")]) == 2
    assert "--instances-from" in capsys.readouterr().err
    with pytest.raises(InstancesError, match="expected a wmbench run folder"):
        instances_from(tmp_path / "nothing-here")


def test_a_run_of_seed_zero_alone_is_labelled_canonical_only(tmp_path):
    scores = _run(tmp_path / "zero", "--seed-list", "0")
    assert scores["split"]["canonical_only"] and "spec_fidelity" not in scores
    assert [s["seed"] for s in scores["scenarios"]["S01"]["per_seed"]] == [0]
