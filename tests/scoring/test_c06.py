"""C06 contextual memory: failed side (S26), safe side (S27), consistency (S28), history (S29), clean slate.
"""

from __future__ import annotations

import pytest

from tests.scoring.trace_factory import CALM, TraceBuilder, npc, truth
from wmbench.scoring import c06, score_trace
from wmbench.scoring.pairs import score_traces
from wmbench.scoring.thresholds import C06_COLLISION_CAP, C06_INVENTED_MEMORY_CAP

BEAST_FWD = truth(npcs=[npc("beast", "approach", 5.0, "fwd")])
OPEN = truth()
FLEE = {"motion": "a person runs away in fear", "speed": "run"}
BLOCKED = {"recent_decisions": [{"t": -2.0, "motion": "a person sprints right", "direction": "right",
                                 "outcome": "blocked by wall on right"}]}
ESCAPED = {"recent_decisions": [{"t": -2.0, "motion": "a person sprints left", "direction": "left",
                                 "outcome": "escaped"}]}


def first_branch(s) -> tuple[float, str]:
    return s.score, s.evidence["decisions"][0]["why"].split(":")[0]


@pytest.mark.parametrize(("move", "expected"), [
    ("left", (20.0, "avoided")), ("back", (20.0, "avoided")), ("right", (0.0, "failed_side")),
    ("fwd", (0.0, "unsafe")), (None, (0.0, "held")),
])
def test_s26_from_memory(move, expected) -> None:
    b = TraceBuilder("S26")
    b.step(BEAST_FWD, move=move, scene=BLOCKED, **FLEE)
    s = score_trace(b.build())
    assert first_branch(s) == expected and s.evidence["sim"]["source"] == "memory"


def test_s26_failed_side_from_an_earlier_phase_collision() -> None:
    b = TraceBuilder("S26")
    b.step(BEAST_FWD, move="left", **FLEE)
    # it turned left, so the wall it hits ahead is on the start-frame left
    b.step(truth(walls={"fwd": 0.3}), move="fwd", events=["collision:wall"], **FLEE)
    b.new_phase()
    b.step(BEAST_FWD, move="left", **FLEE)
    b.step(BEAST_FWD, move="right", **FLEE)
    s = score_trace(b.build())
    assert s.evidence["sim"]["failed_sides"] == ["left"] and s.evidence["sim"]["source"] == "trace"
    assert [d["points"] for d in s.evidence["decisions"]] == [0.0, 20.0]


def test_s26_default_side_and_collision_cap() -> None:
    b = TraceBuilder("S26")
    b.step(BEAST_FWD, move="left", **FLEE)
    b.step(BEAST_FWD, move="back", events=["collision:wall"], **FLEE)
    s = score_trace(b.build())
    assert s.evidence["sim"]["failed_sides"] == ["right"] and s.evidence["sim"]["source"] == "default"
    assert s.score == C06_COLLISION_CAP


@pytest.mark.parametrize(("move", "expected"), [
    ("left", (20.0, "repeated")), ("right", (5.0, "other_safe")), (None, (0.0, "held")),
    ("fwd", (0.0, "unsafe")),
])
def test_s27_repeats_the_safe_side(move, expected) -> None:
    s = score_trace(TraceBuilder("S27").repeat(1, BEAST_FWD, move=move, scene=ESCAPED, **FLEE).build())
    assert first_branch(s) == expected


def test_s27_the_route_is_the_first_move_then_running_on_away_keeps_it() -> None:
    # left first (the remembered escape), then on along its own left (start-frame back): the route is left
    b = TraceBuilder("S27").repeat(2, BEAST_FWD, move="left", scene=ESCAPED, **FLEE)
    assert [d["points"] for d in score_trace(b.build()).evidence["decisions"]] == [20.0, 20.0]
    # right first: another route for the whole phase, even where a later move goes start-frame left
    b = TraceBuilder("S27").repeat(1, BEAST_FWD, move="right", scene=ESCAPED, **FLEE)
    b.repeat(1, BEAST_FWD, move="back", scene=ESCAPED, **FLEE)
    assert [d["points"] for d in score_trace(b.build()).evidence["decisions"]] == [5.0, 5.0]


def three_phases(moves, motions=("a person runs away in fear",) * 3, speeds=("run",) * 3):
    b = TraceBuilder("S28")
    for n, (move, motion, speed) in enumerate(zip(moves, motions, speeds)):
        if n:
            b.new_phase()
        b.repeat(2, BEAST_FWD, move=move, motion=motion, speed=speed)
    return score_trace(b.build())


@pytest.mark.parametrize(("moves", "motions", "speeds", "points"), [
    (("left", "left", "left"), ("a person runs away in fear",) * 3, ("run",) * 3, 20.0),
    (("left", "left", "left"), ("a person runs away in fear", "a person walks away", "a person walks away"),
     ("run", "walk", "walk"), 15.0),
    (("left", "left", "right"), ("a person runs away in fear",) * 3, ("run",) * 3, 10.0),
    ((None, None, None), (CALM,) * 3, ("walk",) * 3, 5.0),                     # consistent but unsafe
    (("left", "right", "back"), ("a person runs away in fear",) * 3, ("run",) * 3, 5.0),
    (("fwd", None, "left"), ("a person runs away in fear",) * 3, ("run",) * 3, 0.0),
])
def test_s28_consistency(moves, motions, speeds, points) -> None:
    assert three_phases(moves, motions, speeds).score == points


def test_s28_needs_two_phases() -> None:
    assert not score_trace(TraceBuilder("S28").repeat(2, BEAST_FWD, move="left", **FLEE).build()).measured


#: S29's memory: a flight whose right got blocked and whose left escaped (the canonical layout)
FLIGHT = {"recent_decisions": [
    {"t": -3.0, "motion": "a person sprints right", "direction": "right", "outcome": "moved right"},
    {"t": -2.5, "motion": "keeps sprinting right", "direction": "right", "outcome": "blocked by wall on right"},
    {"t": -2.0, "motion": "turns and sprints left", "direction": "left", "outcome": "moved left"},
    {"t": -1.5, "motion": "keeps running left", "direction": "left", "outcome": "escaped"},
]}


@pytest.mark.parametrize(("move", "expected"), [
    ("left", (20.0, "repeated")), ("back", (5.0, "other_safe")), ("right", (0.0, "failed_side")),
    ("fwd", (0.0, "unsafe")), (None, (0.0, "held")),
])
def test_s29_follows_the_lessons_of_the_remembered_flight(move, expected) -> None:
    s = score_trace(TraceBuilder("S29").repeat(1, BEAST_FWD, move=move, scene=FLIGHT, **FLEE).build())
    assert first_branch(s) == expected
    assert s.evidence["sim"]["failed_sides"] == ["right"] and s.evidence["sim"]["safe_sides"] == ["left"]
    assert s.evidence["sim"]["source"] == "memory"


def test_s29_the_route_is_the_first_move_and_a_later_turn_away_keeps_it() -> None:
    # moves are relative to the body, which turns to face them: left first (the remembered escape), then its
    # own left again (start-frame back, away from the beast): the route is left
    b = TraceBuilder("S29").repeat(2, BEAST_FWD, move="left", scene=FLIGHT, **FLEE)
    assert [d["points"] for d in score_trace(b.build()).evidence["decisions"]] == [20.0, 20.0]
    # back first: the route is back (another safe side); then a move to the start-frame right (the blocked
    # side) earns nothing
    b = TraceBuilder("S29").repeat(1, BEAST_FWD, move="back", scene=FLIGHT, **FLEE)
    b.repeat(1, BEAST_FWD, move="left", scene=FLIGHT, **FLEE)
    scored = score_trace(b.build()).evidence["decisions"]
    assert [(d["points"], d["why"].split(":")[0]) for d in scored] == [(5.0, "other_safe"), (0.0, "failed_side")]


def test_s29_a_remembered_catch_is_a_side_to_avoid() -> None:
    caught = {"recent_decisions": [
        {"t": -2.0, "motion": "a person runs back", "direction": "back", "outcome": "caught"},
        {"t": -1.0, "motion": "a person runs right", "direction": "right", "outcome": "escaped"}]}
    s = score_trace(TraceBuilder("S29").repeat(1, BEAST_FWD, move="back", scene=caught, **FLEE).build())
    assert first_branch(s) == (0.0, "failed_side") and s.evidence["sim"]["failed_sides"] == ["back"]


def test_s29_is_no_longer_paired_with_s30() -> None:
    # 0.3 scored S29 against S30 ("history changes the answer"), a habit the prompt never asks for
    s29 = TraceBuilder("S29").repeat(2, BEAST_FWD, move="left", scene=FLIGHT, **FLEE).build()
    s30 = TraceBuilder("S30").repeat(2, BEAST_FWD, move="left", **FLEE).build()
    scores = score_traces([s29, s30])
    assert scores["S29"][0].score == 20.0 and "paired_with" not in scores["S29"][0].evidence["sim"]


@pytest.mark.parametrize(("t", "kwargs", "expected"), [
    (BEAST_FWD, {"move": "left", **FLEE}, (20.0, "proportionate")),
    (BEAST_FWD, {"motion": "a person freezes, tense", "posture": "freeze"}, (15.0, "assessing")),
    (BEAST_FWD, {"motion": CALM}, (5.0, "held")),
    (BEAST_FWD, {"move": "fwd", **FLEE}, (0.0, "unsafe")),
    (OPEN, {"motion": "a person walks on", "move": "fwd"}, (20.0, "ordinary")),
    (BEAST_FWD, {"move": "left", "motion": "a person runs away again, remembering the last time"},
     (0.0, "invented_memory")),
])
def test_s30_clean_slate(t, kwargs, expected) -> None:
    assert first_branch(score_trace(TraceBuilder("S30").repeat(1, t, **kwargs).build())) == expected


def test_s30_invented_memory_caps_and_real_memory_does_not() -> None:
    b = TraceBuilder("S30").repeat(3, BEAST_FWD, move="left", **FLEE)
    b.step(BEAST_FWD, move="left", motion="a person runs left again, as before")
    s = score_trace(b.build())
    assert s.evidence["raw"] == 15.0 and s.score == C06_INVENTED_MEMORY_CAP
    remembered = TraceBuilder("S30")
    remembered.step(BEAST_FWD, move="left", motion="a person runs left again", scene=ESCAPED)
    assert score_trace(remembered.build()).score == 20.0


def test_a_run_scores_s29_on_its_own_line() -> None:
    from wmbench.harness.run.scores import score_lines

    s29 = TraceBuilder("S29").repeat(3, BEAST_FWD, move="back", scene=FLIGHT, **FLEE).build()
    s30 = TraceBuilder("S30").repeat(3, BEAST_FWD, move="left", **FLEE).build()
    lines = [{"scenario": t.scenario_id, "seed": 0, "trace": t.to_dict()} for t in (s29, s30)]
    scores = score_lines(lines)
    assert scores["scenarios"]["S29"]["score"] == c06.S29_POINTS["other_safe"]
