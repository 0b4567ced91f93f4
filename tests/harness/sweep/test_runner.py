"""Running sweeps: the --yes bound, cell- and episode-level resumption, and the merged leaderboard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wmbench.envs.pacing import body_pace
from wmbench.harness.cli.main import main
from wmbench.harness.executors.base import expected_decisions
from wmbench.harness.run.results import EPISODES_FILE, SCORES_FILE
from wmbench.harness.run.selection import plan_suite
from wmbench.harness.sweep.estimate import MAX_EPISODES_WITHOUT_YES, estimate_sweep
from wmbench.harness.sweep.model import BrainEntry, SweepSpec
from wmbench.harness.sweep.runner import CELL_FILE, LEADERBOARD_JSON, LEADERBOARD_MD, SweepTooLarge, run_sweep

REPO = Path(__file__).resolve().parents[3]


def small(out: Path) -> SweepSpec:
    return SweepSpec(brains=(BrainEntry("reference"), BrainEntry("null")), bodies=("smpl", "drone"),
                     scenarios="S01,S06", seeds=(0,), live=False, workers=1, out=out)


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_estimate_counts_episodes_and_decisions_and_api_time() -> None:
    spec = SweepSpec(brains=(BrainEntry("openai/m"), BrainEntry("reference")), bodies=("smpl", "robot"),
                     scenarios="C01", instances=2, max_connections=4, latency_s=2.0)
    est = estimate_sweep(spec)
    assert (est.cells, est.episodes) == (4, 4 * 5 * 2)
    assert est.api_decisions == est.decisions // 2 > 0
    per_episode = [expected_decisions(e) for e in plan_suite("C01", 2).episodes]
    assert est.api_decisions == sum(per_episode) * 2  # two cells have the API brain
    assert est.api_seconds == pytest.approx(2 * max(max(per_episode), sum(per_episode) / 4) * 2.0)
    assert est.api_tokens > est.api_decisions


def test_a_sweep_above_the_bound_is_refused_without_yes(tmp_path: Path) -> None:
    seeds = MAX_EPISODES_WITHOUT_YES // 5 + 1
    spec = SweepSpec(brains=(BrainEntry("null"),), scenarios="C01", instances=seeds, out=tmp_path / "big")
    with pytest.raises(SweepTooLarge, match="--yes"):
        run_sweep(spec, say=lambda _: None)
    assert not (tmp_path / "big").exists()  # nothing written before the refusal


def test_killed_sweep_resumes_only_what_is_missing(tmp_path: Path) -> None:
    whole = run_sweep(small(tmp_path / "whole"), progress=False, say=lambda _: None)
    assert whole.ran == ("reference__smpl", "reference__drone", "null__smpl", "null__drone")
    board = json.loads((tmp_path / "whole" / LEADERBOARD_JSON).read_text())
    assert [r["cell"] for r in board["rows"]][:2] == ["reference__drone", "reference__smpl"]  # best first
    assert board["rows"][-1]["wm_score"] is not None
    paces = {r["cell"]: r["pace"] for r in board["rows"]}  # the drone's bench scenes were paced to it
    assert paces["reference__smpl"] is None and paces["reference__drone"] == pytest.approx(body_pace("drone"))
    assert "| reference__drone | reference | drone (pace 0.46) |" in (tmp_path / "whole" / LEADERBOARD_MD).read_text()

    # the state a kill leaves: cell 2 half done (one of its two episodes written, no cell.json), 3 and 4 not
    # started — built from the uninterrupted sweep's own files
    out = tmp_path / "killed"
    first = small(out)
    run_sweep(SweepSpec(**{**first.__dict__, "brains": (BrainEntry("reference"),), "bodies": ("smpl",)}),
              progress=False, say=lambda _: None)
    half = out / "reference__drone"
    half.mkdir()
    (half / EPISODES_FILE).write_text(lines(tmp_path / "whole" / "reference__drone" / EPISODES_FILE)[0] + "\n")
    (half / "run.json").write_bytes((tmp_path / "whole" / "reference__drone" / "run.json").read_bytes())
    before = (out / "reference__smpl" / EPISODES_FILE).read_bytes()

    resumed = run_sweep(first, progress=False, say=lambda _: None)
    assert resumed.skipped == ("reference__smpl",)
    assert resumed.ran == ("reference__drone", "null__smpl", "null__drone")
    assert (out / "reference__smpl" / EPISODES_FILE).read_bytes() == before  # not run again
    resumed_lines = lines(half / EPISODES_FILE)
    assert len(resumed_lines) == 2 and resumed_lines[0] == lines(
        tmp_path / "whole" / "reference__drone" / EPISODES_FILE)[0]  # the kept episode was not rerun
    for cell in whole.ran:
        assert (out / cell / CELL_FILE).is_file()
        a = json.loads((tmp_path / "whole" / cell / SCORES_FILE).read_text())
        b = json.loads((out / cell / SCORES_FILE).read_text())
        assert a == b
    again = run_sweep(first, progress=False, say=lambda _: None)
    assert again.ran == () and len(again.skipped) == 4


def test_an_unpaced_sweep_plays_bench_scenes_as_recorded_and_is_not_a_paced_cell(tmp_path: Path) -> None:
    """``unpaced = true`` runs every cell with ``pace="scene"`` in a cell of its own beside a paced one of the same
    folder: the leaderboard says so and the traces carry no pace."""
    paced = SweepSpec(brains=(BrainEntry("null"),), bodies=("drone",), scenarios="S01", seeds=(0,), workers=1,
                      out=tmp_path / "s")
    assert run_sweep(paced, progress=False, say=lambda _: None).ran == ("null__drone",)
    unpaced = SweepSpec(**{**paced.__dict__, "unpaced": True})
    result = run_sweep(unpaced, progress=False, say=lambda _: None)
    assert result.ran == ("null__drone__unpaced",) and result.skipped == ()
    assert [r["pace"] for r in result.rows] == [1.0]
    (line,) = lines(tmp_path / "s" / "null__drone__unpaced" / EPISODES_FILE)
    assert "pace" not in json.loads(line)["trace"]["meta"]["instance"]
    assert "drone (unpaced)" in (tmp_path / "s" / LEADERBOARD_MD).read_text()


def test_cli_runs_the_example_file_dry_and_refuses_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    assert main(["sweep", str(REPO / "examples" / "sweep.toml"), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "cell reference__smpl" in out and "4 cell(s), 20 episode(s)" in out
    bad = tmp_path / "bad.toml"
    bad.write_text('brains = ["reference"]\nscenario = "C01"\n')
    assert main(["sweep", str(bad)]) == 2
    assert "unknown key 'scenario'; did you mean 'scenarios'?" in capsys.readouterr().err
