"""``wmbench blame`` and ``wmbench fork`` on a real run directory (issue 27 item 1)."""

from __future__ import annotations

from wmbench.harness.cli.main import main
from wmbench.harness.counterfactual.blame import blame_episode, brain_factory, costliest
from wmbench.harness.counterfactual.fork import EpisodeSetup
from wmbench.harness.run.episode import run_episode
from wmbench.harness.suite import run_suite


def test_blame_finds_the_decision_that_recovers_a_lost_episode():
    """The null brain never escapes the S12 beast; replacing its first decision by the reference brain's answer
    (the null brain playing on) recovers points, and the earliest recovering decision is named."""
    trace = run_episode("S12", brain_factory("null")(), "smpl", 0).trace
    assert trace is not None
    blame = blame_episode(EpisodeSetup("S12", 0, "smpl"), trace, brain_factory("null"), brain_factory("reference"),
                          max_decisions=3)
    assert blame.points < 20.0 and blame.tried
    assert blame.earliest is not None and blame.earliest.gain > 0
    top = costliest([blame], top=2)
    assert top and top[0].gain >= blame.earliest.gain and top[0].alternative_reply != top[0].original_reply


def test_fork_and_blame_commands_on_a_real_run(tmp_path, capsys):
    out = tmp_path / "run"
    run_suite("null", "smpl", "S12", [0], 1, out, progress=False, live=False, reports=False)
    assert main(["fork", str(out), "S12", "--seed", "0", "--at", "1"]) == 0
    assert "replay identical to the recorded trace: yes" in capsys.readouterr().out
    assert main(["fork", str(out), "S12", "--at", "0", "--brain", "reference", "--reply",
                 "PREDICT: fwd=danger(beast)\nMOTION: a person sprints to the right in terror",
                 "--json", str(tmp_path / "fork.json")]) == 0
    printed = capsys.readouterr().out
    assert "counterfactual:" in printed and (tmp_path / "fork.json").is_file()
    assert main(["blame", str(out), "--max-decisions", "2", "--top", "1"]) == 0
    printed = capsys.readouterr().out
    assert "S12 s0" in printed and "top 1 costly decisions" in printed
    assert main(["fork", str(out), "S99", "--at", "0"]) == 2  # no such episode: one line, exit 2
    assert "no finished episode of S99" in capsys.readouterr().err
    # a decision outside the episode: one line naming the valid range, exit 2 (it was a ConfigError traceback)
    assert main(["fork", str(out), "S12", "--at", "99", "--reply", "MOTION: a person stands still"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wmbench fork: error: --at must be a decision of the episode (0..") and "got 99" in err
    assert len(err.strip().splitlines()) == 1, err
    assert main(["blame", str(out), "--max-decisions", "-1"]) == 2  # was taken as "all but the last decision"
    assert "--max-decisions must be at least 1, got -1" in capsys.readouterr().err
