"""The latency-bound case: C01–C08 against a local fake OpenAI-compatible endpoint with 1 s per reply.

A real HTTP server on 127.0.0.1 (:class:`SlowEndpoint`, ``ThreadingHTTPServer``) answers every
``/v1/chat/completions`` request after ``latency`` seconds with a fixed two-line reply, and records the
largest number of requests it had in flight. ``run_suite("openai/fake", scenarios="C01-C08", seeds=1,
max_connections=8, live off)`` is timed end to end (brain start-up, episodes, scoring, report), twice:

- **before**: episodes handed to the 8 connections in (scenario, seed) order — 0.3's order
  (``LocalExecutor(order="given")``);
- **after**: the default run: longest episodes first.

Beside them the **ideal** bound from the run's own decision counts: ``max(longest episode × latency,
decisions × latency / connections)``; target: after <= 1.3 × ideal. The endpoint's peak concurrency must not
exceed the connection budget.

Run: ``.venv/bin/python -m benchmarks.bench_api_sweep [--quick]`` (quick: latency 0.2 s).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from benchmarks.common import BenchRow, Target, format_rows

GROUP = "api"
REPLY = ("PREDICT: left=safe(open), right=safe(open), fwd=danger(wall), back=safe(open)\n"
         "MOTION: a person walks cautiously to the left, glancing back")
SCENARIOS = "C01,C02,C03,C04,C05,C06,C07,C08"
CONNECTIONS = 8
TARGET_RATIO = 1.3


class SlowEndpoint:
    """An OpenAI-compatible chat endpoint on 127.0.0.1 that answers after ``latency`` seconds."""

    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.in_flight = 0
        self.peak = 0
        self.requests = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
                with endpoint._lock:
                    endpoint.in_flight += 1
                    endpoint.requests += 1
                    endpoint.peak = max(endpoint.peak, endpoint.in_flight)
                try:
                    time.sleep(endpoint.latency)
                finally:
                    with endpoint._lock:
                        endpoint.in_flight -= 1
                data = json.dumps({
                    "id": "chatcmpl-slow", "object": "chat.completion", "created": 0, "model": body.get("model"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": REPLY}}],
                    "usage": {"prompt_tokens": 900, "completion_tokens": 30, "total_tokens": 930},
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def __enter__(self) -> SlowEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def timed_run(url: str, out: Path, order: str) -> tuple[float, list[int]]:
    """Wall seconds of one run_suite against ``url`` and each episode's decision count."""
    from wmbench.harness.executors.local import LocalExecutor
    from wmbench.harness.suite import run_suite

    executor = LocalExecutor(order="given") if order == "before" else None
    start = time.perf_counter()
    run_suite("openai/fake", "smpl", SCENARIOS, 1, 2, out, progress=False, live=False, measurers={},
              brain_options={"base_url": url, "api_key": "EMPTY", "cache": False, "timeout_s": 30},
              max_connections=CONNECTIONS, executor=executor)
    wall = time.perf_counter() - start
    decisions = [json.loads(raw)["summary"]["decisions"]
                 for raw in (out / "episodes.jsonl").read_text(encoding="utf-8").splitlines()]
    return wall, decisions


def measure(quick: bool, latency: float | None = None) -> list[BenchRow]:
    latency = latency if latency is not None else (0.2 if quick else 1.0)
    rows: list[BenchRow] = []
    with tempfile.TemporaryDirectory(prefix="wmbench-api-") as tmp, SlowEndpoint(latency) as endpoint:
        walls: dict[str, float] = {}
        decisions: list[int] = []
        for order in ("before", "after"):
            walls[order], decisions = timed_run(endpoint.url, Path(tmp) / order, order)
        ideal = max(max(decisions) * latency, sum(decisions) * latency / CONNECTIONS)
        note = (f"{len(decisions)} episodes, {sum(decisions)} decisions, longest {max(decisions)}; "
                f"{latency:g} s latency, {CONNECTIONS} connections; endpoint peak in flight {endpoint.peak}")
        rows.append(BenchRow(GROUP, "C01-C08 ideal bound", ideal, "s", None, note))
        rows.append(BenchRow(GROUP, "C01-C08 before (sorted order)", walls["before"], "s", None,
                             f"{walls['before'] / ideal:.2f} x ideal"))
        rows.append(BenchRow(GROUP, "C01-C08 after (longest first)", walls["after"], "s",
                             Target("<=", TARGET_RATIO * ideal),
                             f"{walls['after'] / ideal:.2f} x ideal; {walls['before'] / walls['after']:.2f} x faster "
                             f"than before"))
        rows.append(BenchRow(GROUP, "endpoint peak requests in flight", float(endpoint.peak), "requests",
                             Target("<=", float(CONNECTIONS)), "the connection budget holds"))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--latency", type=float, default=None)
    args = parser.parse_args()
    rows = measure(args.quick, args.latency)
    print(format_rows(rows))
    return 1 if any(r.status == "error" for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
