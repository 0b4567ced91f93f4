"""wmbench serve under load and abuse: a brain per session, /health, the API key, backlog, timeouts, depth."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.brain.provider_fixtures import calm_scene, corridor_scene, example_scene
from wmbench.brain.prompt import build_messages
from wmbench.brain.reference.brain import ReferenceBrain
from wmbench.brain.server.endpoint import LISTEN_BACKLOG, make_server
from wmbench.brain.server.request import MAX_JSON_DEPTH, json_depth

REPO_ROOT = Path(__file__).resolve().parents[2]


def post(url: str, payload: dict, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url + "/chat/completions", data=json.dumps(payload).encode(),
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def reply_text(body: dict) -> str:
    return body["choices"][0]["message"]["content"]


def test_each_session_gets_its_own_brain():
    """The reference brain is stateful (its affect carries over): interleaved episodes must not mix."""
    episode_a = [example_scene(), example_scene(npc_distance=2.0), calm_scene()]
    episode_b = [calm_scene(), calm_scene(), calm_scene()]
    with make_server("reference") as server:
        server.start_in_thread()
        served: dict[str, list[str]] = {"a": [], "b": []}
        for scene_a, scene_b in zip(episode_a, episode_b):
            for session, scene in (("a", scene_a), ("b", scene_b)):
                status, body = post(server.url, {"messages": build_messages(scene)},
                                    {"X-Wmbench-Session": f"episode-{session}", "X-Wmbench-Seed": "0"})
                assert status == 200
                served[session].append(reply_text(body))
        assert server.sessions_started == 2
    for session, scenes in (("a", episode_a), ("b", episode_b)):
        direct = ReferenceBrain()
        direct.reset(0)
        assert served[session] == [direct.decide(scene).text for scene in scenes]


def test_the_user_field_names_the_session_too():
    with make_server("reference") as server:
        server.start_in_thread()
        for user in ("u1", "u2", "u1"):
            assert post(server.url, {"messages": build_messages(calm_scene()), "user": user})[0] == 200
        assert server.sessions_started == 2 and server.live_sessions == 2


def test_old_sessions_are_closed_beyond_max_sessions():
    with make_server("null", max_sessions=2) as server:
        server.start_in_thread()
        for user in ("a", "b", "c", "d"):
            post(server.url, {"messages": build_messages(calm_scene()), "user": user})
        assert server.live_sessions == 2 and server.sessions_started == 4


def test_health_and_the_api_key():
    with make_server("null", api_key="serve-key-123") as server:
        server.start_in_thread()
        root = server.url.removesuffix("/v1")
        with urllib.request.urlopen(root + "/health", timeout=10) as response:
            assert json.loads(response.read())["status"] == "ok"  # no key needed
        status, body = post(server.url, {"messages": build_messages(calm_scene())})
        assert status == 401 and "Authorization: Bearer" in body["error"]["message"]
        status, _ = post(server.url, {"messages": build_messages(calm_scene())},
                         {"Authorization": "Bearer wrong"})
        assert status == 401
        status, _ = post(server.url, {"messages": build_messages(calm_scene())},
                         {"Authorization": "Bearer serve-key-123"})
        assert status == 200


def test_the_key_can_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("WMBENCH_SERVE_API_KEY", "env-key-456")
    with make_server("null") as server:
        server.start_in_thread()
        assert post(server.url, {"messages": build_messages(calm_scene())})[0] == 401


def test_json_depth_counts_brackets_outside_strings():
    assert json_depth(b'{"a": [1, {"b": "[[[[{{{"}]}') == 3
    assert json_depth("[]") == 1 and json_depth(b"42") == 0


def test_one_megabyte_of_nesting_is_refused_before_parsing():
    body = b"[" * (1 << 20)
    with make_server("null") as server:
        server.start_in_thread()
        host, port = server.server_address[:2]
        with socket.create_connection((host, port), timeout=10) as sock:
            start = time.process_time()  # CPU time of this process (the server thread too), not wall time
            sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                         b"Content-Length: %d\r\n\r\n" % len(body) + body)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
            cpu_s = time.process_time() - start
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert f"expected at most {MAX_JSON_DEPTH}".encode() in answer
    assert cpu_s < 2.0  # CPU seconds, which load does not inflate; the must-show measurement is ~10 ms


def test_a_stalled_connection_is_cut_off():
    with make_server("null", connection_timeout_s=0.3) as server:
        server.start_in_thread()
        with socket.create_connection(server.server_address[:2], timeout=10) as sock:
            sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n")  # never finishes the headers
            assert sock.recv(1024) == b""  # closed by the server, not left hanging (the recv timeout is 10 s)


def test_many_clients_none_dropped():
    messages = build_messages(corridor_scene())
    with make_server("null") as server:
        server.start_in_thread()
        assert server.request_queue_size == LISTEN_BACKLOG >= 128

        def client(i: int) -> list[int]:
            return [post(server.url, {"messages": messages, "user": f"c{i}"})[0] for _ in range(3)]

        with ThreadPoolExecutor(max_workers=64) as pool:
            statuses = [s for batch in pool.map(client, range(64)) for s in batch]
    assert statuses == [200] * 192


def test_wmbench_serve_process_with_key_and_options():
    process = subprocess.Popen(
        [sys.executable, "-m", "wmbench.harness.cli.main", "serve", "--brain", "null", "--port", "0", "--quiet",
         "--api-key", "proc-key-789"], cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert "key required" in line
        url = line.split(" at ", 1)[1].split()[0]
        assert post(url, {"messages": build_messages(calm_scene())})[0] == 401
        status, body = post(url, {"messages": build_messages(calm_scene())},
                            {"Authorization": "Bearer proc-key-789"})
        assert status == 200 and reply_text(body).startswith("PREDICT:")
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("seed", ["x", "1.5"])
def test_a_bad_seed_header_is_a_400(seed):
    with make_server("null") as server:
        server.start_in_thread()
        status, body = post(server.url, {"messages": build_messages(calm_scene())},
                            {"X-Wmbench-Session": "s", "X-Wmbench-Seed": seed})
    assert status == 400 and "X-Wmbench-Seed must be an integer" in body["error"]["message"]


def test_a_session_without_a_seed_header_seeds_its_brain_from_the_session_id():
    """The provider no longer sends X-Wmbench-Seed: a seeded brain served per session is still reproducible
    (same session id, same replies, in a fresh server too) and different sessions draw differently."""
    from wmbench.brain.server.endpoint import session_seed

    def replies(user: str) -> list[str]:
        with make_server("random") as server:
            server.start_in_thread()
            return [reply_text(post(server.url, {"messages": build_messages(example_scene()), "user": user})[1])
                    for _ in range(4)]

    first, again, other = replies("a" * 32), replies("a" * 32), replies("b" * 32)
    assert first == again
    assert first != other
    assert session_seed("a" * 32) != session_seed("b" * 32)
    assert 0 <= session_seed("a" * 32) < 2**32
