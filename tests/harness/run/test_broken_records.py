"""Issue 24 item 13: an episode line whose ``summary`` (or trace, or error) has the wrong type is a broken
record — kept aside, counted and run again — never a crash of scoring (real run directories)."""

from __future__ import annotations

import json

import pytest

from wmbench.harness.cli.main import main
from wmbench.harness.run.results import EPISODES_FILE, UNREADABLE_FILE


@pytest.mark.parametrize("damage", [{"summary": "oops"}, {"summary": {"failed_decisions": "x"}}, {"trace": [1, 2]}])
def test_a_wrong_typed_line_is_a_broken_record_and_the_run_scores(tmp_path, damage, capsys):
    out = tmp_path / "run"
    # one worker: the broken record is read and kept aside by this process whatever runs the episodes, and a
    # 2-worker pool would start (and import the world in) two spawn processes per call, ~3 s of CPU a test
    args = ["run", "--brain", "null", "--scenarios", "S01,S02", "--no-live", "--no-progress", "--out", str(out),
            "--workers", "1"]
    assert main([*args[:4], "S01", *args[5:]]) == 0
    good = json.loads((out / EPISODES_FILE).read_text().splitlines()[0])
    broken = json.dumps({**good, "scenario": "S02", **damage})
    with open(out / EPISODES_FILE, "a") as f:
        f.write(broken + "\n")
    with pytest.warns(UserWarning, match="skipping unreadable episode line"):
        code = main(args)
    assert code == 0, capsys.readouterr().err
    assert (out / UNREADABLE_FILE).read_text().strip() == broken  # the broken record, kept as it was
    scores = json.loads((out / "scores.json").read_text())
    assert set(scores["scenarios"]) >= {"S01", "S02"}  # S02 ran again and was scored
