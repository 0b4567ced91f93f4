"""Shared fixtures for the body tests: a headless world at the env's default rates."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wmbench.body.motion.humanml3d.adapter import MODEL_ENV as HUMANML3D_MODEL_ENV
from wmbench.envs.world import World

FRAME_DT = 1 / 30
PHYSICS_DT = 1 / 240


@pytest.fixture
def world() -> Iterator[World]:
    """A headless 30 FPS / 240 Hz world, closed after the test."""
    w = World(frame_dt=FRAME_DT, physics_dt=PHYSICS_DT)
    yield w
    w.close()


@pytest.fixture(autouse=True)
def humanml3d_test_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every registered generator is exercised by the body tests; ``humanml3d`` needs a user's model, so it gets
    the tests' tiny random-weight one (a test about a missing model removes the variable itself)."""
    monkeypatch.setenv(HUMANML3D_MODEL_ENV, "tests.body.motion.humanml3d.test_adapter:TinyT2M")
