"""Reports: a default run_suite writes scores, report.md/.html and the leaderboard entry; `wmbench report`
rebuilds them from the raw files; a run killed with SIGKILL resumes to the same scores."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wmbench.harness.cli.main import main
from wmbench.harness.live.store import LiveStore
from wmbench.harness.report.leaderboard import SCHEMA_KEYS, check_entry
from wmbench.harness.report.writer import load_run, rebuild_scores, write_reports
from wmbench.harness.suite import run_suite
from wmbench.scoring import ScenarioScore, summarize
from wmbench.scoring.c09 import score_s41

SELECTION = "S01,S21,S31,S41"


@pytest.fixture(scope="module")
def suite_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("suite")
    run_suite("reference", scenarios=SELECTION, seeds=1, workers=1, out=out, progress=False)
    return out


def test_default_run_suite_writes_every_output(suite_dir):
    names = {p.name for p in suite_dir.iterdir()}
    assert {"scores.json", "episodes.jsonl", "live.json", "report.html", "report.md",
            "leaderboard_entry.json"} <= names
    scores = json.loads((suite_dir / "scores.json").read_text())
    s41 = scores["scenarios"]["S41"]
    # C09 measured live: the score is S41's rule applied to the stored run, whatever FPS a busy machine reached
    stored = LiveStore(suite_dir)
    assert s41["measured"] and s41["score"] == score_s41(stored.results()["S41"]).score
    assert "FPS" in s41["explanation"]
    assert scores["categories"]["C09"]["measured_max"] == 20.0
    entry = json.loads((suite_dir / "leaderboard_entry.json").read_text())
    assert set(SCHEMA_KEYS) <= set(entry) and check_entry(entry) == []
    # the entry carries live.json's numbers (their speed is benchmarks/bench_live.py's rows, not asserted here)
    assert entry["fps"] == round(stored.data["fps"], 2) and 0.0 < entry["fps"] <= 60.0
    assert entry["decision_latency_ms"] == round(stored.data["cognitive_latency_ms"])


def test_html_is_self_contained_with_all_plots(suite_dir):
    html = (suite_dir / "report.html").read_text()
    images = re.findall(r'<img alt="[^"]*" src="([^"]{0,40})', html)
    assert len(images) == 4 and all(src.startswith("data:image/png;base64,") for src in images)
    assert not re.search(r'(src|href)="(https?:|//|file:)', html)
    for sid in SELECTION.split(","):
        assert f"<td>{sid}</td>" in html
    markdown = (suite_dir / "report.md").read_text()
    for plot in ("pillar_radar", "category_bars", "intensity", "latency"):
        assert f"](plots/{plot}.png)" in markdown and (suite_dir / "plots" / f"{plot}.png").stat().st_size > 0


def test_rebuilt_scores_equal_the_runs_scores(suite_dir):
    scores = json.loads((suite_dir / "scores.json").read_text())
    assert rebuild_scores(load_run(suite_dir)) == scores


def test_report_command_rebuilds_and_prints_the_html_path_last(suite_dir, capsys):
    (suite_dir / "report.html").unlink()
    assert main(["report", str(suite_dir), "--organization", "ACME Lab"]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed[-1] == f"report: {suite_dir / 'report.html'}"
    assert json.loads((suite_dir / "leaderboard_entry.json").read_text())["organization"] == "ACME Lab"
    assert main(["report", str(suite_dir / "nope")]) == 2


def test_report_escapes_run_text_and_needs_no_run_files(tmp_path):
    evil = ScenarioScore("S01", "C01", 20.0, explanation="<script>alert(1)</script> & more", seed=0)
    write_reports(tmp_path, summarize({"S01": [evil]}))
    html = (tmp_path / "report.html").read_text()
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in html


def test_leaderboard_entry_and_report_never_show_a_secret(tmp_path):
    secret = "sk-proj-abcdefghijklmnop1234"
    scores = summarize({"S01": [ScenarioScore("S01", "C01", 20.0, seed=0)]})
    scores["run"] = {"brain": f"openai/gpt-4o-mini?key={secret}", "body": "smpl"}  # no run.json to redact
    write_reports(tmp_path, scores, model_name=f"mine {secret}")
    for name in ("leaderboard_entry.json", "report.md", "report.html"):
        assert secret not in (tmp_path / name).read_text(), name
    entry = json.loads((tmp_path / "leaderboard_entry.json").read_text())
    assert entry["brain_model"] == "openai/gpt-4o-mini?key=<redacted>" and not check_entry(entry)


# ---------------------------------------------------------------------------------------------- kill -9

KILL_SELECTION = "C01,C02,C03,C05,S41"   # 20 bench episodes; S41 (live) is skipped by --no-live
TIMING_KEYS = {"wall_s", "started", "resumed", "latency_s"}


def _wmbench_run(out: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "wmbench.harness.cli.main", "run", "--brain", "reference", "--scenarios",
               KILL_SELECTION, "--seeds", "1", "--workers", "1", "--no-live", "--no-progress", "--out", str(out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[3])


def _without_timing(value):
    if isinstance(value, dict):
        return {k: _without_timing(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [_without_timing(v) for v in value]
    return value


def _episode_keys(out: Path) -> list[tuple]:
    lines = [json.loads(x) for x in (out / "episodes.jsonl").read_text().splitlines() if x.strip()]
    return [(line["scenario"], line["seed"], line["body"], line["brain"]) for line in lines]


def test_a_run_killed_halfway_resumes_to_the_same_scores(tmp_path):
    killed, clean = tmp_path / "killed", tmp_path / "clean"
    proc = _wmbench_run(killed)
    log = killed / "episodes.jsonl"
    deadline = time.monotonic() + 300  # a hang guard only: the loop ends as soon as it can
    while proc.poll() is None and time.monotonic() < deadline:
        if log.exists() and log.read_bytes().count(b"\n") >= 4:
            os.kill(proc.pid, signal.SIGKILL)
            break
        time.sleep(0.002)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run finished before it could be killed"
    assert not (killed / "scores.json").exists()
    done_before = log.read_bytes().count(b"\n")
    assert 4 <= done_before < 20

    resumed = _wmbench_run(killed)
    assert resumed.wait() == 0, resumed.stderr.read()
    reference = _wmbench_run(clean)
    assert reference.wait() == 0, reference.stderr.read()

    keys = _episode_keys(killed)
    assert len(keys) == len(set(keys)) == 20  # every episode exactly once
    assert sorted(keys) == sorted(_episode_keys(clean))
    scores = json.loads((killed / "scores.json").read_text())
    assert _without_timing(scores) == _without_timing(json.loads((clean / "scores.json").read_text()))
    assert "C09" in scores["missing_categories"] and "--no-live" in scores["scenarios"]["S41"]["explanation"]
    assert (killed / "report.html").exists() and (killed / "leaderboard_entry.json").exists()


def test_the_report_plots_forecasts_and_the_frontier_of_its_run(tmp_path):
    """Issue 27: the horizon curve (a brain that forecasts) and `wmbench frontier --out RUN` in report.html."""
    from wmbench.brain.registry import get_brain
    from wmbench.harness.frontier.curve import measure_frontier, write_frontier
    from wmbench.harness.report.writer import horizon_accuracy

    out = tmp_path / "run"
    run_suite("forecaster", "smpl", "S15", seeds=(1,), out=out, live=False)
    forecasts, persistence = horizon_accuracy(load_run(out).lines)
    assert forecasts and set(persistence) == set(forecasts) and all(0 <= a <= 1 for a in forecasts.values())
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Forecast accuracy against the horizon" in html and "Latency–accuracy frontier" not in html
    write_frontier(measure_frontier(lambda: get_brain("forecaster"), "forecaster", "S15", [1], [0, 0.5]), out)
    write_reports(out)
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Latency–accuracy frontier (wmbench frontier)" in html and (out / "plots" / "frontier.png").is_file()
