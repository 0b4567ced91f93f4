"""openai/<model> against real HTTP servers on 127.0.0.1: happy path, retries, time-outs, the cache."""

from __future__ import annotations

import time

import pytest

from tests.extras import needs_extra
from wmbench.brain.openai_provider import OpenAIBrain
from wmbench.brain.reference import ReferenceBrain
from wmbench.brain.registry import get_brain
from wmbench.brain.server import make_server

from .provider_fixtures import StubAction, StubServer, calm_scene, corridor_scene, example_scene

pytestmark = needs_extra("openai")

SECRET = "sk-test-secret-never-on-disk"
FAST_BACKOFF = {"backoff_base_s": 0.01, "backoff_max_s": 0.02}


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
        brain = OpenAIBrain("stub", base_url=stub.url, cache_dir=tmp_path, **FAST_BACKOFF)
        reply = brain.decide(example_scene())
    assert reply.error is None
    assert reply.text == "PREDICT: fine\nMOTION: fine"
    assert reply.retries == 1
    assert stub.requests == 2
    assert (reply.prompt_tokens, reply.completion_tokens) == (11, 7)


def test_persistent_failure_gives_up_after_max_retries(tmp_path):
    with StubServer(StubAction(status=500)) as stub:
        reply = OpenAIBrain("stub", base_url=stub.url, max_retries=2, cache_dir=tmp_path,
                            **FAST_BACKOFF).decide(example_scene())
    assert reply.text == ""
    assert reply.error.startswith("gave up after 3 attempts: HTTP 500")
    assert reply.retries == 2
    assert stub.requests == 3
    assert not list(tmp_path.rglob("*.json"))  # failures are never cached


def test_client_errors_are_not_retried(tmp_path):
    with StubServer(StubAction(status=400)) as stub:
        brain = OpenAIBrain("stub", base_url=stub.url, cache_dir=tmp_path, **FAST_BACKOFF)
        reply = brain.decide(calm_scene())
    assert reply.error.startswith("HTTP 400")
    assert (reply.retries, stub.requests) == (0, 1)


def test_hanging_server_times_out_into_an_error_reply(tmp_path):
    with StubServer(StubAction(hang=True)) as stub:
        brain = OpenAIBrain("stub", base_url=stub.url, timeout_s=0.3, max_retries=1, cache_dir=tmp_path,
                            **FAST_BACKOFF)
        start = time.perf_counter()
        reply = brain.decide(example_scene())  # must not raise
        elapsed = time.perf_counter() - start
    assert reply.text == ""
    assert "timed out after 0.3 s" in reply.error
    assert reply.retries == 1 and stub.requests == 2
    assert 0.6 <= reply.latency_s <= elapsed < 10.0


def test_backoff_is_exponential_with_seeded_jitter(tmp_path):
    def run(seed):
        sleeps: list[float] = []
        with StubServer(StubAction(status=502)) as stub:
            brain = OpenAIBrain("stub", base_url=stub.url, max_retries=3, cache_dir=tmp_path, seed=seed,
                                backoff_base_s=0.5, backoff_max_s=1.5, sleep=sleeps.append)
            brain.decide(calm_scene())
        return sleeps

    sleeps = run(seed=7)
    assert len(sleeps) == 3
    for delay, cap in zip(sleeps, (0.5, 1.0, 1.5)):  # caps: 0.5 * 2**attempt, limited to backoff_max_s
        assert 0.5 * cap <= delay <= cap
    assert run(seed=7) == sleeps
    assert run(seed=8) != sleeps


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


def test_reset_without_a_seed_replays_the_constructor_jitter(tmp_path):
    sleeps: list[float] = []
    with StubServer(StubAction(status=503)) as stub:
        brain = OpenAIBrain("stub", base_url=stub.url, max_retries=2, cache=False, seed=11,
                            sleep=sleeps.append)
        brain.decide(calm_scene())
        brain.reset()
        brain.decide(calm_scene())
    assert len(sleeps) == 4
    assert sleeps[:2] == sleeps[2:]


@pytest.mark.parametrize("status", [401, 500])
def test_an_error_body_that_echoes_the_key_is_redacted(tmp_path, status):
    echo = StubAction(status=status, message=f"Incorrect API key provided: {SECRET}")
    with StubServer(echo) as stub:
        reply = OpenAIBrain("stub", base_url=stub.url, api_key=SECRET, max_retries=1, cache_dir=tmp_path,
                            **FAST_BACKOFF).decide(calm_scene())
    assert reply.error is not None and "Incorrect API key provided: ***" in reply.error
    assert SECRET not in reply.error and SECRET not in repr(reply)
    assert not list(tmp_path.rglob("*"))  # nothing written for a failure


def test_a_reply_that_echoes_the_key_is_cached_redacted(tmp_path):
    """Issue 15: the cache stored an API key verbatim when a server echoed it back in a 200 reply."""
    plain_key = "plain-key-without-a-known-shape-4711"  # redacted because it is the key, not by its shape
    echo = StubAction(text=f"PREDICT: fwd=safe(open)\nMOTION: stand. key {plain_key} and {SECRET}")
    with StubServer(echo) as stub:
        brain = OpenAIBrain("stub", base_url=stub.url, api_key=plain_key, cache_dir=tmp_path, **FAST_BACKOFF)
        assert brain.decide(calm_scene()).error is None
    files = [p for p in tmp_path.rglob("*.json")]
    assert len(files) == 1
    stored = files[0].read_text(encoding="utf-8")
    assert plain_key not in stored and SECRET not in stored and "<redacted>" in stored
