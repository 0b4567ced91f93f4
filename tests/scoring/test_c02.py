"""C02 classification: all / type / partial / wrong per nearby decision; clear readings; S07, S09, S10."""

from __future__ import annotations

import pytest

from tests.scoring.trace_factory import TraceBuilder, all_safe, npc, truth
from wmbench.scoring import score_trace

BEAST = npc("beast", "stop", 5.0, "fwd")
BEAST_T = truth(npcs=[BEAST])


def score_one(sid: str, t, **kwargs) -> tuple[float, str]:
    s = score_trace(TraceBuilder(sid).repeat(1, t, **kwargs).build())
    return s.score, s.evidence["decisions"][0]["why"].split(":")[0]


def with_fwd(item: str) -> dict[str, str]:
    return {**all_safe(), "fwd": item}


@pytest.mark.parametrize(("item", "motion", "points", "branch"), [
    ("danger(beast, stopped, 5m)", "a person backs away", 20.0, "all_correct"),
    ("danger(beast, standing still, 5.9 m)", "a person backs away", 20.0, "all_correct"),   # within 1 m
    ("danger(beast)", "a person backs away from the beast standing still 5m ahead", 20.0, "all_correct"),
    ("danger(beast, stopped, 6.5m)", "a person backs away", 15.0, "type_correct"),         # 1.5 m off
    ("danger(beast, charging, 5m)", "a person backs away", 15.0, "type_correct"),          # wrong behaviour
    ("danger(beast, stopped, charging, 5m)", "a person backs away", 15.0, "type_correct"),  # two behaviours
    ("danger(beast)", "a person backs away", 15.0, "type_correct"),
    ("danger", "a person backs away", 10.0, "partial"),
    ("danger(unknown)", "a person backs away", 10.0, "partial"),
    ("safe(open, 5m)", "a person backs away", 10.0, "partial"),                            # distance only
    ("danger(wall)", "a person backs away", 0.0, "wrong"),
    ("safe(open)", "a person stands still, calm", 0.0, "wrong"),    # "person ... still" is not the beast
])
def test_classification_branches(item, motion, points, branch) -> None:
    assert score_one("S06", BEAST_T, predict=with_fwd(item), motion=motion) == (points, branch)


def test_type_at_the_wrong_direction_is_wrong() -> None:
    predict = {**all_safe(), "left": "danger(beast)"}
    assert score_one("S06", BEAST_T, predict=predict) == (0.0, "wrong")


def test_parse_error_is_wrong() -> None:
    assert score_one("S06", BEAST_T, predict=None, motion="x") == (0.0, "wrong")


def test_distance_tolerance_is_twenty_percent_when_larger_than_a_metre() -> None:
    far = truth(npcs=[npc("beast", "approach", 7.5, "fwd")])
    # tolerance max(1 m, 20% of 7.5 m) = 1.5 m
    assert score_one("S08", far, predict=with_fwd("danger(beast, approaching, 6.1m)"))[0] == 20.0
    assert score_one("S08", far, predict=with_fwd("danger(beast, approaching, 5.9m)"))[0] == 15.0  # 1.6 > 1.5


def test_s07_woman_called_a_beast_lowers_all_correct() -> None:
    t = truth(npcs=[npc("woman", "stop", 3.0, "fwd"), npc("beast", "stop", 5.0, "left")])
    good = {**all_safe(), "fwd": "safe(woman)", "left": "danger(beast, stopped, 5m)"}
    assert score_one("S07", t, predict=good) == (20.0, "all_correct")
    bad = {**good, "fwd": "danger(beast)"}
    assert score_one("S07", t, predict=bad) == (15.0, "type_correct")


def test_human_primary_is_classified_as_human() -> None:
    t = truth(npcs=[npc("woman", "approach", 3.0, "fwd")])
    assert score_one("S06", t, predict=with_fwd("safe(woman, approaching, 3m)")) == (20.0, "all_correct")


FAR = truth(npcs=[npc("beast", "stop", 8.4, "fwd")])
NEAR = truth(npcs=[npc("beast", "stop", 7.6, "fwd")])


def test_s09_both_sides_weighted_equally() -> None:
    b = TraceBuilder("S09")
    b.repeat(3, FAR, predict=all_safe())                                            # clear 20 x3
    b.step(NEAR, predict=with_fwd("danger(beast, stopped, 7.6m)"))                  # all correct 20
    b.step(NEAR, predict=with_fwd("danger(wall)"))                                   # wrong 0
    s = score_trace(b.build())
    assert s.score == pytest.approx((20.0 + 10.0) / 2)


def test_s09_phantom_beast_beyond_range() -> None:
    b = TraceBuilder("S09")
    b.step(FAR, predict=with_fwd("danger(beast)"))                                   # phantom 0
    b.step(NEAR, predict=with_fwd("danger(beast)"))                                  # type 15
    assert score_trace(b.build()).score == pytest.approx((0.0 + 15.0) / 2)


def test_s10_clear_credit_is_gated_on_having_seen_the_beast() -> None:
    gone = truth()
    seen = TraceBuilder("S10")
    seen.repeat(2, BEAST_T, predict=with_fwd("danger(beast)")).repeat(2, gone, predict=all_safe())
    assert score_trace(seen.build()).score == pytest.approx((15.0 + 20.0) / 2)
    blind = TraceBuilder("S10")
    blind.repeat(2, BEAST_T, predict=all_safe()).repeat(2, gone, predict=all_safe())
    s = score_trace(blind.build())
    assert s.score == 0.0
    assert "clear_ungated" in s.explanation


def test_s10_keeping_the_beast_after_despawn_is_a_phantom() -> None:
    b = TraceBuilder("S10")
    b.repeat(2, BEAST_T, predict=with_fwd("danger(beast)"))
    b.repeat(2, truth(), predict=with_fwd("danger(beast)"))
    assert score_trace(b.build()).score == pytest.approx((15.0 + 0.0) / 2)


def test_s06_clear_decisions_are_averaged_with_the_rest() -> None:
    b = TraceBuilder("S06")
    b.repeat(3, BEAST_T, predict=with_fwd("danger(beast)")).step(truth(), predict=all_safe())   # beast gone
    assert score_trace(b.build()).score == pytest.approx((15.0 * 3 + 20.0) / 4)


def test_a_clear_decision_made_by_fleeing_out_of_range_is_not_exercised() -> None:
    # the beast was nearby at the phase's start; the brain's own flight took it out of range: no free "clear"
    b = TraceBuilder("S06")
    b.repeat(1, BEAST_T, predict=with_fwd("danger(beast)")).repeat(3, FAR, predict=all_safe())
    scored = score_trace(b.build())
    assert scored.score == 15.0 and scored.evidence["sim"]["not_exercised"] == [1, 2, 3]


def test_a_clear_scene_by_design_is_exercised() -> None:
    # out of range from the phase's first decision (S09's outside side): the scene made it clear
    assert score_trace(TraceBuilder("S09").repeat(2, FAR, predict=all_safe()).build()).evidence["sim"][
        "not_exercised"] == []


def test_recognition_needs_the_right_verdict() -> None:
    # safe(beast) in front of a beast names the type but not the threat: behaviour and distance only
    assert score_one("S06", BEAST_T, predict=with_fwd("safe(beast, stopped, 5m)"),
                     motion="a person backs away") == (10.0, "partial")
    assert score_one("S06", BEAST_T, predict=with_fwd("safe(beast)"), motion="a person backs away") == (0.0,
                                                                                                        "wrong")


def test_a_beast_named_where_none_is_is_a_phantom_whatever_the_verdict() -> None:
    b = TraceBuilder("S10")
    b.repeat(1, BEAST_T, predict=with_fwd("danger(beast)"))
    b.repeat(1, truth(), predict={**all_safe(), "left": "safe(beast)"})                       # after the despawn
    scored = score_trace(b.build())
    assert scored.evidence["decisions"][1]["why"].startswith("phantom")
    # and next to the real beast a named phantom lowers the recognition one step
    assert score_one("S06", BEAST_T, predict={**with_fwd("danger(beast)"), "left": "safe(beast)"},
                     motion="a person backs away") == (10.0, "partial")


def test_an_audible_beast_out_of_sight_is_not_a_phantom_in_the_direction_of_its_sound() -> None:
    heard = truth(npcs=[npc("beast", "approach", 12.0, "left", speed=1.2)])
    scored = score_trace(TraceBuilder("S10").repeat(1, heard, predict={**all_safe(), "left": "danger(beast)"},
                                                    scene={"recent_decisions": [], "sound":
                                                           "low growl from the left"}).build())
    assert scored.evidence["decisions"][0]["why"].startswith("clear"), scored.explanation
    wrong_side = score_trace(TraceBuilder("S10").repeat(1, heard, predict={**all_safe(), "right": "danger(beast)"},
                                                        scene={"recent_decisions": [], "sound":
                                                               "low growl from the left"}).build())
    assert wrong_side.evidence["decisions"][0]["why"].startswith("phantom")
