"""wmbench serve: an OpenAI-compatible endpoint around any brain (stdlib HTTP, real sockets)."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.brain.provider_fixtures import calm_scene, example_scene
from wmbench.brain.baselines import NullBrain, ReplayBrain
from wmbench.brain.prompt import build_messages
from wmbench.brain.server.endpoint import make_server
from wmbench.brain.server.request import MAX_BODY_BYTES as MAX_BODY
from wmbench.brain.server.request import scene_from_messages

REPO_ROOT = Path(__file__).resolve().parents[2]


def call(server, path: str, payload=None, method: str | None = None, raw: bytes | None = None):
    """(status, decoded JSON body) of one request to ``server``."""
    data = raw if raw is not None else (None if payload is None else json.dumps(payload).encode())
    request = urllib.request.Request(server.url.removesuffix("/v1") + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture
def null_server():
    with make_server("null") as server:
        server.start_in_thread()
        yield server


def test_models_lists_the_brain(null_server):
    for path in ("/v1/models", "/models"):
        status, body = call(null_server, path)
        assert status == 200
        assert body["object"] == "list"
        assert [m["id"] for m in body["data"]] == ["null"]


def test_chat_completion_answers_with_the_brain_reply(null_server):
    messages = build_messages(example_scene())
    status, body = call(null_server, "/v1/chat/completions", {"model": "anything", "messages": messages})
    assert status == 200
    assert body["object"] == "chat.completion"
    assert body["id"].startswith("chatcmpl-")
    choice = body["choices"][0]
    assert choice["message"] == {"role": "assistant", "content": NullBrain().decide(example_scene()).text}
    assert choice["finish_reason"] == "stop"
    usage = body["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    assert body["model"] == "null"
    assert body["wmbench"]["latency_s"] >= 0.0


def test_scene_may_be_wrapped_in_prose_or_a_code_fence():
    scene = calm_scene()
    wrapped = f"Here is the scene:\n```json\n{json.dumps(scene)}\n```\nAnswer in two lines."
    parts = [{"type": "text", "text": "Scene:"}, {"type": "text", "text": json.dumps(scene)}]
    assert scene_from_messages([{"role": "user", "content": wrapped}]) == scene
    assert scene_from_messages([{"role": "user", "content": parts}]) == scene
    older = [{"role": "user", "content": "{\"old\": 1}"}, {"role": "assistant", "content": "x"},
             {"role": "user", "content": json.dumps(scene)}]
    assert scene_from_messages(older) == scene


@pytest.mark.parametrize(
    ("payload", "status", "message"),
    [
        ({"messages": [{"role": "user", "content": "no json here, sorry"}]}, 400,
         "the last user message must be the scene_context as a JSON object"),
        ({"messages": [{"role": "user", "content": "[1, 2, 3]"}]}, 400, "scene_context"),
        ({"messages": [{"role": "system", "content": "{}"}]}, 400, "no message with role 'user'"),
        ({"messages": []}, 400, "non-empty list"),
        ({"messages": [{"role": "user", "content": "{}"}], "stream": True}, 400, "stream=true"),
        ([1, 2], 400, "must be a JSON object"),
    ],
)
def test_bad_requests_get_a_400_that_says_why(null_server, payload, status, message):
    got_status, body = call(null_server, "/v1/chat/completions", payload)
    assert got_status == status
    assert message in body["error"]["message"]
    assert body["error"]["type"] == "invalid_request_error"


def test_non_json_body_and_unknown_routes(null_server):
    status, body = call(null_server, "/v1/chat/completions", raw=b"not json at all")
    assert status == 400 and "must be JSON" in body["error"]["message"]
    assert call(null_server, "/v1/embeddings", {"input": "x"})[0] == 404
    assert call(null_server, "/v2/models")[0] == 404


def test_brain_failure_is_a_502(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("only reply\n")
    with make_server(ReplayBrain(path)) as server:
        server.start_in_thread()
        messages = build_messages(calm_scene())
        assert call(server, "/v1/chat/completions", {"messages": messages})[0] == 200
        status, body = call(server, "/v1/chat/completions", {"messages": messages})
    assert status == 502
    assert "replay exhausted" in body["error"]["message"]
    assert body["error"]["type"] == "brain_error"


def test_concurrent_requests_are_all_answered(null_server):
    messages = build_messages(calm_scene())
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda _: call(null_server, "/v1/chat/completions", {"messages": messages}),
                                range(16)))
    assert [status for status, _ in results] == [200] * 16
    assert null_server.requests_served == 16


def test_serve_main_prints_the_url_and_serves():
    code = "from wmbench.brain.server.endpoint import serve_main; serve_main('null', '127.0.0.1', 0)"
    process = subprocess.Popen([sys.executable, "-c", code], cwd=REPO_ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert "wmbench serve: brain 'null' at http://127.0.0.1:" in line
        url = line.split(" at ", 1)[1].split()[0]
        with urllib.request.urlopen(url + "/models", timeout=10) as response:
            assert json.loads(response.read())["data"][0]["id"] == "null"
    finally:
        process.terminate()
        process.wait(timeout=10)


def raw_exchange(server, data: bytes) -> bytes:
    """Everything the server sends back on one connection after ``data`` (until it closes)."""
    import socket

    with socket.create_connection(server.server_address[:2], timeout=10) as sock:
        sock.sendall(data)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


def post_bytes(body: bytes, length: int | None = None, connection: bytes = b"keep-alive") -> bytes:
    size = len(body) if length is None else length
    return (b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: %s\r\n"
            b"Content-Length: %d\r\n\r\n" % (connection, size)) + body


@pytest.mark.parametrize("body", [
    b"[" * 100_000,  # nested deeper than the JSON decoder recurses
    json.dumps({"messages": [{"role": "user", "content": "{\"a\":" * 100_000}]}).encode(),
], ids=["deep body", "deep scene"])
def test_deeply_nested_json_is_a_400_not_a_dropped_connection(null_server, body):
    answer = raw_exchange(null_server, post_bytes(body, connection=b"close"))
    assert answer.startswith(b"HTTP/1.1 400 ")


@pytest.mark.parametrize(("length", "status"), [(MAX_BODY + 1, b"413"), (-5, b"400")])
def test_an_unread_body_is_never_read_as_the_next_request(null_server, length, status):
    smuggled = b"GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n"
    answer = raw_exchange(null_server, post_bytes(smuggled, length=length))
    assert answer.startswith(b"HTTP/1.1 " + status)
    assert answer.count(b"HTTP/1.1 ") == 1  # the connection closed; the body was not served as a request


def test_a_brain_that_raises_still_gets_the_client_a_502():
    class Raising:
        name = "raising"

        def reset(self, seed=None):
            pass

        def decide(self, scene):
            raise RuntimeError("kaboom")

        def close(self):
            pass

    with make_server(Raising()) as server:
        server.start_in_thread()
        status, body = call(server, "/v1/chat/completions", {"messages": build_messages(calm_scene())})
    assert status == 502
    assert "RuntimeError: kaboom" in body["error"]["message"]
