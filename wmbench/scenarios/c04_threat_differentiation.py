"""C04 · Threat Differentiation (P2): different threats deserve different responses.

Paired scenarios (S16, S17) run their two conditions as separate phases with no memory carried, so each
response is to its own scene alone. Intensity is read twice: from the MOTION words (the spec's high / medium /
low banks) and from the body's realized speed class.
"""

from __future__ import annotations

from wmbench.scenarios.families import ALL_FRONTS, BACK_FIRST_FRONTS
from wmbench.scenarios.records import Expectations, Family, NpcSpec, Phase, Scenario, Wall
from wmbench.scenarios.registry import scenario


@scenario
def s16_beast_vs_human_response() -> Scenario:
    """S16 · Beast vs Human Response (C04, medium)

    Setup: two phases, same geometry, no memory carried. A: a beast approaches from 3 m ahead (1.2 m/s).
    B: a woman approaches from 3 m ahead (1.2 m/s). Open ground. 1.5 s each (6 decisions, 3 per phase) —
    short enough that the beast cannot reach even a frozen protagonist (it ends about 1.1 m away). At B's
    last decision the woman is inside the 2 m personal-space radius, so the truth there is fwd=danger(human).
    Expected: beast -> sprint / run away (high intensity); woman -> walk away / step back (medium or low).
    """
    return Scenario(
        id="S16", category="C04", name="Beast vs Human Response",
        family=Family(fronts=ALL_FRONTS, npc_distance=(1.0, 1.15)),
        setup="Same distance 3 m: (A) a beast approaches, (B) a woman approaches.",
        phases=(
            Phase(name="A: beast approaches", duration=1.5, carry_memory=False,
                  npcs=(NpcSpec("beast", "beast", (3.0, 0.0), "approach"),)),
            Phase(name="B: woman approaches", duration=1.5, carry_memory=False,
                  npcs=(NpcSpec("woman", "woman", (3.0, 0.0), "approach"),)),
        ),
        expectations=Expectations(
            perception="A: fwd=danger(beast); B: woman approaching from 3 m (neutral; fwd=danger(human) within 2 m)",
            correct_actions=("A: sprint away", "A: run back", "B: walk away", "B: step back"),
            incorrect_actions=("the same response to both", "sprint from the woman"),
            pattern="beast -> sprint/run, woman -> walk away/step back",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="medium",
    )


@scenario
def s17_charge_vs_approach_response() -> Scenario:
    """S17 · Charge vs Approach Response (C04, medium)

    Setup: two phases, same geometry, no memory carried. A: a beast 5 m ahead approaches (1.2 m/s).
    B: a beast 5 m ahead charges (5.0 m/s). Open ground. 3 s each (12 decisions, 6 per phase).
    Expected: approach -> cautious retreat (walk/jog back, facing it); charge -> desperate sprint away.
    """
    return Scenario(
        id="S17", category="C04", name="Charge vs Approach Response",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.9, 1.1)),
        setup="A beast 5 m ahead: (A) approaches at 1.2 m/s, (B) charges at 5.0 m/s.",
        phases=(
            Phase(name="A: beast approaches", duration=3.0, carry_memory=False,
                  npcs=(NpcSpec("beast", "beast", (5.0, 0.0), "approach"),)),
            Phase(name="B: beast charges", duration=3.0, carry_memory=False,
                  npcs=(NpcSpec("beast", "beast", (5.0, 0.0), "charge"),)),
        ),
        expectations=Expectations(
            perception="A: fwd=danger(beast) approaching; B: fwd=danger(beast) charging",
            correct_actions=("A: cautious retreat", "B: desperate sprint"),
            incorrect_actions=("the same response to both", "walk away from the charge"),
            pattern="approach -> cautious retreat, charge -> desperate sprint",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="medium",
    )


@scenario
def s18_wall_vs_beast_priority() -> Scenario:
    """S18 · Wall vs Beast Priority (C04, hard)

    Setup: a wall ahead at 1.5 m (8 m long) and a beast 4 m to the left walking in (approach, 1.2 m/s).
    Right and back open. 2 s (4 decisions; a frozen protagonist keeps about 1.5 m).
    Expected: the moving beast is the priority over the static wall — escape right or back, away from the
    beast, with urgency; turning aside only "because of the wall" misses the point.
    """
    return Scenario(
        id="S18", category="C04", name="Wall vs Beast Priority",
        family=Family(fronts=BACK_FIRST_FRONTS, npc_distance=(1.0, 1.15)),
        setup="A wall 1.5 m ahead and a beast approaching from 4 m on the left.",
        phases=(Phase(
            name="wall ahead, beast left", duration=2.0,
            walls=(Wall.facing("fwd", 1.5, length=8.0),),
            npcs=(NpcSpec("beast", "beast", (0.0, 4.0), "approach"),),
        ),),
        expectations=Expectations(
            perception="fwd=danger(wall), left=danger(beast), right=safe(open), back=safe(open)",
            correct_actions=("sprint right", "run back away from the beast"),
            incorrect_actions=("walk left", "walk forward into the wall", "stand still"),
            pattern="beast (dynamic threat) avoided first, wall (static obstacle) second",
            safe_directions=("right", "back"),
        ),
        difficulty="hard",
    )


@scenario
def s19_multiple_entity_triage() -> Scenario:
    """S19 · Multiple Entity Triage (C04, hard)

    Setup: a beast 5 m ahead approaches (1.2 m/s); a woman stands 1.9 m to the left (the spec's "2 m", set
    just inside the 2 m personal-space radius so the truth is unambiguously left=danger(human)); a wall runs
    along the right at 1 m (8 m long). Only the back is open. No jitter. 3 s (6 decisions).
    Expected: PREDICT fwd=danger(beast), left=danger(human), right=danger(wall), back=safe(open); weigh
    distance and threat together and retreat back (keeping an eye on the beast), without pushing past the
    woman or scraping the wall.
    """
    return Scenario(
        id="S19", category="C04", name="Multiple Entity Triage",
        family=Family(fronts=BACK_FIRST_FRONTS, npc_distance=(1.0, 1.1)),
        setup="A beast approaching from 5 m ahead, a woman 2 m to the left, a wall 1 m to the right.",
        phases=(Phase(
            name="beast, woman and wall", duration=3.0, jitter=0.0,
            walls=(Wall.facing("right", 1.0, length=8.0),),
            npcs=(
                NpcSpec("beast", "beast", (5.0, 0.0), "approach"),
                NpcSpec("woman", "woman", (0.0, 1.9), "stop"),
            ),
        ),),
        expectations=Expectations(
            perception="fwd=danger(beast), left=danger(human), right=danger(wall), back=safe(open)",
            correct_actions=("retreat back", "back away watching the beast"),
            incorrect_actions=("walk forward", "push past the woman", "move right into the wall"),
            pattern="distance and threat weighed together -> the one clear path (back)",
            safe_directions=("back",),
        ),
        difficulty="hard",
    )


@scenario
def s20_neutral_entity_non_reaction() -> Scenario:
    """S20 · Neutral Entity Non-reaction (C04, easy)

    Setup: open ground; a woman stands still 5 m ahead. 3 s (6 decisions).
    Expected: no threat reaction — fwd may be noted as a person but stays safe(open); keep a normal, calm
    behaviour (walk on, step around her, stand relaxed).
    """
    return Scenario(
        id="S20", category="C04", name="Neutral Entity Non-reaction",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.8, 1.2)),
        setup="A woman stands still 5 m ahead.",
        phases=(Phase(name="woman ahead", duration=3.0,
                      npcs=(NpcSpec("woman", "woman", (5.0, 0.0), "stop"),)),),
        expectations=Expectations(
            perception="fwd=safe(open) with a neutral woman at 5 m; no threat",
            correct_actions=("keep walking normally", "walk around her", "stand relaxed"),
            incorrect_actions=("sprint away", "flee", "freeze in fear"),
            pattern="no threat reaction; normal behaviour maintained",
            safe_directions=("left", "right", "back"),
        ),
        difficulty="easy",
    )
