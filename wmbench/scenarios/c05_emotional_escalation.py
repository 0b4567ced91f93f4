"""C05 · Emotional Escalation (P2): how intensity changes over time while a threat persists, changes or ends.

Each scenario is a timeline. The intensity of a decision is read from the MOTION words — the spec's bank
level (high / medium / low) plus the number of distinct high-bank words, so "sprint" < "desperate sprint" <
"frantic, desperate sprint in terror" — and checked against the body's realized speed class. The gradient is
the trend of that intensity over the decisions: increasing 20 / stable-high 10 / decreasing 5 / flat-low 0,
except where a card says the calm pattern is the one rewarded (S23, S25).
"""

from __future__ import annotations

from dataclasses import replace

from wmbench.core.entities import Behavior
from wmbench.scenarios.families import ALL_FRONTS
from wmbench.scenarios.records import Expectations, Family, NpcSpec, Phase, Scenario, TimelineEvent, Wall
from wmbench.scenarios.registry import scenario


@scenario
def s21_sustained_threat_escalation() -> Scenario:
    """S21 · Sustained Threat Escalation (C05, medium)

    Setup: open ground; a beast charges from 6 m ahead (5.0 m/s) and keeps charging for the whole 10 s
    (20 decisions). A sprinting protagonist (6.5 m/s) gains 1.5 m/s, so the beast may drop out of sight
    (8 m) but stays audible (`sound`: roar and pounding paws, 20 m hearing) for most of the run — the threat
    persists.
    Expected: sprint -> desperate sprint -> frantic escape: the fear grows while the charge goes on.
    """
    return Scenario(
        id="S21", category="C05", name="Sustained Threat Escalation",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.85, 1.0)),
        setup="A beast charges from 6 m ahead and keeps charging for 10 s.",
        phases=(Phase(name="sustained charge", duration=10.0,
                      npcs=(NpcSpec("beast", "beast", (6.0, 0.0), "charge"),)),),
        expectations=Expectations(
            perception="fwd=danger(beast) charging, then the beast behind / heard behind",
            correct_actions=("sprint", "desperate sprint", "frantic escape"),
            incorrect_actions=("walk away", "calm down while still chased"),
            pattern="sprint -> desperate sprint -> frantic escape (increasing)",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="medium",
    )


@scenario
def s22_approach_to_charge_escalation() -> Scenario:
    """S22 · Approach-to-Charge Escalation (C05, medium)

    Setup: open ground; a beast 7.5 m ahead approaches (1.2 m/s) for 5 s, then switches to a charge
    (5.0 m/s). 8 s in all (16 decisions: 10 before the switch, 6 after). A protagonist that keeps backing away
    at walking pace keeps its distance during the approach; one that freezes for all 5 s is at about 1.4 m
    when the charge starts.
    Expected: cautious (watchful retreat, facing the beast) while it approaches, then a sudden jump to a
    sprint when it charges.
    """
    return Scenario(
        id="S22", category="C05", name="Approach-to-Charge Escalation",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.95, 1.1), event_time=(0.9, 1.1)),
        setup="A beast approaches from 7.5 m for 5 s, then charges.",
        phases=(Phase(
            name="approach then charge", duration=8.0,
            npcs=(NpcSpec("beast", "beast", (7.5, 0.0), "approach"),),
            events=(TimelineEvent(5.0, "beast", "switch", behavior="charge"),),
        ),),
        expectations=Expectations(
            perception="fwd=danger(beast) approaching, then charging",
            correct_actions=("cautious retreat", "then sprint away"),
            incorrect_actions=("panic sprint from the first second", "no change when it charges"),
            pattern="cautious -> sprint: a sharp jump at the switch",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="medium",
    )


@scenario
def s23_de_escalation_after_threat() -> Scenario:
    """S23 · De-escalation After Threat (C05, hard)

    Setup: open ground; a beast charges from 6 m ahead (5.0 m/s), stops at 2 s and despawns at 4 s.
    8 s (16 decisions: four of charge, four of a standing beast — possibly already out of sight for a fast
    runner — and eight after it is gone).
    Expected: desperate -> cautious -> relieved -> normal: a gradual settling, not an instant switch to calm.
    """
    return Scenario(
        id="S23", category="C05", name="De-escalation After Threat",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.95, 1.1), event_time=(0.9, 1.1)),
        setup="A beast charges from 6 m, stops at 2 s and despawns at 4 s.",
        phases=(Phase(
            name="charge, stop, gone", duration=8.0,
            npcs=(NpcSpec("beast", "beast", (6.0, 0.0), "charge"),),
            events=(
                TimelineEvent(2.0, "beast", "switch", behavior="stop"),
                TimelineEvent(4.0, "beast", "despawn"),
            ),
        ),),
        expectations=Expectations(
            perception="charging beast, then a standing beast, then no NPC",
            correct_actions=(
                "desperate sprint", "cautious walk watching back", "relieved slow walk", "normal walk",
            ),
            incorrect_actions=("instant calm", "panic after the threat is gone"),
            pattern="desperate -> cautious -> relieved -> normal (gradual)",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="hard",
    )


@scenario
def s24_repeated_threat_sensitization() -> Scenario:
    """S24 · Repeated Threat Sensitization (C05, hard)

    Setup: three repeated trials with memory carried. In each 3 s phase the protagonist starts at the origin,
    a beast appears 6 m ahead at 0.5 s (spawn), approaches (1.2 m/s) and vanishes at 2 s (despawn).
    Phases rather than one long timeline so that every reappearance is at exactly the same place relative to
    the protagonist, whatever it did before: the trials have no start-distance jitter (jitter 0), so the three
    scenes are identical. 9 s in all (18 decisions).
    Expected: each reappearance is met faster and/or more intensely than the one before — the agent is
    sensitised (recent_decisions shows the earlier flights).
    Variant (seeds 2 and up, every drawn test instance): a long wall on the left 4.5 m away, turned with the
    front, so the trials of one instance stay identical while the instances differ from their first scene
    on; back and the other side stay open.
    """
    trial = Phase(
        name="appearance", duration=3.0, carry_memory=True,
        npcs=(NpcSpec("beast", "beast", (6.0, 0.0), "approach", present=False),),
        events=(TimelineEvent(0.5, "beast", "spawn"), TimelineEvent(2.0, "beast", "despawn")),
        jitter=0.0,  # the spec: the threat reappears at the same place
    )
    return Scenario(
        id="S24", category="C05", name="Repeated Threat Sensitization",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.9, 1.1),
                      variant_walls=(Wall.facing("left", 4.5, length=14.0, name="side_wall"),)),
        setup="A beast appears 6 m ahead and vanishes, three times.",
        phases=tuple(replace(trial, name=f"appearance {i}") for i in (1, 2, 3)),
        expectations=Expectations(
            perception="beast fwd 6 m (approaching) in each trial, then no NPC",
            correct_actions=("retreat on sight", "react faster on each reappearance"),
            incorrect_actions=("ignore the reappearance", "slower reaction each time"),
            pattern="re-appearance -> faster fear response than before",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="hard",
    )


@scenario
def s25_low_threat_calm_maintenance() -> Scenario:
    """S25 · Low Threat Calm Maintenance (C05, easy)

    Setup: open ground; a woman 7 m ahead approaches (1.2 m/s) and stops, three times: approach 0-1.5 s,
    stop 1.5-3 s, approach 3-4.5 s, stop 4.5-6 s, approach 6-7.5 s, stop 7.5-9 s. 9 s (18 decisions); she ends
    about 1.6 m from a protagonist who never moved — inside the 2 m personal-space radius, so the truth of
    the last three decisions is fwd=danger(human).
    Expected: no escalation — composure kept throughout (a polite step aside or back at most).
    """
    schedule: tuple[tuple[float, Behavior], ...] = (
        (1.5, "stop"), (3.0, "approach"), (4.5, "stop"), (6.0, "approach"), (7.5, "stop"),
    )
    switches = tuple(TimelineEvent(at, "woman", "switch", behavior=behavior) for at, behavior in schedule)
    return Scenario(
        id="S25", category="C05", name="Low Threat Calm Maintenance",
        family=Family(fronts=ALL_FRONTS),
        setup="A woman approaches and stops, three times.",
        phases=(Phase(
            name="woman approach/stop x3", duration=9.0,
            npcs=(NpcSpec("woman", "woman", (7.0, 0.0), "approach"),),
            events=switches,
        ),),
        expectations=Expectations(
            perception="a woman (neutral) in front, alternately approaching and standing; "
                       "fwd=danger(human) once she stops within 2 m",
            correct_actions=("stay calm", "step aside politely", "keep a normal pace"),
            incorrect_actions=("sprint away", "growing panic"),
            pattern="no emotional escalation; composure maintained",
            safe_directions=("left", "right", "back"),
        ),
        difficulty="easy",
    )
