"""C08 expressiveness: richness x fitting emotion x realized body style, per scenario selection."""

from __future__ import annotations

import pytest

from tests.scoring.trace_factory import CALM, TraceBuilder, npc, truth
from wmbench.scoring import score_trace
from wmbench.scoring.c08 import richness_points
from wmbench.scoring.thresholds import (
    BODY_MISMATCH_FACTOR,
    EMOTION_MISSING_FACTOR,
    EMOTION_MIXED_FACTOR,
)

CHARGE = truth(npcs=[npc("beast", "charge", 5.0, "back")])
STOPPED = truth(npcs=[npc("beast", "stop", 7.0, "fwd")])
GONE = truth()
WOMAN = truth(npcs=[npc("woman", "approach", 2.5, "fwd")])


@pytest.mark.parametrize(("count", "points"), [(0, 0.0), (1, 10.0), (2, 15.0), (3, 20.0), (7, 20.0)])
def test_richness_points(count, points) -> None:
    assert richness_points(count) == points


def s36(**kwargs) -> float:
    return score_trace(TraceBuilder("S36").repeat(1, CHARGE, **kwargs).build()).score


def test_s36_branches() -> None:
    rich_fear = "a person sprints forward in terror, glancing back, wide-eyed, arms pumping"
    assert s36(motion=rich_fear, move="fwd", speed="sprint") == 20.0
    assert s36(motion="a person sprints forward, glancing back, wide-eyed, arms pumping", move="fwd",
               speed="sprint") == 20.0 * EMOTION_MISSING_FACTOR
    mixed = rich_fear + ", relieved and calm"
    assert s36(motion=mixed, move="fwd", speed="sprint") == 20.0 * EMOTION_MIXED_FACTOR
    assert s36(motion=rich_fear, move="fwd", speed="walk") == 20.0 * BODY_MISMATCH_FACTOR
    assert s36(motion="a person sprints forward in terror", move="fwd", speed="run") == 10.0
    assert s36(motion="a person sprints forward", move="fwd", speed="sprint") == 0.0
    assert s36(predict=None, motion=rich_fear, move="fwd", speed="sprint") == 0.0


def test_constant_stuffed_reply_is_mixed_everywhere() -> None:
    stuffed = ("a person sprints desperately in frantic terror, fleeing in fear, cautious, wary, frozen, "
               "relieved, calm, defensive, hands raised, glancing back")
    assert s36(motion=stuffed, move="fwd", speed="sprint") == 20.0 * EMOTION_MIXED_FACTOR


def test_s37_cautious_walk_after_despawn() -> None:
    b = TraceBuilder("S37").repeat(2, STOPPED, motion="a person sprints away", move="back", speed="sprint")
    b.repeat(3, GONE, motion="a person walks on warily, slowly, head turning", move="fwd", speed="walk")
    s = score_trace(b.build())
    assert s.score == 20.0 and len(s.evidence["decisions"]) == 3


def test_s38_first_sight_window() -> None:
    b = TraceBuilder("S38").repeat(2, GONE, motion="a person walks on calmly, relaxed", move="fwd")
    b.repeat(2, STOPPED, motion="a person freezes, holding breath, muscles tense", posture="freeze")
    b.repeat(3, STOPPED, motion="a person backs away", move="back")
    s = score_trace(b.build())
    assert s.score == 20.0 and [d["index"] for d in s.evidence["decisions"]] == [2, 3]


def test_s39_relief_must_be_slow() -> None:
    relief = "a person exhales, shoulders drop, walking slowly"
    b = TraceBuilder("S39").repeat(2, STOPPED, motion="a person backs away", move="back")
    b.repeat(2, GONE, motion=relief, move="fwd", speed="walk")
    b.repeat(2, GONE, motion=relief, move="fwd", speed="run")
    assert score_trace(b.build()).score == (20.0 * 2 + 20.0 * BODY_MISMATCH_FACTOR * 2) / 4


def test_s40_back_step_keeps_facing() -> None:
    words = "a person steps back defensively, hands raised, palms out, not aggressive"
    kept = TraceBuilder("S40").repeat(2, WOMAN, motion=words, move="back", face_travel=False)
    assert score_trace(kept.build()).score == 20.0
    turned = TraceBuilder("S40").repeat(2, WOMAN, motion=words, move="back", face_travel=True)
    assert score_trace(turned.build()).score == 20.0 * BODY_MISMATCH_FACTOR
    aggressive = TraceBuilder("S40").repeat(2, WOMAN, motion=words.replace("not aggressive", "aggressive"),
                                             move="back", face_travel=False)
    assert score_trace(aggressive.build()).score == 20.0 * EMOTION_MIXED_FACTOR


def test_empty_selection_scores_the_whole_episode() -> None:
    s = score_trace(TraceBuilder("S40").repeat(2, GONE, motion=CALM).build())
    assert s.measured and "whole episode" in s.explanation
