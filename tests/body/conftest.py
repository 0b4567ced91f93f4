"""Shared fixtures for the body tests: a headless world at the env's default rates."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wmbench.envs.world import World

FRAME_DT = 1 / 30
PHYSICS_DT = 1 / 240


@pytest.fixture
def world() -> Iterator[World]:
    """A headless 30 FPS / 240 Hz world, closed after the test."""
    w = World(frame_dt=FRAME_DT, physics_dt=PHYSICS_DT)
    yield w
    w.close()
