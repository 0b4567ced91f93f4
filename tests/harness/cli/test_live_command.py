"""`wmbench live` prints the scenario's score, and `wmbench report` on its folder says what it is
(issue 24 item 21): real `wmbench` processes, a real live run."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from wmbench.envs.pacing import body_pace


def _wmbench(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wmbench.harness.cli.main", *argv], capture_output=True,
                          text=True, timeout=300)


def test_live_prints_its_score_and_the_report_names_brain_and_scenario_without_a_grade(tmp_path: Path):
    out = tmp_path / "live"
    done = _wmbench("live", "S42", "--brain", "reference", "--fps", "30", "--duration", "4", "--out", str(out))
    assert done.returncode == 0, done.stderr
    # the points depend on this machine's speed; that a score line is there, and its form, do not
    assert re.search(r"^score: S42 (\d+\.\d / 20 — S42 \[|not measured: )", done.stdout, re.MULTILINE), done.stdout
    report = _wmbench("report", str(out))
    assert report.returncode == 0, report.stderr
    markdown = (out / "report.md").read_text()
    assert markdown.startswith("# wmbench report: reference on smpl\n")
    assert re.search(r"\*\*Live run: S42 (\d+\.\d / 20|not measured) \(a live run alone is not a WM Score", markdown)
    assert "grade **" not in markdown and "provisional" not in markdown.split("## Pillars")[0]
    html = (out / "report.html").read_text()
    assert "<h1>wmbench report: reference on smpl</h1>" in html and "Live run: S42" in html


def test_a_bench_scenario_run_live_says_how_to_score_it(tmp_path: Path):
    done = _wmbench("live", "S01", "--brain", "reference", "--fps", "30", "--duration", "1",
                    "--out", str(tmp_path / "live"))
    assert done.returncode == 0, done.stderr
    assert "score: not scored live (S01 is a bench scenario; `wmbench run --scenarios S01` scores it)" in done.stdout


def _live_pace(out: Path) -> float | None:
    live = json.loads((out / "live.json").read_text())
    return live["scenarios"]["S17"]["trace"]["meta"]["instance"].get("pace")


def test_live_plays_a_bench_scene_at_the_body_pace_and_unpaced_opts_out(tmp_path: Path):
    """`wmbench live` paces a bench scene to a slow body as `wmbench run` does, and `--unpaced` (the diagnostic
    `run` has) plays it at the scene's own speeds; the trace says which (round 5: live had no opt-out)."""
    for name, extra in (("paced", ()), ("unpaced", ("--unpaced",))):
        done = _wmbench("live", "S17", "--body", "drone", "--fps", "30", "--duration", "0.5",
                        "--out", str(tmp_path / name), *extra)
        assert done.returncode == 0, done.stderr
    assert _live_pace(tmp_path / "paced") == pytest.approx(body_pace("drone"))
    assert _live_pace(tmp_path / "unpaced") is None  # played as recorded: no pace in the trace
