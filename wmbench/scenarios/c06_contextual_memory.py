"""C06 · Contextual Memory (P2): does `recent_decisions` change what the agent does?

Earlier episodes are seeded as prior decisions (negative ``t`` = before this episode began) rather than
acted out, so that no agent — the reference brain included — has to crash into a wall to build the memory.
Outcome strings and direction words follow docs/simulation.md (scene words: front/left/right/back).
"""

from __future__ import annotations

from dataclasses import replace

from wmbench.scenarios.families import ALL_FRONTS, BACK_FIRST_FRONTS
from wmbench.scenarios.records import Expectations, Family, NpcSpec, Phase, PriorDecision, Scenario, Wall
from wmbench.scenarios.registry import scenario

#: S29 and S30 share this scene exactly; they differ only in memory. The beast approaches (1.2 m/s), so moving
#: away is called for, and every side is open: the senses give no reason to prefer one (only memory does).
_APPROACHING_BEAST_SCENE = Phase(
    name="beast approaching", duration=3.0, npcs=(NpcSpec("beast", "beast", (7.0, 0.0), "approach"),),
)


@scenario
def s26_wall_memory_avoidance() -> Scenario:
    """S26 · Wall Memory Avoidance (C06, hard)

    Setup: the protagonist stands 1.5 m in front of a wall (`walls.front`) and a beast approaches from 5 m
    behind (1.2 m/s); on the right, 12 m away — beyond the 6 m wall sensing range and the 10 m ray range, so
    neither `walls.right` nor the rays show it — stands a wall the agent cannot see (x from -8 to +1.7); the
    left is open. The wall is far enough that a brain walking or jogging right does not sense it within the
    episode, so the senses cannot rescue a brain without memory in the scored decisions: only memory tells
    the sides apart. Memory: four prior decisions from the same spot and the same threat, "sprinted right"
    -> "moved right" (three times), then -> "blocked by wall on right". 3 s (6 decisions). The closed side is
    in front, not behind, so that a brain reading only the official fields (which have no `walls.back`) sees
    it; only the two sides are open.
    Expected: left and right look the same to the senses; memory says the right is a dead end, so choose
    the left. Mirrored instances (odd seeds) swap the sides, the memory included.
    """
    return Scenario(
        id="S26", category="C06", name="Wall Memory Avoidance",
        family=Family(npc_distance=(0.9, 1.1)),
        setup="Fled right into a wall last time; the same beast approaches from behind again, a wall ahead.",
        phases=(Phase(
            name="same threat again", duration=3.0,
            walls=(
                Wall.facing("fwd", 1.5, length=16.2, offset=-4.1),
                Wall.facing("right", 12.0, length=9.7, offset=-3.15, name="unseen_wall_right"),
            ),
            npcs=(NpcSpec("beast", "beast", (-5.0, 0.0), "approach"),),
            prior_decisions=(
                PriorDecision(-2.0, "a person sprints to the right in panic, away from the beast", "right",
                              "moved right"),
                PriorDecision(-1.5, "keeps sprinting right, arms flailing", "right", "moved right"),
                PriorDecision(-1.0, "sprints on to the right, glancing back at the beast", "right",
                              "moved right"),
                PriorDecision(-0.5, "keeps sprinting right, gasping", "right", "blocked by wall on right"),
            ),
        ),),
        expectations=Expectations(
            perception="back=danger(beast), fwd=danger(wall), left=safe(open), right=safe(open) by the senses"
                       " but remembered as blocked",
            correct_actions=("sprint left", "move left"),
            incorrect_actions=("sprint right again",),
            pattern="2nd time: the right avoided, the left chosen",
            safe_directions=("left",),
        ),
        difficulty="hard",
    )


@scenario
def s27_safe_route_memory() -> Scenario:
    """S27 · Safe Route Memory (C06, hard)

    Setup: the protagonist stands 1.5 m in front of a wall (`walls.front`, an official field) and a beast
    approaches from 5.5 m behind (1.2 m/s); left and right are both open and look alike. Memory: a similar
    earlier encounter where sprinting left worked — "moved left", then "escaped". 3 s (6 decisions).
    Mirrored instances (odd seeds) remember the right instead.
    Expected: with no sensory reason to prefer a side, the remembered safe route (left) is preferred.
    """
    return Scenario(
        id="S27", category="C06", name="Safe Route Memory",
        family=Family(npc_distance=(0.9, 1.1)),
        setup="Escaped left before; a similar beast approaches again from behind, a wall ahead.",
        phases=(Phase(
            name="similar threat", duration=3.0,
            walls=(Wall.facing("fwd", 1.5, length=12.0),),
            npcs=(NpcSpec("beast", "beast", (-5.5, 0.0), "approach"),),
            prior_decisions=(
                PriorDecision(-1.0, "a person sprints left away from the beast", "left", "moved left"),
                PriorDecision(-0.5, "keeps running left, glancing back", "left", "escaped"),
            ),
        ),),
        expectations=Expectations(
            perception="back=danger(beast), fwd=danger(wall), left=safe(open), right=safe(open)",
            correct_actions=("sprint left", "move left"),
            incorrect_actions=("walk back", "stand still"),
            pattern="the left (remembered safe route) preferred",
            safe_directions=("left", "right"),
        ),
        difficulty="hard",
    )


@scenario
def s28_decision_consistency() -> Scenario:
    """S28 · Decision Consistency (C06, medium)

    Setup: the same scene three times, memory carried: a beast 5 m ahead approaches (1.2 m/s) and a wall runs
    along the left at 2 m; right and back open. 2.5 s per trial (15 decisions). The trials have no
    start-distance jitter (jitter 0), so only `recent_decisions` and `t` differ between them (the spec feeds
    the identical scene_context three times).
    Expected: similar behaviour every time (the same escape direction and intensity; the wording need not be
    identical).
    """
    trial = Phase(
        name="trial", duration=2.5, carry_memory=True,
        walls=(Wall.facing("left", 2.0, length=10.0, offset=1.0),),
        npcs=(NpcSpec("beast", "beast", (5.0, 0.0), "approach"),),
        jitter=0.0,  # the spec: the identical scene_context three times
    )
    return Scenario(
        id="S28", category="C06", name="Decision Consistency",
        family=Family(fronts=BACK_FIRST_FRONTS, npc_distance=(0.9, 1.1), wall_distance=(0.9, 1.1)),
        setup="The same scene (beast ahead, wall left) presented three times.",
        phases=tuple(replace(trial, name=f"trial {i}") for i in (1, 2, 3)),
        expectations=Expectations(
            perception="fwd=danger(beast), left=danger(wall), right=safe(open), back=safe(open)",
            correct_actions=("the same escape each time (right or back)",),
            incorrect_actions=("a different direction each trial",),
            pattern="similar actions consistently (not necessarily identical)",
            safe_directions=("right", "back"),
        ),
        difficulty="medium",
    )


@scenario
def s29_threat_history_reference() -> Scenario:
    """S29 · Threat History Reference (C06, medium)

    Setup: open ground; a beast 7 m ahead approaches (1.2 m/s). Memory: a recent flight from a charging beast
    — "sprints right" -> "moved right", then -> "blocked by wall on right"; "turns and sprints left" ->
    "moved left", then -> "escaped". 3 s (6 decisions). The scene is exactly S30's; only the memory differs.
    Mirrored instances (odd seeds) swap the sides, the memory included.
    Expected: the past flight is reflected in the current decision the way the prompt says memory is used —
    do not repeat the direction that got blocked (right), prefer the one that worked (left). Back is open and
    safe, but it ignores what the history taught.
    """
    return Scenario(
        id="S29", category="C06", name="Threat History Reference",
        family=Family(npc_distance=(0.9, 1.1)),
        setup="recent_decisions holds a flight from a beast (right blocked, left escaped); now a beast "
              "approaches from 7 m ahead.",
        phases=(replace(
            _APPROACHING_BEAST_SCENE,
            prior_decisions=(
                PriorDecision(-3.0, "a person sprints to the right in terror from a charging beast", "right",
                              "moved right"),
                PriorDecision(-2.5, "keeps sprinting right, glancing over the shoulder", "right",
                              "blocked by wall on right"),
                PriorDecision(-2.0, "turns and sprints to the left, arms pumping", "left", "moved left"),
                PriorDecision(-1.5, "keeps running left, looking back at the beast", "left", "escaped"),
            ),
        ),),
        expectations=Expectations(
            perception="fwd=danger(beast) approaching from 7 m; memory: right blocked, left escaped",
            correct_actions=("move left (the route that worked)",),
            incorrect_actions=("move right (the route that got blocked)", "walk towards the beast",
                               "ignore the history"),
            pattern="the previous flight reflected in the current decision",
            safe_directions=("left", "back", "right"),
        ),
        difficulty="medium",
    )


@scenario
def s30_clean_slate_test() -> Scenario:
    """S30 · Clean Slate Test (C06, easy)

    Setup: exactly S29's scene — open ground, a beast 7 m ahead approaching (1.2 m/s) — with no memory at all
    (no prior decisions, memory not carried). 3 s (6 decisions).
    Expected: a more generic, proportionate response than S29's (wary, not panicked) and no invented
    memory.
    """
    return Scenario(
        id="S30", category="C06", name="Clean Slate Test",
        family=Family(fronts=ALL_FRONTS, npc_distance=(0.9, 1.1)),
        setup="The same scene as S29 with no memory.",
        phases=(replace(_APPROACHING_BEAST_SCENE, carry_memory=False),),
        expectations=Expectations(
            perception="fwd=danger(beast) approaching from 7 m; no memory",
            correct_actions=("move away from the beast", "back away warily"),
            incorrect_actions=("refer to an earlier flight", "panic"),
            pattern="a different (more generic) response than with memory",
            safe_directions=("back", "left", "right"),
        ),
        difficulty="easy",
    )
