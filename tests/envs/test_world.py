"""World: own client per instance, walls, the swept-disc clearance test and ray casts."""

from __future__ import annotations

import pybullet as p
import pytest

from wmbench.body.base import WorldHandle
from wmbench.envs.client_pool import IDLE_CLIENTS_MAX, idle_clients
from wmbench.envs.world import SWEEP_SKIN, World
from wmbench.scenarios import Wall

THIN_WALL = Wall(center=(3.05, 0.0), size=(0.1, 4.0), name="thin")


@pytest.fixture
def world():
    w = World(frame_dt=1 / 30, physics_dt=1 / 240)
    yield w
    w.close()


def test_world_implements_the_world_handle(world):
    assert isinstance(world, WorldHandle)
    assert world.client >= 0 and world.frame_dt == pytest.approx(1 / 30)


def test_set_walls_builds_static_boxes_and_replaces_old_ones(world):
    world.set_walls([THIN_WALL, Wall.facing("left", 2.0)])
    first = set(world.wall_body_ids)
    assert len(first) == 2
    lo, hi = p.getAABB(next(b.body_id for b in world.walls if b.name == "thin"), physicsClientId=world.client)
    assert lo[0] == pytest.approx(3.0, abs=1e-3) and hi[2] == pytest.approx(2.0, abs=1e-3)
    world.set_walls([Wall.facing("right", 1.0)])
    assert len(world.wall_body_ids) == 1
    assert p.getNumBodies(physicsClientId=world.client) == 2  # ground + one wall


def test_sweep_stops_a_sprint_before_a_thin_wall_with_clearance(world):
    world.set_walls([THIN_WALL])
    x, radius, blocked = 0.0, 0.3, None
    for _ in range(40):  # 0.22 m per frame: a sprint
        result = world.sweep((x, 0.0, 0.0), (x + 0.22, 0.0, 0.0), radius)
        x = result.end[0]
        if result.blocked:
            blocked = result
    assert blocked is not None and blocked.wall_name == "thin"
    assert x == pytest.approx(3.0 - radius - SWEEP_SKIN, abs=1e-6)


def test_one_long_sweep_never_tunnels_through_a_wall(world):
    world.set_walls([THIN_WALL])
    result = world.sweep((0.0, 0.0, 0.0), (10.0, 0.0, 0.0), 0.3)
    assert result.blocked and result.end[0] < 3.0 - 0.3


def test_sweep_is_free_when_the_path_is_clear_and_grazes_past_corners(world):
    world.set_walls([THIN_WALL])
    clear = world.sweep((0.0, 0.0, 0.5), (0.0, 2.0, 0.5), 0.3)
    assert not clear.blocked and clear.end == (0.0, 2.0, 0.5)
    past = world.sweep((0.0, 2.35, 0.0), (6.0, 2.35, 0.0), 0.3)  # wall ends at y=2, disc edge at 2.05
    assert not past.blocked


def test_diagonal_sweep_stops_on_the_expanded_face(world):
    world.set_walls([THIN_WALL])
    result = world.sweep((0.0, 0.0, 0.0), (6.0, 1.0, 0.0), 0.3)
    assert result.blocked
    assert result.end[0] == pytest.approx(2.7, abs=1e-3)
    assert result.end[1] == pytest.approx(2.7 / 6.0, abs=1e-3)


def test_a_disc_inside_a_wall_may_leave_but_not_go_deeper(world):
    world.set_walls([THIN_WALL])
    out = world.sweep((2.9, 0.0, 0.0), (2.5, 0.0, 0.0), 0.3)
    deeper = world.sweep((2.9, 0.0, 0.0), (3.0, 0.0, 0.0), 0.3)
    assert not out.blocked and out.end[0] == 2.5
    assert deeper.blocked and deeper.end[0] == 2.9


def test_rays_skip_excluded_bodies_and_hit_walls(world):
    world.set_walls([THIN_WALL])
    col = p.createCollisionShape(p.GEOM_BOX, halfExtents=[0.3, 0.3, 1.0], physicsClientId=world.client)
    own = p.createMultiBody(0, col, -1, [1.5, 0, 1], physicsClientId=world.client)
    before = world.cast_rays([(0, 0, 1.2)], [(10, 0, 1.2)])[0]
    world.exclude_from_rays([own])
    after = world.cast_rays([(0, 0, 1.2)], [(10, 0, 1.2)])[0]
    assert before.body_id == own
    assert after.body_id in world.wall_body_ids and after.fraction * 10 == pytest.approx(3.0, abs=1e-6)
    miss = world.cast_rays([(0, 0, 1.2)], [(-10, 0, 1.2)])[0]
    assert miss.body_id == -1 and miss.fraction == 1.0


def test_many_worlds_coexist_and_close_is_idempotent():
    worlds = [World(1 / 30, 1 / 240) for _ in range(5)]
    assert len({w.client for w in worlds}) == 5
    for w in worlds:
        w.set_walls([THIN_WALL])
    for w in worlds:
        w.close()
        w.close()
        assert not w.connected
    # released: kept for the next worlds (at most IDLE_CLIENTS_MAX, wmbench.envs.client_pool), the rest disconnected
    still = {w.client for w in worlds if p.isConnected(physicsClientId=w.client)}
    assert len(still) <= IDLE_CLIENTS_MAX and still == set(idle_clients())


def test_reset_empties_the_world(world):
    world.set_walls([THIN_WALL])
    world.reset()
    assert world.wall_body_ids == frozenset()
    assert p.getNumBodies(physicsClientId=world.client) == 1
    params = p.getPhysicsEngineParameters(physicsClientId=world.client)
    assert params["fixedTimeStep"] == pytest.approx(1 / 240)


def test_worlds_dropped_without_close_release_their_clients():
    """Envs never closed: garbage collection releases their clients (kept idle up to IDLE_CLIENTS_MAX, the rest
    disconnected), so forgotten worlds do not pile up clients."""
    import gc

    from wmbench.envs.wmbench_env import WMBenchEnv

    envs = [WMBenchEnv("S01") for _ in range(IDLE_CLIENTS_MAX + 2)]
    for env in envs:
        env.reset(seed=0)
    clients = [env.world.client for env in envs]
    assert len(set(clients)) == len(clients) and all(p.isConnected(physicsClientId=c) for c in clients)
    del env, envs  # never closed: the envs, their bodies and NPCs drop their references to the worlds
    gc.collect()
    still = {c for c in clients if p.isConnected(physicsClientId=c)}
    assert len(still) <= IDLE_CLIENTS_MAX and still <= set(idle_clients())
