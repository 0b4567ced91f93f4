"""Baseline brains: null (calm constant), random (seeded), replay (files read back)."""

from __future__ import annotations

import json

import pytest

from wmbench.brain.baselines import NULL_MOTION, NullBrain, RandomBrain, ReplayBrain, load_replay_book
from wmbench.core.directions import GRAMMAR_ORDER
from wmbench.core.errors import ConfigError
from wmbench.protocol.grammar import parse_reply

from .provider_fixtures import calm_scene, corridor_scene, example_scene

SCENES = (example_scene(), calm_scene(), corridor_scene())


# -- null ------------------------------------------------------------------------------------------------

def test_null_brain_is_calm_and_identical_for_every_scene():
    brain = NullBrain()
    texts = {brain.decide(scene).text for scene in SCENES}
    assert len(texts) == 1
    decision = parse_reply(texts.pop())
    assert decision.ok
    assert decision.prediction.verdicts() == {d: "safe" for d in GRAMMAR_ORDER}
    assert all(decision.prediction.get(d).reason == "open" for d in GRAMMAR_ORDER)
    assert decision.motion == NULL_MOTION


# -- random ----------------------------------------------------------------------------------------------

def draws(brain: RandomBrain, n: int = 30) -> list[str]:
    return [brain.decide(SCENES[i % len(SCENES)]).text for i in range(n)]


def test_random_brain_replies_are_well_formed_and_varied():
    brain = RandomBrain()
    brain.reset(seed=5)
    texts = draws(brain)
    for text in texts:
        decision = parse_reply(text)
        assert decision.ok, text
        assert set(decision.prediction.verdicts()) == set(GRAMMAR_ORDER)
    assert len(set(texts)) > 10


def test_random_brain_is_reproducible_per_seed():
    a, b = RandomBrain(), RandomBrain()
    a.reset(seed=42)
    b.reset(seed=42)
    assert draws(a) == draws(b)
    a.reset(seed=42)
    first = draws(a)
    a.reset(seed=43)
    assert draws(a) != first


def test_random_brain_reset_without_a_seed_starts_over_from_its_own_seed():
    brain = RandomBrain(seed=3)
    first = draws(brain)
    brain.reset()
    assert draws(brain) == first  # not a fresh generator from OS entropy


# -- replay ----------------------------------------------------------------------------------------------

def test_replay_jsonl_accepts_text_and_reply_keys_in_order(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text(
        json.dumps({"text": "first reply"}) + "\n\n" + json.dumps({"reply": "second reply"}) + "\n",
        encoding="utf-8")
    brain = ReplayBrain(path)
    assert [brain.decide(calm_scene()).text for _ in range(2)] == ["first reply", "second reply"]


def test_replay_plain_text_splits_on_blank_lines(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("PREDICT: a\nMOTION: one\n\n\n   \nPREDICT: b\nMOTION: two\n", encoding="utf-8")
    book = load_replay_book(path)
    assert book.shared == ("PREDICT: a\nMOTION: one", "PREDICT: b\nMOTION: two")


def test_replay_errors_when_exhausted_and_reset_rewinds(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("only reply\n", encoding="utf-8")
    brain = ReplayBrain(path)
    assert brain.decide(calm_scene()).text == "only reply"
    exhausted = brain.decide(calm_scene())
    assert exhausted.text == ""
    assert "replay exhausted: all 1 replies" in exhausted.error
    brain.reset(seed=0)
    assert brain.decide(calm_scene()).text == "only reply"


def test_replay_can_cycle(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("a\n\nb\n", encoding="utf-8")
    brain = ReplayBrain(path, on_exhausted="cycle")
    assert [brain.decide(calm_scene()).text for _ in range(5)] == ["a", "b", "a", "b", "a"]


def test_replay_per_scenario_sequences_follow_index(tmp_path):
    lines = [
        {"scenario": "S12", "index": 1, "text": "s12 second"},
        {"scenario": "s12", "index": 0, "text": "s12 first"},
        {"text": "shared"},
        {"scenario": "S13", "text": "s13 only"},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    brain = ReplayBrain(path)
    brain.start_scenario("S12")
    assert [brain.decide(calm_scene()).text for _ in range(2)] == ["s12 first", "s12 second"]
    assert "scenario S12" in brain.decide(calm_scene()).error
    brain.start_scenario("S13")
    assert brain.decide(calm_scene()).text == "s13 only"
    brain.start_scenario("S01")  # not in the file: the shared sequence
    assert brain.decide(calm_scene()).text == "shared"
    assert ReplayBrain(path, scenario="S12").decide(calm_scene()).text == "s12 first"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"text": "ok"}\n{"text": 3}\n', r"run.jsonl:2: expected a string under 'text' or 'reply'"),
        ('{"text": "ok"}\n{"text": "x", \n', r"run.jsonl:2: not valid JSON"),
        ('{"scenario": "S1", "index": 0, "text": "a"}\n{"scenario": "S1", "text": "b"}\n',
         "either every line"),
        ('{"scenario": "S1", "index": 0, "text": "a"}\n{"scenario": "S1", "index": 0, "text": "b"}\n',
         "duplicate 'index'"),
        ('{"index": -1, "text": "a"}\n', "non-negative integer"),
        ("\n  \n", "is empty"),
    ],
)
def test_replay_file_problems_are_reported_with_where_and_what(tmp_path, content, message):
    path = tmp_path / "run.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_replay_book(path)


def test_replay_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        ReplayBrain(tmp_path / "nope.jsonl")
    with pytest.raises(ValueError, match="on_exhausted"):
        ReplayBrain(tmp_path / "nope.jsonl", on_exhausted="loop")


@pytest.mark.parametrize("seed", ["abc", -2, True, 1.5])
def test_a_seed_option_that_is_not_a_non_negative_integer_is_named(seed):
    # `--option seed=abc` arrives as a str: numpy's "SeedSequence expects int ..." did not name the option
    with pytest.raises(ConfigError, match=f"^random: option seed must be a non-negative integer, got {seed!r}$"):
        RandomBrain(seed=seed)
