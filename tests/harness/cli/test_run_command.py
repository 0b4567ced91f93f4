"""`wmbench run` output when an API brain stops the run (issue 24 item 20): the reason once, first; the
summary table only when something was measured. Real processes and a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from wmbench.harness.cli.main import main

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = textwrap.dedent("""
    import sys
    from tests.brain.fault_servers import GOOD_TEXT, FaultServer, completion
    from wmbench.harness.cli.main import main

    good = int(sys.argv[2])
    def behave(h, body):  # the first `good` requests answer, then the key is refused
        if h.server.fault.requests <= good:
            h.send_json(200, completion(GOOD_TEXT))
        else:
            h.send_json(401, {"error": {"message": "invalid api key", "type": "fault", "code": 401}})
    with FaultServer(behave) as server:
        sys.exit(main(["run", "--brain", "openai/m", "--option", f"base_url={server.url}",
                       "cache=false", "--scenarios", "S01,S02", "--seeds", "1", "--workers", "1",
                       "--max-connections", "1", "--no-live", "--no-progress", "--out", sys.argv[1]]))
""")


def _run(tmp_path: Path, good: int) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "run"), str(good)], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300,
                          env={**os.environ, "OPENAI_API_KEY": "x"})
    return done.returncode, done.stdout


def test_a_run_stopped_before_any_episode_prints_the_reason_once_and_no_table(tmp_path):
    code, output = _run(tmp_path, good=0)
    assert code == 1, output
    assert output.count("invalid api key") == 1, output
    assert output.splitlines()[0].startswith("wmbench run: stopped early (run incomplete")
    assert "not measured" not in output and "grade F" not in output


def test_a_run_stopped_after_an_episode_shows_the_measured_table_and_the_reason_once(tmp_path):
    code, output = _run(tmp_path, good=6)  # S01 finishes (its 6 decisions answered), S02 is refused
    assert code == 1, output
    assert output.count("invalid api key") == 1, output
    assert output.splitlines()[0].startswith("wmbench run: stopped early (run incomplete")
    assert "C01 Environmental Awareness" in output and "measured (missing" in output


def test_unpaced_is_a_recorded_diagnostic_and_the_report_card_shows_the_body_pace(tmp_path):
    """``--unpaced`` reaches the env (``env_kwargs.pace``), run.json records the pace the bench scenes ran at,
    and report.md's card line says which: the drone's pace by default, unpaced with the opt-out."""
    for flags, pace, words in (([], 3.0 / 6.5, "drone, pace 0.46"), (["--unpaced"], 1.0, "drone, unpaced")):
        out = tmp_path / ("unpaced" if flags else "paced")
        assert main(["run", "--brain", "null", "--body", "drone", "--scenarios", "S01", "--seeds", "1",
                     "--no-live", "--no-progress", "--out", str(out), *flags]) == 0
        config = json.loads((out / "run.json").read_text())
        assert config["pace"] == pace
        assert config["env_kwargs"] == ({"pace": "scene"} if flags else {})
        assert f"Body: {words}" in (out / "report.md").read_text()
    # replaying the unpaced run from its folder replays it unpaced (before: `--config` dropped the opt-out)
    assert main(["run", "--config", str(tmp_path / "unpaced"), "--no-progress", "--out", str(tmp_path / "replay")]) == 0
    assert json.loads((tmp_path / "replay" / "run.json").read_text())["env_kwargs"] == {"pace": "scene"}


def test_a_drone_run_made_before_pacing_is_not_resumed_paced(tmp_path, capsys):
    """A drone run folder from before bench scenes were paced (run.json without ``pace``: its episodes played the
    scenes' own speeds) is refused by a default (paced) resume instead of mixing paced and unpaced episodes in one
    score; ``--unpaced`` goes on with it as it was played (round 5; before, the resume mixed them silently)."""
    out = tmp_path / "old"
    argv = ["run", "--brain", "null", "--body", "drone", "--scenarios", "S01", "--no-live", "--no-progress",
            "--out", str(out)]
    assert main([*argv, "--seeds", "1", "--unpaced"]) == 0
    config = json.loads((out / "run.json").read_text())
    del config["pace"]
    config["env_kwargs"] = {}  # as a run of 0.3.0 wrote it
    (out / "run.json").write_text(json.dumps(config))
    episodes = (out / "episodes.jsonl").read_text()
    assert main([*argv, "--seeds", "2"]) == 2
    assert "already holds a run with pace=1.0, this one has pace=0.46" in capsys.readouterr().err
    assert (out / "episodes.jsonl").read_text() == episodes  # nothing was run into it
    assert main([*argv, "--seeds", "2", "--unpaced"]) == 0
    assert (out / "episodes.jsonl").read_text().startswith(episodes)
    assert len((out / "episodes.jsonl").read_text().splitlines()) == 2
