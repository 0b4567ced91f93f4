"""C08 · Motion Expressiveness (P3): is the emotion in the MOTION line, and does the body show it?

Every scenario here is scored by the same two-part rule — the MOTION line's descriptors and fitting emotion
(keyword-compatible) and the body's realized style (sim-grounded) — stated once, per scenario, in
:data:`wmbench.scoring.c08.RULE_TEXT` (``wmbench show`` prints it under the card).
"""

from __future__ import annotations

from wmbench.scenarios.families import SIDE_FRONTS
from wmbench.scenarios.records import Expectations, Family, NpcSpec, Phase, Scenario, TimelineEvent, Wall
from wmbench.scenarios.registry import scenario


@scenario
def s36_fear_expression_in_sprint() -> Scenario:
    """S36 · Fear Expression in Sprint (C08, medium)

    Setup: open ground; a beast charges from 6 m ahead (5.0 m/s). 3 s (6 decisions, all judged).
    Expected: not just "runs" but a sprint full of fear — wide eyes, flailing arms, glancing back, stumbling.
    """
    return Scenario(
        id="S36", category="C08", name="Fear Expression in Sprint",
        family=Family(fronts=SIDE_FRONTS, npc_distance=(0.9, 1.2)),
        setup="A beast charges; the protagonist sprints.",
        phases=(Phase(name="charge", duration=3.0, npcs=(NpcSpec("beast", "beast", (6.0, 0.0), "charge"),)),),
        expectations=Expectations(
            perception="fwd=danger(beast) charging",
            correct_actions=("sprints in terror, arms flailing, glancing back",),
            incorrect_actions=("runs", "walks away"),
            pattern="a fearful sprint, distinct from a plain run",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="medium",
    )


@scenario
def s37_cautious_walk_expression() -> Scenario:
    """S37 · Cautious Walk Expression (C08, medium)

    Setup: open ground; a beast 5 m ahead approaches (1.2 m/s) and despawns at 1.0 s. 4 s (8 decisions; the
    6 after the despawn are judged).
    Expected: moving on "warily and slowly" — a walk with a different nuance from a normal walk: hunched,
    soft steps, head turning.
    """
    return Scenario(
        id="S37", category="C08", name="Cautious Walk Expression",
        family=Family(fronts=SIDE_FRONTS, npc_distance=(0.9, 1.1), event_time=(0.85, 1.15)),
        setup="Moving on right after a beast has vanished.",
        phases=(Phase(
            name="beast gone, move on", duration=4.0,
            npcs=(NpcSpec("beast", "beast", (5.0, 0.0), "approach"),),
            events=(TimelineEvent(1.0, "beast", "despawn"),),
        ),),
        expectations=Expectations(
            perception="beast ahead, then no NPC",
            correct_actions=("walks cautiously and slowly, scanning around",),
            incorrect_actions=("walks normally", "sprints"),
            pattern="'warily and slowly' — a nuance unlike a normal walk",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="medium",
    )


@scenario
def s38_freezing_response() -> Scenario:
    """S38 · Freezing Response (C08, medium)

    Setup: open ground, nothing in sight; at 1.0 s a beast appears 7 m ahead, standing still (spawn). 3 s
    (6 decisions; the first two that see the beast are judged).
    Expected: on first sight, freezing — stock-still, holding the breath, muscles tense.
    Variant (seeds 2 and up, every drawn test instance): a long wall on the left 4.5 m away, turned with the
    front, so the scene before the beast appears is not the same empty field on every instance; back and the
    other side stay open.
    """
    return Scenario(
        id="S38", category="C08", name="Freezing Response",
        family=Family(fronts=SIDE_FRONTS, npc_distance=(0.85, 1.1), event_time=(0.8, 1.2),
                      variant_walls=(Wall.facing("left", 4.5, length=14.0, name="side_wall"),)),
        setup="A beast appears, standing, 7 m ahead: the moment of first detection.",
        phases=(Phase(
            name="first sight", duration=3.0,
            npcs=(NpcSpec("beast", "beast", (7.0, 0.0), "stop", present=False),),
            events=(TimelineEvent(1.0, "beast", "spawn"),),
        ),),
        expectations=Expectations(
            perception="fwd=danger(beast) standing at 7 m, newly seen",
            correct_actions=("freezes, stock-still and tense, holding the breath",),
            incorrect_actions=("keeps walking", "sprints immediately"),
            pattern="'frozen' — stillness plus tension",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="medium",
    )


@scenario
def s39_relief_expression() -> Scenario:
    """S39 · Relief Expression (C08, hard)

    Setup: open ground; a beast stands 6 m ahead, turns away at 0.5 s (retreat, 1.2 m/s) and despawns at
    2.0 s. 5 s (10 decisions; the 6 after the despawn are judged).
    Expected: relief once safety is confirmed — exhaling, shoulders dropping, catching the breath, a slow
    transition back to normal.
    """
    return Scenario(
        id="S39", category="C08", name="Relief Expression",
        family=Family(fronts=SIDE_FRONTS, npc_distance=(0.9, 1.1), event_time=(0.85, 1.15)),
        setup="A beast backs off and vanishes; safety is confirmed.",
        phases=(Phase(
            name="beast leaves", duration=5.0,
            npcs=(NpcSpec("beast", "beast", (6.0, 0.0), "stop"),),
            events=(
                TimelineEvent(0.5, "beast", "switch", behavior="retreat"),
                TimelineEvent(2.0, "beast", "despawn"),
            ),
        ),),
        expectations=Expectations(
            perception="beast ahead moving away, then no NPC",
            correct_actions=("exhales in relief, shoulders dropping, catching the breath",),
            incorrect_actions=("walks normally with no transition", "keeps panicking"),
            pattern="'relieved, catching the breath' transition motion",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="hard",
    )


@scenario
def s40_defensive_posture() -> Scenario:
    """S40 · Defensive Posture (C08, medium)

    Setup: open ground; an unfamiliar woman walks slowly towards the protagonist from 3 m ahead (approach at
    0.8 m/s — an uncertain approach). 2.5 s (5 decisions, all judged); she ends about 1 m away from a
    protagonist who never moved.
    Expected: a defensive posture and back-steps — hands raised, stepping back while facing her; wary but not
    aggressive.
    """
    return Scenario(
        id="S40", category="C08", name="Defensive Posture",
        family=Family(fronts=SIDE_FRONTS, npc_distance=(1.0, 1.2)),
        setup="An unfamiliar woman approaches slowly from 3 m.",
        phases=(Phase(name="woman approaches", duration=2.5,
                      npcs=(NpcSpec("woman", "woman", (3.0, 0.0), "approach", speed=0.8),)),),
        expectations=Expectations(
            perception="a woman approaching in front at 3 m (neutral but unknown)",
            correct_actions=("steps back defensively, hands raised, watching her",),
            incorrect_actions=("sprints away", "attacks", "ignores her"),
            pattern="'defensive posture + back-step' — wary, not aggressive",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="medium",
    )
