"""The validity panel's brains: well-formed, deterministic, each lacking what its card says."""

from __future__ import annotations

import json

import pytest

from wmbench.brain.panel.brains import (
    DIAGNOSTIC_BRAINS,
    QUICK_CONSTANTS,
    all_constant_names,
    forget,
    get_panel_brain,
    mirror_scene,
    official_fields,
    panel_names,
    wall_behind_after_turn,
)
from wmbench.brain.registry import get_brain
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.protocol.grammar import parse_reply


@pytest.fixture(scope="module")
def scene() -> dict:
    env = WMBenchEnv("S26")
    try:
        obs, _ = env.reset(seed=0)
        return json.loads(obs["scene"])
    finally:
        env.close()


def test_the_full_sweep_has_at_least_50_constants_and_quick_is_a_subset():
    assert len(all_constant_names()) >= 50
    assert set(QUICK_CONSTANTS) <= set(all_constant_names())
    assert set(panel_names(True)) <= set(panel_names(False))


@pytest.mark.parametrize("name", [*DIAGNOSTIC_BRAINS, *QUICK_CONSTANTS])
def test_every_panel_brain_replies_well_formed_and_deterministically(name, scene):
    first, second = get_panel_brain(name), get_panel_brain(name)
    first.reset(5), second.reset(5)
    a, b = first.decide(scene).text, second.decide(scene).text
    assert a == b
    assert parse_reply(a).ok, a


def test_right_first_is_left_first_in_the_mirror(scene):
    left, right = get_panel_brain("left-first"), get_panel_brain("right-first")
    assert "to the left" in left.decide(forget(scene)).text  # S26 canonical: both sides look alike
    assert "to the right" in right.decide(forget(scene)).text


def test_memoryless_brains_ignore_memory_but_the_reference_does_not(scene):
    assert "to the left" in get_panel_brain("left-first").decide(scene).text
    assert "to the right" in get_panel_brain("right-first").decide(scene).text  # walks into the dead end
    assert "to the left" in get_panel_brain("reference").decide(scene).text  # memory: the right is blocked


def test_mirror_scene_swaps_sides_everywhere(scene):
    mirrored = mirror_scene({**scene, "walls": {"left": 1.0, "right": None, "front": 1.5, "back": None}})
    assert mirrored["walls"]["right"] == 1.0 and mirrored["walls"]["left"] is None
    assert mirrored["recent_decisions"][0]["direction"] == "left"


def test_perceive_only_runs_towards_the_danger_it_predicts(scene):
    text = get_panel_brain("perceive-only").decide(scene).text
    assert "back=danger(beast)" in text and "runs backward" in text


def test_panel_brains_are_named_on_the_command_line():
    assert get_brain("panel:constant:beast-ahead/still").name == "constant:beast-ahead/still"
    with pytest.raises(ValueError, match="unknown panel brain"):
        get_panel_brain("nobody")


def test_official_field_brain_never_sees_walls_back(scene):
    """It answers as the reference does on the same scene without the extension field ``walls.back``."""
    quiet = {**scene, "npc_nearby": False, "npc_type": None, "npc_behavior": None, "npc_distance": None,
             "npc_direction": None, "sound": None, "npcs": [], "recent_decisions": [], "last_prediction": None}
    walled_back = {**quiet, "walls": {"left": 1.5, "right": None, "front": None, "back": 1.5}}
    assert official_fields(walled_back)["walls"] == {"left": 1.5, "right": None, "front": None}
    assert "back" in walled_back["walls"]  # the caller's scene is left alone
    official, reference = get_panel_brain("official-field"), get_panel_brain("reference")
    seen = reference.decide(walled_back).text
    blind = official.decide(walled_back).text
    assert "back=danger(wall)" in seen and "back=safe(open)" in blind
    assert blind == get_panel_brain("reference").decide(official_fields(walled_back)).text


def test_an_official_field_brain_knows_the_wall_its_own_turn_put_behind_it():
    seen = ({"left": 1.5, "right": None, "front": 3.0}, "MOTION: a person runs to the right")
    assert wall_behind_after_turn(seen, [{"direction": "right", "outcome": "moved right"}]) == 1.5
    assert wall_behind_after_turn(seen, [{"direction": "back", "outcome": "moved back"}]) == 3.0
    backstep = (seen[0], "MOTION: a person steps back, hands raised")
    assert wall_behind_after_turn(backstep, [{"direction": "back", "outcome": "moved back"}]) is None
    assert wall_behind_after_turn(seen, [{"direction": "left", "outcome": "moved left"}]) is None  # no right wall
    assert wall_behind_after_turn(None, [{"direction": "right"}]) is None  # first decision: nothing seen yet
