"""C07 threat resolution: vigilance (S31), normalization (S32), obstacle (S33), re-activation (S34), S35."""

from __future__ import annotations

import pytest

from tests.scoring.trace_factory import CALM, TraceBuilder, npc, truth
from wmbench.scoring import score_trace
from wmbench.scoring.thresholds import CAUGHT_CAP

BEAST = truth(npcs=[npc("beast", "charge", 6.0, "back")])
GONE = truth()
WALL_AHEAD = truth(walls={"fwd": 1.5})
TERROR = {"motion": "a person sprints forward in terror, fleeing", "move": "fwd", "speed": "sprint"}
WARY_WALK = {"motion": "a person walks on warily, looking around", "move": "fwd", "speed": "walk"}
WALK = {"motion": "a person walks on", "move": "fwd", "speed": "walk"}
JOG = {"motion": "a person jogs on", "move": "fwd", "speed": "jog"}


def episode(sid, plan):
    b = TraceBuilder(sid)
    for t, kwargs, n in plan:
        b.repeat(n, t, **kwargs)
    return score_trace(b.build())


@pytest.mark.parametrize(("after", "expected"), [
    (WARY_WALK, (20.0, "vigilant")),
    ({"motion": "a person stands still, scanning around warily"}, (20.0, "vigilant")),
    (JOG, (20.0, "vigilant")),                                      # intermediate intensity
    (TERROR, (10.0, "still_fleeing")),
    ({"motion": CALM}, (0.0, "instant_calm")),
    ({"motion": "a person walks on warily", "move": "fwd", "events": ["collision:wall"]}, (0.0, "contact")),
])
def test_s31_window_after_despawn(after, expected) -> None:
    s = episode("S31", [(BEAST, TERROR, 3), (GONE, after, 2), (GONE, {"motion": CALM}, 4)])
    branches = [d["why"].split(":")[0] for d in s.evidence["decisions"]]
    assert (s.score, branches[0]) == expected and len(branches) == 2


def test_s31_episode_starting_in_recovery() -> None:
    s = episode("S31", [(GONE, WARY_WALK, 4)])
    assert s.score == 20.0


@pytest.mark.parametrize(("after", "points", "kind"), [
    ([(GONE, JOG, 2), (GONE, WARY_WALK, 2), (GONE, WALK, 4)], 20.0, "gradual"),
    ([(GONE, WARY_WALK, 2), (GONE, TERROR, 1), (GONE, WALK, 3)], 15.0, "uneven"),
    ([(GONE, {"motion": CALM}, 6)], 5.0, "instant"),
    ([(GONE, TERROR, 6)], 5.0, "stays_high"),
])
def test_s32_normalization(after, points, kind) -> None:
    s = episode("S32", [(BEAST, TERROR, 3), *after])
    assert s.score == points and s.evidence["sim"]["kind"] == kind


def test_s32_never_reacted() -> None:
    s = episode("S32", [(BEAST, {"motion": CALM}, 3), (GONE, {"motion": CALM}, 4)])
    assert s.score == 0.0 and s.evidence["sim"]["kind"] == "no_reaction"


def test_s32_starting_in_recovery_assumes_the_threat_was_real() -> None:
    assert episode("S32", [(GONE, JOG, 1), (GONE, WARY_WALK, 2), (GONE, WALK, 3)]).score == 20.0


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({"motion": "a person turns and walks left", "move": "left"}, (20.0, "ordinary_avoidance")),
    ({"motion": "a person sprints left in terror", "move": "left", "speed": "sprint"},
     (10.0, "still_panicked")),
    ({"motion": CALM}, (5.0, "held")),
    ({"motion": "a person walks on", "move": "fwd"}, (0.0, "into_obstacle")),
    ({"motion": "a person walks left", "move": "left", "events": ["collision:wall"]}, (0.0, "into_obstacle")),
])
def test_s33_obstacle_after_threat(kwargs, expected) -> None:
    s = episode("S33", [(BEAST, TERROR, 2), (WALL_AHEAD, kwargs, 2)])
    assert (s.score, s.evidence["decisions"][0]["why"].split(":")[0]) == expected


@pytest.mark.parametrize(("reaction", "points", "kind"), [
    ([(BEAST, TERROR, 3)], 20.0, "instant"),
    ([(BEAST, WALK, 1), (BEAST, TERROR, 2)], 20.0, "instant"),       # within one decision
    ([(BEAST, WALK, 2), (BEAST, TERROR, 2)], 10.0, "slow"),
    ([(BEAST, WALK, 4), (BEAST, TERROR, 1)], 5.0, "late"),
    ([(BEAST, WALK, 4)], 0.0, "none"),
])
def test_s34_reactivation(reaction, points, kind) -> None:
    s = episode("S34", [(BEAST, TERROR, 2), (GONE, WARY_WALK, 3), *reaction])
    assert s.score == points and kind in s.explanation


APPROACHING = truth(npcs=[npc("beast", "approach", 6.0, "left")])


@pytest.mark.parametrize(("reaction", "points", "kind"), [
    # the prompt's "retreat quickly and warily" from an approaching beast: a jog away, no flight words
    ([(APPROACHING, {"motion": "a person jogs off to the right, tense", "move": "right", "speed": "jog"}, 2)],
     20.0, "instant"),
    ([(APPROACHING, {"motion": "a person walks off to the right", "move": "right", "speed": "walk"}, 2)],
     0.0, "none"),
    ([(APPROACHING, {"motion": "a person jogs left", "move": "left", "speed": "jog"}, 2)], 0.0, "none"),
])
def test_s34_an_approaching_beast_calls_for_a_quick_retreat_not_only_a_flight(reaction, points, kind) -> None:
    """Issue 20: an honest brain that retreated at a jog from the new, approaching beast (what the prompt asks)
    got 0 because only a flight-level intensity counted as a reaction."""
    s = episode("S34", [(BEAST, TERROR, 2), (GONE, WARY_WALK, 3), *reaction])
    assert s.score == points and kind in s.explanation


@pytest.mark.parametrize(("after", "expected"), [
    ({"motion": "a person steps back", "move": "back", "face_travel": False}, (20.0, "vigilant")),
    ({"motion": "a person stands still", "posture": "crouch"}, (20.0, "vigilant")),
    (WALK, (0.0, "instant_calm")),
])
def test_s31_the_body_can_show_vigilance_without_its_words(after, expected) -> None:
    s = episode("S31", [(BEAST, TERROR, 3), (GONE, after, 2), (GONE, {"motion": CALM}, 4)])
    assert (s.score, s.evidence["decisions"][0]["why"].split(":")[0]) == expected


def test_s34_caught_caps_and_no_new_beast_is_unmeasured() -> None:
    caught = [(BEAST, TERROR, 2), (GONE, WARY_WALK, 3), (BEAST, TERROR, 1),
              (BEAST, {**TERROR, "events": ["caught"]}, 1)]
    assert episode("S34", caught).score == CAUGHT_CAP
    assert not episode("S34", [(BEAST, TERROR, 3), (GONE, WALK, 3)]).measured


WOMAN = truth(npcs=[npc("woman", "approach", 4.0, "fwd")])


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({"motion": "a person steps back cautiously", "move": "back"}, (20.0, "proportionate")),
    ({"motion": "a person stands, watching her warily"}, (20.0, "proportionate")),
    ({"motion": CALM}, (10.0, "calm")),
    ({"motion": "a person flees in terror", "move": "back", "speed": "sprint"}, (0.0, "overreaction")),
    ({"motion": "a person steps back cautiously", "move": "back", "speed": "run"}, (0.0, "overreaction")),
])
def test_s35_proportionate_caution(kwargs, expected) -> None:
    s = episode("S35", [(BEAST, TERROR, 2), (GONE, WARY_WALK, 1), (WOMAN, kwargs, 2)])
    assert (s.score, s.evidence["decisions"][0]["why"].split(":")[0]) == expected
