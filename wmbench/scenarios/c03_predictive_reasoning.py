"""C03 · Predictive Reasoning (P2): predict each direction, then choose (and really take) a safe one.

Approaching beasts move at 1.2 m/s and every phase is short enough that even a protagonist who freezes is not
reached (S14 relies on it: there, standing still is the safe answer); S11's drawn instances alternate that
approach with a charge (5 m/s), where fleeing on a line escapes and zigzagging is caught. S13 is S12 reflected
left <-> right.
"""

from __future__ import annotations

import math
from dataclasses import replace

from wmbench.scenarios.families import ALL_FRONTS, BACK_FIRST_FRONTS
from wmbench.scenarios.records import Expectations, Family, NpcSpec, Phase, Scenario, Wall
from wmbench.scenarios.registry import scenario


@scenario
def s11_single_threat_avoidance() -> Scenario:
    """S11 · Single Threat Avoidance (C03, easy)

    Setup: open ground; a beast 5 m ahead walks towards the protagonist (approach, 1.2 m/s). Left, right and
    back open. 3 s (6 decisions; a frozen protagonist would still be at least 1.3 m from it at the end).
    Drawn instances (seeds 1 and up) make the pursuit an approach or a charge in turn (charge: 5 m/s, which
    the scene reports as `npc_behavior` and `npcs[].speed`): a charge outruns a run (4.5 m/s) and a
    protagonist who keeps changing direction is caught, while one that flees on one line — straight away, or
    one dodge to the side and then away — escapes even at a run.
    Expected: PREDICT fwd=danger(beast), left/right/back=safe(open); turn around and sprint back, or move
    left/right. Wrong: walk forward, stand still.
    """
    return Scenario(
        id="S11", category="C03", name="Single Threat Avoidance",
        family=Family(fronts=ALL_FRONTS, npc_distance=(1.0, 1.25), pursuits=("approach", "charge")),
        setup="A beast approaches from 5 m ahead; the other three directions are open.",
        phases=(Phase(name="beast ahead", duration=3.0,
                      npcs=(NpcSpec("beast", "beast", (5.0, 0.0), "approach"),)),),
        expectations=Expectations(
            perception="fwd=danger(beast), left=safe(open), right=safe(open), back=safe(open)",
            correct_actions=("turn around", "sprint backward", "move left", "move right"),
            incorrect_actions=("walk forward", "stand still"),
            pattern="fwd=danger(beast), others=safe -> back or left/right chosen",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="easy",
    )


@scenario
def s12_constrained_escape() -> Scenario:
    """S12 · Constrained Escape (C03, medium)

    Setup: a beast 5 m ahead approaches (1.2 m/s). A wall runs along the left at 1.5 m, from 8 m behind to
    6 m ahead (x from -8 to +6), so the protagonist stands in a one-sided corridor: backing off keeps it in
    the corridor with the beast following, and the right is the way out. 3 s (6 decisions). Official
    instances (seeds 0-1, the spec's layout and its mirror) leave the back open, so the official scene fields
    (`walls.left/right/front`) describe every wall; the wmbench variants (seeds 2 and up) also close the back
    with a wall at 1.5 m (y from -4 to +1.7, meeting the side wall in a corner) that only the extension field
    `walls.back` reports, making the right the single open side.
    Expected: PREDICT fwd=danger(beast), left=danger(wall), right=safe(open) (back=safe(open) in the official
    instances, danger(wall) in the variants); sprint / move / flank right. Wrong: sprint left, walk forward,
    stand still.
    """
    return Scenario(
        id="S12", category="C03", name="Constrained Escape",
        family=Family(npc_distance=(0.9, 1.1), wall_distance=(0.9, 1.15),
                      variant_walls=(Wall.facing("back", 1.5, length=5.7, offset=-1.15),)),
        setup="A beast approaches from 5 m ahead along a wall on the left (1.5 m); right open.",
        phases=(Phase(
            name="beast ahead, side walled", duration=3.0,
            walls=(Wall.facing("left", 1.5, length=14.0, offset=-1.0),),
            npcs=(NpcSpec("beast", "beast", (5.0, 0.0), "approach"),),
        ),),
        expectations=Expectations(
            perception="fwd=danger(beast), left=danger(wall), right=safe(open), back=safe(open) (the wmbench "
                       "variants, seeds 2 and up, close the back with a wall)",
            correct_actions=("sprint right", "move right", "flank right"),
            incorrect_actions=("sprint left", "walk forward", "stand still"),
            pattern="the right is the way out of the corridor -> right chosen",
            safe_directions=("right",),
        ),
        difficulty="medium",
    )


@scenario
def s13_mirror_constraint() -> Scenario:
    """S13 · Mirror Constraint (C03, medium)

    Setup: S12 reflected left <-> right, exactly (built with `Scenario.mirrored`, its family's variant walls
    too): a beast 5 m ahead approaches (1.2 m/s) along a wall on the right at 1.5 m (x from -8 to +6); the
    left is the way out. Official instances (seeds 0-1) leave the back open; the wmbench variants (seeds 2 and
    up) close it with a wall at 1.5 m that only `walls.back` reports. 3 s (6 decisions).
    Expected: PREDICT fwd=danger(beast), right=danger(wall), left=safe(open) (back=safe(open) in the official
    instances, danger(wall) in the variants); sprint / move / flank left. Wrong: sprint right, walk forward.
    A world model's S13 behaviour is the mirror image of its S12 behaviour.
    """
    s12 = s12_constrained_escape()
    mirrored = s12.mirrored("S13", name="Mirror Constraint")
    return replace(
        mirrored,
        family=s12.family.mirrored() if s12.family is not None else None,
        setup="S12 mirrored: a beast approaches from 5 m ahead along a wall on the right (1.5 m); left open.",
        expectations=replace(
            mirrored.expectations,
            perception="fwd=danger(beast), right=danger(wall), left=safe(open), back=safe(open) (the wmbench "
                       "variants, seeds 2 and up, close the back with a wall)",
            correct_actions=("sprint left", "move left", "flank left"),
            incorrect_actions=("sprint right", "walk forward"),
            pattern="the mirror of S12: the left is the way out of the corridor -> left chosen",
        ),
    )


@scenario
def s14_dead_end_recognition() -> Scenario:
    """S14 · Dead End Recognition (C03, hard)

    Setup: a dead-end corridor 2.4 m wide — walls ahead at 2 m, left at 1.2 m and right at 1.2 m (side walls
    from x = -6 to +2.2, closed at the front). A beast 7 m behind walks in (approach, 1.2 m/s). 3 s
    (6 decisions): the beast covers 3.6 m, so freezing is genuinely safe here while any move into a wall is
    not.
    Expected: PREDICT fwd/left/right=danger(wall), back=danger(beast) — every direction dangerous; the best
    choice is emergent: freeze and assess (crouch, stay still, watch the beast), try to climb, or squeeze
    past. Accepted (see the Rule): freezing without contact; squeezing past the beast when the body gets by
    without collision or catch; climbing only where something is climbable — nothing is here (walls 2 m), so
    a climb is judged by what the body does.
    """
    return Scenario(
        id="S14", category="C03", name="Dead End Recognition",
        family=Family(fronts=ALL_FRONTS, npc_distance=(1.0, 1.15), wall_distance=(0.9, 1.1)),
        setup="A dead end: walls ahead (2 m), left and right (1.2 m); a beast approaches from 7 m behind.",
        phases=(Phase(
            name="dead end", duration=3.0,
            walls=(
                Wall.facing("fwd", 2.0, length=2.8),
                Wall.facing("left", 1.2, length=8.2, offset=-1.9),
                Wall.facing("right", 1.2, length=8.2, offset=-1.9),
            ),
            npcs=(NpcSpec("beast", "beast", (-7.0, 0.0), "approach"),),
        ),),
        expectations=Expectations(
            perception="fwd=danger(wall), left=danger(wall), right=danger(wall), back=danger(beast)",
            correct_actions=("freeze and assess", "squeeze past", "climb"),
            incorrect_actions=("walk into the wall", "run towards the beast"),
            pattern="all directions dangerous -> the least-bad option (freeze/climb/squeeze)",
            safe_directions=(),
        ),
        difficulty="hard",
    )


@scenario
def s15_dynamic_threat_trajectory() -> Scenario:
    """S15 · Dynamic Threat Trajectory (C03, hard)

    Setup: open ground; a beast starts at (4, 5.5) — 6.8 m away, on the left — and walks straight across in
    front from left to right (cross, heading -90°, 2 m/s): it passes 4 m ahead at about 2.75 s and ends at
    (4, -2.5), right of the line ahead but still in the front sector. 4 s (8 decisions). Seen from a
    protagonist who stays put it is on the left for the first two decisions, crosses the left/front boundary
    at 0.75 s and is in front from 1 s to the end; every decision sees it more than 3° from a sector
    boundary, whatever the seeded ±2 % start-distance jitter. It never steers at the protagonist; it is only
    dangerous to one who walks into its path (the line x = 4 m).
    Expected: PREDICT left=danger(beast) now and fwd=danger(beast) as it crosses — the danger is predicted
    to move; wait (or back off) and then move left behind it, or dodge back/right early. Wrong: walk forward
    into its path. Accepted: an anticipating PREDICT (fwd=danger(beast, crossing into my path) while the beast
    is still on the left) is exact when the beast does enter that sector within the next two decisions.
    """
    return Scenario(
        id="S15", category="C03", name="Dynamic Threat Trajectory",
        family=Family(fronts=BACK_FIRST_FRONTS, npc_distance=(0.95, 1.05)),
        setup="A beast crosses in front from left to right, 4 m ahead, at 2 m/s.",
        phases=(Phase(
            name="beast crossing", duration=4.0,
            npcs=(NpcSpec("beast", "beast", (4.0, 5.5), "cross", heading=-math.pi / 2),),
        ),),
        expectations=Expectations(
            perception="left=danger(beast) now -> fwd=danger(beast) as it crosses (it stays ahead-right to the end)",
            correct_actions=("wait then move left", "preemptive right dodge", "back off and wait"),
            incorrect_actions=("walk forward into its path",),
            pattern="the beast's future position predicted; its path avoided",
            safe_directions=("back", "right"),
        ),
        difficulty="hard",
    )
