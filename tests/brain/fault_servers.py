"""Real misbehaving chat-completions servers on 127.0.0.1, for the API-provider and run tests.

Each :class:`FaultServer` answers ``POST /v1/chat/completions`` the way one kind of broken endpoint does:

- ``retry_after(seconds)``: the first attempt of every request gets ``429`` with ``Retry-After``; the client's
  retry (``x-stainless-retry-count`` > 0) gets a good answer;
- ``drip(interval_s)``: a 200 whose headers promise a body that then arrives one byte every ``interval_s``;
- ``status(code, message)``: that HTTP error with OpenAI's error shape, every time;
- ``content_null()``: a 200 whose only choice has ``content: null``;
- ``reply(text)``: a well-formed answer with ``text`` every time.

``requests`` counts what arrived; ``unused_port()`` gives a loopback port nothing listens on.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

GOOD_TEXT = "PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)\nMOTION: walks forward"

Behaviour = Callable[["_Handler", dict[str, Any]], None]


def completion(text: str | None, model: str = "stub") -> dict[str, Any]:
    """A ``chat.completion`` body with one choice holding ``text`` (None: ``content: null``)."""
    return {"id": "chatcmpl-fault", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}}


class FaultServer:
    """A ThreadingHTTPServer on 127.0.0.1 with one behaviour (context manager)."""

    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour = behaviour
        self.requests = 0
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.stop = threading.Event()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._server.fault = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def record(self, handler: _Handler, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests += 1
            self.bodies.append(body)
            self.headers.append(dict(handler.headers.items()))

    def __enter__(self) -> FaultServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    # -- behaviours -----------------------------------------------------------------------------------------
    @classmethod
    def retry_after(cls, seconds: float) -> FaultServer:
        def behave(h: _Handler, body: dict[str, Any]) -> None:
            if h.headers.get("x-stainless-retry-count", "0") == "0":
                h.send_json(429, {"error": {"message": "rate limited, slow down", "type": "rate_limit"}},
                            {"Retry-After": f"{seconds:g}"})
            else:
                h.send_json(200, completion(GOOD_TEXT, body.get("model", "stub")))
        return cls(behave)

    @classmethod
    def drip(cls, interval_s: float = 0.2) -> FaultServer:
        def behave(h: _Handler, body: dict[str, Any]) -> None:
            data = json.dumps(completion(GOOD_TEXT)).encode()
            h.send_response(200)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            for i in range(len(data)):
                if h.server.fault.stop.is_set():  # type: ignore[attr-defined]
                    return
                h.wfile.write(data[i:i + 1])
                h.wfile.flush()
                time.sleep(interval_s)
        return cls(behave)

    @classmethod
    def status(cls, code: int, message: str) -> FaultServer:
        def behave(h: _Handler, body: dict[str, Any]) -> None:
            h.send_json(code, {"error": {"message": message, "type": "fault", "code": code}})
        return cls(behave)

    @classmethod
    def content_null(cls) -> FaultServer:
        return cls(lambda h, body: h.send_json(200, completion(None)))

    @classmethod
    def reply(cls, text: str) -> FaultServer:
        return cls(lambda h, body: h.send_json(200, completion(text)))


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        fault: FaultServer = self.server.fault  # type: ignore[attr-defined]
        fault.record(self, body)
        fault.behaviour(self, body)

    def send_json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def unused_port() -> int:
    """A loopback port with nothing listening (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
