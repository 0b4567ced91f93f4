"""C01 · Environmental Awareness (P1): static walls, no NPCs — does PREDICT match the ray-cast walls?

Every layout here is static and the protagonist stands at the origin facing +x. Wall distances are the near
faces; walls are long enough that all three rays of a ±7.5° direction cone hit them, and corners are closed
(walls meet) so a diagonal ray never leaks through a seam into the wrong cone.
"""

from __future__ import annotations

from wmbench.core.directions import DIRECTIONS
from wmbench.scenarios.families import ALL_FRONTS
from wmbench.scenarios.records import Expectations, Family, Phase, Scenario, Wall
from wmbench.scenarios.registry import scenario

_C01_CORRECT = ("turn towards an open direction", "walk along the wall", "stop before the wall")
_C01_INCORRECT = ("walk into a wall",)


@scenario
def s01_wall_detection_front() -> Scenario:
    """S01 · Wall Detection Front (C01, easy)

    Setup: one wall straight ahead, near face 3 m, 8 m long (y from -4 to +4). Left, right and back open.
    No NPCs. 3 s (6 decisions).
    Expected: PREDICT fwd=danger(wall), left=safe(open), right=safe(open), back=safe(open). Any calm move
    that does not walk into the wall (turning aside, stopping short of it).
    """
    return Scenario(
        id="S01", category="C01", name="Wall Detection Front",
        family=Family(wall_distance=(0.8, 1.2)),
        setup="A wall 3 m ahead of the protagonist; every other direction open.",
        phases=(Phase(name="wall ahead", duration=3.0, walls=(Wall.facing("fwd", 3.0, length=8.0),)),),
        expectations=Expectations(
            perception="fwd=danger(wall), left=safe(open), right=safe(open), back=safe(open)",
            correct_actions=_C01_CORRECT, incorrect_actions=_C01_INCORRECT,
            pattern="the wall ahead is named at about 3 m and never walked into",
            safe_directions=("left", "right", "back"),
        ),
        difficulty="easy",
    )


@scenario
def s02_multi_wall_corner() -> Scenario:
    """S02 · Multi-wall Corner (C01, medium)

    Setup: a closed corner — a wall ahead at 3 m (y from -4 to +2.2) meets a wall on the left at 2 m
    (x from -4 to +3.2). Right and back open (the spec says "only the right is open" and scores fwd, left and
    right; the back is left open so that a sensible agent has a second way out). No NPCs. 3 s (6 decisions).
    Expected: PREDICT fwd=danger(wall), left=danger(wall), right=safe(open), back=safe(open); turn right (or
    back) without touching either wall.
    """
    return Scenario(
        id="S02", category="C01", name="Multi-wall Corner",
        family=Family(wall_distance=(0.85, 1.15)),
        setup="Walls ahead (3 m) and on the left (2 m) meet in a corner; the right is open.",
        phases=(Phase(name="corner", duration=3.0, walls=(
            Wall.facing("fwd", 3.0, length=6.2, offset=-0.9),
            Wall.facing("left", 2.0, length=7.2, offset=-0.4),
        )),),
        expectations=Expectations(
            perception="fwd=danger(wall), left=danger(wall), right=safe(open), back=safe(open)",
            correct_actions=("turn right", "walk right", *_C01_CORRECT[2:]),
            incorrect_actions=("walk forward into the wall", "walk left into the wall"),
            pattern="both walls named; the open right side chosen when moving",
            safe_directions=("right", "back"),
        ),
        difficulty="medium",
    )


@scenario
def s03_narrow_corridor() -> Scenario:
    """S03 · Narrow Corridor (C01, medium)

    Setup: a corridor 3 m wide — walls on the left and on the right, each 1.5 m away and 20 m long
    (x from -10 to +10). Ahead and behind are open along the corridor (the ±7.5° front rays stay clear of the
    side walls for the whole 10 m ray range). The spec's corridor is "open only ahead" and scores left, right
    and fwd; its back end is left open too, so back=safe(open) is scored as well. No NPCs. 3 s (6 decisions).
    Expected: PREDICT left=danger(wall), right=danger(wall), fwd=safe(open), back=safe(open); walk on along
    the corridor.
    """
    return Scenario(
        id="S03", category="C01", name="Narrow Corridor",
        family=Family(wall_distance=(0.8, 1.2)),
        setup="A corridor: walls 1.5 m to the left and right, open ahead and behind.",
        phases=(Phase(name="corridor", duration=3.0, walls=(
            Wall.facing("left", 1.5, length=20.0),
            Wall.facing("right", 1.5, length=20.0),
        )),),
        expectations=Expectations(
            perception="left=danger(wall), right=danger(wall), fwd=safe(open), back=safe(open)",
            correct_actions=("walk forward along the corridor", "walk back along the corridor"),
            incorrect_actions=("turn left into the wall", "turn right into the wall"),
            pattern="both side walls named, the corridor axis seen as open",
            safe_directions=("fwd", "back"),
        ),
        difficulty="medium",
    )


@scenario
def s04_open_field() -> Scenario:
    """S04 · Open Field (C01, easy)

    Setup: flat ground, no walls, no NPCs. 3 s (6 decisions).
    Expected: PREDICT all four directions safe(open) — no invented walls; any calm move.
    Variant (seeds 2 and up, every drawn test instance): one far boundary wall 4.5-5.75 m away, turned to a
    different side per seed, so the open field is not one memorisable scene; its direction is danger(wall)
    (the ray truth), the other three stay safe(open).
    """
    return Scenario(
        id="S04", category="C01", name="Open Field",
        family=Family(fronts=ALL_FRONTS, wall_distance=(0.9, 1.15),
                      variant_walls=(Wall.facing("fwd", 5.0, length=12.0, name="far_boundary"),)),
        setup="Open flat ground: no walls in any direction.",
        phases=(Phase(name="open field", duration=3.0),),
        expectations=Expectations(
            perception="fwd=safe(open), left=safe(open), right=safe(open), back=safe(open)",
            correct_actions=("walk forward calmly", "look around", "stand relaxed"),
            incorrect_actions=("flee", "report a wall that is not there"),
            pattern="all=safe(open), calm behaviour",
            safe_directions=DIRECTIONS,
        ),
        difficulty="easy",
    )


@scenario
def s05_enclosed_room() -> Scenario:
    """S05 · Enclosed Room (C01, hard)

    Setup: a small closed room with one exit. Walls ahead at 2.5 m, on the left at 2 m and behind at 2 m; the
    right wall (2.5 m) has a 2 m doorway centred on the protagonist's right (x from -1 to +1), so all three
    right-cone rays pass through it and the right reads open. Corners are closed. No NPCs. 3 s (6 decisions).
    Expected: PREDICT fwd=danger(wall), left=danger(wall), back=danger(wall), right=safe(open) — three walls
    and one exit; walk out through the doorway on the right.
    """
    return Scenario(
        id="S05", category="C01", name="Enclosed Room",
        family=Family(wall_distance=(0.9, 1.1)),
        setup="A room walled on all sides with a single 2 m doorway on the right.",
        phases=(Phase(name="room", duration=3.0, walls=(
            Wall.facing("fwd", 2.5, length=4.9, offset=-0.25),
            Wall.facing("back", 2.0, length=4.9, offset=-0.25),
            Wall.facing("left", 2.0, length=4.9, offset=0.25),
            Wall.facing("right", 2.5, length=1.2, offset=-1.6, name="wall_right_rear"),
            Wall.facing("right", 2.5, length=1.7, offset=1.85, name="wall_right_front"),
        )),),
        expectations=Expectations(
            perception="fwd=danger(wall), left=danger(wall), back=danger(wall), right=safe(open) (the exit)",
            correct_actions=("walk right through the doorway", "turn right towards the exit"),
            incorrect_actions=("walk into a wall", "report no exit"),
            pattern="three walls, one exit, the exit taken",
            safe_directions=("right",),
        ),
        difficulty="hard",
    )
