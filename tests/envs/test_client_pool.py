"""The process's idle PyBullet clients (wmbench.envs.client_pool): a closed world's DIRECT client is reset and
reused by the next world, exactly as a new client would run it."""

from __future__ import annotations

import pybullet as p
import pytest

from benchmarks.trace_snapshot import canonical_trace
from wmbench.brain.registry import get_brain
from wmbench.envs.client_pool import (
    IDLE_CLIENTS_MAX,
    forget_idle_clients,
    idle_clients,
    release_client,
    take_client,
)
from wmbench.envs.world import World
from wmbench.harness.run.episode import run_episode
from wmbench.scenarios import Wall


def test_a_closed_worlds_client_is_taken_by_the_next_world_and_emptied():
    first = World(1 / 30, 1 / 120)
    first.set_walls([Wall(center=(3.0, 0.0), size=(0.2, 4.0), name="w")])
    p.setPhysicsEngineParameter(numSolverIterations=7, physicsClientId=first.client)
    client = first.client
    first.close()
    assert client in idle_clients() and not first.connected
    second = World(1 / 30, 1 / 240)
    try:
        assert second.client == client and client not in idle_clients()
        assert p.getNumBodies(physicsClientId=client) == 1  # the ground alone: the walls went with the reset
        params = p.getPhysicsEngineParameters(physicsClientId=client)
        assert params["fixedTimeStep"] == pytest.approx(1 / 240) and params["numSolverIterations"] == 50
    finally:
        second.close()


def test_at_most_idle_clients_max_are_kept_and_the_rest_disconnect():
    forget_idle_clients()
    worlds = [World(1 / 30, 1 / 240) for _ in range(IDLE_CLIENTS_MAX + 2)]
    for world in worlds:
        world.close()
    kept = idle_clients()
    assert kept == tuple(w.client for w in worlds[:IDLE_CLIENTS_MAX])
    assert not any(p.isConnected(physicsClientId=w.client) for w in worlds[IDLE_CLIENTS_MAX:])


def test_a_gui_client_is_never_kept():
    forget_idle_clients()
    client = p.connect(p.DIRECT)  # stands in for a GUI window's client: the rule reads only the flag
    release_client(client, gui=True)
    assert not p.isConnected(physicsClientId=client) and client not in idle_clients()


def test_a_kept_client_that_was_disconnected_is_never_handed_out():
    forget_idle_clients()
    world = World(1 / 30, 1 / 240)
    client = world.client
    world.close()
    p.disconnect(physicsClientId=client)  # someone broke the ownership rule
    taken = take_client()
    try:
        assert p.isConnected(physicsClientId=taken)
    finally:
        release_client(taken)


def _trace_text(sid: str, body: str) -> str:
    brain = get_brain("reference")
    try:
        result = run_episode(sid, brain, body, 1)
    finally:
        brain.close()
    assert result.error is None, result.error
    return canonical_trace(result.trace)  # without the brain's wall clock: the only field that may differ


@pytest.mark.parametrize("body", ["smpl", "robot", "drone"])
def test_an_episode_on_a_kept_client_is_byte_identical_to_one_on_a_new_client(body):
    """S21 (a charging beast, walls) on a new client, then on a client kept from a robot episode (whose world
    ran other solver settings, other bodies and other walls)."""
    forget_idle_clients()
    new = _trace_text("S21", body)
    _trace_text("S12", "robot")  # leaves its client idle, after a robot world
    assert idle_clients()
    kept = _trace_text("S21", body)
    assert kept == new
