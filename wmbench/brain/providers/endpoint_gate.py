"""One pause per API endpoint, shared by every brain of the process: a ``Retry-After`` holds them all.

Card
----
- A run asks an endpoint from ``max_connections`` brain instances at once (one per episode thread). When
  the endpoint answers one of them ``429``/``503`` with ``Retry-After`` (or ``retry-after-ms``), the openai
  client of *that* brain waits as told — but the other instances would keep sending and be refused too.
  :func:`gate_for` gives the process-wide :class:`EndpointGate` of a base URL; the openai provider hooks it
  into its HTTP client: every attempt (first tries and the client's retries) waits while the gate is
  paused, and a response that asks for a pause pauses it for everyone (:meth:`EndpointGate.pause`, capped
  at :data:`MAX_PAUSE_S`, the client's own cap).
- Only *when* requests are sent changes, never what they say or what a reply means.
- Simplified: the gate is per process. Local runs (threads) share one; Ray tasks on several processes
  share only their in-flight budget (the executor's window), not the pause.
"""

from __future__ import annotations

import asyncio
import email.utils
import threading
import time
from collections.abc import Mapping

#: The longest pause a response can impose (the openai client caps its own Retry-After waits at 60 s).
MAX_PAUSE_S = 60.0
#: Statuses whose Retry-After pauses the endpoint.
PAUSE_STATUS = frozenset({429, 503})


def retry_after_seconds(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds a response asks to wait: ``retry-after-ms``, else ``Retry-After`` (seconds or an HTTP date);
    None when it asks nothing readable."""
    lower = {k.lower(): v for k, v in headers.items()}
    try:
        if "retry-after-ms" in lower:
            return max(0.0, float(lower["retry-after-ms"]) / 1000)
        if "retry-after" in lower:
            return max(0.0, float(lower["retry-after"]))
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(lower["retry-after"])
        except (TypeError, ValueError, KeyError):
            return None
        return max(0.0, when.timestamp() - (time.time() if now is None else now))
    return None


class EndpointGate:
    """The shared pause of one endpoint (see the module card)."""

    def __init__(self) -> None:
        self._until = 0.0  # time.monotonic() before which no request is sent
        self._lock = threading.Lock()
        self.pauses = 0

    def pause(self, seconds: float) -> None:
        """Hold every request to this endpoint for ``seconds`` from now (capped at :data:`MAX_PAUSE_S`)."""
        with self._lock:
            self._until = max(self._until, time.monotonic() + min(max(0.0, seconds), MAX_PAUSE_S))
            self.pauses += 1

    def remaining(self) -> float:
        with self._lock:
            return max(0.0, self._until - time.monotonic())

    async def before_request(self, request: object) -> None:
        """httpx request hook: wait while the endpoint is paused."""
        while (left := self.remaining()) > 0:
            await asyncio.sleep(left)

    async def after_response(self, response: object) -> None:
        """httpx response hook: a 429/503 with Retry-After pauses the endpoint for every brain."""
        if getattr(response, "status_code", 200) not in PAUSE_STATUS:
            return
        seconds = retry_after_seconds(dict(getattr(response, "headers", {}) or {}))
        if seconds:
            self.pause(seconds)


_GATES: dict[str, EndpointGate] = {}
_GATES_LOCK = threading.Lock()


def gate_for(base_url: str) -> EndpointGate:
    """The process-wide gate of ``base_url`` (trailing slashes ignored)."""
    key = base_url.rstrip("/")
    with _GATES_LOCK:
        return _GATES.setdefault(key, EndpointGate())
