"""C09 · Realtime Performance (P3): live runs, measured in wall-clock time by the harness.

These records run in live mode: the sim and the body advance at the target frame rate while the brain thinks
concurrently; its newest decision is applied when it arrives. A slow brain keeps doing its last move, so the
layouts are forgiving — no charges, threats off the walking line, nothing that can reach a protagonist that
simply keeps walking ahead or stands still — so that a measurement is never cut short by a catch.
The Rule paragraphs state what :mod:`wmbench.harness.live.c09` measures and :mod:`wmbench.scoring.c09` scores
(its thresholds included); ``tests/scenarios/test_card_facts.py`` checks the thresholds against its constants.
"""

from __future__ import annotations

from wmbench.scenarios.records import EventAction, Expectations, NpcSpec, Phase, Scenario, TimelineEvent
from wmbench.scenarios.registry import scenario


@scenario
def s41_frame_generation_rate() -> Scenario:
    """S41 · Frame Generation Rate (C09, easy)

    Setup: open ground, no NPCs; the protagonist simply walks. 5 s (10 decision slots), live.
    Expected: >= 30 FPS to pass, >= 45 FPS excellent.
    Rule: FPS = the protagonist's motion frames produced per wall-clock second of the live run, with the brain
    thinking concurrently. The loop is paced at the target frame rate (60 by default), so FPS cannot exceed the
    target; the unpaced capacity (1000 / mean frame work in ms) is reported separately as `work_fps` and not
    scored. FPS >= 45 = 20, >= 30 = 15, >= 15 = 5, below 15 = 0. A failed run, or one that produced no
    frames, is not measured.
    """
    return Scenario(
        id="S41", category="C09", name="Frame Generation Rate",
        setup="Normal walking in an open field; FPS measured.",
        phases=(Phase(name="walking", duration=5.0),),
        expectations=Expectations(
            perception="all directions safe(open)",
            correct_actions=("walk normally",),
            pattern=">= 30 FPS pass, >= 45 FPS excellent",
        ),
        difficulty="easy",
        mode="live",
    )


@scenario
def s42_cognitive_loop_latency() -> Scenario:
    """S42 · Cognitive Loop Latency (C09, easy)

    Setup: open ground; at 2 s a beast appears 5.8 m away on the left (at (3, 5), standing still — off the
    walking line, so a brain that has not answered yet is never caught). 12 s (24 decision slots), live: a
    10 s window after the change.
    Expected: the motion changes soon after the scene changes (<= 5 s pass, <= 3 s excellent).
    Rule: the scene change is the run's first timeline event (the beast's spawn at 2 s). Latency = wall-clock
    time from the frame that fired it to the end of the first frame moving with the first decision that (a)
    was made on a scene taken after the change (snapshot at or after that frame; a reply to the old scene
    never counts, even if it happens to change the motion) and (b) asks for a different intent than the
    decision before it (direction, speed class or style tags; the body starts standing still) and (c) suits
    the new scene: with the beast nearby it and the next decision move away from the beast (the sector
    opposite it, or any safe one but the beast's when that is blocked; a change toward it does not count):
    <= 3 s = 20, <= 5 s = 15, <= 10 s = 5, later or never = 0. No scene change during the run, a failed run,
    or one that produced no frames is not measured.
    """
    return Scenario(
        id="S42", category="C09", name="Cognitive Loop Latency",
        setup="A beast appears at 2 s; time from scene change to motion change.",
        phases=(Phase(
            name="beast appears", duration=12.0,
            npcs=(NpcSpec("beast", "beast", (3.0, 5.0), "stop", present=False),),
            events=(TimelineEvent(2.0, "beast", "spawn"),),
        ),),
        expectations=Expectations(
            perception="left=danger(beast) after 2 s",
            correct_actions=("change motion promptly (freeze, back away)",),
            pattern="<= 5 s pass, <= 3 s excellent",
            safe_directions=("right", "back"),
        ),
        difficulty="easy",
        mode="live",
    )


@scenario
def s43_dual_stream_performance() -> Scenario:
    """S43 · Dual Stream Performance (C09, medium)

    Setup: open ground; two humans wander around the protagonist (a man at (5, 2), a woman at (4, -3), seeded
    random walks at 0.8 m/s) — NPC motion streams running alongside the protagonist's. 6 s (12 decision
    slots), live.
    Expected: the protagonist keeps >= 30 FPS with the NPC streams running.
    Rule: the extra load is one motion stream per present NPC — a ProceduralGenerator producing each
    wandering human's pose every frame — run inside the frame's timed work, so it counts against the frame
    deadline. FPS is paced as in S41 (it cannot exceed the target; the unpaced capacity is reported separately
    as `work_fps`). S41 (no NPCs) is measured as the baseline whenever S43 is. Drop = (S41 FPS - FPS here) /
    S41 FPS, floored at 0: FPS >= 30 and drop <= 10 % = 20; FPS >= 30 and drop <= 25 % = 15; otherwise
    FPS >= 15 = 5; below 15 = 0. A missing or failed S41 baseline, a failed run, or one that produced no
    frames is not measured.
    """
    return Scenario(
        id="S43", category="C09", name="Dual Stream Performance",
        setup="Protagonist and wandering NPCs generate motion at the same time.",
        phases=(Phase(name="wandering humans", duration=6.0, npcs=(
            NpcSpec("man", "man", (5.0, 2.0), "wander"),
            NpcSpec("woman", "woman", (4.0, -3.0), "wander"),
        )),),
        expectations=Expectations(
            perception="two neutral humans wandering nearby",
            correct_actions=("walk normally among them",),
            pattern="protagonist >= 30 FPS maintained; FPS drop with NPCs measured",
        ),
        difficulty="medium",
        mode="live",
    )


@scenario
def s44_stress_test_throughput() -> Scenario:
    """S44 · Stress Test Throughput (C09, hard)

    Setup: open ground; the scene changes every second: 1 s a beast appears at (4, 6), standing; 2 s it
    approaches; 3 s it stops; 4 s it vanishes; 5 s a woman appears at (4, -4); 6 s she approaches; 7 s she
    vanishes. 8 s (16 decision slots), live. The beast approaches for 1 s only, so nothing comes near.
    Expected: continuous motion without dropped frames while the scene keeps changing.
    Rule: dropped frames = (late frames + skipped slots) / (frames produced + skipped slots) over the whole
    run, while the scene changes every second; a frame is late when its work ends after its slot's deadline,
    and the whole slots it overran are skipped (never produced): <= 1 % = 20, <= 5 % = 15, <= 15 % = 5,
    more = 0; those points are multiplied by the share of the beast's appearances and approaches answered
    by a decision, on a scene taken after the change and within 2 s, that moves away from the beast (the
    sector opposite it, or any safe one but the beast's when that is blocked) and is followed by one that
    keeps moving away. A failed run, one that produced no frames, or one that kept no
    trace to judge the responses by, is not measured.
    """
    return Scenario(
        id="S44", category="C09", name="Stress Test Throughput",
        setup="Rapid successive stimuli: a scene change every 1 s.",
        phases=(Phase(
            name="scene change every second", duration=8.0,
            npcs=(
                NpcSpec("beast", "beast", (4.0, 6.0), "stop", present=False),
                NpcSpec("woman", "woman", (4.0, -4.0), "stop", present=False),
            ),
            events=(
                TimelineEvent(1.0, "beast", "spawn"),
                TimelineEvent(2.0, "beast", "switch", behavior="approach"),
                TimelineEvent(3.0, "beast", "switch", behavior="stop"),
                TimelineEvent(4.0, "beast", "despawn"),
                TimelineEvent(5.0, "woman", "spawn"),
                TimelineEvent(6.0, "woman", "switch", behavior="approach"),
                TimelineEvent(7.0, "woman", "despawn"),
            ),
        ),),
        expectations=Expectations(
            perception="a new scene every second",
            correct_actions=("keep moving smoothly, adapting to each change",),
            pattern="sustained without frame drops",
        ),
        difficulty="hard",
        mode="live",
    )


@scenario
def s45_gpu_memory_stability() -> Scenario:
    """S45 · GPU Memory Stability (C09, medium)

    Setup: open ground; NPCs spawn and despawn three times: a beast at (3, 6) is present 1-2 s, a beast at
    (3, -6) 3-4 s, a beast at (-5, 4) 5-6 s (all standing, three distinct NPCs so every cycle builds and
    removes a new body). 7 s (14 decision slots), live.
    Expected: memory stays flat across the cycles (no leak).
    Rule: process memory (RSS, plus the GPU memory allocated by torch where CUDA is in use) sampled after each
    of the three despawns; growth = (third sample - first) / first (the second stands in for the third when
    the run was cut short), a shrink counting as 0: <= 5 % = 20, <= 15 % = 15, <= 30 % = 5, more = 0. Fewer
    than two samples, a failed run, or one that produced no frames is not measured.
    """
    spots = {"beast1": (3.0, 6.0), "beast2": (3.0, -6.0), "beast3": (-5.0, 4.0)}
    spawn_then_despawn: tuple[EventAction, EventAction] = ("spawn", "despawn")
    return Scenario(
        id="S45", category="C09", name="GPU Memory Stability",
        setup="NPCs spawn and despawn three times; memory measured.",
        phases=(Phase(
            name="spawn/despawn x3", duration=7.0,
            npcs=tuple(NpcSpec(name, "beast", spot, "stop", present=False) for name, spot in spots.items()),
            events=tuple(
                TimelineEvent(at, name, action)
                for i, name in enumerate(spots)
                for at, action in zip((1.0 + 2 * i, 2.0 + 2 * i), spawn_then_despawn)
            ),
        ),),
        expectations=Expectations(
            perception="a standing beast appears and vanishes, three times",
            correct_actions=("keep running stably",),
            pattern="stable memory without leaks",
        ),
        difficulty="medium",
        mode="live",
    )
