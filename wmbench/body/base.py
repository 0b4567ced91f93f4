"""The Body contract and the world handle a body is given.

A body lives in a PyBullet world owned by the env. Per decision the env calls :meth:`Body.apply_intent` once;
then for each motion frame (30 FPS by default) :meth:`Body.on_frame`, and for each physics step inside that
frame (240 Hz by default) :meth:`Body.on_physics_step` followed by the world's ``stepSimulation`` (only when the
world is dynamic, see ``needs_physics``). Kinematic bodies move in ``on_frame``; dynamic ones apply forces or
motor targets in ``on_physics_step``. Bodies never pass through walls: a kinematic body asks the world handle
for a swept clearance check; dynamic bodies collide physically. Either way a wall contact in a frame is
reported in :class:`FrameReport` and the env records ``collision:wall``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from wmbench.body.intent_types import MotionIntent

Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class SweepResult:
    """Where a disc of ``radius`` moving from ``start`` to ``end`` (xy plane) may stop without entering a wall."""

    end: Vec3
    blocked: bool
    wall_name: str | None = None


@runtime_checkable
class WorldHandle(Protocol):
    """What the world offers a body (implemented by ``wmbench.envs.world.World``)."""

    client: int          # pybullet physics client id
    frame_dt: float      # seconds per motion frame
    physics_dt: float    # seconds per physics step
    wall_body_ids: frozenset[int]

    def sweep(self, start: Vec3, end: Vec3, radius: float) -> SweepResult: ...


@dataclass(frozen=True)
class BodyState:
    """A snapshot of a body: root position (world, z up), heading (rad, world), planar velocity,
    speed (m/s), posture label, the speed class it is realizing and body-specific extras (e.g. servo error)."""

    position: Vec3
    heading: float
    velocity: Vec3
    speed: float
    posture: str = "upright"
    speed_class: str = "still"
    extras: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "position": [round(v, 6) for v in self.position], "heading": round(self.heading, 6),
            "velocity": [round(v, 6) for v in self.velocity], "speed": round(self.speed, 6),
            "posture": self.posture, "speed_class": self.speed_class, "extras": self.extras,
        }


@dataclass(frozen=True)
class FrameReport:
    """What happened to the body during one motion frame."""

    collided: bool = False
    wall_name: str | None = None


@runtime_checkable
class Body(Protocol):
    """A swappable body. Card-style docstrings on implementations say what it is and how it moves."""

    name: str
    needs_physics: bool      # True when stepSimulation must run for this body (robot, drone)
    sensor_height: float     # metres above ground where perception rays start

    def spawn(self, world: WorldHandle, position: Vec3, heading: float) -> None: ...
    def reset_pose(self, position: Vec3, heading: float) -> None: ...
    def apply_intent(self, intent: MotionIntent) -> None: ...
    def on_frame(self) -> FrameReport: ...
    def on_physics_step(self) -> None: ...
    def state(self) -> BodyState: ...
    def body_ids(self) -> frozenset[int]: ...
    def remove(self) -> None: ...
