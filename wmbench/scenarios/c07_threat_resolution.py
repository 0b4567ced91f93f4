"""C07 · Threat Resolution Adaptation (P2): after the beast is gone — vigilant, gradual, proportionate.

Where something new must happen *after* the threat (a wall, a new beast, a woman) the scenario uses a second
phase with memory carried: the world is rebuilt around the protagonist's start pose, so the new element is at
the intended place relative to the agent whichever way it fled, and `recent_decisions` still holds the
flight. Intensity is read as in C05 (bank level + high-bank words, checked against realized speed).
"""

from __future__ import annotations

from wmbench.scenarios.families import ALL_FRONTS
from wmbench.scenarios.records import Expectations, Family, NpcSpec, Phase, Scenario, TimelineEvent, Wall
from wmbench.scenarios.registry import scenario


def _brief_charge(duration: float) -> Phase:
    """A beast charges from 7 m ahead and vanishes at 1.0 s (it would still be about 1.9 m short of a frozen
    protagonist), followed by calm until ``duration``."""
    return Phase(
        name="beast charges, then vanishes", duration=duration,
        npcs=(NpcSpec("beast", "beast", (7.0, 0.0), "charge"),),
        events=(TimelineEvent(1.0, "beast", "despawn"),),
    )


@scenario
def s31_post_beast_vigilance() -> Scenario:
    """S31 · Post-beast Vigilance (C07, medium)

    Setup: open ground; a beast charges from 6 m ahead (5.0 m/s) and despawns at 1.5 s; then 3.5 s of calm.
    5 s (10 decisions: 3 with the beast, 7 after).
    Expected: right after the despawn, vigilance — slowing down while scanning, glancing back, still tense;
    not an instant return to normal.
    Rule: The first 2 decisions after the despawn: vigilant (at most a jog, with vigilance words or an
    intermediate intensity) 20; still fleeing at high intensity 10; instantly calm 0.
    """
    return Scenario(
        id="S31", category="C07", name="Post-beast Vigilance",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.95, 1.1), event_time=(0.85, 1.15)),
        setup="A charging beast despawns at 1.5 s; a few seconds of calm follow.",
        phases=(Phase(
            name="charge, then gone", duration=5.0,
            npcs=(NpcSpec("beast", "beast", (6.0, 0.0), "charge"),),
            events=(TimelineEvent(1.5, "beast", "despawn"),),
        ),),
        expectations=Expectations(
            perception="charging beast fwd, then npc_nearby=false",
            correct_actions=("slow down while scanning the surroundings", "walk warily, glancing back"),
            incorrect_actions=("instantly normal walk", "stroll as if nothing happened"),
            pattern="vigilant and looking around — not instant normalisation",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="medium",
    )


@scenario
def s32_gradual_normalization() -> Scenario:
    """S32 · Gradual Normalization (C07, medium)

    Setup: open ground; a beast charges from 6 m ahead (5.0 m/s) and despawns at 1.5 s; then 10 s of calm.
    11.5 s (23 decisions).
    Expected: sprint -> walk -> normal, step by step over the 10 s.
    Rule: From the peak while the beast was present through the recovery: gradual de-escalation via an
    intermediate level to settled 20, uneven 15, instant calm 5, never settles 5, never reacted 0.
    """
    return Scenario(
        id="S32", category="C07", name="Gradual Normalization",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.95, 1.1), event_time=(0.85, 1.15)),
        setup="A charging beast despawns at 1.5 s; 10 s follow.",
        phases=(Phase(
            name="charge, then 10 s", duration=11.5,
            npcs=(NpcSpec("beast", "beast", (6.0, 0.0), "charge"),),
            events=(TimelineEvent(1.5, "beast", "despawn"),),
        ),),
        expectations=Expectations(
            perception="charging beast fwd, then no NPC for 10 s",
            correct_actions=("sprint", "then jog", "then cautious walk", "then normal walk"),
            incorrect_actions=("sprint for the whole 10 s", "instant normal walk"),
            pattern="sprint -> walk -> normal, monotone",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="medium",
    )


@scenario
def s33_obstacle_navigation_after_threat() -> Scenario:
    """S33 · Obstacle Navigation After Threat (C07, medium)

    Setup: phase "threat" (2 s): a beast charges from 7 m ahead and despawns at 1.0 s. Phase "wall ahead"
    (3 s, memory carried): no NPC; a wall stands across the way 4 m ahead (10 m long); left, right and back
    open. 5 s (10 decisions).
    Expected: after the threat the wall is an ordinary obstacle — named, then avoided by a calm turn or walk
    along it, not by a panicked flight.
    Rule: Recovery decisions with a wall sensed: moved safely below flight intensity 20, moved safely still
    panicking 10, moved safely with word for word the answer given to the charging beast 0, stood still 5, into the
    wall's sector or a collision 0.
    """
    return Scenario(
        id="S33", category="C07", name="Obstacle Navigation After Threat",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.95, 1.1), wall_distance=(0.85, 1.15)),
        setup="A beast charges and vanishes; then a wall lies 4 m ahead.",
        phases=(
            _brief_charge(2.0),
            Phase(name="wall ahead", duration=3.0, carry_memory=True,
                  walls=(Wall.facing("fwd", 4.0, length=10.0),)),
        ),
        expectations=Expectations(
            perception="wall phase: fwd=danger(wall), others safe(open), no NPC",
            correct_actions=("turn calmly away from the wall", "walk along the wall"),
            incorrect_actions=("panic at the wall", "walk into the wall"),
            pattern="fear behaviour -> ordinary obstacle avoidance",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="medium",
    )


@scenario
def s34_new_threat_reactivation() -> Scenario:
    """S34 · New Threat Re-activation (C07, easy)

    Setup: phase "threat and recovery" (3 s): a beast charges from 7 m ahead and despawns at 1.0 s.
    Phase "new beast" (3.5 s, memory carried): calm, until a second beast appears 6 m to the left at 1.5 s
    and approaches (1.2 m/s). 6.5 s (13 decisions).
    Expected: mid-recovery, the new beast brings the threat response back at once.
    Rule: From the new beast's appearance: reacted (high intensity, no move into danger, not word for word an answer
    given in the beast-free stretch before it) within 1 decision 20, within 3 10, later 5, never 0. Caught caps at
    5.
    """
    return Scenario(
        id="S34", category="C07", name="New Threat Re-activation",
        family=Family(npc_distance=(0.95, 1.1), event_time=(0.85, 1.15)),
        setup="During recovery from a beast, a new beast appears on the left.",
        phases=(
            _brief_charge(3.0),
            Phase(
                name="new beast", duration=3.5, carry_memory=True,
                npcs=(NpcSpec("beast2", "beast", (0.0, 6.0), "approach", present=False),),
                events=(TimelineEvent(1.5, "beast2", "spawn"),),
            ),
        ),
        expectations=Expectations(
            perception="new beast on the left: left=danger(beast)",
            correct_actions=("sprint away from the new beast at once",),
            incorrect_actions=("keep strolling", "slow reaction"),
            pattern="instant re-activation of the threat response",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="easy",
    )


@scenario
def s35_human_approach_after_beast() -> Scenario:
    """S35 · Human Approach After Beast (C07, hard)

    Setup: phase "threat" (2 s): a beast charges from 7 m ahead and despawns at 1.0 s. Phase "woman
    approaches" (3 s, memory carried): a woman walks towards the protagonist from 5.5 m ahead (1.2 m/s); a
    protagonist who stays put has her at 2.5 m at the last decision, outside the 2 m personal-space radius
    whatever the ±2 % start jitter, so she is never danger(human). 5 s (10 decisions).
    Expected: proportionate caution towards the woman — a step back, a wary glance, walking aside — not
    the beast-level terror (over-reaction) and not total indifference right after a beast.
    Rule: Decisions with the woman present after the beast: caution without over-reaction 20, calm 10, word for word
    the answer given to the charging beast 0, high-intensity words or running/sprinting 0.
    """
    return Scenario(
        id="S35", category="C07", name="Human Approach After Beast",
        family=Family(fronts=ALL_FRONTS, npc_distance=(1.0, 1.1)),
        setup="Right after a beast vanishes, a woman approaches.",
        phases=(
            _brief_charge(2.0),
            Phase(name="woman approaches", duration=3.0, carry_memory=True,
                  npcs=(NpcSpec("woman", "woman", (5.5, 0.0), "approach"),)),
        ),
        expectations=Expectations(
            perception="woman phase: a woman approaching in front (neutral), no beast",
            correct_actions=("step back warily", "walk aside, watching her"),
            incorrect_actions=("sprint away in terror", "ignore her completely"),
            pattern="appropriate caution (good) vs over-reaction (bad)",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="hard",
    )
