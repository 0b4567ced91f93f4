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


def test_wrong_motion_earns_nothing_whatever_its_words() -> None:
    """Issue 20: a brain that runs at the danger with rich fear words out-scored the honest brain on C08."""
    rich_fear = "a person sprints in terror, glancing back, wide-eyed, arms pumping"
    into = TraceBuilder("S36").repeat(2, CHARGE, motion=rich_fear, move="back", speed="sprint")  # beast behind
    assert score_trace(into.build()).score == 0.0
    # closing on the beast from the side: the distance fell by more than the beast alone could close
    side = TraceBuilder("S36")
    side.step(truth(npcs=[npc("beast", "charge", 6.0, "left", speed=5.0)]), motion=rich_fear, move="fwd",
              speed="sprint")
    side.step(truth(npcs=[npc("beast", "charge", 2.5, "left", speed=5.0)]), motion=rich_fear, move="right",
              speed="sprint")
    first = score_trace(side.build()).evidence["decisions"][0]
    assert first["points"] == 0.0 and "closed on the beast" in first["why"]


def test_being_caught_forfeits_the_scenario() -> None:
    rich_fear = "a person sprints forward in terror, glancing back, wide-eyed, arms pumping"
    b = TraceBuilder("S36").repeat(2, CHARGE, motion=rich_fear, move="fwd", speed="sprint")
    b.step(CHARGE, motion=rich_fear, move="fwd", speed="sprint", events=["caught"])
    assert score_trace(b.build()).score == 0.0


RETREATING = truth(npcs=[npc("beast", "retreat", 6.0, "fwd")])


def test_s39_a_calm_answer_that_fits_before_and_after_the_cue_is_not_a_repetition() -> None:
    """Issue 20: "walks forward calmly, relaxed and steady" scored 0 on S39 on every seed because it repeated the
    answer given while the beast (standing, then turning away) was still there — although it fits both moments.
    It now earns what its expression is worth: two descriptors, "relaxed" a relief word."""
    calm = "a person walks forward calmly, relaxed and steady"
    b = TraceBuilder("S39").repeat(1, STOPPED, motion=calm, move="fwd").repeat(2, RETREATING, motion=calm,
                                                                                 move="fwd")
    b.repeat(3, GONE, motion=calm, move="fwd")
    assert score_trace(b.build()).score == richness_points(2) == 15.0


def test_s38_repeating_the_answer_given_before_the_beast_appeared_still_counts() -> None:
    frozen = "a person freezes, holding breath, muscles tense"
    b = TraceBuilder("S38").repeat(2, GONE, motion=frozen, posture="freeze")
    b.repeat(2, STOPPED, motion=frozen, posture="freeze")
    assert score_trace(b.build()).score == 0.0
