"""The brain registry: spec lookup, lazy optional dependencies, clear errors, thread-safe brains."""

from __future__ import annotations

import asyncio
import importlib.util
from concurrent.futures import ThreadPoolExecutor

import pytest

from wmbench.brain.base import Brain, BrainReply
from wmbench.brain.errors import BrainSpecError, UnknownBrainError
from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome, adecide
from wmbench.brain.registry import BUILTIN_PROVIDERS, get_brain, list_brains
from wmbench.core.errors import MissingExtraError
from wmbench.protocol.grammar import parse_reply

from .provider_fixtures import calm_scene, corridor_scene, example_scene

OFFLINE_SPECS = ("reference", "null", "random")


@pytest.fixture
def replay_file(tmp_path):
    path = tmp_path / "replies.jsonl"
    path.write_text(
        '{"text": "PREDICT: left=safe(open), right=safe(open), fwd=danger(wall), back=safe(open)\\n'
        'MOTION: a person walks to the left"}\n', encoding="utf-8")
    return path


def test_list_brains_names_every_builtin_pattern():
    names = list_brains()
    expected = ("reference", "null", "random", "replay:<path>", "openai/<model>", "hf/<path>", "onnx/<path>")
    assert set(expected) <= set(names)
    assert names[: len(BUILTIN_PROVIDERS)] == [p.pattern for p in BUILTIN_PROVIDERS]


@pytest.mark.parametrize("spec", OFFLINE_SPECS)
def test_offline_brains_answer_every_scene_with_two_readable_lines(spec):
    brain = get_brain(spec)
    assert isinstance(brain, Brain)
    brain.reset(seed=3)
    for scene in (example_scene(), calm_scene(), corridor_scene()):
        reply = brain.decide(scene)
        assert isinstance(reply, BrainReply)
        assert reply.error is None
        assert reply.latency_s >= 0.0
        assert parse_reply(reply.text).ok, reply.text
    brain.close()


def test_replay_spec_passes_the_path(replay_file):
    brain = get_brain(f"replay:{replay_file}")
    assert brain.name == f"replay:{replay_file}"
    assert "walks to the left" in brain.decide(example_scene()).text


def test_options_reach_the_provider(replay_file):
    brain = get_brain(f"replay:{replay_file}", on_exhausted="cycle")
    texts = [brain.decide(calm_scene()).text for _ in range(3)]
    assert len(set(texts)) == 1 and texts[0]  # cycles instead of erroring


@pytest.mark.parametrize("spec", ["gpt-4o", "nul", "openai", "hf:folder", "", "  "])
def test_unknown_spec_is_a_value_error_listing_the_known_prefixes(spec):
    with pytest.raises(ValueError) as info:
        get_brain(spec)
    assert isinstance(info.value, UnknownBrainError)
    for pattern in ("openai/<model>", "hf/<path>", "onnx/<path>", "replay:<path>", "null"):
        assert pattern in str(info.value)


@pytest.mark.parametrize("spec", ["openai/", "hf/", "onnx/", "replay:"])
def test_known_prefix_without_argument_says_what_is_missing(spec):
    with pytest.raises(BrainSpecError, match="needs a"):
        get_brain(spec)


@pytest.mark.parametrize(
    ("spec", "extra", "module"),
    [("openai/some-model", "openai", "openai"), ("hf/some/folder", "hf", "transformers"),
     ("onnx/some/folder", "onnx", "onnxruntime")],
)
def test_missing_optional_dependency_names_the_extra(monkeypatch, spec, extra, module):
    real_find_spec = importlib.util.find_spec

    def find_spec_without(name, *args, **kwargs):
        return None if name == module else real_find_spec(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec_without)
    with pytest.raises(MissingExtraError) as info:
        get_brain(spec)
    message = str(info.value)
    assert f"needs the '{extra}' extra: pip install 'wmbench[{extra}]'" in message
    assert message.startswith(spec.split("/")[0] + "/<")
    assert isinstance(info.value, ImportError)


class ExplodingBrain(ProviderBrain):
    name = provider = "exploding"

    def _respond(self, scene):
        raise ConnectionError("the provider is down")


class CountingBrain(ProviderBrain):
    """Checks that calls never overlap: the base lock must serialize them."""

    name = provider = "counting"

    def __init__(self):
        super().__init__()
        self.inside = 0
        self.overlaps = 0
        self.calls = 0

    def _respond(self, scene):
        self.inside += 1
        if self.inside > 1:
            self.overlaps += 1
        self.calls += 1
        total = sum(i * i for i in range(2000))  # some work so threads interleave
        self.inside -= 1
        return ProviderOutcome(text=f"call {self.calls} {total}")


def test_decide_never_raises_for_provider_failures():
    reply = ExplodingBrain().decide(example_scene())
    assert reply.text == ""
    assert reply.error == "ConnectionError: the provider is down"
    assert reply.latency_s >= 0.0


def test_calls_from_many_threads_are_serialized():
    brain = CountingBrain()
    with ThreadPoolExecutor(max_workers=8) as pool:
        replies = list(pool.map(lambda _: brain.decide(calm_scene()), range(64)))
    assert brain.overlaps == 0
    assert sorted(int(r.text.split()[1]) for r in replies) == list(range(1, 65))


def test_random_brain_from_threads_gives_the_same_replies_as_in_sequence():
    sequential = get_brain("random")
    sequential.reset(seed=11)
    expected = sorted(sequential.decide(calm_scene()).text for _ in range(40))
    threaded = get_brain("random")
    threaded.reset(seed=11)
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = sorted(r.text for r in pool.map(lambda _: threaded.decide(calm_scene()), range(40)))
    assert got == expected


def test_adecide_runs_in_a_worker_thread():
    brain = get_brain("null")

    async def both():
        return await brain.adecide(calm_scene()), await adecide(brain, calm_scene())

    first, second = asyncio.run(both())
    assert first.text == second.text == brain.decide(calm_scene()).text


def test_unknown_options_are_named_with_what_the_provider_accepts():
    with pytest.raises(TypeError, match=r"null: bad options \['temperature'\].*accepts: no options"):
        get_brain("null", temperature=0.5)
    with pytest.raises(TypeError, match="accepts: seed"):
        get_brain("random", sed=1)
