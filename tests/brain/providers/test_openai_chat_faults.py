"""openai/<model> against real misbehaving servers on 127.0.0.1: Retry-After, dripping bodies, 401,
unreachable ports, ``content: null``, failures in a row; the decision-aware cache; history; session ids."""

from __future__ import annotations

import re
import threading
import time

import pytest

from tests.brain.fault_servers import GOOD_TEXT, FaultServer, unused_port
from tests.brain.provider_fixtures import calm_scene, corridor_scene, example_scene
from wmbench.brain.prompt import build_messages, scene_to_json
from wmbench.brain.providers.openai_chat import OpenAIBrain

pytest.importorskip("openai")


def test_retry_after_is_honoured_and_every_decision_succeeds():
    with FaultServer.retry_after(1.0) as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=False, timeout_s=30)
        replies = [brain.decide(scene) for scene in (calm_scene(), example_scene())]
        brain.close()
    assert [r.error for r in replies] == [None, None]
    assert [r.text for r in replies] == [GOOD_TEXT, GOOD_TEXT]
    assert [r.retries for r in replies] == [1, 1]  # the client's retries_taken
    assert all(r.latency_s >= 0.95 for r in replies)  # waited as told (a lower bound: cannot flake)
    assert server.requests == 4


def test_a_dripping_body_ends_at_the_deadline():
    with FaultServer.drip(interval_s=0.2) as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=False, timeout_s=1.0, max_retries=3)
        reply = brain.decide(calm_scene())
        brain.close()
    assert reply.text == "" and "within the 1 s deadline" in reply.error
    assert not reply.fatal
    # it gave up at the deadline (a lower bound: cannot flake); the empty text and the deadline error above show
    # it did not wait for the whole body (86 s when each byte reset a per-read timer)
    assert reply.latency_s >= 1.0
    assert server.requests == 1


def test_401_is_fatal_with_the_servers_message_and_asks_no_more():
    with FaultServer.status(401, "Incorrect API key provided") as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=False)
        first, second = brain.decide(calm_scene()), brain.decide(calm_scene())
        brain.close()
    assert first.fatal and "answered HTTP 401: Incorrect API key provided" in first.error
    assert second.fatal and second.error == first.error
    assert server.requests == 1  # no retry, and the broken brain does not call again


def test_unreachable_endpoint_is_fatal():
    brain = OpenAIBrain("m", base_url=f"http://127.0.0.1:{unused_port()}/v1", cache=False, max_retries=1)
    reply = brain.decide(calm_scene())
    brain.close()
    assert reply.fatal and "cannot reach http://127.0.0.1:" in reply.error and "after 2 attempts" in reply.error


def test_content_null_is_a_failed_decision_and_never_cached(tmp_path):
    with FaultServer.content_null() as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=True, cache_dir=tmp_path)
        reply = brain.decide(calm_scene())
        again = brain.decide(calm_scene())
        brain.close()
    assert reply.text == "" and "content null" in reply.error
    assert not again.cached and server.requests == 2
    assert not list(tmp_path.rglob("*.json"))


def test_failures_in_a_row_stop_the_brain():
    with FaultServer.status(500, "overloaded") as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=False, max_retries=0, max_consecutive_failures=3)
        replies = [brain.decide(calm_scene()) for _ in range(4)]
        brain.close()
    assert [r.fatal for r in replies] == [False, False, True, True]
    assert "3 decisions in a row failed" in replies[2].error and "overloaded" in replies[2].error
    assert server.requests == 3


def test_temperature_above_zero_turns_the_cache_off_by_default(tmp_path):
    with FaultServer.reply(GOOD_TEXT) as server:
        brain = OpenAIBrain("m", base_url=server.url, temperature=1.0, cache_dir=tmp_path)
        assert brain.cache is None
        brain.decide(calm_scene())
        brain.close()
    assert not list(tmp_path.rglob("*.json"))


def test_cache_never_replays_across_seeds_or_decisions(tmp_path):
    """Forced on at temperature 1.0 over 3 seeds: each seed's decisions are misses, the same seed replays."""
    scenes = [calm_scene(), calm_scene(), example_scene()]  # the same scene twice: two decisions, two samples
    with FaultServer.reply(GOOD_TEXT) as server:
        def episode(seed: int) -> list[bool]:
            brain = OpenAIBrain("m", base_url=server.url, temperature=1.0, cache=True, cache_dir=tmp_path)
            brain.reset(seed)
            brain.start_episode({"scenario": "S01", "seed": seed})
            hits = [brain.decide(scene).cached for scene in scenes]
            brain.close()
            return hits

        assert [episode(seed) for seed in (0, 1, 2)] == [[False] * 3] * 3
        assert server.requests == 9
        assert episode(1) == [True] * 3  # the same scenario, seed and decisions: replayed
    assert len(list(tmp_path.rglob("*.json"))) == 9


def test_history_sends_earlier_turns_and_resets_per_episode():
    with FaultServer.reply(GOOD_TEXT) as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=False, history=1)
        brain.reset(0)
        brain.decide(calm_scene())
        brain.decide(example_scene())
        brain.reset(1)
        brain.decide(corridor_scene())
        brain.close()
    first, second, third = (body["messages"] for body in server.bodies)
    assert first == build_messages(calm_scene())
    system = build_messages(example_scene())[0]
    assert second == [system, {"role": "user", "content": scene_to_json(calm_scene())},
                      {"role": "assistant", "content": GOOD_TEXT},
                      {"role": "user", "content": scene_to_json(example_scene())}]
    assert third == build_messages(corridor_scene())  # a new episode starts with no history


def _two_episodes(**options) -> tuple[list[str], list[dict[str, str]]]:
    """Two episodes (S07 seed 3 with two decisions, then seed 4 with one) against a recording server: the
    ``user`` field and the lower-cased headers of every request."""
    with FaultServer.reply(GOOD_TEXT) as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=False, **options)
        brain.reset(3)
        brain.start_episode({"scenario": "S07", "seed": 3})
        brain.decide(calm_scene())
        brain.decide(calm_scene())
        brain.reset(4)
        brain.decide(calm_scene())
        brain.close()
    return ([body["user"] for body in server.bodies],
            [{k.lower(): v for k, v in h.items()} for h in server.headers])


def test_each_episode_has_its_own_opaque_session_id():
    """One session token per episode, as the only thing that tells episodes apart: 32 random hex digits, no
    scenario, seed or wmbench header on the wire (issue 20: no side channels)."""
    users, headers = _two_episodes()
    assert users[0] == users[1] != users[2]
    assert all(re.fullmatch(r"[0-9a-f]{32}", user) for user in users)
    assert not any(name.startswith("x-wmbench") for h in headers for name in h)


def test_debug_session_labels_name_the_episode_on_request():
    users, headers = _two_episodes(debug_session_labels=True)
    assert users[0] == users[1] != users[2] and users[0].startswith("wmbench-S07-seed3-")
    assert [h["x-wmbench-session"] for h in headers] == users
    assert [h["x-wmbench-seed"] for h in headers] == ["3", "3", "4"]


def test_the_deadline_returns_even_when_the_server_never_answers():
    released = threading.Event()

    def never_answer(h, body):
        h.server.fault.stop.wait(30)  # until the server closes (or 30 s pass)
        released.set()

    with FaultServer(never_answer) as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=False, timeout_s=0.5)
        reply = brain.decide(calm_scene())
        brain.close()
        still_hanging = not released.is_set()  # the reply came back while the server still held the request
    assert "deadline" in reply.error and still_hanging
    assert reply.latency_s >= 0.5  # it waited for the deadline (a lower bound: cannot flake)


def test_closing_the_brain_cuts_off_a_request_in_flight_and_later_ones():
    """The runner closes brains while a stopped run's last episodes may still be asking: nobody may hang."""
    released = threading.Event()

    def never_answer(h, body):
        h.server.fault.stop.wait(30)  # until the server closes (or 30 s pass)
        released.set()

    with FaultServer(never_answer) as server:
        brain = OpenAIBrain("m", base_url=server.url, cache=False, timeout_s=60)
        replies = []
        asking = threading.Thread(target=lambda: replies.append(brain.decide(calm_scene())))
        asking.start()
        while server.requests == 0:
            time.sleep(0.01)
        brain.close()
        asking.join()  # no wall-clock bound: a request that close() did not cut off ends only with the server
        assert not released.is_set()  # it ended while the server still held the request
        later = brain.decide(calm_scene())
    assert replies[0].fatal and "closed while a request was in flight" in replies[0].error
    assert later.fatal and later.error == replies[0].error  # nothing sent: the brain stays stopped


def test_a_reply_that_echoes_the_key_never_reaches_the_disk(tmp_path):
    secret = "sk-echo-secret-0123456789"
    with FaultServer.reply(f"PREDICT: left=safe(open)\nMOTION: my key is {secret}") as server:
        brain = OpenAIBrain("m", base_url=server.url, api_key=secret, cache=True, cache_dir=tmp_path)
        reply = brain.decide(calm_scene())
        brain.close()
    assert reply.error is None
    assert not any(secret in f.read_text() for f in tmp_path.rglob("*.json"))
