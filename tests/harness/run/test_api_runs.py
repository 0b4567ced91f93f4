"""Whole runs with API brains against real servers on 127.0.0.1: failing loudly, accounting, the cache across
seeds, a served brain at 8 concurrent episodes, and the CLI's run-directory and option hygiene."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.brain.fault_servers import GOOD_TEXT, FaultServer, completion
from wmbench.harness.cli.main import main
from wmbench.harness.cli.options import parse_options
from wmbench.harness.executors.local import EPISODES_PER_CONNECTION
from wmbench.harness.run.guard import RunStopped
from wmbench.harness.suite import DEFAULT_MAX_CONNECTIONS, run_suite

pytest.importorskip("openai")
REPO_ROOT = Path(__file__).resolve().parents[3]


def _run(out: Path, brain: str, **kwargs: Any) -> dict[str, Any]:
    # no report: these tests read the scores (an API run's report and its plot workers: tests/harness/report)
    options = {"scenarios": "S01", "seeds": 1, "workers": 1, "progress": False, "reports": False,
               "live": False, **kwargs}
    return run_suite(brain, out=out, **options)


def test_a_401_stops_the_cli_run_at_once_with_the_servers_message(tmp_path):
    out = tmp_path / "run"
    with FaultServer.status(401, "Incorrect API key provided: sk-wr***ng") as server:
        done = subprocess.run(
            [sys.executable, "-m", "wmbench.harness.cli.main", "run", "--brain", "openai/some-model", "--scenarios",
             "C01", "--out", str(out), "--no-progress", "--option", f"base_url={server.url}", "cache=false"],
            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    # stopped at the first answer, proven by what the server received (it used to get every decision of the
    # suite): each brain instance (one per concurrent episode: two per connection) asked once and never again,
    # no episode asked twice. (The bound was max_connections while a brain took ~90 ms to build, one after
    # another: the run stopped before the later episodes had a brain; built in ~2 ms, all 16 ask once.)
    sessions = [body["user"] for body in server.bodies]
    concurrent = EPISODES_PER_CONNECTION * DEFAULT_MAX_CONNECTIONS
    assert 1 <= server.requests <= concurrent, f"{server.requests} requests after a 401"
    assert len(set(sessions)) == len(sessions), f"an episode asked again after its 401: {sessions}"
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("wmbench run: stopped early") and "HTTP 401: Incorrect API key provided" in last
    scores = json.loads((out / "scores.json").read_text())
    assert scores["complete"] is False and "HTTP 401" in scores["run"]["stopped"]
    assert "HTTP 401" in (out / "report.md").read_text()
    assert "HTTP 401" in json.loads((out / "leaderboard_entry.json").read_text())["run_status"]


def test_mostly_unreadable_replies_stop_the_run_and_quote_one(tmp_path):
    with FaultServer.reply("Sure! I would carefully walk somewhere nice.") as server, \
            pytest.raises(RunStopped) as stopped:
        _run(tmp_path / "run", "openai/m", scenarios="C01", brain_options={"base_url": server.url})
    assert "could not be read as PREDICT/MOTION" in stopped.value.reason
    assert "Sure! I would carefully walk" in stopped.value.reason
    assert stopped.value.scores["complete"] is False


def test_usage_totals_and_no_cache_hits_across_seeds_at_temperature_one(tmp_path):
    options = {"temperature": 1.0, "cache": True, "cache_dir": str(tmp_path / "cache")}
    with FaultServer.reply(GOOD_TEXT) as server:
        options["base_url"] = server.url
        first = _run(tmp_path / "a", "openai/m", seeds=3, brain_options=options)
        usage = first["run"]["brain_usage"]
        assert usage["cache_hits"] == 0 and usage["decisions"] == server.requests > 0
        assert (usage["prompt_tokens"], usage["completion_tokens"]) == (11 * server.requests, 7 * server.requests)
        again = _run(tmp_path / "b", "openai/m", seeds=3, brain_options=options)  # the very same decisions
    assert again["run"]["brain_usage"]["cache_hits"] == usage["decisions"]


def test_served_reference_at_8_concurrent_episodes_scores_like_the_direct_brain(tmp_path):
    direct = _run(tmp_path / "direct", "reference", scenarios="C05", reports=False)
    process = subprocess.Popen(
        [sys.executable, "-m", "wmbench.harness.cli.main", "serve", "--brain", "reference", "--port", "0", "--quiet"],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = process.stdout.readline().split(" at ", 1)[1].split()[0]
        served = _run(tmp_path / "served", "openai/reference", scenarios="C05", reports=False, max_connections=8,
                      brain_options={"base_url": url, "cache": False})
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert served["categories"]["C05"]["score"] == direct["categories"]["C05"]["score"]
    assert {sid: s["score"] for sid, s in served["scenarios"].items()} == \
        {sid: s["score"] for sid, s in direct["scenarios"].items()}


def test_options_are_repeatable_and_multi_valued(tmp_path, capsys):
    assert parse_options([["a=1", "b=x"], ["c=[1, 2]"]]) == {"a": 1, "b": "x", "c": [1, 2]}
    assert parse_options(["a=1"]) == {"a": 1}
    code = main(["run", "--brain", "null", "--scenarios", "S01", "--option", "a=1", "b=2", "--option", "c=3",
                 "--limit", "0", "--out", str(tmp_path / "run")])
    assert code == 2 and "--limit must be at least 1" in capsys.readouterr().err  # the options parsed fine
    assert not (tmp_path / "run").exists()  # refused before anything was created


def test_out_must_be_new_empty_or_a_run(tmp_path, capsys):
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    assert main(["run", "--brain", "null", "--scenarios", "S01", "--out", str(busy), "--no-progress"]) == 2
    assert "is not empty and holds no wmbench run" in capsys.readouterr().err
    inside = REPO_ROOT / "examples" / "a-run"
    assert main(["run", "--brain", "null", "--scenarios", "S01", "--out", str(inside), "--no-progress"]) == 2
    assert "inside the wmbench source tree" in capsys.readouterr().err
    assert not inside.exists()


def _measured(scores: dict[str, Any]) -> set[str]:
    return {sid for sid, entry in scores["scenarios"].items() if entry.get("measured")}


def test_a_narrower_rerun_merges_into_the_run(tmp_path):
    out = tmp_path / "run"
    wide = _run(out, "null", scenarios="S01,S02", reports=False)
    narrow = _run(out, "null", scenarios="S01", reports=False)
    assert _measured(narrow) == _measured(wide) == {"S01", "S02"}
    assert narrow["wm_score"] == wide["wm_score"]  # not silently rescored down to S01 alone
    assert json.loads((out / "run.json").read_text())["scenarios"] == ["S01", "S02"]
    wider = _run(out, "null", scenarios="S03", reports=False)  # adds S03, keeps S01 and S02
    assert _measured(wider) == {"S01", "S02", "S03"}


def test_limit_runs_only_the_first_episodes(tmp_path):
    scores = _run(tmp_path / "run", "null", scenarios="C01", seeds=2, limit=3, reports=False)
    assert scores["run"]["episodes"] == 3


def test_episodes_spoiled_by_a_bad_key_are_played_again_once_it_works(tmp_path):
    out = tmp_path / "run"
    key_fixed = threading.Event()

    def endpoint(handler, body):
        if key_fixed.is_set():
            handler.send_json(200, completion(GOOD_TEXT))
        else:
            handler.send_json(401, {"error": {"message": "bad key", "type": "auth"}})

    options = {"cache": False, "max_retries": 0}
    with FaultServer(endpoint) as server:
        options["base_url"] = server.url
        with pytest.raises(RunStopped):
            _run(out, "openai/m", brain_options=options)
        key_fixed.set()
        scores = _run(out, "openai/m", brain_options=options)  # the same command again
    assert scores["run"]["episodes"] == 1 and scores["run"]["failed_decisions"] == 0
    assert "stopped" not in scores["run"] and scores["scenarios"]["S01"]["measured"]


def test_max_connections_not_workers_sets_the_requests_in_flight(tmp_path):
    lock, state = threading.Lock(), {"now": 0, "most": 0}

    def slow_reply(handler, body):
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        time.sleep(0.1)
        with lock:
            state["now"] -= 1
        handler.send_json(200, completion(GOOD_TEXT))

    with FaultServer(slow_reply) as server:
        _run(tmp_path / "run", "openai/m", scenarios="C01", workers=1, max_connections=4, reports=False,
             brain_options={"base_url": server.url, "cache": False})
    assert 2 <= state["most"] <= 4  # --workers 1 used to mean one call at a time
