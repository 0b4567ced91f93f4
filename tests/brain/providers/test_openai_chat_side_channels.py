"""No side channels: a real ``wmbench`` run with an ``openai/`` brain against a real HTTP server on 127.0.0.1
that records every request (request line, headers, raw body). Nothing an endpoint receives may name the
scenario id, its title or the seed (issue 20: a submitted system must not be able to replay canonical answers
or tell which instance it is in)."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.brain.fault_servers import GOOD_TEXT, completion
from wmbench.harness.suite import run_suite
from wmbench.scenarios import get_scenario

pytest.importorskip("openai")

SCENARIOS = ("S07", "S12", "S24")
#: drawn-size seeds (a seed like 0 or 1 is a digit that appears in any JSON); two per scenario
SEEDS = (2_718_281_828, 3_141_592_653)


class _Recorder(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.log.append((self.requestline, dict(self.headers.items()), raw.decode("utf-8")))  # type: ignore[attr-defined]
        body = json.dumps(completion(GOOD_TEXT)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def recording_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    server.daemon_threads = True
    server.log = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _forbidden() -> list[tuple[str, re.Pattern[str]]]:
    words: list[tuple[str, re.Pattern[str]]] = []
    for sid in SCENARIOS:
        record = get_scenario(sid)
        words.append((sid, re.compile(rf"{sid}(?!\d)", re.IGNORECASE)))
        words.append((record.name, re.compile(re.escape(record.name), re.IGNORECASE)))
    for seed in SEEDS:
        words.append((str(seed), re.compile(rf"(?<!\d){seed}(?!\d)")))
    words.append(("seed", re.compile(r"seed", re.IGNORECASE)))
    return words


def test_no_request_names_the_scenario_its_title_or_the_seed(recording_server, tmp_path):
    url = f"http://127.0.0.1:{recording_server.server_address[1]}/v1"
    scores = run_suite("openai/stub-model", "smpl", ",".join(SCENARIOS), list(SEEDS), workers=1,
                       out=tmp_path / "run", progress=False, live=False, reports=False, max_connections=2,
                       brain_options={"base_url": url, "api_key": "sk-test", "cache": False})
    log = recording_server.log
    assert scores["run"]["episodes"] == len(SCENARIOS) * len(SEEDS)
    assert len(log) == scores["run"]["brain_usage"]["decisions"] > 0
    leaks = [(name, request_line) for request_line, headers, body in log
             for name, pattern in _forbidden()
             if pattern.search(request_line) or pattern.search(body)
             or any(pattern.search(k) or pattern.search(v) for k, v in headers.items())]
    assert not leaks, f"{len(leaks)} leaks, first {leaks[:3]}"
    # one opaque session token per episode, as the `user` field only
    users = {json.loads(body)["user"] for _, _, body in log}
    assert len(users) == len(SCENARIOS) * len(SEEDS)
    assert all(re.fullmatch(r"[0-9a-f]{32}", user) for user in users)
    assert not any(name.lower().startswith("x-wmbench") for _, headers, _ in log for name in headers)


def test_the_debug_option_puts_the_labels_back(recording_server, tmp_path):
    """The check above can fail: with ``debug_session_labels`` the same run names scenario and seed."""
    url = f"http://127.0.0.1:{recording_server.server_address[1]}/v1"
    run_suite("openai/stub-model", "smpl", "S07", [SEEDS[0]], workers=1, out=tmp_path / "run", progress=False,
              live=False, reports=False, limit=1,
              brain_options={"base_url": url, "api_key": "sk-test", "cache": False, "debug_session_labels": True})
    _request_line, headers, body = recording_server.log[0]
    assert json.loads(body)["user"].startswith("wmbench-S07-")
    assert {k.lower(): v for k, v in headers.items()}.get("x-wmbench-seed") == str(SEEDS[0])
