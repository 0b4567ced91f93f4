"""Shared helpers for the provider tests: example scenes and a scriptable stub HTTP server.

The stub answers ``POST /v1/chat/completions`` following a script of :class:`StubAction` (the last one
repeats) and counts the requests it received, so tests can see retries, time-outs and cache hits from the
server side.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def example_scene(**overrides: Any) -> dict[str, Any]:
    """A valid scene_context: beast charging from the front, walls left and front (override any key)."""
    scene: dict[str, Any] = {
        "walls": {"left": 2.5, "right": None, "front": 3.0, "back": None},
        "ground": "flat",
        "npc_nearby": True, "npc_type": "beast", "npc_behavior": "charge",
        "npc_distance": 4.8, "npc_direction": "front", "sound": "roar and pounding paws from the front",
        "recent_decisions": [], "last_prediction": None,
        "t": 0.5,
        "npcs": [{"type": "beast", "behavior": "charge", "distance": 4.8, "direction": "front",
                  "speed": 5.0}],
    }
    scene.update(overrides)
    return scene


def calm_scene() -> dict[str, Any]:
    """A valid scene_context: open field, nobody around."""
    return example_scene(
        walls={"left": None, "right": None, "front": None, "back": None}, npc_nearby=False, npc_type=None,
        npc_behavior=None, npc_distance=None, npc_direction=None, sound=None, npcs=[], t=0.0)


def corridor_scene() -> dict[str, Any]:
    """A valid scene_context: corridor (walls left and right), a woman approaching from behind."""
    return example_scene(
        walls={"left": 1.0, "right": 1.0, "front": None, "back": None}, npc_type="woman",
        npc_behavior="approach", npc_distance=3.0, npc_direction="back", sound="footsteps from the back",
        npcs=[{"type": "woman", "behavior": "approach", "distance": 3.0, "direction": "back", "speed": 1.2}])


@dataclass(frozen=True)
class StubAction:
    """What the stub does for one request: ``status`` with an error body (``message``, if given), or 200
    with ``text``, or hang."""

    status: int = 200
    message: str | None = None
    text: str = "PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)\nMOTION: stand"
    hang: bool = False


class StubServer:
    """A chat-completions stub on 127.0.0.1 (context manager)."""

    def __init__(self, *script: StubAction) -> None:
        self.script = list(script) or [StubAction()]
        self.requests = 0
        self.bodies: list[dict[str, Any]] = []
        self.release = threading.Event()  # set on exit so hanging handlers finish
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def next_action(self, body: dict[str, Any]) -> StubAction:
        with self._lock:
            action = self.script[min(self.requests, len(self.script) - 1)]
            self.requests += 1
            self.bodies.append(body)
            return action

    def __enter__(self) -> StubServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def _make_handler(stub: StubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
            action = stub.next_action(body)
            if action.hang:
                stub.release.wait(timeout=30)
                return
            if action.status != 200:
                message = action.message or f"stub says {action.status}"
                payload: dict[str, Any] = {"error": {"message": message, "type": "stub"}}
            else:
                payload = {
                    "id": "chatcmpl-stub", "object": "chat.completion", "created": 0,
                    "model": body.get("model"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": action.text}}],
                    "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
                }
            data = json.dumps(payload).encode()
            self.send_response(action.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
