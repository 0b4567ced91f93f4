"""openai/<model> against real HTTP servers on 127.0.0.1: happy path, retries, time-outs, the cache."""

from __future__ import annotations

import time

import pytest

from tests.brain.provider_fixtures import StubAction, StubServer, calm_scene, corridor_scene, example_scene
from tests.extras import needs_extra
from wmbench.brain.providers.openai_chat import OpenAIBrain
from wmbench.brain.reference.brain import ReferenceBrain
from wmbench.brain.registry import get_brain
from wmbench.brain.server.endpoint import make_server

pytestmark = needs_extra("openai")

SECRET = "sk-test-secret-never-on-disk"


@pytest.fixture
def reference_server():
    server = make_server("reference")
    server.start_in_thread()
    yield server
    server.close()


def test_happy_path_through_a_served_reference_brain(reference_server, tmp_path):
    brain = get_brain("openai/reference", base_url=reference_server.url, api_key=SECRET, cache_dir=tmp_path)
    local = ReferenceBrain()  # stateful (affect carries over), so it sees the same sequence of scenes
    for scene in (example_scene(), calm_scene(), corridor_scene()):
        reply = brain.decide(scene)
        assert reply.error is None
        assert reply.text == local.decide(scene).text  # the served brain's answer, unchanged
        assert (reply.provider, reply.model) == ("openai", "reference")
        assert reply.prompt_tokens > 0 and reply.completion_tokens > 0
        assert reply.retries == 0 and not reply.cached
        assert reply.latency_s > 0.0
    assert reference_server.requests_served == 3
    brain.close()


def test_rerun_is_served_from_the_cache_without_reaching_the_server(reference_server, tmp_path):
    scene = example_scene()
    first = get_brain("openai/reference", base_url=reference_server.url, api_key=SECRET, cache_dir=tmp_path)
    fresh = first.decide(scene)
    assert not fresh.cached
    served = reference_server.requests_served
    rerun = get_brain("openai/reference", base_url=reference_server.url, api_key=SECRET, cache_dir=tmp_path)
    again = rerun.decide(scene)
    assert again.cached and again.error is None
    assert again.text == fresh.text
    assert (again.prompt_tokens, again.completion_tokens) == (fresh.prompt_tokens, fresh.completion_tokens)
    assert reference_server.requests_served == served  # nothing reached the server
    # a different request (scene or params) is a miss
    rerun.decide(calm_scene())
    assert reference_server.requests_served == served + 1
    files = list(tmp_path.rglob("*.json"))
    assert len(files) == 2
    assert all(SECRET not in f.read_text() for f in files)


def test_cache_off_always_asks_the_server(reference_server):
    brain = get_brain("openai/reference", base_url=reference_server.url, cache=False)
    brain.decide(calm_scene())
    brain.decide(calm_scene())
    assert reference_server.requests_served == 2


@pytest.mark.parametrize("status", [500, 503, 429])
def test_transient_failure_is_retried(tmp_path, status):
    with StubServer(StubAction(status=status), StubAction(text="PREDICT: fine\nMOTION: fine")) as stub:
        brain = OpenAIBrain("stub", base_url=stub.url, cache_dir=tmp_path)
        reply = brain.decide(example_scene())
    assert reply.error is None
    assert reply.text == "PREDICT: fine\nMOTION: fine"
    assert reply.retries == 1
    assert stub.requests == 2
    assert (reply.prompt_tokens, reply.completion_tokens) == (11, 7)


def test_persistent_failure_gives_up_after_max_retries(tmp_path):
    with StubServer(StubAction(status=500)) as stub:
        reply = OpenAIBrain("stub", base_url=stub.url, max_retries=1, cache_dir=tmp_path).decide(example_scene())
    assert reply.text == ""
    assert "answered HTTP 500: stub says 500" in reply.error
    assert not reply.fatal  # a server error may pass; only a run of them stops the brain
    assert stub.requests == 2
    assert not list(tmp_path.rglob("*.json"))  # failures are never cached


def test_client_errors_are_not_retried(tmp_path):
    with StubServer(StubAction(status=400)) as stub:
        brain = OpenAIBrain("stub", base_url=stub.url, cache_dir=tmp_path)
        reply = brain.decide(calm_scene())
    assert "answered HTTP 400" in reply.error
    assert (reply.retries, stub.requests) == (0, 1)


def test_hanging_server_times_out_into_an_error_reply(tmp_path):
    with StubServer(StubAction(hang=True)) as stub:
        brain = OpenAIBrain("stub", base_url=stub.url, timeout_s=0.3, max_retries=1, cache_dir=tmp_path)
        start = time.perf_counter()
        reply = brain.decide(example_scene())  # must not raise
        elapsed = time.perf_counter() - start
    assert reply.text == ""
    assert "within the 0.3 s deadline" in reply.error
    assert stub.requests == 1  # the deadline covers every attempt: no second one fits
    # a lower bound only: the deadline error above (not a dropped connection after the stub's 30 s) shows it
    # did not wait for the server
    assert 0.3 <= reply.latency_s <= elapsed


def test_endpoint_and_key_come_from_the_environment(reference_server, monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_BASE_URL", reference_server.url)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    brain = get_brain("openai/reference", cache=False)
    assert brain.base_url.rstrip("/") == reference_server.url
    assert brain.decide(calm_scene()).error is None
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    assert SECRET not in repr(get_brain("openai/reference", cache=False))


def test_messages_are_the_prompt_module_messages(tmp_path):
    from wmbench.brain.prompt import build_messages

    with StubServer(StubAction()) as stub:
        brain = OpenAIBrain("stub", base_url=stub.url, cache=False, temperature=0.0, max_tokens=64)
        brain.decide(calm_scene())
    body = stub.bodies[0]
    assert body["messages"] == build_messages(calm_scene())
    assert (body["model"], body["temperature"], body["max_tokens"]) == ("stub", 0.0, 64)


def test_a_cache_that_cannot_be_written_does_not_fail_the_reply(tmp_path):
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder should be")  # every write fails with an OSError
    with StubServer(StubAction(text="PREDICT: left=safe\nMOTION: go")) as stub:
        reply = OpenAIBrain("stub", base_url=stub.url, cache_dir=blocker).decide(calm_scene())
    assert reply.error is None
    assert reply.text == "PREDICT: left=safe\nMOTION: go"


@pytest.mark.parametrize("status", [401, 500])
def test_an_error_body_that_echoes_the_key_is_redacted(tmp_path, status):
    echo = StubAction(status=status, message=f"Incorrect API key provided: {SECRET}")
    with StubServer(echo) as stub:
        brain = OpenAIBrain("stub", base_url=stub.url, api_key=SECRET, max_retries=1, cache_dir=tmp_path)
        reply = brain.decide(calm_scene())
    assert reply.error is not None and "Incorrect API key provided: ***" in reply.error
    assert SECRET not in reply.error and SECRET not in repr(reply)
    assert not list(tmp_path.rglob("*"))  # nothing written for a failure


def test_a_reply_that_echoes_the_key_is_cached_redacted(tmp_path):
    """Issue 15: the cache stored an API key verbatim when a server echoed it back in a 200 reply."""
    plain_key = "plain-key-without-a-known-shape-4711"  # redacted because it is the key, not by its shape
    echo = StubAction(text=f"PREDICT: fwd=safe(open)\nMOTION: stand. key {plain_key} and {SECRET}")
    with StubServer(echo) as stub:
        brain = OpenAIBrain("stub", base_url=stub.url, api_key=plain_key, cache_dir=tmp_path)
        assert brain.decide(calm_scene()).error is None
    files = [p for p in tmp_path.rglob("*.json")]
    assert len(files) == 1
    stored = files[0].read_text(encoding="utf-8")
    assert plain_key not in stored and SECRET not in stored and "<redacted>" in stored
