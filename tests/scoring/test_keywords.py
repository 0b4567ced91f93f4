"""Keyword banks: word matching (inflections, no substrings, negation) and user extension."""

from __future__ import annotations

import json

import pytest

from wmbench.scoring.keywords import load_banks, token_matches, tokenize


@pytest.mark.parametrize(("token", "word"), [
    ("runs", "run"), ("running", "run"), ("stepped", "step"), ("moving", "move"), ("warily", "wary"),
    ("desperately", "desperate"), ("sprints", "sprint"), ("cautiously", "cautious"), ("fleeing", "flee"),
])
def test_inflections_match(token: str, word: str) -> None:
    assert token_matches(token, word)


@pytest.mark.parametrize(("token", "word"), [("understand", "stand"), ("rung", "run"), ("movies", "move"),
                                             ("walker's", "walk")])
def test_non_inflections_do_not_match(token: str, word: str) -> None:
    assert not token_matches(token, word)


def test_tokenize_splits_clauses_and_hyphens() -> None:
    expected = [["wide", "eyed"], ["he", "runs"], ["then", "stops"]]
    assert tokenize("Wide-eyed, he runs. Then stops!") == expected


def test_phrases_match_consecutive_words_only() -> None:
    banks = load_banks()
    assert banks.found_terms("she walks quickly away", ["walk quickly"]) == ["walk quickly"]
    assert banks.found_terms("she walks away quickly", ["walk quickly"]) == []


@pytest.mark.parametrize(("text", "found"), [
    ("a person does not run", []),
    ("a person runs without panic", ["run"]),
    ("no sprint, a person runs", ["run"]),        # negation stops at the clause boundary
    ("instead of running, she walks", []),
])
def test_negation_within_clause(text: str, found: list[str]) -> None:
    assert load_banks().found_terms(text, ["run", "panic"]) == found


def test_spec_intensity_words_are_kept() -> None:
    banks = load_banks()
    for word in ("sprint", "run", "desperate", "frantic", "terror", "flee"):
        assert word in banks.intensity["high"]
    for word in ("walk quickly", "step back", "retreat", "cautious"):
        assert word in banks.intensity["medium"]
    for word in ("walk", "turn", "move", "stand"):
        assert word in banks.intensity["low"]


def test_extension_merges_lists_and_adds_families(tmp_path) -> None:
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({
        "intensity": {"extreme": ["berserk"]},
        "emotions": {"awe": ["awestruck"], "fear": ["spooked"]},
        "memory_claims": ["like yesterday"],
    }))
    banks = load_banks(extra)
    assert "berserk" in banks.intensity["extreme"] and "terror" in banks.intensity["extreme"]
    assert banks.emotions["awe"] == ("awestruck",)
    assert "spooked" in banks.emotions["fear"] and "afraid" in banks.emotions["fear"]
    assert "like yesterday" in banks.memory_claims
    assert banks.found_terms("a person goes berserk", banks.intensity["extreme"]) == ["berserk"]
    assert "berserk" not in load_banks().intensity["extreme"]


@pytest.mark.parametrize(("content", "message"), [
    ({"colours": ["red"]}, "unknown keys"),
    ({"negators": "not"}, "list of strings"),
    ({"intensity": {"insane": ["x"]}}, "unknown intensity tiers"),
    ({"emotions": ["fear"]}, "must be an object"),
])
def test_bad_extension_is_rejected_with_a_clear_message(tmp_path, content: dict, message: str) -> None:
    extra = tmp_path / "bad.json"
    extra.write_text(json.dumps(content))
    with pytest.raises(ValueError, match=message):
        load_banks(extra)


def test_unreadable_extension(tmp_path) -> None:
    extra = tmp_path / "broken.json"
    extra.write_text("{not json")
    with pytest.raises(ValueError, match="readable JSON"):
        load_banks(extra)
