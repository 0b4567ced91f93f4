"""C02 · Entity Recognition (P1): which NPC is there, what it does, how far, in which direction.

Open ground (no walls) so that only the NPCs matter. The scorer reads the primary NPC out of the PREDICT
reasons (and MOTION wording) and compares it with the sim's NPC facts at each decision.

Creature kind: S06, S08, S09 and S10 are about recognising *an* entity (what, doing what, how far, where), a
meaning that survives a person in the beast's place; their families draw the creature (``CREATURE_KINDS``,
seed 0 keeps the spec's beast), so a brain that calls every creature a beast loses on the person instances
of every C02 scenario, not only in S07. A person farther than 2 m is not a danger (the prompt's rule): the
truth there is safe, and the PREDICT item names her (``safe(human, standing, 5m)``).
"""

from __future__ import annotations

from wmbench.core.entities import BEAST, HUMAN_KINDS, NpcKind
from wmbench.scenarios.families import ALL_FRONTS
from wmbench.scenarios.records import Expectations, Family, NpcSpec, Phase, Scenario, TimelineEvent
from wmbench.scenarios.registry import scenario

#: the creature of S06/S08/S09/S10 per seed (``Family.kinds``): one beast and three people in every block of
#: four drawn instances (seed 0, the spec's instance, keeps its beast)
CREATURE_KINDS: tuple[NpcKind, ...] = (BEAST, *HUMAN_KINDS, HUMAN_KINDS[0])  # beast, woman, man, woman


@scenario
def s06_beast_identification() -> Scenario:
    """S06 · Beast Identification (C02, easy)

    Setup: open ground; a beast stands still 5 m straight ahead (behaviour stop). 3 s (6 decisions).
    Expected: beast, stopped, about 5 m, in front — PREDICT fwd=danger(beast), the other three safe(open);
    a wary, quiet move away (back away slowly, keep the beast in view).
    """
    return Scenario(
        id="S06", category="C02", name="Beast Identification",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.8, 1.2), kinds=CREATURE_KINDS),
        setup="A beast stands still 5 m ahead.",
        phases=(Phase(name="beast ahead", duration=3.0,
                      npcs=(NpcSpec("beast", "beast", (5.0, 0.0), "stop"),)),),
        expectations=Expectations(
            perception="entity=beast, behavior=stop, distance=5m, direction=fwd; fwd=danger(beast)",
            correct_actions=("back away slowly", "freeze and watch the beast", "step back"),
            incorrect_actions=("walk forward", "ignore the beast"),
            pattern="beast recognised as a threat at 5 m in front",
            safe_directions=("left", "right", "back"),
        ),
        difficulty="easy",
    )


@scenario
def s07_human_vs_beast() -> Scenario:
    """S07 · Human vs Beast (C02, hard)

    Setup: open ground; a woman stands 4 m ahead and a beast stands 5 m to the left (both stopped).
    3 s (6 decisions).
    Expected: woman in front = neutral (fwd stays safe(open): she is beyond the 2 m personal-space radius),
    beast on the left = threat (left=danger(beast)); the beast is the primary NPC. Move away from the beast
    (right or back), not away from the woman.
    """
    return Scenario(
        id="S07", category="C02", name="Human vs Beast",
        family=Family(npc_distance=(0.9, 1.1)),
        setup="A woman stands 4 m ahead and a beast stands 5 m to the left.",
        phases=(Phase(name="woman ahead, beast left", duration=3.0, npcs=(
            NpcSpec("woman", "woman", (4.0, 0.0), "stop"),
            NpcSpec("beast", "beast", (0.0, 5.0), "stop"),
        )),),
        expectations=Expectations(
            perception="fwd=woman(neutral) safe(open), left=danger(beast); primary NPC = beast",
            correct_actions=("move right away from the beast", "back away from the beast"),
            incorrect_actions=("flee from the woman", "walk left towards the beast"),
            pattern="human and beast told apart; only the beast treated as a threat",
            safe_directions=("right", "back"),
        ),
        difficulty="hard",
    )


@scenario
def s08_approaching_entity_speed() -> Scenario:
    """S08 · Approaching Entity Speed (C02, medium)

    Setup: open ground; a beast 7 m ahead walks towards the protagonist (approach, 1.2 m/s) and at 1.5 s
    switches to a charge (5.0 m/s). 3 s (6 decisions; the last three see the charge).
    Expected: behaviour approach in the first decisions, then charge — the change is named and the threat
    rises (a cautious retreat becomes a sprint away).
    """
    return Scenario(
        id="S08", category="C02", name="Approaching Entity Speed",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.9, 1.1), event_time=(0.85, 1.15), kinds=CREATURE_KINDS),
        setup="A beast 7 m ahead approaches at 1.2 m/s, then charges at 5.0 m/s from 1.5 s.",
        phases=(Phase(
            name="approach then charge", duration=3.0,
            npcs=(NpcSpec("beast", "beast", (7.0, 0.0), "approach"),),
            events=(TimelineEvent(1.5, "beast", "switch", behavior="charge"),),
        ),),
        expectations=Expectations(
            perception="behavior_change: approach -> charge, threat_level up; fwd=danger(beast)",
            correct_actions=("cautious retreat while it approaches", "sprint away once it charges"),
            incorrect_actions=("walk forward", "same response before and after the charge"),
            pattern="approach recognised, then the charge recognised as a higher threat",
            safe_directions=("left", "right", "back"),
        ),
        difficulty="medium",
    )


@scenario
def s09_entity_at_distance() -> Scenario:
    """S09 · Entity at Distance (C02, medium)

    Setup: two independent phases (no memory carried, no jitter so the distances are exact). "inside": a
    beast stands 7.6 m ahead, just inside the 8 m NPC sensing range. "outside": a beast stands 8.4 m ahead,
    just outside it (not nearby; a standing beast makes no sound). 2.5 s each (10 decisions).
    Expected: inside → npc_nearby true, fwd=danger(beast) at about 7.6 m; outside → npc_nearby false,
    fwd=safe(open), no beast invented. A quiet, watchful response either way.
    """
    return Scenario(
        id="S09", category="C02", name="Entity at Distance",
        family=Family(fronts=ALL_FRONTS, kinds=CREATURE_KINDS),
        setup="A beast at the 8 m sensing boundary: 7.6 m (inside) then 8.4 m (outside).",
        phases=(
            Phase(name="inside", duration=2.5, npcs=(NpcSpec("beast", "beast", (7.6, 0.0), "stop"),),
                  jitter=0.0, carry_memory=False),
            Phase(name="outside", duration=2.5, npcs=(NpcSpec("beast", "beast", (8.4, 0.0), "stop"),),
                  jitter=0.0, carry_memory=False),
        ),
        expectations=Expectations(
            perception="inside: npc_nearby=true, fwd=danger(beast) ~7.6m; "
                       "outside: npc_nearby=false, all safe(open)",
            correct_actions=("watch the distant beast", "back away quietly"),
            incorrect_actions=("report a beast that is out of range", "ignore the beast inside range"),
            pattern="npc_nearby true/false boundary respected",
            safe_directions=("left", "right", "back"),
        ),
        difficulty="medium",
    )


@scenario
def s10_entity_disappearance() -> Scenario:
    """S10 · Entity Disappearance (C02, easy)

    Setup: open ground; a beast stands 5 m ahead and despawns at 1.5 s. 3 s (6 decisions: three with the
    beast, three after it is gone).
    Expected: beast in front while present; after the despawn npc_nearby false and every direction
    safe(open) — the threat is cleared in PREDICT (the mood may stay wary).
    """
    return Scenario(
        id="S10", category="C02", name="Entity Disappearance",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.8, 1.2), event_time=(0.85, 1.15), kinds=CREATURE_KINDS),
        setup="A beast 5 m ahead despawns at 1.5 s.",
        phases=(Phase(
            name="beast vanishes", duration=3.0,
            npcs=(NpcSpec("beast", "beast", (5.0, 0.0), "stop"),),
            events=(TimelineEvent(1.5, "beast", "despawn"),),
        ),),
        expectations=Expectations(
            perception="after despawn: npc_nearby=false, threat=cleared, all directions safe(open)",
            correct_actions=("relax slowly", "look around warily"),
            incorrect_actions=("keep fleeing an absent beast", "report the beast after it vanished"),
            pattern="beast present, then cleared from the prediction",
            safe_directions=("left", "right", "back"),
        ),
        difficulty="easy",
    )
