"""A Retry-After one brain gets holds every brain asking the same endpoint (real server on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from tests.brain.fault_servers import GOOD_TEXT, FaultServer, completion
from tests.brain.provider_fixtures import calm_scene
from wmbench.brain.providers.endpoint_gate import (
    EndpointGate,
    connection_budget,
    episode_priority,
    retry_after_seconds,
    shared_pauses,
)

pytest.importorskip("openai")
from wmbench.brain.providers.openai_chat import OpenAIBrain

PAUSE_S = 1.5


def first_request_rate_limited(arrivals: list[float]) -> FaultServer:
    """429 + Retry-After for the very first request to arrive; every later one answered. Arrival times kept."""
    def behave(h: Any, body: dict[str, Any]) -> None:
        arrivals.append(time.monotonic())
        if len(arrivals) == 1:
            h.send_json(429, {"error": {"message": "slow down", "type": "rate_limit"}},
                        {"Retry-After": f"{PAUSE_S:g}"})
        else:
            h.send_json(200, completion(GOOD_TEXT, body.get("model", "stub")))
    return FaultServer(behave)


def test_a_retry_after_pauses_the_other_brains_of_the_endpoint() -> None:
    arrivals: list[float] = []
    with first_request_rate_limited(arrivals) as server:
        first = OpenAIBrain("m", base_url=server.url, cache=False, timeout_s=30)
        other = OpenAIBrain("m", base_url=server.url, cache=False, timeout_s=30)
        worker = threading.Thread(target=lambda: first.decide(calm_scene()))
        worker.start()
        deadline = time.monotonic() + 20
        while not arrivals and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)  # the 429 has been answered
        reply = other.decide(calm_scene())  # a different brain instance, nothing rate-limited it itself
        worker.join()
        first.close()
        other.close()
    assert reply.error is None and reply.text == GOOD_TEXT
    assert len(arrivals) == 3
    # nobody asked again before the pause was over (lower bounds: cannot flake on a slow machine)
    assert all(t - arrivals[0] >= PAUSE_S - 0.05 for t in arrivals[1:])


def test_retry_after_forms_and_the_cap() -> None:
    assert retry_after_seconds({"Retry-After": "2"}) == 2.0
    assert retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert retry_after_seconds({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, now=1445412470.0) == 10.0
    assert retry_after_seconds({"Retry-After": "soon"}) is None
    assert retry_after_seconds({}) is None
    gate = EndpointGate()
    gate.pause(10_000)
    assert 59 < gate.remaining() <= 60


def test_the_connection_budget_holds_for_every_brain_of_the_process() -> None:
    """Six brain instances ask at once under a budget of two: the endpoint never sees more than two."""
    lock = threading.Condition()
    state = {"in_flight": 0, "peak": 0, "arrived": 0}

    def behave(h: Any, body: dict[str, Any]) -> None:
        with lock:  # hold each request until all six arrived (never, under the budget) or 1.5 s passed
            state["in_flight"] += 1
            state["arrived"] += 1
            state["peak"] = max(state["peak"], state["in_flight"])
            lock.notify_all()
            lock.wait_for(lambda: state["arrived"] >= 6, timeout=1.5)
            state["in_flight"] -= 1
        h.send_json(200, completion(GOOD_TEXT, body.get("model", "stub")))

    with FaultServer(behave) as server, connection_budget(2):
        brains = [OpenAIBrain("m", base_url=server.url, cache=False, timeout_s=30) for _ in range(6)]
        gate = brains[0]._gate
        replies: list[Any] = []
        threads = [threading.Thread(target=lambda b=b: replies.append(b.decide(calm_scene()))) for b in brains]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for brain in brains:
            brain.close()
    assert [r.error for r in replies] == [None] * 6
    assert state["peak"] <= 2  # without the budget all six are held at the endpoint together
    assert gate.peak == 2  # the budget was used: a second request went out while the first was held


def test_a_free_slot_goes_to_the_episode_with_most_requests_to_come() -> None:
    gate = EndpointGate()
    order: list[int] = []

    def ask(expected: int) -> None:
        with episode_priority(expected), gate.connection():
            order.append(expected)

    with connection_budget(1):
        with gate.connection():  # the only slot is taken: everyone queues
            threads = [threading.Thread(target=ask, args=(rank,)) for rank in (5, 1, 3)]
            for thread in threads:
                thread.start()
            deadline = time.monotonic() + 20
            while len(gate._waiting) < 3 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert len(gate._waiting) == 3
        for thread in threads:
            thread.join()
    assert order == [5, 3, 1] and gate.peak == 1
    with pytest.raises(ValueError, match="at least 1"), connection_budget(0):
        pass


class DictBoard:
    """An in-process :class:`~wmbench.brain.providers.endpoint_gate.SharedPauses` (the Ray actor's contract)."""

    def __init__(self) -> None:
        self.held: dict[str, float] = {}
        self.asked: list[str] = []

    def until(self, endpoint: str) -> float:
        self.asked.append(endpoint)
        return self.held.get(endpoint, 0.0)

    def hold_until(self, endpoint: str, until: float) -> None:
        self.held[endpoint] = max(self.held.get(endpoint, 0.0), until)


class BrokenBoard:
    def until(self, endpoint: str) -> float:
        raise ConnectionError("the run's board is gone")

    def hold_until(self, endpoint: str, until: float) -> None:
        raise ConnectionError("the run's board is gone")


def test_a_shared_board_pause_holds_this_process_and_a_pause_here_reaches_the_board() -> None:
    httpx = pytest.importorskip("httpx")
    board = DictBoard()
    gate = EndpointGate("http://x/v1")
    board.hold_until("http://x/v1", time.time() + 0.3)  # another process got a Retry-After
    with shared_pauses(board):
        started = time.monotonic()
        asyncio.run(gate.before_request(None))
        waited = time.monotonic() - started
        refused = httpx.Response(429, headers={"Retry-After": "5"})
        before = time.time()
        asyncio.run(gate.after_response(refused))
    assert waited >= 0.25 and board.asked[0] == "http://x/v1"
    assert board.held["http://x/v1"] >= before + 5 - 0.01  # the others are told
    assert 4 < gate.remaining() <= 5  # and this process pauses too
    asked = len(board.asked)
    asyncio.run(EndpointGate("http://x/v1").before_request(None))  # outside shared_pauses: no board
    assert len(board.asked) == asked


def test_a_broken_board_is_ignored() -> None:
    httpx = pytest.importorskip("httpx")
    gate = EndpointGate("http://y/v1")
    with shared_pauses(BrokenBoard()):
        asyncio.run(gate.before_request(None))  # no wait, no error
        asyncio.run(gate.after_response(httpx.Response(429, headers={"Retry-After": "1"})))
    assert 0 < gate.remaining() <= 1  # the local pause still holds
