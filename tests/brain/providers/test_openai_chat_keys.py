"""Issue 24 items 5, 13 (a ``200 text/plain`` reply) and 17 (no key, no base URL): real servers, processes."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest

from tests.brain.fault_servers import FaultServer
from tests.brain.provider_fixtures import calm_scene
from wmbench.brain.prompt import build_messages
from wmbench.brain.server.endpoint import make_server
from wmbench.harness.run.episode import run_episode

pytest.importorskip("openai")

WMBENCH = [sys.executable, "-m", "wmbench.harness.cli.main"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    return {**env, **extra}


class _ConnectCounter:
    """A TCP listener that counts connections (used as HTTPS_PROXY: every request the client sends shows)."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.connections = 0
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.sock.close()


def test_no_key_and_no_base_url_fails_before_any_request_naming_the_variable(tmp_path):
    proxy = _ConnectCounter()  # the public endpoint is reached through this "proxy": any request is counted
    try:
        done = subprocess.run([*WMBENCH, "run", "--brain", "openai/gpt-4o", "--scenarios", "S01", "--no-live",
                               "--no-progress", "--option", "max_retries=0", "--out", str(tmp_path / "run")],
                              capture_output=True, text=True, timeout=300,
                              env=_env(HTTPS_PROXY=proxy.url, HTTP_PROXY=proxy.url, NO_PROXY=""))
    finally:
        proxy.close()
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "OPENAI_API_KEY" in lines[0], done.stderr
    assert proxy.connections == 0


def test_a_200_text_plain_reply_is_a_counted_failure_not_an_exception():
    def behave(h, body):
        data = b"hello from a misconfigured proxy"
        h.send_response(200)
        h.send_header("Content-Type", "text/plain")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    from wmbench.brain.providers.openai_chat import OpenAIBrain

    with FaultServer(behave) as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=False, max_retries=0)
        try:
            reply = brain.decide(calm_scene())
            result = run_episode("S01", brain)
        finally:
            brain.close()
    assert reply.error is not None and "text/plain" in reply.error and "chat.completion" in reply.error
    assert result.failed_decisions >= 1  # recorded and counted, the episode ran to its end or stopped cleanly
    assert "AttributeError" not in str(result.error)


def test_api_key_file_keeps_the_key_off_the_command_line_and_works(tmp_path):
    from wmbench.brain.providers.openai_chat import OpenAIBrain

    key_file = tmp_path / "key.txt"
    key_file.write_text("\nfile-secret-123\n")
    with make_server("reference", api_key="file-secret-123") as server:
        server.start_in_thread()
        brain = OpenAIBrain("reference", base_url=server.url, api_key_file=key_file, cache=False)
        try:
            reply = brain.decide(calm_scene())
        finally:
            brain.close()
    assert reply.error is None and reply.text.startswith("PREDICT")


def test_api_key_on_the_command_line_warns(tmp_path):
    done = subprocess.run([*WMBENCH, "run", "--brain", "null", "--scenarios", "S01", "--no-live", "--no-progress",
                           "--option", "api_key=sk-visible-in-ps", "--out", str(tmp_path / "run")],
                          capture_output=True, text=True, timeout=300, env=_env())
    assert "--option api_key=... is visible to every user of this machine in `ps`" in done.stderr
    assert "sk-visible-in-ps" not in done.stderr
    helped = subprocess.run([*WMBENCH, "run", "--help"], capture_output=True, text=True, timeout=300)
    assert "api_key_file=PATH" in " ".join(helped.stdout.split())


def test_serve_reads_its_key_from_a_file_and_keeps_it_out_of_ps(tmp_path):
    key_file = tmp_path / "serve.key"
    key_file.write_text("serve-secret-456\n")
    proc = subprocess.Popen([*WMBENCH, "serve", "--brain", "null", "--port", "0", "--quiet",
                             "--api-key-file", str(key_file)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env())
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().split(" at ", 1)[1].split(" ", 1)[0]
        with open(f"/proc/{proc.pid}/cmdline", "rb") as f:
            assert b"serve-secret-456" not in f.read()
        body = json.dumps({"model": "null", "messages": build_messages(calm_scene())}).encode()
        statuses = []
        for key in (None, "serve-secret-456"):
            headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
            request = urllib.request.Request(url + "/chat/completions", data=body, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    statuses.append(response.status)
            except urllib.error.HTTPError as err:
                statuses.append(err.code)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert statuses == [401, 200]
