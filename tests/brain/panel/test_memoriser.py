"""``panel:memoriser``: the reference's seed-0 replies replayed exactly, the nearest remembered scene elsewhere,
and nothing but the scene to go on (no scenario id, no seed)."""

from __future__ import annotations

from wmbench.brain.panel.memoriser import MemoriserBrain, MemoryTable, Remembered, scene_features, seed0_table
from wmbench.brain.reference.brain import ReferenceBrain
from wmbench.brain.registry import get_brain
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.instances import draw_test_seeds


def _scene(front=None, npc=None):
    scene = {"walls": {"left": None, "right": None, "front": front, "back": None}, "ground": "flat",
             "npc_nearby": npc is not None, "npc_type": npc, "npc_behavior": "stop" if npc else None,
             "npc_distance": 5.0 if npc else None, "npc_direction": "front" if npc else None, "sound": None,
             "recent_decisions": [], "last_prediction": None, "npcs": [], "t": 0.0}
    return scene


def test_the_nearest_remembered_scene_answers_an_unseen_one():
    table = MemoryTable(exact={}, entries=(Remembered(scene_features(_scene(front=3.0)), "WALL"),
                                           Remembered(scene_features(_scene(npc="beast")), "BEAST")))
    brain = MemoriserBrain(table)
    assert brain.decide(_scene(front=2.5)).text == "WALL"
    assert brain.decide(_scene(npc="beast") | {"npc_distance": 6.5}).text == "BEAST"


def test_on_seed_zero_it_is_the_reference_and_elsewhere_it_only_sees_the_scene():
    memoriser = get_brain("panel:memoriser")
    assert not hasattr(memoriser, "start_episode")  # the harness cannot tell it the scenario or the seed
    table = seed0_table()
    assert len(table.entries) > 200 and table.exact
    for sid in ("S06", "S12", "S21"):
        replayed = run_episode(sid, memoriser, "smpl", 0).trace
        reference = run_episode(sid, ReferenceBrain(), "smpl", 0).trace
        assert replayed is not None and reference is not None
        assert [d["reply"] for d in replayed["decisions"]] == [d["reply"] for d in reference["decisions"]]
    drawn = run_episode("S12", memoriser, "smpl", draw_test_seeds(1, 4)[1])
    assert drawn.error is None and drawn.parse_errors == 0
