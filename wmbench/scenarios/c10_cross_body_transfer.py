"""C10 · Cross-body Transferability (P3): the same decisions acted out by different bodies.

Transfer mode runs each record once with the brain, records its replies, then replays the same replies on the
SMPL character, the servo robot and the drone (the brain is never changed). The layouts are small — one
threat, one wall, clear escapes — and only use approaching beasts (1.2 m/s) over 3 s, so that a body slower
than the character (or one that hovers in place) is never caught: what differs between bodies is how they
act the intent out, not whether they survive.
"""

from __future__ import annotations

from wmbench.scenarios.records import Expectations, NpcSpec, Phase, Scenario, Wall
from wmbench.scenarios.registry import scenario


@scenario
def s46_brain_body_decoupling() -> Scenario:
    """S46 · Brain-Body Decoupling (C10, medium)

    Setup: a beast 5 m ahead approaches (1.2 m/s); a wall runs along the left at 2 m (10 m long); right and
    back open. 3 s (6 decisions), transfer.
    Expected: the brain's output drives a different body with no change to the brain; each body escapes
    right or back.
    """
    return Scenario(
        id="S46", category="C10", name="Brain-Body Decoupling",
        setup="The same PREDICT+MOTION output drives other motion models / bodies.",
        phases=(Phase(
            name="beast ahead, wall left", duration=3.0,
            walls=(Wall.facing("left", 2.0, length=10.0),),
            npcs=(NpcSpec("beast", "beast", (5.0, 0.0), "approach"),),
        ),),
        expectations=Expectations(
            perception="fwd=danger(beast), left=danger(wall), right=safe(open), back=safe(open)",
            correct_actions=("escape right", "escape back"),
            pattern="only the body is swapped; the brain code is untouched",
            safe_directions=("right", "back"),
        ),
        difficulty="medium",
        mode="transfer",
    )


@scenario
def s47_joint_format_universality() -> Scenario:
    """S47 · Joint Format Universality (C10, hard)

    Setup: open ground; a beast 5 m to the left approaches (1.2 m/s). 3 s (6 decisions), transfer.
    Expected: the 22-joint motion (HumanML3D joint set, and the 263-dim features recovered to joints)
    retargets to other rigs — the SMPL-24 rig, a custom rig and the robot's skeleton — without breaking
    (the spec also names SMPL-X, which is not simulated here).
    """
    return Scenario(
        id="S47", category="C10", name="Joint Format Universality",
        setup="263-dim -> 22-joint motion retargeted to other skeletons.",
        phases=(Phase(name="beast left", duration=3.0,
                      npcs=(NpcSpec("beast", "beast", (0.0, 5.0), "approach"),)),),
        expectations=Expectations(
            perception="left=danger(beast), fwd/right/back=safe(open)",
            correct_actions=("escape right", "escape back"),
            pattern="SMPL, SMPL-X and custom rigs compatible",
            safe_directions=("right", "back"),
        ),
        difficulty="hard",
        mode="transfer",
    )


@scenario
def s48_robot_servo_mapping_readiness() -> Scenario:
    """S48 · Robot Servo Mapping Readiness (C10, hard)

    Setup: a wall ahead at 3 m (8 m long); a beast 6 m behind approaches (1.2 m/s); left and right open.
    3 s (6 decisions), transfer.
    Expected: the 22 joints map to servo angles through the declarative servo table and the simulated robot
    tracks them while escaping left or right.
    """
    return Scenario(
        id="S48", category="C10", name="Robot Servo Mapping Readiness",
        setup="22 joints -> servo angles on a simulated robot.",
        phases=(Phase(
            name="wall ahead, beast behind", duration=3.0,
            walls=(Wall.facing("fwd", 3.0, length=8.0),),
            npcs=(NpcSpec("beast", "beast", (-6.0, 0.0), "approach"),),
        ),),
        expectations=Expectations(
            perception="fwd=danger(wall), back=danger(beast), left=safe(open), right=safe(open)",
            correct_actions=("escape left", "escape right"),
            pattern="conversion interface defined and simulated",
            safe_directions=("left", "right"),
        ),
        difficulty="hard",
        mode="transfer",
    )


@scenario
def s49_prompt_universality() -> Scenario:
    """S49 · Prompt Universality (C10, easy)

    Setup: open ground; a woman 5.5 m ahead approaches (1.2 m/s); a protagonist who stays put has her at 2.5 m
    at the last decision, outside the 2 m personal-space radius whatever the ±2 % start jitter. 3 s
    (6 decisions), transfer.
    Expected: the natural-language MOTION line is model independent — two motion generators read the same
    intent from it (e.g. a calm walk aside or a step back).
    """
    return Scenario(
        id="S49", category="C10", name="Prompt Universality",
        setup="The MOTION output interpreted by other motion models.",
        phases=(Phase(name="woman approaches", duration=3.0,
                      npcs=(NpcSpec("woman", "woman", (5.5, 0.0), "approach"),)),),
        expectations=Expectations(
            perception="a neutral woman approaching in front",
            correct_actions=("walk aside calmly", "step back"),
            pattern="natural-language motion prompts are model independent",
            safe_directions=("left", "right", "back"),
        ),
        difficulty="easy",
        mode="transfer",
    )


@scenario
def s50_multi_embodiment_consistency() -> Scenario:
    """S50 · Multi-embodiment Consistency (C10, hard)

    Setup: a beast 5 m ahead approaches (1.2 m/s); a wall runs along the right at 2 m (10 m long); left and
    back open. 3 s (6 decisions), transfer.
    Expected: the same decision shows the same intent on the 3D character, the robot and the drone — "flee
    left/back" is preserved even though the bodies move differently.
    """
    return Scenario(
        id="S50", category="C10", name="Multi-embodiment Consistency",
        setup="The same brain decision on a 3D character, a robot and a drone.",
        phases=(Phase(
            name="beast ahead, wall right", duration=3.0,
            walls=(Wall.facing("right", 2.0, length=10.0),),
            npcs=(NpcSpec("beast", "beast", (5.0, 0.0), "approach"),),
        ),),
        expectations=Expectations(
            perception="fwd=danger(beast), right=danger(wall), left=safe(open), back=safe(open)",
            correct_actions=("escape left", "escape back"),
            pattern="different bodies, the same intent ('flee') preserved",
            safe_directions=("left", "back"),
        ),
        difficulty="hard",
        mode="transfer",
    )
