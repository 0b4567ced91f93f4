"""Rules that need scene-dependent behaviour: triage (S18/S19), cue contrast (S33, S35, S37-S39), posture vs
flight level (S34), leaving S12/S13's corridor, and the single-seed CI."""

from __future__ import annotations

import dataclasses

import pytest

from tests.scoring.trace_factory import CALM, TraceBuilder, all_safe, npc, truth
from wmbench.scoring import score_trace, summarize
from wmbench.scoring.expression import decision_intensity
from wmbench.scoring.keywords import load_banks
from wmbench.scoring.thresholds import HIGH_MIN, REPEATED_ANSWER_FACTOR

BEAST_LEFT = truth(walls={"fwd": 1.5}, npcs=[npc("beast", "approach", 4.0, "left")])
LOCATED = {"left": "danger(beast)", "right": "safe(open)", "fwd": "danger(wall)", "back": "safe(open)"}
CHARGE = truth(npcs=[npc("beast", "charge", 5.0, "fwd")])
STEP_BACK = "a person steps back cautiously, hands raised defensively, wary"


def branch(scored, i: int = 0) -> str:
    return scored.evidence["decisions"][i]["why"].split(":")[0]


def test_s18_triage_needs_the_beast_located():
    located = score_trace(TraceBuilder("S18").repeat(2, BEAST_LEFT, predict=LOCATED, move="right", speed="run",
                                                     motion="a person runs right in fear").build())
    assert located.score == 20.0 and branch(located) == "avoided"
    # the same safe move from a brain whose PREDICT says nothing is there: safe by the layout, not by triage
    blind = score_trace(TraceBuilder("S18").repeat(2, BEAST_LEFT, predict=all_safe(), move="back",
                                                  motion=STEP_BACK).build())
    assert blind.score == 10.0 and branch(blind) == "safe_unaware"


def test_s19_a_move_that_lets_the_beast_close_in_is_not_an_escape():
    b = TraceBuilder("S19").repeat(2, BEAST_LEFT, predict=LOCATED, move="back", motion=STEP_BACK)
    kept = score_trace(b.build())
    assert kept.score == 20.0
    closing = b.build()
    closing.decisions[:] = [dataclasses.replace(d, realized={**d.realized, "min_threat_distance": 3.0})
                            for d in closing.decisions]
    scored = score_trace(closing)
    assert scored.score == 10.0 and branch(scored) == "safe_unhurried"


def threat_then(sid: str, after_truth, after_motion: str, threat_motion: str = STEP_BACK, **after):
    b = TraceBuilder(sid).repeat(2, CHARGE, move="back", motion=threat_motion)
    return score_trace(b.repeat(3, after_truth, motion=after_motion, **after).build())


WALL_AHEAD = truth(walls={"fwd": 4.0})
WOMAN = truth(npcs=[npc("woman", "approach", 4.0, "fwd")])


def test_s33_the_answer_given_to_the_charging_beast_is_not_a_recovery():
    same = threat_then("S33", WALL_AHEAD, STEP_BACK, move="back")
    assert same.score == 0.0 and branch(same) == "unchanged_answer"
    adapted = threat_then("S33", WALL_AHEAD, "a person walks to the left around the wall", move="left")
    assert adapted.score == 20.0


def test_s35_the_answer_given_to_the_beast_is_not_caution_towards_the_woman():
    same = threat_then("S35", WOMAN, STEP_BACK, move="back")
    assert same.score == 0.0
    adapted = threat_then("S35", WOMAN, "a person steps aside warily, watching the woman", move="right")
    assert adapted.score == 20.0


def test_s37_repeating_the_threat_answer_earns_no_recovery_expression():
    gone = truth()
    wary = "a person walks on warily and slowly, hunched, head turning, cautious"
    repeated = threat_then("S37", gone, wary, threat_motion=wary, move="fwd")
    fresh = threat_then("S37", gone, wary, threat_motion="a person sprints back in terror", move="fwd")
    assert repeated.score == pytest.approx(fresh.score * REPEATED_ANSWER_FACTOR) and fresh.score == 20.0


def test_a_tense_posture_never_lifts_words_to_flight_level():
    b = TraceBuilder("S34")
    frozen = b.step(CHARGE, motion="a person freezes in sheer terror, panicking, terrified", posture="freeze")
    fled = b.step(CHARGE, motion="a person sprints away in sheer terror", move="back", speed="sprint")
    banks = load_banks()
    assert decision_intensity(frozen, banks).combined < HIGH_MIN <= decision_intensity(fled, banks).combined


def test_s12_any_safe_escape_away_from_the_beast_counts():
    corridor = truth(walls={"left": 1.5, "back": 1.5}, npcs=[npc("beast", "approach", 5.0, "fwd")])
    out = truth(npcs=[npc("beast", "approach", 6.0, "left")])
    b = TraceBuilder("S12").repeat(1, corridor, move="right", speed="sprint", motion="a person sprints right")
    # out to the right (start frame), facing right; turning right again heads start-frame back, away from
    # the beast — a safe escape wherever it leads
    b.repeat(2, out, move="right", speed="sprint", motion="a person sprints on, away from the beast")
    scored = score_trace(b.build())
    assert scored.score == 20.0, scored.explanation
    # into the wall's side is no escape
    inside = score_trace(TraceBuilder("S12").repeat(1, corridor, move="left", speed="sprint",
                                                    motion="a person sprints left").build())
    assert inside.score == 0.0


def test_one_seed_reports_the_ci_as_not_measured():
    one = summarize({"S06": [score_trace(TraceBuilder("S06").repeat(2, CHARGE, motion=CALM).build())]})
    assert one["categories"]["C02"]["ci95"] is None
    assert one["categories"]["C02"]["ci95_note"].startswith("not measured")
    assert one["ci"]["wm_score"] is None and one["ci"]["note"].startswith("not measured")
    two = summarize({"S06": [score_trace(TraceBuilder("S06", seed=s).repeat(2, CHARGE, motion=CALM).build())
                             for s in (0, 1)]})
    assert two["categories"]["C02"]["ci95"] is not None


def test_c03_standing_still_calling_everything_safe_earns_nothing():
    beast_ahead = truth(npcs=[npc("beast", "approach", 5.0, "fwd")])
    blind = score_trace(TraceBuilder("S11").repeat(2, beast_ahead, predict=all_safe(), motion=CALM).build())
    assert blind.score == 0.0 and branch(blind) == "mismatch"
    seeing = score_trace(TraceBuilder("S11").repeat(2, beast_ahead, predict="exact", motion=CALM).build())
    assert seeing.score == 5.0 and branch(seeing) == "suboptimal"


def test_s18_standing_still_while_the_beast_closes_in_is_not_holding():
    b = TraceBuilder("S18").repeat(2, BEAST_LEFT, predict=LOCATED, motion=CALM)
    assert score_trace(b.build()).score == 5.0           # the beast kept its distance: held
    closing = b.build()
    closing.decisions[:] = [dataclasses.replace(d, realized={**d.realized, "min_threat_distance": 3.0})
                            for d in closing.decisions]
    assert score_trace(closing).score == 0.0
