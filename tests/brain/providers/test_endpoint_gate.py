"""A Retry-After one brain gets holds every brain asking the same endpoint (real server on 127.0.0.1)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from tests.brain.fault_servers import GOOD_TEXT, FaultServer, completion
from tests.brain.provider_fixtures import calm_scene
from wmbench.brain.providers.endpoint_gate import EndpointGate, retry_after_seconds

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
