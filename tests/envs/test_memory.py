"""Decision memory: recent_decisions entries, clipping, seeding, outcomes."""

from __future__ import annotations

import pytest

from wmbench.envs.memory import MAX_MOTION_CHARS, DecisionMemory, decision_outcome, scene_direction
from wmbench.protocol.scene import RECENT_DECISIONS_SHOWN
from wmbench.scenarios import PriorDecision


def test_keeps_the_last_entries_in_scene_spelling():
    memory = DecisionMemory()
    for i in range(RECENT_DECISIONS_SHOWN + 2):
        memory.add(i * 0.5, f"walk {i}", "fwd", "moved front")
    recent = memory.recent()
    assert len(recent) == RECENT_DECISIONS_SHOWN
    assert recent[0]["motion"] == "walk 2" and recent[-1]["t"] == 3.0
    assert {r["direction"] for r in recent} == {"front"}
    recent[0]["motion"] = "changed"
    assert memory.recent()[0]["motion"] == "walk 2"  # copies


def test_long_motion_and_prediction_are_clipped():
    memory = DecisionMemory()
    memory.add(0.0, "x" * 10_000, None, "stood still")
    memory.remember_prediction("P" * 10_000)
    assert len(memory.recent()[0]["motion"]) == MAX_MOTION_CHARS
    assert len(memory.last_prediction) < 1000
    memory.remember_prediction("")
    assert memory.last_prediction is None


def test_seed_and_clear():
    memory = DecisionMemory()
    memory.seed([PriorDecision(1.0, "fled right", "right", "blocked by wall on right")])
    assert memory.recent() == [{"t": 1.0, "motion": "fled right", "direction": "right",
                                "outcome": "blocked by wall on right"}]
    memory.remember_prediction("PREDICT: left=safe(open)")
    memory.clear()
    assert memory.recent() == [] and memory.last_prediction is None


@pytest.mark.parametrize("kwargs, outcome", [
    ({"caught": True, "blocked": True, "escaped": True, "asked": "left", "moved": "left"}, "caught"),
    ({"caught": False, "blocked": True, "escaped": False, "asked": "right", "moved": None},
     "blocked by wall on right"),
    ({"caught": False, "blocked": False, "escaped": True, "asked": "left", "moved": "left"}, "escaped"),
    ({"caught": False, "blocked": False, "escaped": False, "asked": "back", "moved": "back"}, "moved back"),
    ({"caught": False, "blocked": False, "escaped": False, "asked": None, "moved": None}, "stood still"),
])
def test_outcome_priority(kwargs, outcome):
    assert decision_outcome(**kwargs) == outcome


def test_scene_direction():
    assert scene_direction("fwd") == "front" and scene_direction("left") == "left"
    assert scene_direction(None) is None
