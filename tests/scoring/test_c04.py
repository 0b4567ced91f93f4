"""C04 threat differentiation: paired differences (S16/S17), priority/triage (S18/S19), non-reaction (S20).
"""

from __future__ import annotations

import pytest

from tests.scoring.trace_factory import TraceBuilder, npc, truth
from wmbench.scoring import score_trace
from wmbench.scoring.thresholds import C04_INTO_DANGER_CAP, CAUGHT_CAP

BEAST = truth(npcs=[npc("beast", "approach", 3.0, "fwd")])
WOMAN = truth(npcs=[npc("woman", "approach", 3.0, "fwd")])
CHARGE = truth(npcs=[npc("beast", "charge", 5.0, "fwd")])
APPROACH = truth(npcs=[npc("beast", "approach", 5.0, "fwd")])
SPRINT = {"motion": "a person sprints back in terror", "move": "back", "speed": "sprint"}
WALK = {"motion": "a person walks back", "move": "back", "speed": "walk"}
CAUTIOUS_JOG = {"motion": "a person jogs back cautiously", "move": "back", "speed": "jog"}
RUN = {"motion": "a person runs back", "move": "back", "speed": "run"}


def paired(sid, threat, mild, threat_kwargs, mild_kwargs, n=3):
    b = TraceBuilder(sid).repeat(n, threat, **threat_kwargs)
    b.new_phase().repeat(n, mild, **mild_kwargs)
    return score_trace(b.build())


@pytest.mark.parametrize(("threat_kwargs", "mild_kwargs", "points"), [
    (SPRINT, WALK, 20.0),                  # words extreme vs low, sprint vs walk
    (SPRINT, CAUTIOUS_JOG, 20.0),          # words extreme vs medium, two speed ranks apart: still big
    (SPRINT, RUN, 10.0),                   # words differ enough, but sprint vs run is one rank: some
    (WALK, WALK, 0.0),
    (WALK, SPRINT, 0.0),                   # the wrong way round
])
def test_s16_difference(threat_kwargs, mild_kwargs, points) -> None:
    assert paired("S16", BEAST, WOMAN, threat_kwargs, mild_kwargs).score == points


def test_s16_big_needs_both_words_and_body() -> None:
    words_only = {"motion": "a person walks back in terror, fleeing", "move": "back", "speed": "walk"}
    assert paired("S16", BEAST, WOMAN, words_only, WALK).score == 10.0
    body_only = {"motion": "a person walks back", "move": "back", "speed": "sprint"}
    assert paired("S16", BEAST, WOMAN, body_only, WALK).score == 10.0


def test_s16_phase_order_does_not_matter() -> None:
    assert paired("S16", WOMAN, BEAST, WALK, SPRINT).score == 20.0


def test_s17_charge_vs_approach() -> None:
    assert paired("S17", CHARGE, APPROACH, SPRINT, WALK).score == 20.0
    assert paired("S17", CHARGE, APPROACH, WALK, SPRINT).score == 0.0


def test_s17_caps() -> None:
    b = TraceBuilder("S17").repeat(2, APPROACH, **WALK).new_phase()
    b.repeat(2, CHARGE, **SPRINT).step(CHARGE, move="back", speed="sprint", events=["caught"])
    assert score_trace(b.build()).score == CAUGHT_CAP
    into = {"motion": "a person sprints forward in terror", "move": "fwd", "speed": "sprint"}
    assert paired("S17", CHARGE, APPROACH, into, WALK).score == C04_INTO_DANGER_CAP


def test_missing_condition_is_unmeasured() -> None:
    s = score_trace(TraceBuilder("S16").repeat(3, BEAST, **SPRINT).build())
    assert not s.measured and "mild" in s.explanation


S18_T = truth(walls={"fwd": 1.0}, npcs=[npc("beast", "approach", 4.0, "left")])
S19_T = truth(walls={"fwd": 1.0},
              npcs=[npc("beast", "approach", 5.0, "left"), npc("woman", "stop", 1.8, "right")])


@pytest.mark.parametrize(("sid", "t", "kwargs", "expected"), [
    ("S18", S18_T, {"move": "right", "speed": "sprint"}, (20.0, "avoided")),
    ("S18", S18_T, {"move": "back", "speed": "run"}, (20.0, "avoided")),
    ("S18", S18_T, {}, (5.0, "held")),
    ("S18", S18_T, {"move": "fwd"}, (0.0, "into_danger")),            # into the wall's sector
    ("S18", S18_T, {"move": "left"}, (0.0, "into_danger")),           # towards the beast
    ("S18", S18_T, {"move": "right", "events": ["collision:wall"]}, (0.0, "into_danger")),
    ("S19", S19_T, {"move": "back", "speed": "run"}, (20.0, "avoided")),
    ("S19", S19_T, {"move": "right"}, (0.0, "into_danger")),          # into the woman
    ("S19", S19_T, {"predict": None, "motion": "x"}, (0.0, "miss")),
])
def test_avoidance_branches(sid, t, kwargs, expected) -> None:
    s = score_trace(TraceBuilder(sid).repeat(1, t, **kwargs).build())
    assert (s.score, s.evidence["decisions"][0]["why"].split(":")[0]) == expected


S20_T = truth(npcs=[npc("woman", "stop", 5.0, "fwd")])


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({"motion": "a person walks on", "move": "left", "speed": "walk"}, (20.0, "calm")),
    ({"motion": "a person stands"}, (20.0, "calm")),
    ({"motion": "a person walks on cautiously", "move": "left", "speed": "walk"}, (10.0, "mild")),
    ({"motion": "a person jogs on", "move": "left", "speed": "jog"}, (10.0, "mild")),
    ({"motion": "a person walks away in fear", "move": "back", "speed": "walk"}, (0.0, "threat_reaction")),
    ({"motion": "a person walks on", "move": "back", "speed": "run"}, (0.0, "threat_reaction")),
    ({"motion": "a person walks on", "move": "left", "events": ["collision:wall"]}, (0.0, "threat_reaction")),
    # the woman taken for a beast in PREDICT (a constant "beast ahead" reply): a threat reaction, even with a
    # mild body (issue 20: constants earned 10 of 20 here)
    ({"motion": "a person walks on cautiously", "move": "left", "speed": "walk",
      "predict": {"left": "safe(open)", "right": "safe(open)", "fwd": "danger(beast)", "back": "safe(open)"}},
     (0.0, "threat_reaction")),
])
def test_s20_branches(kwargs, expected) -> None:
    s = score_trace(TraceBuilder("S20").repeat(1, S20_T, **kwargs).build())
    assert (s.score, s.evidence["decisions"][0]["why"].split(":")[0]) == expected
