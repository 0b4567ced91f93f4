"""The env's frame loop for a dynamic body in a test: per motion frame ``on_frame``, then the physics steps."""

from __future__ import annotations

from collections.abc import Callable

from wmbench.body.base import Body, BodyState, FrameReport
from wmbench.envs.world import World

#: Physics steps per motion frame (240 Hz physics, 30 FPS motion).
STEPS_PER_FRAME = 8


def run_frames(world: World, body: Body, n_frames: int,
               every_step: Callable[[BodyState], None] | None = None) -> list[FrameReport]:
    """Run ``n_frames`` frames of ``body`` (each: ``on_frame``, then :data:`STEPS_PER_FRAME` times
    ``on_physics_step`` and a physics step); ``every_step`` sees the body state after each physics step.
    Returns the frames' reports."""
    reports = []
    for _ in range(n_frames):
        reports.append(body.on_frame())
        for _ in range(STEPS_PER_FRAME):
            body.on_physics_step()
            world.step_physics()
            if every_step is not None:
                every_step(body.state())
    return reports
