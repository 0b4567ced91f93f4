"""wmbench as an Inspect AI task: ``inspect eval wmbench/suite`` end to end against a real ``wmbench serve``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.extras import needs_extra

REPO_ROOT = Path(__file__).resolve().parents[2]

# needs_extra looks the modules up without importing them: this process never uses inspect_ai (`inspect eval` runs
# in its own process), and importorskip's import of it cost ~5 s of the session's CPU (round 16)
pytestmark = needs_extra("inspect")


@pytest.fixture
def served_reference():
    process = subprocess.Popen(
        [sys.executable, "-m", "wmbench.harness.cli.main", "serve", "--brain", "reference", "--port", "0", "--quiet"],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield process.stdout.readline().split(" at ", 1)[1].split()[0]
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_task_is_found_through_the_entry_point_group():
    from importlib.metadata import entry_points

    assert "wmbench.harness.inspect_task" in {ep.value for ep in entry_points(group="inspect_ai")}


def test_inspect_eval_runs_the_closed_loop_and_scores_with_wmbench(served_reference, tmp_path):
    inspect = shutil.which("inspect", path=str(Path(sys.executable).parent)) or shutil.which("inspect")
    if inspect is None:
        pytest.skip("the inspect command is not installed")
    env = {**os.environ, "OPENAI_BASE_URL": served_reference, "OPENAI_API_KEY": "none"}
    done = subprocess.run(
        [inspect, "eval", "wmbench/suite", "-T", "scenarios=S01,S21", "--model", "openai/reference",
         "-M", "responses_api=false", "--log-dir", str(tmp_path / "logs"), "--display", "none",
         "--log-format", "json"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (log_file,) = (tmp_path / "logs").glob("*.json")
    log = json.loads(log_file.read_text())
    assert log["status"] == "success"
    samples = {s["id"]: s for s in log["samples"]}
    assert set(samples) == {"S01-seed0", "S21-seed0"}

    from wmbench.harness.suite import run_suite

    direct = run_suite("reference", out=tmp_path / "direct", scenarios="S01,S21", progress=False, live=False,
                       reports=False, workers=1)
    for sid in ("S01", "S21"):
        score = samples[f"{sid}-seed0"]["scores"]["wmbench_points"]
        assert score["value"] == direct["scenarios"][sid]["score"]  # the served brain, closed loop, = direct
        assert score["explanation"] == direct["scenarios"][sid]["per_seed"][0]["explanation"]
        episode = samples[f"{sid}-seed0"]["store"]["wmbench_episode"]
        assert episode["summary"]["failed_decisions"] == 0 and episode["summary"]["decisions"] > 0
    with urllib.request.urlopen(served_reference.removesuffix("/v1") + "/health", timeout=10) as response:
        assert json.loads(response.read())["sessions"] == 2  # one brain per episode on the server
