"""``prompt-only``: the independent brain follows the prompt's rules, never moves into what it marks danger,
uses memory the way the prompt says, keeps its own wording, and reads nothing of the scorers or the reference."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path
from typing import Any

from wmbench.body.intent.reader import parse_motion
from wmbench.brain.panel import prompt_only
from wmbench.brain.panel.brains import get_panel_brain
from wmbench.brain.panel.prompt_only import PromptOnlyBrain, compose_reply
from wmbench.brain.prompt import DEFAULT_SYSTEM_PROMPT
from wmbench.protocol.grammar import ParseError, parse_reply


def scene(walls: dict[str, float | None] | None = None, npcs: list[dict[str, Any]] | None = None,
          sound: str | None = None, memory: list[dict[str, Any]] | None = None,
          last: str | None = None) -> dict[str, Any]:
    """A scene_context with the official fields filled from ``npcs[0]``."""
    npcs = npcs or []
    first = npcs[0] if npcs else None
    return {
        "walls": {"left": None, "right": None, "front": None, "back": None, **(walls or {})},
        "ground": "flat", "npc_nearby": bool(first), "npc_type": first and first["type"],
        "npc_behavior": first and first["behavior"], "npc_distance": first and first["distance"],
        "npc_direction": first and first["direction"], "sound": sound, "recent_decisions": memory or [],
        "last_prediction": last, "t": 0.0, "npcs": npcs,
    }


def npc(kind: str, behavior: str, distance: float, direction: str) -> dict[str, Any]:
    return {"type": kind, "behavior": behavior, "distance": distance, "direction": direction, "speed": 1.0}


def reply(s: dict[str, Any]) -> tuple[dict[str, tuple[str, str | None]], Any]:
    parsed = parse_reply(compose_reply(s))
    assert not isinstance(parsed, ParseError), parsed
    verdicts = {d: (p.verdict, p.reason) for d in ("left", "right", "fwd", "back")
                if (p := parsed.prediction.get(d)) is not None}
    return verdicts, parse_motion(parsed.motion)


def test_predict_follows_the_prompts_rules() -> None:
    verdicts, _ = reply(scene({"left": 2.1, "back": 1.5}, [npc("beast", "charge", 5.2, "front")]))
    assert verdicts == {"left": ("danger", "wall"), "right": ("safe", "open"), "fwd": ("danger", "beast"),
                        "back": ("danger", "wall")}
    text = compose_reply(scene({"left": 2.1}, [npc("beast", "charge", 5.2, "left")]))
    assert "left=danger(beast, charging, 5.2m)" in text          # the beast wins over the wall in its sector


def test_people_are_danger_only_within_two_metres() -> None:
    near, _ = reply(scene(npcs=[npc("woman", "approach", 1.6, "front")]))
    far, _ = reply(scene(npcs=[npc("man", "stop", 6.0, "left")]))
    assert near["fwd"] == ("danger", "human")
    assert far["left"] == ("safe", "human")
    assert "left=safe(human, man, stopped, 6.0m)" in compose_reply(scene(npcs=[npc("man", "stop", 6.0, "left")]))


def test_a_beast_only_heard_is_marked_where_the_sound_comes_from() -> None:
    verdicts, motion = reply(scene(sound="roar and pounding paws from the back"))
    assert verdicts["back"] == ("danger", "beast")
    assert motion.direction == "fwd" and motion.speed_class.rank >= 3        # flees ahead, flat out
    plain, _ = reply(scene(sound="footsteps from the left"))
    assert plain["left"] == ("safe", "open")                            # a person's footsteps are no beast


ALL_WALLS = (None, 1.5)
KINDS = tuple(("beast", b) for b in ("charge", "approach", "stop", "wander", "cross", "retreat"))


SEEN_BEFORE = "PREDICT: left=safe(open), right=safe(open), fwd=danger(beast), back=safe(open)"


def test_motion_never_goes_into_a_direction_it_marks_danger() -> None:
    """Every wall layout x every creature, direction and two distances, first sight or not: the MOTION the body
    reads never heads into a direction the brain's own PREDICT calls danger, and the reply always parses."""
    moving = 0
    creatures = [*KINDS, ("woman", "approach"), ("man", "stop")]
    for (kind, behavior), walls, where, distance, last in itertools.product(
            creatures, itertools.product(ALL_WALLS, repeat=4), ("front", "left", "right", "back"), (1.5, 5.0),
            (None, SEEN_BEFORE)):
        s = scene(dict(zip(("left", "right", "front", "back"), walls, strict=True)),
                  [npc(kind, behavior, distance, where)], last=last)
        verdicts, motion = reply(s)
        if motion.direction is not None and motion.speed_class.rank > 0:
            assert verdicts[motion.direction][0] == "safe", (s, compose_reply(s))
            moving += 1
    assert moving > 1000


def test_flees_away_from_a_charging_beast_and_scales_intensity_with_behaviour() -> None:
    _, charge = reply(scene(npcs=[npc("beast", "charge", 5.0, "front")]))
    _, approach = reply(scene(npcs=[npc("beast", "approach", 5.0, "front")]))
    _, standing = reply(scene(npcs=[npc("beast", "stop", 5.0, "front")]))
    _, woman = reply(scene(npcs=[npc("woman", "approach", 3.0, "front")]))
    assert charge.direction == "back" and approach.direction == "back"
    assert charge.speed_class.rank > approach.speed_class.rank > standing.speed_class.rank
    assert "freeze" in standing.styles                                   # first sight of a standing beast
    assert woman.direction == "back" and woman.speed_class.rank <= approach.speed_class.rank


def test_memory_avoids_a_blocked_direction_and_repeats_an_escape() -> None:
    threat = [npc("beast", "approach", 5.0, "front")]
    blocked = [{"t": -0.5, "motion": "a person sprints to the right", "direction": "right",
                "outcome": "blocked by wall on right"}]
    escaped = [{"t": -0.5, "motion": "a person sprints to the left", "direction": "left", "outcome": "escaped"}]
    _, plain = reply(scene({"back": 1.5}, threat))
    _, after_block = reply(scene({"back": 1.5}, threat, memory=blocked))
    _, after_escape = reply(scene(None, threat, memory=escaped))
    assert plain.direction == "right"                                    # its fixed tie order
    assert after_block.direction == "left"
    assert after_escape.direction == "left"
    forgetful = PromptOnlyBrain(memory=False).decide(scene(None, threat, memory=escaped)).text
    assert parse_motion(forgetful.split("MOTION:")[1]).direction == "back"   # without memory: plain away


def test_after_the_threat_it_stays_vigilant_then_relaxes() -> None:
    flight = {"t": 0.0, "motion": "a person bolts off to the right flat out, fleeing the beast",
              "direction": "right", "outcome": "moved right"}
    calm_words = []
    memory: list[dict[str, Any]] = [flight]
    for _ in range(6):
        s = scene(memory=memory, last=SEEN_BEFORE if len(memory) == 1 else None)
        text = compose_reply(s).split("MOTION: ")[1]
        calm_words.append(text)
        memory = [*memory, {"t": 0.0, "motion": text, "direction": "front", "outcome": "moved front"}][-5:]
    first, *_, last = [parse_motion(t) for t in calm_words]
    assert "vigilant" in first.styles and first.speed_class.rank > last.speed_class.rank
    assert len(set(calm_words)) >= 4                                     # a gradual settling, not one switch
    assert compose_reply(scene()) == compose_reply(scene())              # deterministic


def test_a_returning_beast_is_met_more_intensely() -> None:
    before = [{"t": 0.0, "motion": "a person backs off briskly, keeping the beast in view", "direction": "back",
               "outcome": "moved back"},
              {"t": 0.5, "motion": "a person walks on carefully", "direction": "front", "outcome": "moved front"}]
    threat = [npc("beast", "approach", 5.5, "front")]
    _, fresh = reply(scene(npcs=threat))
    _, again = reply(scene(npcs=threat, memory=before))
    assert again.speed_class.rank > fresh.speed_class.rank


#: the prompt's own example and intensity-guide wording, which prompt-only must not copy
PROMPT_PHRASES = ("in terror", "arms pumping", "glancing back", "over the shoulder", "desperate and frantic",
                  "quickly and warily", "hands raised", "step back calmly", "exhaling with relief",
                  "relax gradually", "stay vigilant", "walk naturally", "sprints to the right")


def test_own_wording_no_phrase_of_the_prompts_examples() -> None:
    for phrase in PROMPT_PHRASES:
        assert phrase in DEFAULT_SYSTEM_PROMPT                           # the list names real prompt phrases
    texts = set()
    for kind, behavior in [*KINDS, ("woman", "approach"), ("woman", "stop")]:
        for where, distance in itertools.product(("front", "left", "back"), (1.5, 3.5, 6.0)):
            for memory in ([], [{"t": 0.0, "motion": "bolts left, fleeing the beast", "direction": "left",
                                 "outcome": "moved left"}]):
                texts.add(compose_reply(scene(npcs=[npc(kind, behavior, distance, where)], memory=memory)))
    texts.add(compose_reply(scene()))
    for text in texts:
        motion = text.split("MOTION:")[1].lower()
        assert not [p for p in PROMPT_PHRASES if p in motion], text


def test_written_without_the_scorers_or_the_reference() -> None:
    tree = ast.parse(Path(prompt_only.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert not [m for m in imported if m.startswith(("wmbench.scoring", "wmbench.brain.reference.brain"))]


def test_registered_in_the_panel() -> None:
    assert get_panel_brain("prompt-only").name == "prompt-only"
    brain = get_panel_brain("prompt-only-memoryless")
    assert brain.name == "prompt-only-memoryless"
