"""MOTION text -> MotionIntent: a table of phrasings, the spec's keyword banks, the lexicon, robustness."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wmbench.body.intent import lexicon
from wmbench.body.intent.phrases import PHRASES, lemma_words
from wmbench.body.intent.reader import parse_motion
from wmbench.body.intent.record import STYLE_TAGS, MotionIntent
from wmbench.core.directions import DIRECTION_HEADINGS
from wmbench.core.speed import SpeedClass

S = SpeedClass
# (phrase, direction, speed class, styles that must be present, face_travel)
CASES: list[tuple[str, str | None, SpeedClass, set[str], bool]] = [
    ("a person sprints to the right in terror, glancing back over the shoulder", "right", S.SPRINT,
     {"fear", "terror", "glance_back"}, True),
    ("bolts left", "left", S.SPRINT, set(), True),
    ("dashes forward", "fwd", S.SPRINT, set(), True),
    ("races ahead", "fwd", S.SPRINT, set(), True),
    ("flees to the left", "left", S.SPRINT, set(), True),
    ("runs for its life to the right", "right", S.SPRINT, set(), True),
    ("desperately runs left", "left", S.SPRINT, {"desperate"}, True),
    ("runs frantically to the right", "right", S.SPRINT, {"desperate"}, True),
    ("runs to the right", "right", S.RUN, set(), True),
    ("rushes forward", "fwd", S.RUN, set(), True),
    ("scrambles rightward", "right", S.RUN, set(), True),
    ("hurries away", "back", S.RUN, {"hurry"}, True),
    ("jogs to the left", "left", S.JOG, set(), True),
    ("trots ahead", "fwd", S.JOG, set(), True),
    ("walks quickly to the right", "right", S.JOG, set(), True),
    ("hurries left", "left", S.JOG, {"hurry"}, True),
    ("walks forward calmly", "fwd", S.WALK, {"calm"}, True),
    ("edges left", "left", S.WALK, set(), True),
    ("moves cautiously to the left", "left", S.WALK, {"caution"}, True),
    ("creeps right, crouching low", "right", S.WALK, {"crouch", "caution"}, True),
    ("backs away slowly with arms raised defensively", "back", S.WALK, {"backstep", "defensive"}, False),
    ("steps back warily", "back", S.WALK, {"backstep", "caution"}, False),
    ("back-steps, hands up", "back", S.WALK, {"backstep", "defensive"}, False),
    ("retreats cautiously", "back", S.WALK, {"backstep", "caution"}, False),
    ("turns and backs away", "back", S.WALK, {"backstep"}, True),
    ("backs away to the left", "left", S.WALK, {"backstep"}, False),
    ("sidesteps right", "right", S.WALK, set(), False),
    ("turns around and sprints", "back", S.SPRINT, set(), True),
    ("sprints backward", "back", S.SPRINT, set(), True),
    ("runs away", "back", S.RUN, set(), True),
    ("sprints away from the beast ahead", "back", S.SPRINT, set(), True),
    ("flees from the lion behind her", "fwd", S.SPRINT, set(), True),
    ("veers right", "right", S.WALK, set(), True),
    ("flanks left at a run", "left", S.RUN, set(), True),
    ("sprints forward-left", "fwd", S.SPRINT, set(), True),
    ("runs right, then left", "right", S.RUN, set(), True),
    ("does not run right, sprints left", "left", S.SPRINT, set(), True),
    ("instead of going right, goes left", "left", S.WALK, set(), True),
    ("never toward the beast, bolts right", "right", S.SPRINT, set(), True),
    ("rather than running left, walks right", "right", S.WALK, set(), True),
    ("runs left, not right", "left", S.RUN, set(), True),
    ("the lion charges from the left, so she bolts right", "right", S.SPRINT, set(), True),
    ("with the wall on her left, she walks", "fwd", S.WALK, set(), True),
    ("runs right away from the wolf", "right", S.RUN, set(), True),
    # "right" after "to" is the side even when an idiom word follows (was read as "right at" = directly, fwd)
    ("walks to the right at an easy pace", "right", S.WALK, set(), True),
    ("walks off to the right at an easy pace", "right", S.WALK, set(), True),
    ("runs right at the beast", "fwd", S.RUN, set(), True),
    ("the beast has left; she exhales with relief and walks forward", "fwd", S.WALK, {"relief"}, True),
    ("walks, not panicking", "fwd", S.WALK, set(), True),
    ("freezes in terror", None, S.STILL, {"freeze", "fear", "terror"}, True),
    ("frozen, rooted to the spot, tense", None, S.STILL, {"freeze", "tense"}, True),
    ("stands still, scanning the area, alert", None, S.STILL, {"vigilant"}, True),
    ("stops running and catches her breath", None, S.STILL, {"relief"}, True),
    ("waits, looking around warily", None, S.STILL, {"vigilant", "caution"}, True),
    ("hovers in place", None, S.STILL, set(), True),
    ("stays put", None, S.STILL, set(), True),
    ("climbs onto the ledge", None, S.STILL, {"climb"}, True),
    ("a normal, natural walk", "fwd", S.WALK, {"normal"}, True),
    ("a relaxed, casual stroll to the right", "right", S.WALK, {"calm"}, True),
    ("to the left, quickly!", "left", S.JOG, set(), True),
    ("", None, S.STILL, set(), True),
    ("%%% 1234 @@@", None, S.STILL, set(), True),
]


def test_table_is_big_enough():
    assert len(CASES) >= 40


@pytest.mark.parametrize(("text", "direction", "speed", "styles", "face_travel"), CASES,
                         ids=[c[0] for c in CASES])
def test_phrases(text, direction, speed, styles, face_travel):
    intent = parse_motion(text)
    assert intent.direction == direction
    assert intent.speed_class is speed
    assert styles <= intent.styles, intent.styles
    assert intent.face_travel is face_travel
    assert intent.source == text
    if direction is not None:
        assert intent.heading == pytest.approx(DIRECTION_HEADINGS[direction])
        assert intent.moving


def test_negated_styles_are_dropped():
    assert "fear" not in parse_motion("walks left, without fear").styles
    assert "calm" not in parse_motion("sprints right, never calm").styles


def test_garbage_is_still_without_styles():
    intent = parse_motion("zzzz qqq")
    assert intent == MotionIntent.still(source="zzzz qqq")


def test_non_text_is_still():
    assert parse_motion(None) == MotionIntent.still()    # type: ignore[arg-type]
    assert parse_motion(b"run left").direction is None    # type: ignore[arg-type]


def test_headings():
    assert {"fwd": 0.0, "left": math.pi / 2, "right": -math.pi / 2, "back": math.pi} == DIRECTION_HEADINGS


# ------------------------------------------------------------------------------------- the spec's banks
_BANK_WORDS = [(level, word) for level, words in lexicon.SPEC_INTENSITY_BANKS.items() for word in words]


def _level(intent: MotionIntent) -> str:
    if intent.speed_class.rank >= S.RUN.rank or intent.styles & {"desperate", "terror"}:
        return "high"
    if intent.speed_class is S.JOG or intent.styles & {"caution", "backstep"}:
        return "medium"
    return "low"


@pytest.mark.parametrize(("level", "word"), _BANK_WORDS, ids=[w for _, w in _BANK_WORDS])
def test_every_spec_bank_word_is_understood(level, word):
    intent = parse_motion(f"a person {word} to the left")
    assert _level(intent) == level, intent
    assert intent.direction == ("left" if word != "stand" else None)


def test_banks_are_the_spec_banks():
    assert lexicon.SPEC_INTENSITY_BANKS["high"] == ("sprint", "run", "desperate", "frantic", "terror", "flee")
    assert lexicon.SPEC_INTENSITY_BANKS["medium"] == ("walk quickly", "step back", "retreat", "cautious")
    assert lexicon.SPEC_INTENSITY_BANKS["low"] == ("walk", "turn", "move", "stand")


# ----------------------------------------------------------------------------------------- the lexicon
def test_lexicon_tags_and_classes_are_valid():
    for styles in lexicon.STYLE_PHRASES.values():
        assert set(styles) <= STYLE_TAGS
    assert set(lexicon.SPEED_PHRASES.values()) <= {s.value for s in SpeedClass}
    assert set(lexicon.DIRECTION_WORDS.values()) | set(lexicon.DIRECTION_PHRASES.values()) <= set(
        DIRECTION_HEADINGS)
    assert all(key for key in PHRASES)


@pytest.mark.parametrize(("form", "lemma"), [("sprints", "sprint"), ("sprinting", "sprint"), ("ran", "run"),
                                             ("running", "run"), ("hurries", "hurry"), ("racing", "race"),
                                             ("stepped", "step"), ("fled", "flee"), ("backs", "back")])
def test_lemmas(form, lemma):
    assert lemma_words(form) == [lemma]


# --------------------------------------------------------------------------------------- robustness
def _check(intent: MotionIntent) -> None:
    assert isinstance(intent, MotionIntent)
    assert intent.styles <= STYLE_TAGS
    if intent.direction is None:
        assert intent.speed_class is S.STILL
    else:
        assert intent.heading == DIRECTION_HEADINGS[intent.direction]
        assert intent.speed_class is not S.STILL


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_raises_on_text(text):
    _check(parse_motion(text))


_WORDS = sorted({w for phrase in [*lexicon.SPEED_PHRASES, *lexicon.STYLE_PHRASES, *lexicon.DIRECTION_WORDS,
                                  *lexicon.NEGATORS, *lexicon.CLAUSE_BREAKS, *lexicon.THREAT_NOUNS]
                 for w in phrase.split()} | {",", ".", "from", "to", "the", "away", "not"})


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=25).map(" ".join))
def test_never_raises_on_lexicon_soup(text):
    _check(parse_motion(text))


def test_long_text_is_fast():
    import time

    start = time.thread_time()  # CPU time of this thread: a busy machine does not inflate it, wall time would
    _check(parse_motion("runs left " * 50_000))
    assert time.thread_time() - start < 2.0  # linear parsing takes milliseconds; a quadratic one, minutes
