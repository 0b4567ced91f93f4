"""C05 emotional escalation: S21 gradient, S22 jump, S23 de-escalation, S24 sensitization, S25 calm."""

from __future__ import annotations

import pytest

from tests.scoring.trace_factory import CALM, TraceBuilder, npc, truth
from wmbench.scoring import score_trace
from wmbench.scoring.c05 import SHAPE_MARGIN
from wmbench.scoring.thresholds import CAUGHT_CAP

CHARGE = truth(npcs=[npc("beast", "charge", 6.0, "back")])
APPROACH = truth(npcs=[npc("beast", "approach", 6.0, "back")])
STOPPED = truth(npcs=[npc("beast", "stop", 7.0, "back")])
GONE = truth()
SPRINT = {"motion": "a person sprints forward", "move": "fwd", "speed": "sprint"}
FEAR = {"motion": "a person sprints forward in fear, fleeing", "move": "fwd", "speed": "sprint"}
TERROR = {"motion": "a person sprints forward desperately in frantic terror, fleeing in blind panic",
          "move": "fwd", "speed": "sprint"}
CAUTIOUS = {"motion": "a person walks on cautiously, scanning around", "move": "fwd", "speed": "walk"}
RELIEVED = {"motion": "a person walks on, relieved and at ease", "move": "fwd", "speed": "walk"}
JOG = {"motion": "a person jogs on", "move": "fwd", "speed": "jog"}


def run(sid, plan) -> tuple[float, str]:
    b = TraceBuilder(sid)
    for t, kwargs, n in plan:
        b.repeat(n, t, **kwargs)
    s = score_trace(b.build())
    return s.score, s.explanation


@pytest.mark.parametrize(("plan", "points", "kind"), [
    ([(CHARGE, SPRINT, 2), (CHARGE, FEAR, 2), (CHARGE, TERROR, 4)], 20.0, "increasing"),
    ([(CHARGE, TERROR, 8)], 20.0 - SHAPE_MARGIN, "stable_high"),            # steady flight: only the margin
    ([(CHARGE, TERROR, 3), (CHARGE, CAUTIOUS, 5)], 20.0 * 3 / 8 - SHAPE_MARGIN, "decreasing"),
    ([(CHARGE, {"motion": CALM}, 8)], 0.0, "flat_low"),
    ([(CHARGE, {"motion": CALM}, 3), (CHARGE, TERROR, 5)], 20.0 * 5 / 8, "increasing"),
])
def test_s21_high_at_every_charging_moment(plan, points, kind) -> None:
    score, explanation = run("S21", plan)
    assert score == pytest.approx(points) and f"gradient {kind}" in explanation


def test_s21_intensity_that_rises_and_falls_while_the_charge_goes_on_is_not_tracking_it() -> None:
    """Issue 20: a brain whose intensity follows distance (it never reads the behaviour) dips below flight
    level while the charge goes on; a brain that stays at flight level scores more."""
    dipping = run("S21", [(CHARGE, SPRINT, 1), (CHARGE, JOG, 1)] * 4)[0]
    steady = run("S21", [(CHARGE, SPRINT, 8)])[0]
    assert dipping == pytest.approx(20.0 * 0.5 - SHAPE_MARGIN) and steady == 20.0 - SHAPE_MARGIN


def test_s21_caught_caps() -> None:
    plan = [(CHARGE, SPRINT, 2), (CHARGE, FEAR, 2), (CHARGE, {**TERROR, "events": ["caught"]}, 1)]
    assert run("S21", plan)[0] == CAUGHT_CAP


@pytest.mark.parametrize(("plan", "points", "kind"), [
    ([(APPROACH, CAUTIOUS, 4), (CHARGE, TERROR, 4)], 20.0, "jump"),
    ([(APPROACH, CAUTIOUS, 4), (CHARGE, JOG, 2), (CHARGE, TERROR, 4)], 15.0, "rise"),
    ([(APPROACH, TERROR, 4), (CHARGE, TERROR, 4)], 10.0, "stable_high"),
    ([(APPROACH, TERROR, 4), (CHARGE, CAUTIOUS, 4)], 5.0, "decreasing"),
    ([(APPROACH, CAUTIOUS, 4), (CHARGE, CAUTIOUS, 4)], 0.0, "flat_low"),
])
def test_s22_switch(plan, points, kind) -> None:
    score, explanation = run("S22", plan)
    assert score == points and explanation.split("; ")[1].startswith(kind)


def test_s22_without_a_switch_falls_back_to_the_gradient() -> None:
    score, explanation = run("S22", [(CHARGE, TERROR, 6)])
    assert score == 10.0 and "gradient stable_high" in explanation


@pytest.mark.parametrize(("after", "points", "kind"), [
    ([(STOPPED, CAUTIOUS, 2), (GONE, CAUTIOUS, 2), (GONE, RELIEVED, 2)], 20.0, "tracked"),
    ([(STOPPED, JOG, 1), (GONE, CAUTIOUS, 2), (GONE, RELIEVED, 2)], 20.0, "tracked"),
    ([(STOPPED, CAUTIOUS, 1), (GONE, RELIEVED, 1), (GONE, JOG, 1), (GONE, RELIEVED, 1)], 20.0, "tracked"),
    # calm the moment the beast stops: reads the behaviour, loses only the spec's gradual-settling margin
    ([(STOPPED, {"motion": CALM}, 2), (GONE, {"motion": CALM}, 3)], 20.0 - SHAPE_MARGIN, "tracked_instant"),
    # still in flight after it stopped and vanished: 4 of 9 decisions fit
    ([(STOPPED, TERROR, 2), (GONE, TERROR, 3)], 20.0 * 4 / 9 - SHAPE_MARGIN, "tracked_instant"),
])
def test_s23_intensity_fits_each_moment(after, points, kind) -> None:
    score, explanation = run("S23", [(CHARGE, TERROR, 4), *after])
    assert score == pytest.approx(points, abs=1e-3) and explanation.split("; ")[1].startswith(kind + ":")


def test_s23_calming_at_once_loses_at_most_the_margin() -> None:
    """Issue 20: a brain that reads the behaviour and calms down at once when the beast stops got 5/20."""
    score, _ = run("S23", [(CHARGE, TERROR, 4), (STOPPED, {"motion": CALM}, 4), (GONE, {"motion": CALM}, 8)])
    assert score == 20.0 - SHAPE_MARGIN


def appearances(*reactions, gap=2) -> list:
    plan = []
    for kwargs in reactions:
        plan += [(APPROACH, kwargs, 2), (GONE, CAUTIOUS, gap)]
    return plan


@pytest.mark.parametrize(("reactions", "points", "kind"), [
    ((CAUTIOUS, FEAR, TERROR), 20.0, "sensitized"),                     # stronger each time
    ((FEAR, FEAR, FEAR), 10.0, "stable"),
    ((TERROR, FEAR, CAUTIOUS), 5.0, "habituating"),
    ((CAUTIOUS, CAUTIOUS, CAUTIOUS), 0.0, "no_reaction"),
    ((FEAR, CAUTIOUS, TERROR), 10.0, "stable"),                         # dips in the middle: no trend overall
])
def test_s24_sensitization(reactions, points, kind) -> None:
    score, explanation = run("S24", appearances(*reactions))
    assert score == points and kind in explanation


def test_s24_faster_reaction_counts_as_sensitization() -> None:
    slow = [(APPROACH, CAUTIOUS, 1), (APPROACH, FEAR, 1), (GONE, CAUTIOUS, 2)]
    fast = [(APPROACH, FEAR, 2), (GONE, CAUTIOUS, 2)]
    score, explanation = run("S24", slow + fast)
    assert score == 20.0 and "sensitized" in explanation


def test_s24_needs_two_appearances() -> None:
    b = TraceBuilder("S24").repeat(3, APPROACH, **FEAR)
    assert not score_trace(b.build()).measured


WOMAN_NEAR = truth(npcs=[npc("woman", "approach", 4.0, "fwd")])
POLITE = {"motion": "a person steps back politely, guarded", "move": "back", "speed": "walk",
          "posture": "defensive"}


@pytest.mark.parametrize(("plan", "points", "kind"), [
    ([(WOMAN_NEAR, {"motion": CALM}, 10)], 20.0, "calm"),
    ([(WOMAN_NEAR, POLITE, 10)], 20.0, "calm"),
    ([(WOMAN_NEAR, {"motion": CALM}, 5), (WOMAN_NEAR, POLITE, 5)], 10.0, "creeping_up"),
    # the prompt's calm step back as she comes close (mild) is composed, not creeping up (issue 20)
    ([(WOMAN_NEAR, {"motion": CALM}, 5), (WOMAN_NEAR, {**CAUTIOUS, "move": "back"}, 5)], 20.0, "calm"),
    ([(WOMAN_NEAR, {"motion": CALM}, 7), (WOMAN_NEAR, FEAR, 3)], 5.0, "uneasy"),
    ([(WOMAN_NEAR, FEAR, 10)], 0.0, "escalated"),
])
def test_s25_calm(plan, points, kind) -> None:
    score, explanation = run("S25", plan)
    assert score == points and explanation.split("; ")[1].startswith(kind)
