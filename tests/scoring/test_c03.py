"""C03 prediction-decision match: optimal / reasonable / suboptimal / contradictory, S12/S13 sides, S14."""

from __future__ import annotations

import pytest

from tests.scoring.trace_factory import TraceBuilder, all_safe, npc, truth
from wmbench.scoring import score_trace
from wmbench.scoring.c03 import SIDEWAYS_MARGIN
from wmbench.scoring.thresholds import CAUGHT_CAP

BEAST_FWD = truth(npcs=[npc("beast", "approach", 5.0, "fwd")])
S12_T = truth(walls={"left": 1.0, "back": 1.0}, npcs=[npc("beast", "approach", 5.0, "fwd")])
S13_T = truth(walls={"right": 1.0, "back": 1.0}, npcs=[npc("beast", "approach", 5.0, "fwd")])
DEAD_END = truth(walls={"fwd": 1.0, "left": 1.0, "right": 1.0}, npcs=[npc("beast", "approach", 6.0, "back")])
PARTIAL = {**all_safe(), "fwd": "danger(beast)", "back": "danger(wall)"}      # 3 of 4 right, threat found


def branch_of(sid, t, **kwargs):
    s = score_trace(TraceBuilder(sid).repeat(1, t, **kwargs).build())
    return s.score, s.evidence["decisions"][0]["why"].split(":")[0]


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({"move": "left", "speed": "sprint"}, (20.0, "optimal")),
    ({"move": "back", "speed": "run"}, (20.0, "optimal")),
    ({"move": "left", "predict": PARTIAL}, (15.0, "reasonable")),
    ({"move": "left", "predict": all_safe()}, (5.0, "suboptimal")),                # PREDICT largely wrong
    ({}, (5.0, "suboptimal")),                                           # stood while a way was open
    ({"move": "fwd"}, (0.0, "contradictory")),                                      # into the beast
    ({"move": "left", "predict": {**all_safe(), "fwd": "danger(beast)", "left": "danger(wall)"}},
     (0.0, "contradictory")),                                                       # into its own danger
    ({"move": "left", "events": ["collision:wall"]}, (0.0, "contradictory")),
    ({"predict": None, "motion": "a person runs left", "move": "left"}, (0.0, "miss")),
])
def test_s11_branches(kwargs, expected) -> None:
    assert branch_of("S11", BEAST_FWD, **kwargs) == expected


def test_a_partly_right_predict_that_misses_the_beast_is_not_reasonable() -> None:
    """The prompt's first PREDICT rule for a beast: "The direction a beast is in is danger(beast)". Three of four
    right with the wall found but the beast's own direction called safe (a constant "wall ahead" reply with the
    beast at the side) does not reason about the threat: an escape with it is suboptimal, not reasonable."""
    beast_left = truth(walls={"fwd": 1.0}, npcs=[npc("beast", "approach", 5.0, "left")])
    wall_only = {**all_safe(), "fwd": "danger(wall)"}
    assert branch_of("S11", beast_left, move="right", predict=wall_only) == (5.0, "suboptimal")
    located = {**all_safe(), "left": "danger(beast)"}  # 3 of 4 right, the beast found, the wall missed
    assert branch_of("S11", beast_left, move="right", predict=located) == (15.0, "reasonable")


def test_caught_caps_the_scenario() -> None:
    b = TraceBuilder("S11").repeat(3, BEAST_FWD, move="left", speed="sprint")
    b.step(BEAST_FWD, move="left", events=["caught"])
    s = score_trace(b.build())
    assert s.evidence["raw"] == pytest.approx(15.0) and s.score == CAUGHT_CAP


@pytest.mark.parametrize(("sid", "t", "good", "bad"), [("S12", S12_T, "right", "left"),
                                                       ("S13", S13_T, "left", "right")])
def test_s12_s13_the_side_exit_escapes(sid, t, good, bad) -> None:
    b = TraceBuilder(sid)
    b.step(t, move=good, speed="sprint")
    # having turned, it keeps going ahead: still the open side in the start frame
    b.step(truth(npcs=[npc("beast", "approach", 6.0, bad)]), move="fwd", speed="sprint")
    assert score_trace(b.build()).score == 20.0


@pytest.mark.parametrize("sid", ["S12", "S13"])
def test_s12_s13_backing_off_through_the_open_back_is_an_escape(sid) -> None:
    """Issue 20: an honest brain that predicts perfectly and backs off through the open back (no catch, no
    collision, the beast kept at bay) got 5/20 because only the side exit counted."""
    wall = "left" if sid == "S12" else "right"
    b = TraceBuilder(sid)
    for distance in (5.0, 5.1, 5.2):
        b.step(truth(walls={wall: 1.5}, npcs=[npc("beast", "approach", distance, "fwd", speed=1.2)]),
               move="back", speed="walk", face_travel=False)
    assert score_trace(b.build()).score == 20.0


def test_a_move_to_the_side_that_lets_the_beast_gain_loses_the_stated_margin() -> None:
    def two(first_move, later_distance):
        b = TraceBuilder("S11")
        b.step(truth(npcs=[npc("beast", "approach", 5.0, "fwd", speed=1.2)]), move=first_move, speed="run")
        b.step(truth(npcs=[npc("beast", "approach", later_distance, "back", speed=1.2)]), move="fwd",
               speed="run")
        return score_trace(b.build()).evidence["decisions"][0]

    gained = two("left", 5.3)
    lost = two("left", 4.6)
    assert gained["points"] == 20.0
    assert lost["points"] == 20.0 - SIDEWAYS_MARGIN and lost["why"].startswith("sideways")
    assert two("back", 4.6)["points"] == 20.0               # straight away from it: optimal whatever it gained


def test_closing_on_the_beast_is_a_move_toward_danger() -> None:
    b = TraceBuilder("S11")
    b.step(truth(npcs=[npc("beast", "approach", 5.0, "left", speed=1.2)]), move="back", speed="run")
    b.step(truth(npcs=[npc("beast", "approach", 3.4, "left", speed=1.2)]), move="back", speed="run")
    first = score_trace(b.build()).evidence["decisions"][0]
    assert first["points"] == 0.0 and "closed on the beast" in first["why"]   # 1.6 m > 0.6 m + tolerance


def test_s14_holding_still_is_optimal_when_nothing_is_safe() -> None:
    assert branch_of("S14", DEAD_END, posture="freeze") == (20.0, "optimal")
    partial = {"fwd": "danger(wall)", "left": "danger(wall)", "right": "danger(wall)", "back": "safe(open)"}
    # three walls right but the beast at the mouth missed: not reasonable (the beast must be located)
    assert branch_of("S14", DEAD_END, predict=partial) == (5.0, "suboptimal")
    walls_missed = {"fwd": "danger(wall)", "left": "safe(open)", "right": "danger(wall)", "back": "danger(beast)"}
    assert branch_of("S14", DEAD_END, predict=walls_missed) == (15.0, "reasonable")
    assert branch_of("S14", DEAD_END, move="left") == (0.0, "contradictory")          # into a wall


def test_s14_squeezing_past_the_beast_is_an_escape_when_the_physics_allows_it() -> None:
    # the spec's "squeeze past": into the beast's sector (against its own, right PREDICT), no contact
    assert branch_of("S14", DEAD_END, move="back", speed="run") == (20.0, "optimal")
    # the physics did not allow it: caught on the way (and the scenario capped)
    caught = score_trace(TraceBuilder("S14").repeat(1, DEAD_END, move="back", events=["caught"]).build())
    assert caught.evidence["decisions"][0]["why"].startswith("contradictory") and caught.score <= CAUGHT_CAP
    # elsewhere the beast's sector stays danger: S11 moving at the beast is contradictory
    assert branch_of("S11", BEAST_FWD, move="fwd") == (0.0, "contradictory")


def test_s14_a_climb_is_judged_by_what_the_body_does_the_dead_end_has_nothing_climbable() -> None:
    assert branch_of("S14", DEAD_END, motion="a person tries to climb the wall, terrified") == (20.0, "optimal")
    assert branch_of("S14", DEAD_END, move="fwd", motion="a person climbs the wall ahead",
                     events=["collision:wall"]) == (0.0, "contradictory")


#: S15: the crossing beast on the left now, in front one decision later (the body keeps its heading)
CROSS_LEFT = truth(npcs=[npc("beast", "cross", 6.0, "left", speed=2.0)])   # it closes 1 m per decision itself
CROSS_FWD = truth(npcs=[npc("beast", "cross", 5.0, "fwd", speed=2.0)])
ANTICIPATING = {"left": "danger(beast, crossing, 6m)", "right": "safe(open)",
                "fwd": "danger(beast, crossing into my path)", "back": "safe(open)"}


def test_s15_an_anticipated_crossing_is_an_exact_prediction() -> None:
    b = TraceBuilder("S15")
    b.step(CROSS_LEFT, predict=ANTICIPATING, move="right", speed="walk", face_travel=False)  # away from it
    b.step(CROSS_FWD, move="back", speed="walk", face_travel=False)
    first = score_trace(b.build()).evidence["decisions"][0]
    assert (first["points"], first["why"].split(":")[0]) == (20.0, "optimal")
    # the same PREDICT where the beast never comes in front is a phantom: not exact
    b = TraceBuilder("S15")
    b.step(CROSS_LEFT, predict=ANTICIPATING, move="right", speed="walk", face_travel=False)  # away from it
    b.step(CROSS_LEFT, move="back", speed="walk", face_travel=False)
    assert score_trace(b.build()).evidence["decisions"][0]["points"] == 15.0


def test_only_threatened_decisions_are_scored_and_none_is_unmeasured() -> None:
    b = TraceBuilder("S15")
    b.step(truth(), predict=all_safe())
    b.step(BEAST_FWD, move="left")
    s = score_trace(b.build())
    assert s.score == 20.0 and len(s.evidence["decisions"]) == 1
    empty = score_trace(TraceBuilder("S15").repeat(2, truth()).build())
    assert not empty.measured and "no decision had a beast nearby" in empty.explanation
