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
- **One connection budget per endpoint.** Inside :func:`connection_budget` (``n``), at most ``n`` requests are
  in flight to one endpoint from the whole process, however many episodes are running: a brain holds a
  slot (:meth:`EndpointGate.connection`) only while its request is out, not while its episode simulates. So
  a run can keep more episodes going than connections (the local executor runs twice as many) and the
  connections never sit idle while an episode builds its world or steps its motion. A free slot goes to
  the waiting request of the episode with the **most decisions still to come** (:func:`episode_priority`:
  the executor announces each episode's expected decisions; every request counts one down), so the run's
  tail is as short as the episodes allow: the longest remaining chain of 1 s requests is never the one
  left waiting. Ties go first come, first served. Outside a budget, requests are not limited here.
- Only *when* requests are sent changes, never what they say or what a reply means.
- **A pause shared across processes.** Inside :func:`shared_pauses` (``board``), every gate of the process
  also asks a :class:`SharedPauses` board -- one remote call per attempt -- when the endpoint's pause ends
  (wall clock, ``time.time()``), waits for the later of that and its own pause, and tells the board of
  every pause a response asks for. The Ray executor installs one board (a Ray actor) per run in each task,
  so a ``Retry-After`` answered to one task holds every task's requests to that endpoint, on every worker
  process and node. A board that fails to answer is ignored (the process's own pause still holds).
- Simplified: the connection slots are per process. Ray tasks on several processes share the pause (above)
  and their in-flight budget (the executor's window of ``max_connections`` tasks), not the slots.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import heapq
import itertools
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Protocol

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


class SharedPauses(Protocol):
    """Where the processes of one run keep each endpoint's pause (wall-clock end, ``time.time()``)."""

    def until(self, endpoint: str) -> float:
        """When the pause of ``endpoint`` ends (0.0 or a past time: not paused)."""
        ...

    def hold_until(self, endpoint: str, until: float) -> None:
        """Pause ``endpoint`` until ``until`` (a later end already held stays)."""
        ...


_SHARED: list[SharedPauses | None] = [None]  # the board every gate of the process consults, if any


@contextlib.contextmanager
def shared_pauses(board: SharedPauses) -> Iterator[None]:
    """Every gate of this process shares its pauses through ``board`` while the block runs (see the card)."""
    previous, _SHARED[0] = _SHARED[0], board
    try:
        yield
    finally:
        _SHARED[0] = previous


def _board_until(board: SharedPauses, endpoint: str) -> float:
    try:
        return float(board.until(endpoint))
    except Exception:  # a board that is gone or broken (its run ending, a lost node): the local pause still holds
        return 0.0


def _board_hold(board: SharedPauses, endpoint: str, until: float) -> None:
    try:
        board.hold_until(endpoint, until)
    except Exception:  # as in _board_until: telling the others is best effort, this process pauses anyway
        return


_BUDGET: list[int | None] = [None]  # requests in flight per endpoint while a connection_budget is active
_RANK = threading.local()


@contextlib.contextmanager
def connection_budget(connections: int) -> Iterator[None]:
    """At most ``connections`` requests in flight per endpoint from this process while the block runs."""
    if connections < 1:
        raise ValueError(f"connection budget must be at least 1, got {connections}")
    previous, _BUDGET[0] = _BUDGET[0], int(connections)
    try:
        yield
    finally:
        _BUDGET[0] = previous
        for gate in list(_GATES.values()):
            gate.wake()


@contextlib.contextmanager
def episode_priority(expected_decisions: int) -> Iterator[None]:
    """This thread runs an episode of ``expected_decisions`` requests: while the budget is used up, its next
    request waits behind those of episodes with more requests still to come (see the module card)."""
    previous = getattr(_RANK, "left", None)
    _RANK.left = [int(expected_decisions)]
    try:
        yield
    finally:
        _RANK.left = previous


class EndpointGate:
    """The shared pause and connection slots of one endpoint (see the module card)."""

    def __init__(self, endpoint: str = "") -> None:
        self.endpoint = endpoint  # the key of a shared board (the base URL without trailing slashes)
        self._until = 0.0  # time.monotonic() before which no request is sent
        self._lock = threading.Lock()
        self.pauses = 0
        self._slots = threading.Condition()
        self._busy = 0
        self._waiting: list[tuple[float, int]] = []  # heap of (-requests still to come, ticket)
        self._tickets = itertools.count()
        #: The most requests this gate ever let out at once (a budget's proof).
        self.peak = 0

    @contextlib.contextmanager
    def connection(self) -> Iterator[None]:
        """Hold one of the endpoint's connection slots for the block (waiting, most requests to come first, while the
        budget is used up); no limit outside :func:`connection_budget`."""
        left: list[int] | None = getattr(_RANK, "left", None)
        entry = (float("inf") if left is None else float(-left[0]), next(self._tickets))  # most to come first
        if left is not None:
            left[0] -= 1
        with self._slots:
            heapq.heappush(self._waiting, entry)
            while True:
                budget = _BUDGET[0]
                if self._waiting[0] == entry and (budget is None or self._busy < budget):
                    break
                self._slots.wait()
            heapq.heappop(self._waiting)
            self._busy += 1
            self.peak = max(self.peak, self._busy)
            self._slots.notify_all()  # the next in line may fit too
        try:
            yield
        finally:
            with self._slots:
                self._busy -= 1
                self._slots.notify_all()

    def wake(self) -> None:
        """Let waiters look at the budget again (it changed)."""
        with self._slots:
            self._slots.notify_all()

    def pause(self, seconds: float) -> None:
        """Hold every request to this endpoint for ``seconds`` from now (capped at :data:`MAX_PAUSE_S`)."""
        with self._lock:
            self._until = max(self._until, time.monotonic() + min(max(0.0, seconds), MAX_PAUSE_S))
            self.pauses += 1

    def remaining(self) -> float:
        with self._lock:
            return max(0.0, self._until - time.monotonic())

    async def before_request(self, request: object) -> None:
        """httpx request hook: wait while the endpoint is paused (here, or on the shared board)."""
        while True:
            left = self.remaining()
            board = _SHARED[0]
            if board is not None:  # a blocking remote call: off the event loop
                left = max(left, await asyncio.to_thread(_board_until, board, self.endpoint) - time.time())
            if left <= 0:
                return
            await asyncio.sleep(left)

    async def after_response(self, response: object) -> None:
        """httpx response hook: a 429/503 with Retry-After pauses the endpoint for every brain."""
        if getattr(response, "status_code", 200) not in PAUSE_STATUS:
            return
        seconds = retry_after_seconds(dict(getattr(response, "headers", {}) or {}))
        if seconds:
            self.pause(seconds)
            board = _SHARED[0]
            if board is not None:
                until = time.time() + min(seconds, MAX_PAUSE_S)
                await asyncio.to_thread(_board_hold, board, self.endpoint, until)


_GATES: dict[str, EndpointGate] = {}
_GATES_LOCK = threading.Lock()


def gate_for(base_url: str) -> EndpointGate:
    """The process-wide gate of ``base_url`` (trailing slashes ignored)."""
    key = base_url.rstrip("/")
    with _GATES_LOCK:
        gate = _GATES.get(key)
        if gate is None:
            gate = _GATES[key] = EndpointGate(key)
        return gate
