"""PyBullet plumbing shared by the bodies that are one URDF multibody (the servo robot and the drone).

Card
----
- :func:`yaw_quaternion` / :func:`quaternion_yaw`: a heading about world z as a PyBullet quaternion
  (x, y, z, w) and back (the yaw of any orientation).
- :func:`wall_contact`: a :class:`~wmbench.body.base.FrameReport` of the body's physical contact with a wall
  of the world, if any (read after the physics steps, so it belongs to the frame that just ran).
- :class:`UrdfBody`: the base of such a body (its id ``_id`` in world ``_world``): ``body_ids``, ``remove``
  (tolerating a world that was reset or disconnected underneath it) and ``_require_world``, the world a
  spawned body lives in or a clear error naming the call that came too early.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence

import pybullet as p

from wmbench.body.base import BodyBase, FrameReport, WorldHandle


def yaw_quaternion(yaw: float) -> tuple[float, float, float, float]:
    """The quaternion (x, y, z, w) of a rotation by ``yaw`` (rad) about world z."""
    return (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))


def quaternion_yaw(q: Sequence[float]) -> float:
    """The yaw (rad, about world z) of a quaternion (x, y, z, w)."""
    return math.atan2(2.0 * (q[3] * q[2] + q[0] * q[1]), 1.0 - 2.0 * (q[1] ** 2 + q[2] ** 2))


def wall_contact(world: WorldHandle, body_id: int) -> FrameReport:
    """``collided`` with the wall's name when ``body_id`` touches a wall of the world, else no collision."""
    walls = world.wall_body_ids
    if not walls:
        return FrameReport()
    for contact in p.getContactPoints(bodyA=body_id, physicsClientId=world.client):
        if contact[2] in walls:
            return FrameReport(collided=True, wall_name=world.wall_name(contact[2]) or "wall")
    return FrameReport()


class UrdfBody(BodyBase):
    """Base of a body that is one multibody ``_id`` (-1 when not spawned) in the world ``_world``."""

    _world: WorldHandle | None = None
    _id: int = -1

    def body_ids(self) -> frozenset[int]:
        return frozenset({self._id}) if self._id >= 0 else frozenset()

    def remove(self) -> None:
        if self._world is not None and self._id >= 0:
            with contextlib.suppress(p.error):  # the world was reset or disconnected underneath us
                p.removeBody(self._id, physicsClientId=self._world.client)
        self._id = -1

    def _require_world(self, what: str) -> WorldHandle:
        if self._world is None or self._id < 0:
            raise RuntimeError(f"{type(self).__name__}.{what} called before spawn(world, ...)")
        return self._world
