"""`wmbench leaderboard` and `wmbench compare` on real runs: ranks, CIs, refusals, the paired bootstrap."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from wmbench.harness.cli.main import main
from wmbench.harness.leaderboard.baselines import all_baselines, measured_baselines, prometheus_row
from wmbench.harness.leaderboard.board import LeaderboardError, build_leaderboard, rank_rows, row_from_run
from wmbench.harness.leaderboard.compare import compare_runs
from wmbench.harness.official.schema_check import schema_problems
from wmbench.harness.suite import run_suite

SELECTION = "S01,S04,S11"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("board")
    out = {}
    for brain, seeds in (("reference", [0, 1, 2, 3]), ("null", [0, 1, 2, 3]), ("panel:mirror-swapped", [0, 1, 2, 3]),
                         ("random", [0, 1])):
        out[brain] = root / brain.replace(":", "_")
        run_suite(brain, "smpl", SELECTION, seeds, 1, out[brain], progress=False, live=False, reports=False)
    return out


def test_runs_are_ranked_with_cis_and_the_baselines_placed(runs, tmp_path, capsys):
    board = build_leaderboard([runs["reference"], runs["null"], runs["panel:mirror-swapped"]],
                              baselines=all_baselines())
    smpl = next(t for emb, t in board.tables.items() if "body=smpl" in emb)
    measured = [r for r in smpl if r.row.kind == "measured"]
    # the runs are ranked 1..3 best first; baselines are placed by score but never ranked (other instances)
    assert [(r.rank, r.row.name) for r in measured] == [(1, "reference"), (2, "panel:mirror-swapped"), (3, "null")]
    assert all(r.rank is None for r in smpl if r.row.kind != "measured")
    assert all(r.row.ci95 is not None and r.row.ci95[0] <= r.row.wm_score + 0.5 for r in measured)
    assert any(r.row.kind == "measured baseline" for r in smpl)  # shipped rows share the embodiment
    assert any(r.row.kind == "self-reported" for r in board.rows)
    assert main(["leaderboard", str(runs["reference"]), str(runs["null"]), "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "leaderboard.json").read_text())
    assert data["columns"][:9] == ["rank", "model_name", "wm_score", "grade", "p1_perception", "p2_cognition",
                                   "p3_embodiment", "fps", "cognitive_latency_ms"]
    assert "VIDRAFT PROMETHEUS v1.0" in (tmp_path / "leaderboard.md").read_text()
    assert "<table>" in (tmp_path / "leaderboard.html").read_text()


def test_different_instance_sets_are_refused_unless_allowed(runs, capsys):
    with pytest.raises(LeaderboardError, match=r"different instance sets \(seeds\).*--allow-mixed"):
        build_leaderboard([runs["reference"], runs["random"]])
    board = build_leaderboard([runs["reference"], runs["random"]], allow_mixed=True)
    assert board.notes and board.notes[0].startswith("MIXED:")
    assert main(["leaderboard", str(runs["reference"]), str(runs["random"]), "--no-baselines"]) == 2
    assert "cannot rank" in capsys.readouterr().err
    with pytest.raises(LeaderboardError, match="different instance sets"):
        compare_runs(runs["reference"], runs["random"])
    mixed = compare_runs(runs["reference"], runs["random"], allow_mixed=True)
    # seed 0 is spec fidelity, never a scored instance: the runs share seed 1 of each scenario (3 instances)
    assert mixed.shared == 3 and mixed.dropped == 6 and mixed.notes[0].startswith("MIXED")


def test_rows_of_other_embodiments_get_their_own_table(runs):
    ref = row_from_run(runs["reference"])
    robot = replace(ref, name="reference on robot", embodiment="body=robot · observation=scene · motion=procedural")
    board = build_leaderboard([], baselines=[ref, robot])
    assert len(board.tables) == 2 and all(len(t) == 1 and t[0].rank == 1 for t in board.tables.values())


def test_ties_share_a_rank_and_baselines_are_placed_unranked():
    base = prometheus_row()
    row = replace(base, kind="measured", name="A")
    last = replace(row, name="Z", entry={**row.entry, "wm_score": 1})
    ranked = rank_rows([row, replace(row, name="B"), base, last])  # A, B tie at 730 with PROMETHEUS
    assert [(r.rank, r.row.kind) for r in ranked] == [(1, "measured"), (1, "measured"), (None, "self-reported"),
                                                       (3, "measured")]


def test_the_prometheus_row_is_the_specs_self_reported_numbers():
    row = prometheus_row()
    assert row.kind == "self-reported" and "VIDRAFT_BASELINE" in row.source
    assert row.entry["wm_score"] == 730 == sum(row.entry["c01_to_c10"].values())
    assert row.entry["pillar_sums"] == {"P1": 140, "P2": 390, "P3": 200}
    assert row.entry["rescaled_total"] == 726  # the public leaderboard's number: the spec's pillar scale
    assert schema_problems("leaderboard_entry", row.entry) == []
    for shipped in measured_baselines():
        assert schema_problems("leaderboard_entry", shipped.entry) == [] and "wmbench run" in shipped.source


def test_compare_finds_the_significant_categories_and_none_against_itself(runs, capsys):
    result = compare_runs(runs["reference"], runs["null"])
    by_cat = {d.category: d for d in result.categories}
    assert result.shared == 9 and result.dropped == 0  # 3 scenarios x test seeds 1-3 (seed 0: spec fidelity)
    assert by_cat["C01"].diff > 0 and by_cat["C01"].significant and result.total.significant
    same = compare_runs(runs["reference"], runs["reference"])
    assert all(d.diff == 0 and not d.significant for d in (*same.categories, same.total))
    again = compare_runs(runs["reference"], runs["null"])
    assert again == result  # fixed bootstrap seed: the same answer every time
    assert main(["compare", str(runs["reference"]), str(runs["null"])]) == 0
    assert "significant differences: C01" in capsys.readouterr().out


def test_static_track_a_runs_rank_in_their_own_table_and_pair_by_record(tmp_path, capsys):
    fixture = Path(__file__).parents[2] / "scenarios" / "data" / "track_a_fixture.jsonl"
    for brain in ("reference", "null"):
        assert main(["run", "--scenarios", str(fixture), "--track", "A", "--brain", brain,
                     "--out", str(tmp_path / brain)]) == 0
    board = build_leaderboard([tmp_path / "reference", tmp_path / "null"])
    (table,) = board.tables.values()
    assert [(r.rank, r.row.name, r.row.entry["track"]) for r in table] == [(1, "reference", "A"), (2, "null", "A")]
    result = compare_runs(tmp_path / "reference", tmp_path / "null")
    by_cat = {d.category: d for d in result.categories}
    assert result.shared == 11 and by_cat["C01"].min_units == 3 and by_cat["C01"].significant
    # one record in C03: no spread to resample, so no claim either way
    assert by_cat["C03"].min_units == 1 and by_cat["C03"].diff > 0 and not by_cat["C03"].significant
    assert main(["compare", str(tmp_path / "reference"), str(tmp_path / "null")]) == 0
    assert "n/a: 1 seed/record" in capsys.readouterr().out
