"""The panel's cheats are prompt-only with exactly one part replaced (and they really replace it)."""

from __future__ import annotations

import itertools
from typing import Any

from tests.brain.panel.test_prompt_only import npc, scene
from wmbench.body.intent.reader import parse_motion
from wmbench.brain.panel.brains import DIAGNOSTIC_BRAINS, get_panel_brain
from wmbench.brain.panel.cheats import PROMPT_WORDS
from wmbench.brain.panel.prompt_only import compose_reply
from wmbench.protocol.grammar import ParseError, parse_reply

CHEATS = ("oracle-random", "distance-only", "all-beast", "prompt-words", "runs-at-danger")


def scenes() -> list[dict[str, Any]]:
    out = []
    for (kind, behavior), where, distance, walls in itertools.product(
            [("beast", "charge"), ("beast", "approach"), ("beast", "stop"), ("woman", "approach"), ("man", "stop")],
            ("front", "left", "back"), (1.5, 4.0, 7.0), ({}, {"left": 1.5}, {"front": 2.0, "back": 1.5})):
        out.append(scene(walls, [npc(kind, behavior, distance, where)]))
    out.append(scene())
    out.append(scene({"front": 3.0}))
    return out


def motion(text: str) -> Any:
    parsed = parse_reply(text)
    assert not isinstance(parsed, ParseError), text
    return parse_motion(parsed.motion)


def test_the_quick_panel_runs_every_cheat_and_prompt_only() -> None:
    assert {"prompt-only", "prompt-only-memoryless", *CHEATS} <= set(DIAGNOSTIC_BRAINS)


def test_oracle_random_predicts_like_prompt_only_and_moves_to_a_random_safe_side() -> None:
    brain = get_panel_brain("oracle-random")
    directions = set()
    for s in scenes():
        text = brain.decide(s).text
        assert text.split("\n")[0] == compose_reply(s).split("\n")[0]
        intent = motion(text)
        if intent.direction is not None:
            verdicts = parse_reply(text).prediction
            assert verdicts.get(intent.direction).verdict == "safe"
            directions.add(intent.direction)
    assert len(directions) >= 3                                           # not one fixed side
    first, again = get_panel_brain("oracle-random"), get_panel_brain("oracle-random")
    first.reset(7)
    again.reset(7)
    assert [first.decide(s).text for s in scenes()] == [again.decide(s).text for s in scenes()]


def test_distance_only_never_reads_behaviour() -> None:
    brain = get_panel_brain("distance-only")
    for distance, where in itertools.product((1.5, 4.0, 7.0), ("front", "left")):
        replies = {brain.decide(scene(npcs=[npc("beast", b, distance, where)],
                                      sound=f"low growl from the {where}")).text
                   for b in ("charge", "approach", "stop", "wander")}
        assert len(replies) == 1, replies
    near = motion(brain.decide(scene(npcs=[npc("beast", "stop", 1.5, "front")])).text)
    far = motion(brain.decide(scene(npcs=[npc("beast", "charge", 7.0, "front")])).text)
    assert near.speed_class.rank > far.speed_class.rank                  # closer = more intense, whatever it does


def test_all_beast_calls_every_person_a_beast_and_moves_like_prompt_only() -> None:
    brain = get_panel_brain("all-beast")
    s = scene(npcs=[npc("woman", "approach", 1.5, "front"), npc("man", "stop", 5.0, "left")])
    text = brain.decide(s).text
    assert "fwd=danger(beast" in text and "left=danger(beast" in text
    assert text.split("\n")[1] == compose_reply(s).split("\n")[1]


def test_prompt_words_keeps_prompt_onlys_decisions_in_the_prompts_words() -> None:
    brain = get_panel_brain("prompt-words")
    used = set()
    for s in scenes():
        text, honest = brain.decide(s).text, compose_reply(s)
        assert text.split("\n")[0] == honest.split("\n")[0]
        mine, theirs = motion(text), motion(honest)
        if theirs.speed_class.rank > 0:
            assert (mine.direction, mine.speed_class, mine.face_travel) == (
                theirs.direction, theirs.speed_class, theirs.face_travel), (text, honest)
        used |= {k for k, words in PROMPT_WORDS.items() if words in text}
    assert {"charge", "approach", "near-person", "none"} <= used


def test_runs_at_danger_heads_for_the_creature_in_prompt_onlys_words() -> None:
    brain = get_panel_brain("runs-at-danger")
    for where in ("front", "left", "back"):
        s = scene(npcs=[npc("beast", "charge", 5.0, where)])
        text = brain.decide(s).text
        assert motion(text).direction == {"front": "fwd"}.get(where, where)
        assert text.split("\n")[0] == compose_reply(s).split("\n")[0]
        assert "panic-stricken" in text                                  # prompt-only's expressive words kept
    assert brain.decide(scene()).text == compose_reply(scene())          # nothing in sight: prompt-only
