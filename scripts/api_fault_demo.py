"""Measure how API brains and ``wmbench serve`` behave against real faulty endpoints on 127.0.0.1.

    .venv/bin/python scripts/api_fault_demo.py            # every check (~1 min)
    .venv/bin/python scripts/api_fault_demo.py retry 401  # some of them

Checks: retry (429 Retry-After 6 s), drip (1 byte / 0.2 s, timeout_s=1), 401 (CLI run), cache (temperature
1.0 over 3 seeds), served (reference over wmbench serve at 8 concurrent episodes vs direct, C05), load (64
clients x 50 requests), deep (1 MiB of nested JSON). Each prints one line with its numbers.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.brain.fault_servers import GOOD_TEXT, FaultServer  # noqa: E402
from tests.brain.provider_fixtures import calm_scene, corridor_scene, example_scene  # noqa: E402
from wmbench.brain.prompt import build_messages  # noqa: E402
from wmbench.brain.providers.openai_chat import OpenAIBrain  # noqa: E402
from wmbench.brain.server.endpoint import make_server  # noqa: E402
from wmbench.harness.suite import run_suite  # noqa: E402

TMP = Path(tempfile.mkdtemp(prefix="wmbench-api-demo-"))


def retry() -> None:
    with FaultServer.retry_after(6) as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=False)
        replies = [brain.decide(s) for s in (calm_scene(), example_scene(), corridor_scene())]
        brain.close()
    ok = sum(r.error is None and r.text == GOOD_TEXT for r in replies)
    print(f"retry: Retry-After 6 s -> {ok}/{len(replies)} decisions succeeded, retries "
          f"{[r.retries for r in replies]}, latencies {[round(r.latency_s, 2) for r in replies]} s, "
          f"{server.requests} requests")


def drip() -> None:
    with FaultServer.drip(0.2) as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=False, timeout_s=1.0)
        reply = brain.decide(calm_scene())
        brain.close()
    print(f"drip: 1 byte / 0.2 s, timeout_s=1 -> decision ended after {reply.latency_s:.2f} s: {reply.error}")


def unauthorized() -> None:
    with FaultServer.status(401, "Incorrect API key provided: sk-ab***yz") as server:
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "wmbench.harness.cli.main", "run", "--brain", "openai/gpt-x",
                               "--out", str(TMP / "run401"), "--no-progress", "--option", f"base_url={server.url}"],
                              capture_output=True, text=True, cwd=TMP)
        elapsed = time.perf_counter() - start
    print(f"401: full-suite run exited {done.returncode} after {elapsed:.1f} s ({server.requests} requests): "
          f"{done.stderr.strip().splitlines()[-1]}")


def cache() -> None:
    with FaultServer.reply(GOOD_TEXT) as server:
        options = {"base_url": server.url, "temperature": 1.0, "cache": True, "cache_dir": str(TMP / "cache")}
        first = run_suite("openai/m", out=TMP / "t1", scenarios="C01", seeds=3, workers=1, progress=False,
                          live=False, reports=False, brain_options=options)
        auto = {**options}
        auto.pop("cache")
        default = run_suite("openai/m", out=TMP / "t2", scenarios="C01", seeds=3, workers=1, progress=False,
                            live=False, reports=False, brain_options=auto)
    u1, u2 = first["run"]["brain_usage"], default["run"]["brain_usage"]
    print(f"cache: temperature 1.0 over 3 seeds, cache forced on -> {u1['cache_hits']} hits of {u1['decisions']} "
          f"decisions; default (off at T>0) rerun -> {u2['cache_hits']} hits of {u2['decisions']}")


def served() -> None:
    direct = run_suite("reference", out=TMP / "direct", scenarios="C05", workers=1, progress=False, live=False,
                       reports=False)
    process = subprocess.Popen([sys.executable, "-m", "wmbench.harness.cli.main", "serve", "--brain", "reference",
                                "--port", "0", "--quiet"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        url = process.stdout.readline().split(" at ", 1)[1].split()[0]
        over = run_suite("openai/reference", out=TMP / "served", scenarios="C05", progress=False, live=False,
                         reports=False, max_connections=8, brain_options={"base_url": url, "cache": False})
    finally:
        process.terminate()
        process.wait()
    print(f"served: C05 direct {direct['categories']['C05']['score']:g} vs served at 8 concurrent episodes "
          f"{over['categories']['C05']['score']:g} (WM {direct['wm_score']:g} vs {over['wm_score']:g})")


def load() -> None:
    body = json.dumps({"messages": build_messages(calm_scene())}).encode()
    with make_server("reference") as server:
        server.start_in_thread()

        def client(i: int) -> int:
            ok = 0
            for _ in range(50):
                request = urllib.request.Request(server.url + "/chat/completions", data=body,
                                                 headers={"Content-Type": "application/json",
                                                          "X-Wmbench-Session": f"client-{i}"})
                try:
                    with urllib.request.urlopen(request, timeout=60) as response:
                        ok += response.status == 200
                except OSError:
                    pass
            return ok

        start = time.perf_counter()
        with ThreadPoolExecutor(64) as pool:
            answered = sum(pool.map(client, range(64)))
        elapsed = time.perf_counter() - start
    print(f"load: 64 clients x 50 requests -> {answered}/3200 answered, {3200 - answered} dropped, "
          f"{elapsed:.1f} s")


def deep() -> None:
    payload = b"[" * (1 << 20)
    with make_server("null") as server:
        server.start_in_thread()
        times = []
        for _ in range(5):
            with socket.create_connection(server.server_address[:2]) as sock:
                start = time.perf_counter()
                sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                             b"Content-Length: %d\r\n\r\n" % len(payload) + payload)
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
                times.append(time.perf_counter() - start)
    print(f"deep: 1 MiB nested JSON -> {answer.split(b' ', 2)[1].decode()} in median "
          f"{1000 * sorted(times)[2]:.1f} ms (max {1000 * max(times):.1f} ms over 5)")


CHECKS = {"retry": retry, "drip": drip, "401": unauthorized, "cache": cache, "served": served, "load": load,
          "deep": deep}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(CHECKS):
        CHECKS[name]()
