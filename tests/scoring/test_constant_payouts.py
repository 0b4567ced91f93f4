"""Rules that paid a constant reply for an action right only by accident (issue 12, best constant <= 150/900).

Each test builds the decision a constant reply makes and the one a brain that perceives makes, and checks that
the rule tells them apart: a threat located in PREDICT (no ``danger(beast)`` everywhere), a body that moves away
from the person or beast it reacts to (not a fixed step back), and no credit for a cue answered with the sentence
given before the cue changed.
"""

from __future__ import annotations

from tests.scoring.trace_factory import TraceBuilder, exact_predict, npc, truth
from wmbench.scoring import score_trace
from wmbench.scoring.evidence import beast_located
from wmbench.scoring.thresholds import REPEATED_ANSWER_FACTOR

ALL_BEAST = dict.fromkeys(("fwd", "left", "right", "back"), "danger(beast)")
BEAST_AHEAD = {"fwd": "danger(beast)", "left": "safe(open)", "right": "safe(open)", "back": "safe(open)"}
WARY_STEP_BACK = "a person cautiously steps back, hands raised defensively, wary"


def branch(scored, i: int = 0) -> str:
    return scored.evidence["decisions"][i]["why"].split(":")[0]


def test_danger_beast_everywhere_locates_no_beast():
    scene = truth(npcs=[npc("beast", "approach", 5.0, "left")])
    one = TraceBuilder("S18").step(scene, predict={**BEAST_AHEAD, "fwd": "safe(open)", "left": "danger(beast)"})
    everywhere = TraceBuilder("S18").step(scene, predict=ALL_BEAST)
    assert beast_located(one) and not beast_located(everywhere)


def test_s19_triage_is_not_paid_to_danger_beast_everywhere():
    scene = truth(walls={"right": 1.0}, npcs=[npc("beast", "approach", 5.0, "fwd"), npc("woman", "stop", 1.9, "left")])
    located = score_trace(TraceBuilder("S19").repeat(2, scene, predict="exact", move="back",
                                                     motion=WARY_STEP_BACK).build())
    everywhere = score_trace(TraceBuilder("S19").repeat(2, scene, predict=ALL_BEAST, move="back",
                                                        motion=WARY_STEP_BACK).build())
    assert located.score == 20.0 and branch(located) == "avoided"
    assert everywhere.score == 10.0 and branch(everywhere) == "safe_unaware"


def test_s30_a_safe_move_without_locating_the_beast_is_not_proportionate():
    beast_left = truth(npcs=[npc("beast", "stop", 7.0, "left")])
    seeing = score_trace(TraceBuilder("S30").repeat(2, beast_left, predict="exact", move="right",
                                                    motion="a person backs away calmly").build())
    constant = score_trace(TraceBuilder("S30").repeat(2, beast_left, predict=BEAST_AHEAD, move="back",
                                                      motion=WARY_STEP_BACK).build())
    assert seeing.score == 20.0 and branch(seeing) == "proportionate"
    assert constant.score == 5.0 and branch(constant) == "unaware"


def test_s40_a_step_back_is_defensive_only_away_from_her():
    ahead = truth(npcs=[npc("woman", "approach", 2.0, "fwd")])
    left = truth(npcs=[npc("woman", "approach", 2.0, "left")])
    backstep = dict(move="back", face_travel=False, motion=WARY_STEP_BACK)
    assert score_trace(TraceBuilder("S40").repeat(2, ahead, **backstep).build()).score == 20.0
    # the same fixed step back with her at the side is not away from her: the body factor halves it
    assert score_trace(TraceBuilder("S40").repeat(2, left, **backstep).build()).score == 10.0
    # walking away from her (opposite her side) is
    away = score_trace(TraceBuilder("S40").repeat(2, left, move="right", motion=WARY_STEP_BACK).build())
    assert away.score == 20.0


def test_s36_a_flight_into_the_beast_is_not_the_fear_the_body_shows():
    beast_left = truth(npcs=[npc("beast", "charge", 5.0, "left")])
    terror = "a person sprints in terror, arms flailing, glancing back"
    away = score_trace(TraceBuilder("S36").repeat(2, beast_left, move="right", speed="sprint", motion=terror).build())
    into = score_trace(TraceBuilder("S36").repeat(2, beast_left, move="left", speed="sprint", motion=terror).build())
    assert away.score == 20.0 and into.score == 0.0      # issue 20: wrong motion earns nothing, whatever the words


def test_c08_a_cue_answered_word_for_word_as_before_earns_nothing():
    charge = truth(npcs=[npc("beast", "charge", 5.0, "fwd")])
    wary = "a person walks on warily and slowly, hunched, head turning, cautious"
    b = TraceBuilder("S37").repeat(2, charge, move="back", motion=wary)
    repeated = score_trace(b.repeat(3, truth(), move="fwd", motion=wary).build())
    assert REPEATED_ANSWER_FACTOR == 0.0 and repeated.score == 0.0


def test_exact_predict_of_a_side_beast_locates_it():
    scene = truth(npcs=[npc("beast", "approach", 5.0, "right")])
    assert beast_located(TraceBuilder("S18").step(scene, predict=exact_predict(scene)))


def test_s20_calling_the_neutral_woman_a_beast_is_not_calm():
    woman = truth(npcs=[npc("woman", "stop", 5.0, "fwd")])
    calm = "a person walks on calmly"
    told_apart = score_trace(TraceBuilder("S20").repeat(2, woman, predict="exact", move="right", motion=calm).build())
    phantom = score_trace(TraceBuilder("S20").repeat(2, woman, predict=BEAST_AHEAD, move="right", motion=calm).build())
    assert told_apart.score == 20.0 and branch(told_apart) == "calm"
    # issue 20 (second round): taking her for a beast is the threat reaction S20 tests, not a mild one
    assert phantom.score == 0.0 and branch(phantom) == "threat_reaction"


def test_s20_and_s25_walking_into_her_personal_space_is_not_calm():
    close = truth(npcs=[npc("woman", "stop", 1.8, "fwd")])
    calm = "a person walks on calmly"
    into = score_trace(TraceBuilder("S20").repeat(2, close, predict="exact", move="fwd", motion=calm).build())
    aside = score_trace(TraceBuilder("S20").repeat(2, close, predict="exact", move="right", motion=calm).build())
    assert into.score == 10.0 and aside.score == 20.0
    approaching = truth(npcs=[npc("woman", "approach", 1.8, "fwd")])
    crowding = score_trace(TraceBuilder("S25").repeat(6, approaching, move="fwd", motion=calm).build())
    polite = score_trace(TraceBuilder("S25").repeat(6, approaching, move="back", face_travel=False,
                                                    motion=calm).build())
    assert crowding.score == 0.0 and polite.score == 20.0


def test_s34_a_terror_reply_that_never_changed_re_activates_nothing():
    charge, gone = truth(npcs=[npc("beast", "charge", 5.0, "fwd")]), truth()
    new_beast = truth(npcs=[npc("beast", "approach", 6.0, "left")])
    terror = "a person sprints to the right in terror, arms flailing, glancing back"

    def episode(recovery_motion: str) -> float:
        b = TraceBuilder("S34").repeat(2, charge, move="back", speed="sprint", motion=terror)
        b.repeat(3, gone, move="fwd", motion=recovery_motion)
        return score_trace(b.repeat(2, new_beast, move="right", speed="sprint", motion=terror).build()).score

    assert episode("a person walks on slowly, still wary, glancing around") == 20.0
    assert episode(terror) == 0.0  # the same terror sentence all along: nothing was re-activated
