"""Shared evidence readers: PREDICT vs truth, realized motion, intensity, descriptors, hidden inconsistency.
"""

from __future__ import annotations

import math

import pytest

from tests.scoring.trace_factory import CALM, TraceBuilder, all_safe, npc, truth
from wmbench.scoring import evidence as ev
from wmbench.scoring import expression, movement, reply
from wmbench.scoring.keywords import load_banks

BANKS = load_banks()
WALL_FWD = truth(walls={"fwd": 3.0})


def one(t, **kwargs):
    return TraceBuilder("S01").step(t, **kwargs)


def test_prediction_reads_raw_items_from_the_reply_when_the_parse_has_none() -> None:
    d = one(truth(npcs=[npc()]), predict={"fwd": "danger(beast, charging, 4.8m)", "left": "safe(open)"})
    items = ev.prediction(d)
    assert items["fwd"].reason == "beast" and items["fwd"].raw == "fwd=danger(beast, charging, 4.8m)"
    assert items["left"].verdict == "safe"


def test_parse_error_has_no_prediction_and_no_motion() -> None:
    d = one(WALL_FWD, predict=None, motion="a person walks")
    assert ev.prediction(d) is None and reply.motion_text(d) == ""
    assert ev.spatial_accuracy(d).level == "miss"


def test_distances_in_text() -> None:
    assert reply.distances_in("beast, charging, 4.8m; woman at 3 metres, 10 m") == [4.8, 3.0, 10.0]


@pytest.mark.parametrize(("predict", "level", "n_correct"), [
    ({"fwd": "danger(wall)", "left": "safe(open)", "right": "safe(open)", "back": "safe(open)"}, "exact", 4),
    ({"fwd": "danger(wall)", "left": "safe(exit)", "right": "safe", "back": "safe(open)"}, "exact", 4),
    ({**all_safe(), "fwd": "danger(wall)", "left": "danger(wall)"}, "partial", 3),
    ({**all_safe(), "fwd": "danger(beast)"}, "partial", 3),
    (all_safe(), "miss", 3),                                   # 3 right but the only danger missed
    ({**all_safe(), "fwd": "danger(wall)", "left": "danger(wall)", "right": "danger(wall)"}, "miss", 2),
    ({"fwd": "danger(wall)", "left": "safe(open)", "right": "safe(open)"}, "partial", 3),  # back missing
])
def test_spatial_accuracy_levels(predict, level, n_correct) -> None:
    result = ev.spatial_accuracy(one(WALL_FWD, predict=predict))
    assert (result.level, result.n_correct) == (level, n_correct)
    assert result.points == ev.SPATIAL_POINTS[level]


def test_spatial_partial_in_open_field_needs_no_danger_found() -> None:
    predict = {**all_safe(), "back": "danger(wall)"}
    assert ev.spatial_accuracy(one(truth(), predict=predict)).level == "partial"


def test_realized_and_world_sector_after_turning() -> None:
    b = TraceBuilder("S12")
    t = truth(npcs=[npc()])
    first = b.step(t, move="right", speed="run")
    second = b.step(t, move="fwd", speed="run")           # now facing start-frame right
    assert ev.realized(first).direction == "right" and ev.realized(second).direction == "fwd"
    assert movement.world_sector(first, 0.0) == "right" and movement.world_sector(second, 0.0) == "right"
    assert ev.realized(second).moved and ev.realized(second).speed_rank == 3


def test_realized_falls_back_to_body_states() -> None:
    d = one(truth(), move="left", speed="walk")
    from dataclasses import replace
    bare = replace(d, realized={})
    r = ev.realized(bare)
    assert r.direction == "left" and math.isclose(r.distance, 0.7)


@pytest.mark.parametrize(("move", "into", "safe"),
                         [("fwd", True, False), ("back", False, True), (None, False, False)])
def test_into_danger_and_moved_safe(move, into, safe) -> None:
    d = one(WALL_FWD, move=move)
    assert movement.into_danger(d) is into and ev.moved_safe(d) is safe


def test_into_predicted_danger_uses_the_brains_own_prediction() -> None:
    d = one(truth(), predict={**all_safe(), "left": "danger(wall)"}, move="left")
    assert movement.into_predicted_danger(d) and not movement.into_danger(d)


def test_collision_is_contact_and_never_moved_safe() -> None:
    d = one(truth(), move="left", events=["collision:wall"])
    assert movement.collided(d) and ev.contact(d) and not ev.moved_safe(d)


def test_intensity_orders_typical_replies() -> None:
    t = truth(npcs=[npc(behavior="charge")])
    calm = expression.decision_intensity(one(t, motion=CALM), BANKS).combined
    cautious_d = one(t, motion="a person walks back cautiously", move="back")
    cautious = expression.decision_intensity(cautious_d, BANKS).combined
    sprint = expression.decision_intensity(one(t, motion="a person sprints left", move="left", speed="sprint"), BANKS)
    terror = expression.decision_intensity(one(
        t, motion="a person sprints left desperately in frantic terror, fleeing in blind panic", move="left",
        speed="sprint"), BANKS)
    assert calm < cautious < sprint.combined < terror.combined <= 1.0
    assert sprint.keyword_level == 3 and terror.keyword_level == 4


def test_words_alone_cannot_reach_flight_intensity() -> None:
    t = truth(npcs=[npc(behavior="charge")])
    d = one(t, motion="a person sprints desperately in frantic terror, panicking, fleeing for dear life")
    assert expression.decision_intensity(d, BANKS).combined <= 0.5


def test_tense_posture_counts_as_body_tension() -> None:
    t = truth(npcs=[npc()])
    frozen = expression.decision_intensity(one(t, motion="a person freezes", posture="freeze"), BANKS)
    assert frozen.body_rank == expression.TENSE_POSTURE_RANK


def test_parse_error_intensity_is_zero() -> None:
    d = one(truth(), predict=None, motion="a person sprints in terror", move="left", speed="sprint")
    assert expression.decision_intensity(d, BANKS).combined == 0.0


@pytest.mark.parametrize(("motion", "count"), [
    ("a person stands", 0),
    ("a person walks slowly", 1),
    ("a person walks slowly and warily", 2),
    ("a person sprints in terror, glancing back, wide-eyed", 3),
    ("a person is not afraid", 0),
])
def test_descriptor_count(motion, count) -> None:
    assert len(expression.descriptor_terms(motion, BANKS)) == count


def test_emotion_families() -> None:
    families = expression.emotion_families("frozen, holding breath, relieved", BANKS)
    assert "freeze" in families and "relief" in families and "fear" not in families


def test_hidden_inconsistency_counts_safe_actions_with_wrong_predictions() -> None:
    b = TraceBuilder("S01")
    b.step(WALL_FWD, move="back")                                   # safe action, exact PREDICT
    b.step(WALL_FWD, predict=all_safe(), move="back")               # safe action, wrong PREDICT
    b.step(WALL_FWD, predict=all_safe(), move="fwd")                # unsafe action: not counted
    result = ev.hidden_inconsistency(b.build().decisions)
    assert result == {"count": 1, "safe_decisions": 2, "rate": 0.5, "indices": [1]}
