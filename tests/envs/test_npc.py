"""NPCs: bodies, behaviours, wall blocking, timeline events, catching."""

from __future__ import annotations

import math

import numpy as np
import pybullet as p
import pytest

from wmbench.core.entities import BEHAVIOR_ROWS, BEHAVIORS
from wmbench.envs.npc import CATCH_RADIUS, HUMAN_PERSONAL_SPACE, NpcCrowd
from wmbench.envs.world import World
from wmbench.scenarios import NpcSpec, Phase, TimelineEvent, Wall

DT = 1 / 30


@pytest.fixture
def world():
    w = World(frame_dt=DT, physics_dt=1 / 240)
    yield w
    w.close()


def crowd_of(world, *npcs, events=(), walls=(), seed=0, jitter=0.0) -> NpcCrowd:
    phase = Phase(name="t", duration=10.0, walls=tuple(walls), npcs=tuple(npcs), events=tuple(events),
                  jitter=jitter)
    world.set_walls(phase.walls)
    return NpcCrowd(world, phase, np.random.default_rng(seed), (0.0, 0.0))


def run(crowd, frames, protagonist=(0.0, 0.0)):
    fired = []
    for k in range(frames):
        crowd.step(DT, k * DT, protagonist)
        fired += crowd.fire_events((k + 1) * DT, protagonist)
    return fired


@pytest.mark.parametrize("behavior, speed, sign",
                         [("approach", 1.2, -1), ("charge", 5.0, -1), ("retreat", 1.2, 1)])
def test_approach_charge_retreat_move_along_the_line_at_their_speed(world, behavior, speed, sign):
    crowd = crowd_of(world, NpcSpec("b", "beast", (8.0, 0.0), behavior))
    run(crowd, 15)
    npc = crowd.npcs["b"]
    assert npc.x == pytest.approx(8.0 + sign * speed * 0.5, abs=1e-6)
    assert npc.y == pytest.approx(0.0, abs=1e-9)
    assert npc.current_speed == pytest.approx(speed)
    pos, _ = p.getBasePositionAndOrientation(npc.body_id, physicsClientId=world.client)
    assert pos[0] == pytest.approx(npc.x)


@pytest.mark.parametrize("behavior", BEHAVIORS)
def test_every_behaviour_steps_as_its_row_says(world, behavior):
    """Generated from the rows: a beast 6 m ahead, its record heading +y, one second of frames."""
    crowd = crowd_of(world, NpcSpec("b", "beast", (6.0, 0.0), behavior, heading=math.pi / 2))
    run(crowd, 30)
    npc, steering = crowd.npcs["b"], BEHAVIOR_ROWS[behavior].steering
    gap = math.hypot(npc.x, npc.y)
    if steering == "hold":
        assert (npc.x, npc.y) == (6.0, 0.0) and not npc.moving
    elif steering == "pursue":
        assert gap < 6.0 and npc.y == pytest.approx(0.0, abs=1e-9)
    elif steering == "flee":
        assert gap > 6.0 and npc.y == pytest.approx(0.0, abs=1e-9)
    elif steering == "roam":
        assert (npc.x, npc.y) != (6.0, 0.0)
    else:
        assert steering == "straight" and npc.x == pytest.approx(6.0) and npc.y > 0.0
    if steering != "hold":
        assert npc.moving and npc.current_speed > 0.0


def test_stop_stands_and_cross_follows_its_world_heading(world):
    crowd = crowd_of(world, NpcSpec("s", "beast", (5.0, 0.0), "stop"),
                     NpcSpec("c", "man", (4.0, 5.0), "cross", heading=-math.pi / 2))
    run(crowd, 30)
    assert (crowd.npcs["s"].x, crowd.npcs["s"].y) == (5.0, 0.0)
    assert crowd.npcs["c"].x == pytest.approx(4.0) and crowd.npcs["c"].y == pytest.approx(5.0 - 2.0)


def test_wander_is_a_seeded_random_walk(world):
    def path(seed):
        crowd = crowd_of(world, NpcSpec("w", "woman", (3.0, 3.0), "wander"), seed=seed)
        run(crowd, 120)
        out = (crowd.npcs["w"].x, crowd.npcs["w"].y)
        crowd.remove_all()
        return out

    a, b, c = path(1), path(1), path(2)
    assert a == b and a != c
    assert math.hypot(a[0] - 3.0, a[1] - 3.0) <= 0.8 * 4.0 + 1e-9


def test_approaching_human_keeps_personal_space_but_a_beast_catches(world):
    crowd = crowd_of(world, NpcSpec("w", "woman", (2.0, 0.0), "approach"),
                     NpcSpec("b", "beast", (0.0, 3.0), "charge"))
    run(crowd, 60)
    assert crowd.npcs["w"].x == pytest.approx(HUMAN_PERSONAL_SPACE)
    assert crowd.catcher(0.0, 0.0) is crowd.npcs["b"]
    assert crowd.catcher(0.0, -CATCH_RADIUS - 1.0) is None


def test_npcs_are_blocked_by_walls(world):
    wall = Wall.facing("fwd", 3.0, length=6.0, name="shield")
    crowd = crowd_of(world, NpcSpec("b", "beast", (6.0, 0.0), "charge"), walls=[wall])
    run(crowd, 60)
    npc = crowd.npcs["b"]
    assert npc.x >= 3.2 + npc.shape.radius - 1e-6
    assert npc.current_speed == pytest.approx(0.0)


def test_timeline_fires_at_the_first_frame_at_or_after_its_time(world):
    events = (TimelineEvent(0.0, "late", "spawn"), TimelineEvent(0.5, "b", "switch", behavior="charge"),
              TimelineEvent(0.51, "b", "despawn"))
    crowd = crowd_of(world, NpcSpec("b", "beast", (9.0, 0.0), "approach"),
                     NpcSpec("late", "man", (0.0, 4.0), present=False), events=events)
    assert not crowd.npcs["late"].present
    assert crowd.fire_events(0.0, (0.0, 0.0)) == ["spawn:late"]  # phase start
    assert crowd.npcs["late"].present
    fired_at = {}
    for k in range(20):
        crowd.step(DT, k * DT, (0.0, 0.0))
        for kind in crowd.fire_events((k + 1) * DT, (0.0, 0.0)):
            fired_at[kind] = k
    assert fired_at["switch:b:charge"] == 14      # 15 frames = 0.5 s
    assert fired_at["despawn:b"] == 15            # first frame boundary after 0.51 s
    assert not crowd.npcs["b"].present and set(crowd.by_body_id().values()) == {crowd.npcs["late"]}


def test_beast_is_tall_enough_for_chest_height_rays_and_humans_are_capsules(world):
    crowd = crowd_of(world, NpcSpec("b", "beast", (4.0, 0.0)), NpcSpec("w", "woman", (0.0, 4.0)),
                     NpcSpec("m", "man", (0.0, -4.0)))
    lo, hi = p.getAABB(crowd.npcs["b"].body_id, physicsClientId=world.client)
    for link in range(p.getNumJoints(crowd.npcs["b"].body_id, physicsClientId=world.client)):
        l_lo, l_hi = p.getAABB(crowd.npcs["b"].body_id, link, physicsClientId=world.client)
        lo, hi = np.minimum(lo, l_lo), np.maximum(hi, l_hi)
    assert hi[2] == pytest.approx(1.4, abs=0.03) and lo[2] == pytest.approx(0.0, abs=0.03)
    assert hi[0] - lo[0] > 1.5 * (hi[2] - lo[2]) * 0.9  # long and low
    hits = world.cast_rays([(0, 0, 1.2)] * 3, [(10, 0, 1.2), (0, 10, 1.2), (0, -10, 1.2)])
    assert [h.body_id for h in hits] == [crowd.npcs[n].body_id for n in ("b", "w", "m")]
    colours = {n: p.getVisualShapeData(crowd.npcs[n].body_id, physicsClientId=world.client)[0][7]
               for n in ("b", "w", "m")}
    assert colours["b"][0] > colours["b"][2]          # orange-brown
    assert colours["w"][0] > colours["w"][1]          # purple
    assert colours["m"][2] > colours["m"][0]          # blue


def test_jitter_scales_start_distance_radially(world):
    crowd = crowd_of(world, NpcSpec("b", "beast", (3.0, 4.0)), jitter=0.1, seed=5)
    npc = crowd.npcs["b"]
    factor = math.hypot(npc.x, npc.y) / 5.0
    assert 0.9 <= factor <= 1.1 and factor != 1.0
    assert math.atan2(npc.y, npc.x) == pytest.approx(math.atan2(4.0, 3.0))
