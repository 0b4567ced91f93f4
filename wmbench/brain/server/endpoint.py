"""``wmbench serve``: any brain behind an OpenAI-compatible HTTP endpoint (stdlib and numpy only).

Card:
    POST /v1/chat/completions  the *last user message* is read as the scene_context JSON — the whole message,
                               or failing that the first JSON object inside it (so prompts that wrap the JSON
                               in prose or a code fence work); the brain decides; the reply comes back as a
                               standard ``chat.completion`` with ``usage`` (the brain's token counts, or
                               whitespace word counts when it has none) and a ``wmbench`` field with the
                               latency. No JSON object → 400; the brain failed → 502; ``stream`` → 400.
    GET  /v1/models            one model, named after the brain.
    GET  /health               ``{"status": "ok", ...}`` (never needs the key): for load balancers and scripts.
    All also answer without the ``/v1`` prefix. Errors use OpenAI's ``{"error": {...}}`` shape.

    sessions   one brain *instance per episode*: the session id comes from the ``X-Wmbench-Session`` header, else the
               request's ``user`` field (the ``openai/`` provider sends only ``user``, an opaque random token, unless
               its ``debug_session_labels`` option adds the headers); a new session builds a fresh brain from the spec
               and resets it with the seed of ``X-Wmbench-Seed`` when sent, else one derived from the session id
               (:func:`session_seed`: the same session, the same seed), so stateful brains never mix episodes and seeded
               brains stay reproducible without the client telling the server which benchmark seed it is in. Calls
               within a session are serialized (the Brain protocol allows one at a time); sessions run in parallel. At
               most ``max_sessions`` live (least recently used closed first). Requests without a session id share one
               default brain. Simplified: a Brain *object* (not a spec), and ``hf/``/``onnx/`` specs (one model in
               memory), are shared by all sessions and only reset when a new session starts;
    limits     listen backlog 128; each connection times out after ``connection_timeout_s`` (default 30 s)
               of silence, and every request must arrive whole (request line, headers and body) within
               ``request_deadline_s`` (default 30 s) of its first wait, however slowly it trickles in: a
               reaper thread closes connections past their deadline. At most ``max_connections``
               (default 64) connections are served at once; one more is answered 503 and closed at once,
               without a thread. Bodies over 4 MiB are refused from ``Content-Length`` (413) and
               JSON nested deeper than 64 levels — in the body or in the scene text — is refused *before*
               any parsing (a linear scan, ~ms per MB);
    images     an image part must be a PNG (the image modes send PNG; simplified: JPEG is refused here) whose
               header — read from the first bytes of its data URL, nothing decoded — declares at most
               :data:`MAX_IMAGE_SIDE` pixels a side; the memory a decode needs (:func:`decoded_bytes`) may
               reach :data:`MAX_REQUEST_DECODED_BYTES` per request (413 beyond) and ``max_decoded_bytes``
               (default 256 MiB) across the requests in flight (503 "busy, retry" beyond);
    key        ``api_key`` (``--api-key`` or ``WMBENCH_SERVE_API_KEY``): every request but ``/health`` must
               send ``Authorization: Bearer <key>``, else 401 saying so.

``make_server`` binds (``port=0`` picks a free port) and returns the server; run ``serve_forever()`` on it, or
``start_in_thread()`` in tests. ``serve_main`` is what ``wmbench serve --brain SPEC --port N`` calls.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import socket
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from wmbench.brain.base import Brain, BrainReply
from wmbench.brain.registry import get_brain
from wmbench.brain.server.request import (
    MAX_BODY_BYTES,
    BadRequest,
    _preview,
    _word_count,
    check_depth,
    image_decode_cost,
    scene_from_messages,
)
from wmbench.protocol.observation import BrainInput

LISTEN_BACKLOG = 128
DEFAULT_CONNECTION_TIMEOUT_S = 30.0
DEFAULT_MAX_SESSIONS = 256
DEFAULT_REQUEST_DEADLINE_S = 30.0
DEFAULT_MAX_CONNECTIONS = 64
DEFAULT_MAX_DECODED_BYTES = 256 * 1024 * 1024
#: How often the reaper looks for connections past their request deadline.
REAPER_INTERVAL_S = 0.25
API_KEY_ENV = "WMBENCH_SERVE_API_KEY"
SESSION_HEADER = "X-Wmbench-Session"
SEED_HEADER = "X-Wmbench-Seed"
#: Brains that hold a whole model in memory: served as one shared instance, not one per session.
SHARED_BRAIN_PREFIXES = ("hf/", "onnx/")


@dataclass
class _Session:
    """One episode's brain and the lock that keeps its calls one at a time."""

    brain: Brain
    owned: bool
    lock: threading.Lock = field(default_factory=threading.Lock)


class BrainHTTPServer(ThreadingHTTPServer):
    """A ThreadingHTTPServer that answers chat completions, one brain per session (see module card)."""

    daemon_threads = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, brain: Brain, address: tuple[str, int], *, owns_brain: bool,
                 quiet: bool = True, brain_factory: Callable[[], Brain] | None = None,
                 api_key: str | None = None, max_sessions: int = DEFAULT_MAX_SESSIONS,
                 connection_timeout_s: float = DEFAULT_CONNECTION_TIMEOUT_S,
                 request_deadline_s: float = DEFAULT_REQUEST_DEADLINE_S,
                 max_connections: int = DEFAULT_MAX_CONNECTIONS,
                 max_decoded_bytes: int = DEFAULT_MAX_DECODED_BYTES) -> None:
        super().__init__(address, _BrainRequestHandler)
        self.request_deadline_s = float(request_deadline_s)
        self.max_connections = max(1, int(max_connections))
        self.max_decoded_bytes = int(max_decoded_bytes)
        self.connections_refused = 0
        self.connections_reaped = 0
        self._decoding = 0  # bytes reserved by requests in flight (image_budget)
        self._deadlines: dict[socket.socket, float] = {}  # connection -> monotonic deadline of its request
        self._conn_lock = threading.Lock()
        self._active = 0
        self._stop_reaper = threading.Event()
        self._reaper = threading.Thread(target=self._reap, name="wmbench-serve-reaper", daemon=True)
        self._reaper.start()
        self.brain = brain
        self.owns_brain = owns_brain
        self.quiet = quiet
        self.brain_factory = brain_factory
        self.api_key = api_key or None
        self.max_sessions = max(1, int(max_sessions))
        self.connection_timeout_s = float(connection_timeout_s)
        self.requests_served = 0
        self.sessions_started = 0
        self._default = _Session(brain, owned=False)
        self._sessions: OrderedDict[str, _Session] = OrderedDict()
        self._sessions_lock = threading.Lock()
        self._count_lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Base URL for OpenAI clients, e.g. ``http://127.0.0.1:8000/v1``."""
        host, port = self.server_address[:2]
        if isinstance(host, (bytes, bytearray)):  # typeshed allows bytes addresses; a bound TCP server's is str
            host = host.decode()
        return f"http://{host}:{port}/v1"

    def decide(self, scene: BrainInput, session_id: str | None = None, seed: int | None = None
               ) -> BrainReply:
        """The reply of the session's brain (the default brain without a session id)."""
        session = self._session(session_id, seed)
        with session.lock:
            return session.brain.decide(scene)

    def _session(self, session_id: str | None, seed: int | None) -> _Session:
        if not session_id:
            return self._default
        with self._sessions_lock:
            session = self._sessions.get(session_id)
            if session is not None:
                self._sessions.move_to_end(session_id)
                return session
            self.sessions_started += 1
            if self.brain_factory is None:  # shared brain: reset for the new episode, that is all
                session = _Session(self.brain, owned=False, lock=self._default.lock)
            else:
                session = _Session(self.brain_factory(), owned=True)
            self._sessions[session_id] = session
            evicted = []
            while len(self._sessions) > self.max_sessions:
                evicted.append(self._sessions.popitem(last=False)[1])
        with session.lock:
            session.brain.reset(session_seed(session_id) if seed is None else seed)
        for old in evicted:
            if old.owned:
                with old.lock:
                    old.brain.close()
        return session

    # -- connections: a cap, and a deadline per request ------------------------------------------------------
    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve ``request`` in a thread, unless :attr:`max_connections` are being served: then 503, closed."""
        with self._conn_lock:
            full = self._active >= self.max_connections
            if not full:
                self._active += 1
        if full:
            self.connections_refused += 1
            _refuse(request, self.max_connections)
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._conn_lock:
                self._active -= 1
                self._deadlines.pop(request, None)

    @property
    def active_connections(self) -> int:
        with self._conn_lock:
            return self._active

    def arm_deadline(self, connection: socket.socket) -> None:
        """The request now awaited on ``connection`` must arrive whole within :attr:`request_deadline_s`."""
        with self._conn_lock:
            self._deadlines[connection] = time.monotonic() + self.request_deadline_s

    def disarm_deadline(self, connection: socket.socket) -> None:
        """The request has arrived (the brain's thinking time is not bounded by the deadline)."""
        with self._conn_lock:
            self._deadlines.pop(connection, None)

    def _reap(self) -> None:
        while not self._stop_reaper.wait(REAPER_INTERVAL_S):
            now = time.monotonic()
            with self._conn_lock:
                late = [conn for conn, deadline in self._deadlines.items() if deadline <= now]
                for conn in late:
                    del self._deadlines[conn]
            for conn in late:
                self.connections_reaped += 1
                with contextlib.suppress(OSError):  # wakes the handler's blocked read with EOF
                    conn.shutdown(socket.SHUT_RDWR)

    # -- image decode memory --------------------------------------------------------------------------------
    @contextlib.contextmanager
    def image_budget(self, cost: int) -> Any:
        """Reserve ``cost`` decode bytes for one request while it is decided; BadRequest 503 when the requests
        in flight already hold :attr:`max_decoded_bytes`."""
        if cost <= 0:
            yield
            return
        with self._conn_lock:
            if self._decoding + cost > self.max_decoded_bytes:
                raise BadRequest(f"the server is decoding {self._decoding} bytes of images for other requests; "
                                 f"this one needs {cost} more (limit {self.max_decoded_bytes}): retry later",
                                 HTTPStatus.SERVICE_UNAVAILABLE)
            self._decoding += cost
        try:
            yield
        finally:
            with self._conn_lock:
                self._decoding -= cost

    @property
    def live_sessions(self) -> int:
        with self._sessions_lock:
            return len(self._sessions)

    def authorized(self, header: str | None) -> bool:
        """True when no key is set, or ``header`` is ``Bearer <the key>``."""
        if self.api_key is None:
            return True
        scheme, _, token = (header or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), self.api_key.encode())

    def count_request(self) -> None:
        with self._count_lock:
            self.requests_served += 1

    def start_in_thread(self) -> threading.Thread:
        """Serve from a daemon thread (tests, notebooks); ``close()`` stops it."""
        # A short poll interval makes close() (shutdown) return quickly.
        self._thread = threading.Thread(target=self.serve_forever, args=(0.05,), name="wmbench-serve",
                                        daemon=True)
        self._thread.start()
        return self._thread

    def close(self) -> None:
        """Stop serving, release the socket, and close the brain if this server built it."""
        if self._thread is not None:
            self.shutdown()
            self._thread.join()
            self._thread = None
        self._stop_reaper.set()
        self.server_close()
        with self._sessions_lock:
            sessions, self._sessions = list(self._sessions.values()), OrderedDict()
        for session in sessions:
            if session.owned:
                session.brain.close()
        if self.owns_brain:
            self.brain.close()

    def __enter__(self) -> BrainHTTPServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class _BrainRequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as OpenAI clients expect
    #: headers and body go out in separate writes; without TCP_NODELAY the body waits for the client's delayed
    #: ACK (~40 ms per request on Linux)
    disable_nagle_algorithm = True
    server: BrainHTTPServer

    def setup(self) -> None:
        super().setup()
        # a client that stalls mid-request is cut off (what StreamRequestHandler.setup does with the class-level
        # `timeout`, here per server)
        self.connection.settimeout(self.server.connection_timeout_s)

    def handle_one_request(self) -> None:
        # the whole request (line, headers, body) must arrive within the server's deadline (module card)
        self.server.arm_deadline(self.connection)
        try:
            super().handle_one_request()
        finally:
            self.server.disarm_deadline(self.connection)

    def parse_request(self) -> bool:
        ok = super().parse_request()
        if ok and self.command != "POST":  # no body to wait for: the request is complete
            self.server.disarm_deadline(self.connection)
        return ok

    def do_GET(self) -> None:
        self.server.count_request()
        if self._route() == "/health":
            self._send_json(HTTPStatus.OK, {"status": "ok", "brain": self.server.brain.name,
                                            "sessions": self.server.live_sessions,
                                            "requests_served": self.server.requests_served})
            return
        if not self._check_key():
            return
        if self._route() == "/models":
            model = {"id": self.server.brain.name, "object": "model", "created": 0, "owned_by": "wmbench"}
            self._send_json(HTTPStatus.OK, {"object": "list", "data": [model]})
        else:
            self._send_error(HTTPStatus.NOT_FOUND, f"no route GET {self.path}; try GET /v1/models")

    def do_POST(self) -> None:
        self.server.count_request()
        if not self._check_key():
            return
        if self._route() != "/chat/completions":
            self._send_error(HTTPStatus.NOT_FOUND, f"no route POST {self.path}; try /v1/chat/completions")
            return
        try:
            request = self._read_json()
            if request.get("stream"):
                raise BadRequest("stream=true is not supported by wmbench serve; send stream=false")
            messages: Any = request.get("messages")  # JSON; scene_from_messages checks it is a list of messages
            scene = scene_from_messages(messages)
            cost = image_decode_cost(scene)  # from the PNG headers, before any pixel is decoded
            session_id = self.headers.get(SESSION_HEADER) or request.get("user") or None
            seed = _seed_of(self.headers.get(SEED_HEADER))
        except BadRequest as exc:
            self._send_error(exc.status, str(exc))
            return
        try:
            with self.server.image_budget(cost):
                reply = self.server.decide(scene, None if session_id is None else str(session_id), seed)
        except BadRequest as exc:  # the server's image budget is spent by other requests
            self._send_error(exc.status, str(exc))
            return
        except Exception as exc:  # a Brain should not raise (plugins may): still answer the client
            reply = BrainReply(text="", latency_s=0.0, provider="", error=f"{type(exc).__name__}: {exc}")
        if reply.error:
            message = f"brain {self.server.brain.name!r} failed: {reply.error}"
            self._send_error(HTTPStatus.BAD_GATEWAY, message, kind="brain_error")
            return
        self._send_json(HTTPStatus.OK, _completion(self.server.brain.name, messages, reply))

    # -- helpers ------------------------------------------------------------------------------------------
    def _check_key(self) -> bool:
        if self.server.authorized(self.headers.get("Authorization")):
            return True
        self._discard_body()
        self._send_error(HTTPStatus.UNAUTHORIZED, "missing or wrong API key: expected the header "
                         "'Authorization: Bearer <key>' with the key wmbench serve was started with",
                         kind="invalid_api_key")
        return False

    def _discard_body(self) -> None:
        """A refused request's body is never read: close the connection so it is not taken as a request."""
        self.close_connection = True

    def _route(self) -> str:
        path = self.path.split("?", 1)[0].rstrip("/")
        return path[len("/v1"):] if path.startswith("/v1/") else path

    def _read_json(self) -> dict[str, Any]:
        length_header = self.headers.get("Content-Length")
        # Until the body is read, the connection cannot carry another request: its bytes would be parsed as one.
        keep_alive, self.close_connection = not self.close_connection, True
        if length_header is None:
            raise BadRequest("a JSON body with a Content-Length header is required",
                             HTTPStatus.LENGTH_REQUIRED)
        try:
            length = int(length_header)
        except ValueError as exc:
            raise BadRequest(f"Content-Length must be an integer, got {length_header!r}") from exc
        if length < 0:
            raise BadRequest(f"Content-Length must not be negative, got {length}")
        if length > MAX_BODY_BYTES:
            raise BadRequest(f"body of {length} bytes; expected at most {MAX_BODY_BYTES}",
                             HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        raw = self.rfile.read(length)
        if len(raw) < length:
            raise BadRequest(f"the body ended after {len(raw)} of {length} bytes (Content-Length)")
        self.server.disarm_deadline(self.connection)
        self.close_connection = not keep_alive
        check_depth(raw, "the request body")
        try:
            request = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise BadRequest(f"the request body must be JSON: {exc}") from exc
        if not isinstance(request, dict):
            raise BadRequest(f"the request body must be a JSON object, got {_preview(request)}")
        return request

    def _send_json(self, status: HTTPStatus, payload: dict[str, Any]) -> None:
        body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _send_error(self, status: HTTPStatus, message: str, kind: str = "invalid_request_error") -> None:
        error = {"message": message, "type": kind, "param": None, "code": int(status)}
        self._send_json(status, {"error": error})

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            super().log_message(format, *args)


def session_seed(session_id: str) -> int:
    """A served brain's seed for a session that sent none: 32 bits of the SHA-256 of its id (stable across
    runs and processes, unlike ``hash``; an opaque random session id gives an unpredictable but recorded-free
    seed, the same one for every request of the session)."""
    return int.from_bytes(hashlib.sha256(session_id.encode("utf-8")).digest()[:4], "big")


def _refuse(request: Any, limit: int) -> None:
    """A minimal 503 for a connection over the cap, written without a thread and never waiting on the client."""
    body = json.dumps({"error": {"message": f"the server is serving {limit} connections, its limit; retry later",
                                 "type": "server_busy", "param": None, "code": 503}}).encode()
    head = (f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: {len(body)}"
            "\r\nConnection: close\r\nRetry-After: 1\r\n\r\n").encode()
    with contextlib.suppress(OSError):
        request.setblocking(False)  # a full send buffer drops the answer instead of stalling the accept loop
        request.send(head + body)


def _seed_of(header: str | None) -> int | None:
    if header is None:
        return None
    try:
        return int(header)
    except ValueError:
        raise BadRequest(f"{SEED_HEADER} must be an integer seed, got {header!r}") from None


def _completion(model: str, messages: list[dict[str, Any]], reply: BrainReply) -> dict[str, Any]:
    prompt_tokens = reply.prompt_tokens
    if prompt_tokens is None:
        contents = [m.get("content") for m in messages if isinstance(m, dict)]
        prompt_tokens = sum(_word_count(c) for c in contents if isinstance(c, str))
    completion_tokens = reply.completion_tokens
    if completion_tokens is None:
        completion_tokens = _word_count(reply.text)
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.text},
                     "finish_reason": "stop", "logprobs": None}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
        "wmbench": {"latency_s": reply.latency_s, "provider": reply.provider, "cached": reply.cached},
    }


def make_server(brain: str | Brain, host: str = "127.0.0.1", port: int = 0, *, quiet: bool = True,
                api_key: str | None = None, max_sessions: int = DEFAULT_MAX_SESSIONS,
                connection_timeout_s: float = DEFAULT_CONNECTION_TIMEOUT_S,
                request_deadline_s: float = DEFAULT_REQUEST_DEADLINE_S,
                max_connections: int = DEFAULT_MAX_CONNECTIONS,
                max_decoded_bytes: int = DEFAULT_MAX_DECODED_BYTES,
                **brain_options: Any) -> BrainHTTPServer:
    """Bind a server for ``brain`` (a :func:`get_brain` spec, or a Brain); ``port=0`` picks a free port.

    A spec gets one brain per session (built with ``brain_options``); a Brain object is shared. ``api_key``
    None reads ``WMBENCH_SERVE_API_KEY`` (unset: no key check)."""
    owns_brain = isinstance(brain, str)
    instance = get_brain(brain, **brain_options) if isinstance(brain, str) else brain
    factory = None
    if isinstance(brain, str) and not brain.startswith(SHARED_BRAIN_PREFIXES):
        def factory() -> Brain:
            return get_brain(brain, **brain_options)
    key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
    try:
        return BrainHTTPServer(instance, (host, port), owns_brain=owns_brain, quiet=quiet, brain_factory=factory,
                               api_key=key, max_sessions=max_sessions, connection_timeout_s=connection_timeout_s,
                               request_deadline_s=request_deadline_s, max_connections=max_connections,
                               max_decoded_bytes=max_decoded_bytes)
    except OSError:
        if owns_brain:
            instance.close()
        raise


def serve_forever(brain: str | Brain, host: str = "127.0.0.1", port: int = 8000, *, quiet: bool = False,
                  **brain_options: Any) -> None:
    """Serve until interrupted (Ctrl-C), then close the server and the brain."""
    _serve_until_interrupted(make_server(brain, host, port, quiet=quiet, **brain_options))


def serve_main(brain: str, host: str, port: int, api_key: str | None = None, quiet: bool = False,
               **brain_options: Any) -> None:
    """``wmbench serve --brain SPEC --host H --port N``: print the URL, then serve until Ctrl-C."""
    server = make_server(brain, host, port, quiet=quiet, api_key=api_key, **brain_options)
    keyed = "; key required" if server.api_key else ""
    print(f"wmbench serve: brain {server.brain.name!r} at {server.url} "
          f"(OPENAI_BASE_URL={server.url}, model {server.brain.name!r}{keyed}); Ctrl-C stops", flush=True)
    _serve_until_interrupted(server)


def _serve_until_interrupted(server: BrainHTTPServer) -> None:
    """``server.serve_forever()`` until Ctrl-C; the server (and a brain it owns) is closed either way."""
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
