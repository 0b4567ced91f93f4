"""C08 expressiveness: richness x fitting emotion x realized body style, per scenario selection."""

from __future__ import annotations

import pytest

from tests.scoring.trace_factory import CALM, TraceBuilder, npc, truth
from wmbench.scoring import score_trace
from wmbench.scoring.c08 import EARLY_RECOVERY_DECISIONS, PREMATURE_RELIEF_FACTOR, richness_points
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
    assert s.score == 20.0 and len(s.evidence["decisions"]) == EARLY_RECOVERY_DECISIONS == 2


def test_s37_judges_caution_right_after_the_threat_and_lets_the_brain_relax_later() -> None:
    """The prompt: "When the threat has just gone: stay vigilant, then relax gradually" — relaxing after the
    first decisions of the recovery is the prompt's own sequence, not a missing caution."""
    b = TraceBuilder("S37").repeat(2, STOPPED, motion="a person sprints away", move="back", speed="sprint")
    b.repeat(2, GONE, motion="a person walks on warily, slowly, head turning", move="fwd", speed="walk")
    b.repeat(3, GONE, motion="a person walks on at ease, breathing out, shoulders loose", move="fwd", speed="walk")
    assert score_trace(b.build()).score == 20.0


def test_s38_first_sight_window() -> None:
    b = TraceBuilder("S38").repeat(2, GONE, motion="a person walks on calmly, relaxed", move="fwd")
    b.repeat(2, STOPPED, motion="a person freezes, holding breath, muscles tense", posture="freeze")
    b.repeat(3, STOPPED, motion="a person backs away", move="back")
    s = score_trace(b.build())
    assert s.score == 20.0 and [d["index"] for d in s.evidence["decisions"]] == [2]  # the moment of first sight


def test_s39_relief_must_be_slow() -> None:
    relief = "a person exhales, shoulders drop, walking slowly"
    b = TraceBuilder("S39").repeat(2, STOPPED, motion="a person backs away", move="back")
    b.repeat(2, GONE, motion=relief, move="fwd", speed="run")
    assert score_trace(b.build()).score == 20.0 * BODY_MISMATCH_FACTOR
    b.repeat(2, GONE, motion=relief, move="fwd", speed="walk")  # the transition, once, at a walk: full marks
    assert score_trace(b.build()).score == 20.0


def test_s39_relief_before_the_beast_has_left_forfeits() -> None:
    """Relief is the transition after the threat has gone (the spec: "after confirming safety"); a brain that is
    relieved all along, with the beast still standing there, does not show it."""
    relief = "a person walks back slowly, relieved, breathing out, shoulders relaxing"
    b = TraceBuilder("S39").repeat(2, STOPPED, motion=relief, move="back").repeat(3, GONE, motion=relief,
                                                                                  move="fwd")
    s = score_trace(b.build())
    assert s.score == 20.0 * PREMATURE_RELIEF_FACTOR == 0.0 and "before the beast had left" in s.explanation
    honest = TraceBuilder("S39").repeat(2, STOPPED, motion="a person backs away warily", move="back")
    assert score_trace(honest.repeat(3, GONE, motion=relief, move="fwd").build()).score == 20.0


def test_wrong_motion_anywhere_in_the_episode_forfeits_the_expression() -> None:
    """Issue 20: C08 multiplies expressiveness by fit, so wrong motion earns nothing — a fine relief after the
    body walked at the beast is not the expression of an escape (the mirrored brain's S39)."""
    relief = "a person exhales, shoulders drop, walking slowly"
    b = TraceBuilder("S39").repeat(1, STOPPED, motion="a person stands, watchful", move=None)
    b.step(STOPPED, motion="a person walks warily", move="fwd")  # into the beast's sector
    s = score_trace(b.repeat(3, GONE, motion=relief, move="fwd").build())
    assert s.score == 0.0 and "wrong motion at decision 1" in s.explanation


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
    The repetition is no longer charged: a calm answer given before and after earns what its expression is worth
    (two descriptors, no relief word: the emotion is missing). (That template itself now loses S39 for two other
    stated reasons: it walks forward into the beast's sector on the spec's layout, and "relaxed" is relief
    before the beast has left.)"""
    calm = "a person walks back calmly, composed and steady"
    leaving = truth(npcs=[npc("beast", "retreat", 7.5, "fwd")])  # farther than STOPPED's 7 m: it moves off
    b = TraceBuilder("S39").repeat(1, STOPPED, motion=calm, move="back").repeat(2, leaving, motion=calm,
                                                                                  move="back")
    b.repeat(3, GONE, motion=calm, move="back")
    assert score_trace(b.build()).score == richness_points(2) * EMOTION_MISSING_FACTOR == 7.5


def test_s38_repeating_the_answer_given_before_the_beast_appeared_still_counts() -> None:
    frozen = "a person freezes, holding breath, muscles tense"
    b = TraceBuilder("S38").repeat(2, GONE, motion=frozen, posture="freeze")
    b.repeat(2, STOPPED, motion=frozen, posture="freeze")
    assert score_trace(b.build()).score == 0.0


def test_s40_walking_toward_the_approaching_person_is_wrong_motion() -> None:
    """The prompt: "A person coming close: step back calmly with hands raised" — a defensive sentence while the
    body walks toward her (the mirrored brain with her at the side) earns nothing."""
    words = "a person steps back defensively, hands raised, palms out, not aggressive"
    side = truth(npcs=[npc("woman", "approach", 3.0, "left")])
    toward = TraceBuilder("S40")
    toward.step(side, motion=words, move="left")
    s = score_trace(toward.repeat(2, WOMAN, motion=words, move="back", face_travel=False).build())
    assert s.score == 0.0 and "toward the approaching person" in s.explanation
    away = TraceBuilder("S40")
    away.step(side, motion=words, move="right")
    assert score_trace(away.repeat(2, WOMAN, motion=words, move="back", face_travel=False).build()).score == 20.0
