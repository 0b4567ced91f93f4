"""``demo-body``: a kinematic sphere that glides where the intent points (a plugin body for tests).

Entry point target is a *class*. Its constructor takes an optional spec and keyword options, so a registry
may call it either as ``DemoBody(**options)`` or as ``DemoBody(spec, **options)``.
"""

from __future__ import annotations

import math
from typing import Any

from wmbench.body.base import BodyBase, BodyState, FrameReport, Vec3, WorldHandle
from wmbench.body.intent.record import MotionIntent


class DemoBody(BodyBase):
    """A 0.3 m sphere moved frame by frame at the intent's speed, stopped by walls via ``world.sweep``.

    Derives from :class:`~wmbench.body.base.BodyBase`: the character's speed ``envelope`` and the no-op
    ``sync_visuals`` come from there (``on_physics_step`` is spelled out only to show the hook).
    """

    needs_physics = False
    sensor_height = 1.2
    radius = 0.3

    def __init__(self, spec: str = "demo-body", **options: Any) -> None:
        self.name = spec
        self.options = options
        self._world: WorldHandle | None = None
        self._body_id: int | None = None
        self._position: Vec3 = (0.0, 0.0, 0.0)
        self._heading = 0.0
        self._intent = MotionIntent.still()
        self._velocity: Vec3 = (0.0, 0.0, 0.0)

    def spawn(self, world: WorldHandle, position: Vec3, heading: float) -> None:
        import pybullet

        self._world = world
        shape = pybullet.createCollisionShape(pybullet.GEOM_SPHERE, radius=self.radius,
                                              physicsClientId=world.client)
        self._body_id = pybullet.createMultiBody(0.0, shape, basePosition=position,
                                                 physicsClientId=world.client)
        self.reset_pose(position, heading)

    def reset_pose(self, position: Vec3, heading: float) -> None:
        self._position, self._heading = tuple(position), float(heading)
        self._velocity = (0.0, 0.0, 0.0)
        self._sync()

    def apply_intent(self, intent: MotionIntent) -> None:
        self._intent = intent
        if intent.direction is not None and intent.face_travel:
            self._heading += intent.heading

    def on_frame(self) -> FrameReport:
        if self._world is None or not self._intent.moving:
            self._velocity = (0.0, 0.0, 0.0)
            return FrameReport()
        travel = self._heading if self._intent.face_travel else self._heading + self._intent.heading
        step = self._intent.speed * self._world.frame_dt
        x, y, z = self._position
        target = (x + step * math.cos(travel), y + step * math.sin(travel), z)
        sweep = self._world.sweep(self._position, target, self.radius)
        dt = self._world.frame_dt
        self._velocity = ((sweep.end[0] - x) / dt, (sweep.end[1] - y) / dt, 0.0)
        self._position = tuple(sweep.end)
        self._sync()
        return FrameReport(collided=sweep.blocked, wall_name=sweep.wall_name)

    def on_physics_step(self) -> None:
        pass

    def state(self) -> BodyState:
        speed = math.hypot(self._velocity[0], self._velocity[1])
        return BodyState(position=self._position, heading=self._heading, velocity=self._velocity, speed=speed,
                         speed_class=self._intent.speed_class.value)

    def body_ids(self) -> frozenset[int]:
        return frozenset() if self._body_id is None else frozenset({self._body_id})

    def remove(self) -> None:
        if self._world is not None and self._body_id is not None:
            import pybullet

            pybullet.removeBody(self._body_id, physicsClientId=self._world.client)
        self._body_id = None

    def _sync(self) -> None:
        if self._world is not None and self._body_id is not None:
            import pybullet

            orientation = pybullet.getQuaternionFromEuler((0.0, 0.0, self._heading))
            pybullet.resetBasePositionAndOrientation(self._body_id, self._position, orientation,
                                                     physicsClientId=self._world.client)
