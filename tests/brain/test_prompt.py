"""The default system prompt and the chat messages built from a scene_context."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from wmbench.body.intent.reader import parse_motion
from wmbench.brain.prompt import DEFAULT_SYSTEM_PROMPT, build_messages, load_system_prompt, scene_to_json
from wmbench.protocol.grammar import Decision, parse_reply
from wmbench.protocol.scene import SCENE_KEYS, WALL_KEYS, validate_scene

SCENE = {
    # deliberately out of contract order: the JSON must come out in order
    "t": 1.5,
    "npcs": [{"speed": 5.0, "direction": "front", "distance": 4.8, "behavior": "charge", "type": "beast"}],
    "walls": {"front": 3.0, "back": None, "left": 2.5, "right": None},
    "ground": "flat",
    "npc_nearby": True, "npc_type": "beast", "npc_behavior": "charge", "npc_distance": 4.8,
    "npc_direction": "front", "sound": "roar and pounding paws from the front",
    "recent_decisions": [{"outcome": "moved right", "direction": "right", "motion": "walks right", "t": 1.0}],
    "last_prediction": "PREDICT: left=danger(wall), right=safe(open), fwd=danger(beast), back=safe(open)",
}


def test_scene_fixture_is_valid():
    assert validate_scene(SCENE) == []


def test_messages_shape():
    messages = build_messages(SCENE)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert messages[0]["content"] == DEFAULT_SYSTEM_PROMPT
    assert all(isinstance(m["content"], str) and m["content"] for m in messages)


def test_user_content_round_trips_and_is_ordered():
    content = build_messages(SCENE)[1]["content"]
    assert "\n" not in content and ", " not in content.split('"sound"')[0]   # compact separators
    decoded = json.loads(content)
    assert decoded == SCENE
    assert list(decoded) == list(SCENE_KEYS)
    assert list(decoded["walls"]) == list(WALL_KEYS)
    assert list(decoded["npcs"][0]) == ["type", "behavior", "distance", "direction", "speed"]
    assert list(decoded["recent_decisions"][0]) == ["t", "motion", "direction", "outcome"]


def test_extra_keys_are_kept_after_the_contract_keys():
    decoded = json.loads(scene_to_json({"my_key": 1, **SCENE}))
    assert list(decoded)[-1] == "my_key"


def test_numpy_and_non_finite_values_become_plain_json():
    scene = {**SCENE, "t": np.float64(2.0), "npc_distance": float("nan"),
             "walls": {"left": np.float32(1.5), "right": None, "front": math.inf, "back": None}}
    decoded = json.loads(build_messages(scene)[1]["content"])
    assert decoded["t"] == 2.0 and decoded["npc_distance"] is None
    assert decoded["walls"] == {"left": 1.5, "right": None, "front": None, "back": None}


def test_override_prompt():
    messages = build_messages(SCENE, system_prompt="Answer tersely.")
    assert messages[0] == {"role": "system", "content": "Answer tersely."}


def test_load_system_prompt(tmp_path):
    path = tmp_path / "prompt.txt"
    path.write_text("  My own rules.\nTwo lines only.\n", encoding="utf-8")
    prompt = load_system_prompt(path)
    assert prompt == "My own rules.\nTwo lines only."
    assert build_messages(SCENE, prompt)[0]["content"] == prompt


def test_load_system_prompt_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="not found"):
        load_system_prompt(tmp_path / "missing.txt")
    (tmp_path / "empty.txt").write_text("  \n", encoding="utf-8")
    with pytest.raises(ValueError, match="empty"):
        load_system_prompt(tmp_path / "empty.txt")


@pytest.mark.parametrize("bad", ["", "   ", 3])
def test_bad_prompt_rejected(bad):
    with pytest.raises(ValueError):
        build_messages(SCENE, system_prompt=bad)


def test_bad_scene_rejected():
    with pytest.raises(TypeError, match="dict"):
        build_messages(["not", "a", "scene"])    # type: ignore[arg-type]


@pytest.mark.parametrize("rule", ["PREDICT:", "MOTION:", "danger(wall)", "safe(open)", "danger(beast)",
                                  "recent_decisions", "Never move toward", "terror", "scene_context"])
def test_default_prompt_states_the_rules(rule):
    assert rule in DEFAULT_SYSTEM_PROMPT


def test_default_prompt_example_is_a_valid_reply():
    lines = DEFAULT_SYSTEM_PROMPT.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("PREDICT: left=danger"))
    result = parse_reply("\n".join(lines[start:start + 2]))
    assert isinstance(result, Decision)
    expected = {"left": "danger", "right": "safe", "fwd": "danger", "back": "danger"}
    assert result.prediction.verdicts() == expected
    intent = parse_motion(result.motion)
    assert (intent.direction, intent.speed_class.value) == ("right", "sprint")
    assert {"fear", "terror", "glance_back"} <= intent.styles


def test_prompt_states_the_2m_rule_and_what_a_reason_carries():
    assert "within 2 m" in DEFAULT_SYSTEM_PROMPT and "danger(human)" in DEFAULT_SYSTEM_PROMPT
    assert "its type, what it is doing and how far it is" in DEFAULT_SYSTEM_PROMPT
    assert "never danger(beast) in a direction without one" in DEFAULT_SYSTEM_PROMPT
