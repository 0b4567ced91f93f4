"""World: one PyBullet client with a ground, the phase's walls, a swept-disc clearance test and ray casts.

Card
----
- **Client.** Each ``World`` owns its own client (``DIRECT``, or ``GUI`` for ``render_mode="human"``) and
  passes ``physicsClientId`` on every call, so many worlds can live in one process. The client comes from the
  process's idle clients when one is kept (:mod:`wmbench.envs.client_pool`; a closed world's ``DIRECT``
  client, reset by the new world: ~3 ms instead of a 5-20 ms ``connect``). :meth:`close` releases it (kept
  for the next world, at most ``IDLE_CLIENTS_MAX``, else disconnected) and is idempotent; a world dropped
  without ``close`` (an env that was never closed) releases it when it is garbage-collected, so forgotten
  worlds do not pile up clients. Without a display, ``GUI`` falls back to
  ``DIRECT`` with a warning (PyBullet would otherwise abort the process); only one ``GUI`` client can exist
  per process. The first world of a process tunes the allocator so later clients reuse the buffers of closed
  ones (:mod:`wmbench.envs.allocator`).
- **Ground.** A large thin static box whose top face is ``z = 0`` (no ``pybullet_data`` needed); the
  cameras of :mod:`wmbench.envs.cameras` draw a grid on it.
- **Walls.** Static slate-teal boxes built from :class:`~wmbench.scenarios.records.Wall` records; :meth:`set_walls`
  replaces them (the env calls it on every phase change).
- **Sweep.** :meth:`sweep` moves a disc in the xy plane and stops it ``radius`` short of any wall. Walls are
  axis-aligned boxes, so the test is analytic: a segment against each wall's footprint grown by ``radius``
  (square corners — slightly conservative). It is exact for any step length, so a sprint never tunnels.
- **Rays.** :meth:`cast_rays` wraps ``rayTestBatch``; the protagonist's own bodies are put in their own
  collision-filter group (:meth:`exclude_from_rays`) which the rays' mask leaves out.

Implements :class:`wmbench.body.base.WorldHandle`.
"""

from __future__ import annotations

import math
import os
import sys
import warnings
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import pybullet as p

from wmbench.body.base import SweepResult, Vec3
from wmbench.envs.allocator import keep_client_buffers
from wmbench.envs.client_pool import release_client, take_client
from wmbench.scenarios.records import Wall

#: How far (m) a swept disc stops short of the exact contact, so it never starts a later sweep inside a wall.
SWEEP_SKIN = 1e-4
#: Collision-filter group bit of the protagonist's bodies; rays use a mask without it.
PROTAGONIST_GROUP = 4
RAY_MASK = -1 ^ PROTAGONIST_GROUP
#: Walls slate teal, ground sand: distinct from each other and from every NPC colour (see envs/cameras.py).
WALL_COLOR = (0.25, 0.55, 0.58, 1.0)
GROUND_COLOR = (0.84, 0.80, 0.68, 1.0)
#: Far beyond any scenario (S21 sprints 65 m), so no camera ever looks past the edge into white.
GROUND_HALF_EXTENT = 500.0
GROUND_THICKNESS = 0.1


@dataclass(frozen=True)
class WallBox:
    """A wall as the world holds it: its PyBullet id, name and xy footprint (axis-aligned)."""

    body_id: int
    name: str
    xmin: float
    xmax: float
    ymin: float
    ymax: float


class RayHit(NamedTuple):
    """One ray's result: the body it hit (-1 = none), the hit fraction along the ray and the hit point.
    A named tuple (immutable, like the frozen dataclass it was): 72 are built per perception, and a tuple
    builds in a quarter of a frozen dataclass's time."""

    body_id: int
    fraction: float
    position: Vec3


class World:
    """The PyBullet world an env runs in (see the module card)."""

    def __init__(self, frame_dt: float, physics_dt: float, gui: bool = False) -> None:
        self.frame_dt = float(frame_dt)
        self.physics_dt = float(physics_dt)
        if gui and not display_available():  # PyBullet's GUI would abort the whole process without one
            warnings.warn("render_mode='human' needs a display (DISPLAY is not set); running headless",
                          RuntimeWarning, stacklevel=3)
            gui = False
        self.gui = bool(gui)
        keep_client_buffers()  # once per process: reuse client buffers instead of re-faulting them (allocator)
        self.client: int = take_client(self.gui)
        if self.client < 0:
            raise RuntimeError("could not connect to PyBullet (a GUI may already be open in this process)")
        self._finalizer = weakref.finalize(self, release_client, self.client, self.gui)
        self.walls: tuple[WallBox, ...] = ()
        self.wall_body_ids: frozenset[int] = frozenset()
        self.ground_id = -1
        self.reset()

    # ------------------------------------------------------------------ lifecycle
    def reset(self) -> None:
        """Empty the simulation and rebuild the ground (bodies and NPCs must be spawned again)."""
        cid = self.client
        p.resetSimulation(physicsClientId=cid)
        p.setGravity(0, 0, -9.81, physicsClientId=cid)
        p.setTimeStep(self.physics_dt, physicsClientId=cid)
        if self.gui:
            p.configureDebugVisualizer(p.COV_ENABLE_GUI, 0, physicsClientId=cid)
        half = [GROUND_HALF_EXTENT, GROUND_HALF_EXTENT, GROUND_THICKNESS / 2]
        col = p.createCollisionShape(p.GEOM_BOX, halfExtents=half, physicsClientId=cid)
        vis = p.createVisualShape(p.GEOM_BOX, halfExtents=half, rgbaColor=GROUND_COLOR, physicsClientId=cid)
        self.ground_id = p.createMultiBody(
            0, col, vis, [0, 0, -GROUND_THICKNESS / 2], physicsClientId=cid
        )
        self.walls = ()
        self.wall_body_ids = frozenset()

    def close(self) -> None:
        """Release the client (kept for the next world or disconnected; safe to call twice)."""
        self._finalizer()  # releases the first time only

    @property
    def connected(self) -> bool:
        return self._finalizer.alive

    # ------------------------------------------------------------------ walls
    def set_walls(self, walls: Iterable[Wall]) -> None:
        """Replace the current walls by static boxes built from ``walls``."""
        cid = self.client
        for box in self.walls:
            p.removeBody(box.body_id, physicsClientId=cid)
        boxes = []
        for wall in walls:
            hx, hy, hz = wall.size[0] / 2, wall.size[1] / 2, wall.height / 2
            col = p.createCollisionShape(p.GEOM_BOX, halfExtents=[hx, hy, hz], physicsClientId=cid)
            vis = p.createVisualShape(
                p.GEOM_BOX, halfExtents=[hx, hy, hz], rgbaColor=WALL_COLOR, physicsClientId=cid
            )
            cx, cy = wall.center
            body = p.createMultiBody(0, col, vis, [cx, cy, hz], physicsClientId=cid)
            boxes.append(WallBox(body, wall.name, cx - hx, cx + hx, cy - hy, cy + hy))
        self.walls = tuple(boxes)
        self.wall_body_ids = frozenset(b.body_id for b in boxes)

    def wall_name(self, body_id: int) -> str | None:
        """The name of the wall whose PyBullet id is ``body_id`` (None if it is not a wall)."""
        return next((box.name for box in self.walls if box.body_id == body_id), None)

    # ------------------------------------------------------------------ motion
    def sweep(self, start: Vec3, end: Vec3, radius: float) -> SweepResult:
        """Move a disc of ``radius`` from ``start`` to ``end`` (xy; z is carried from ``end``).

        Returns where it may stop: ``end`` if the path is clear, else the first contact with a wall's
        footprint grown by ``radius``, pulled back by :data:`SWEEP_SKIN`. A disc that already overlaps a
        wall may move only in ways that do not take it deeper.
        """
        sx, sy = start[0], start[1]
        dx, dy = end[0] - sx, end[1] - sy
        best_t, best_name = 1.0, None
        for box in self.walls:
            xmin, xmax = box.xmin - radius, box.xmax + radius
            ymin, ymax = box.ymin - radius, box.ymax + radius
            if xmin < sx < xmax and ymin < sy < ymax:  # starts inside: forbid going deeper
                if _depth(end[0], end[1], xmin, xmax, ymin, ymax) > _depth(sx, sy, xmin, xmax, ymin, ymax):
                    best_t, best_name = 0.0, box.name
                continue
            t_enter = _segment_box_entry(sx, sy, dx, dy, xmin, xmax, ymin, ymax)
            if t_enter is not None and t_enter < best_t:
                best_t, best_name = t_enter, box.name
        if best_name is None:
            return SweepResult(end=(end[0], end[1], end[2]), blocked=False)
        length = math.hypot(dx, dy)
        t = max(0.0, best_t - SWEEP_SKIN / length) if length > 0 else 0.0
        return SweepResult(end=(sx + dx * t, sy + dy * t, end[2]), blocked=True, wall_name=best_name)

    def step_physics(self) -> None:
        p.stepSimulation(self.client)  # positional client id: ~1 us less per call (240 calls per sim s)

    # ------------------------------------------------------------------ sensing
    def exclude_from_rays(self, body_ids: Iterable[int]) -> None:
        """Put ``body_ids`` (all links) in the protagonist collision group so rays pass through them."""
        cid = self.client
        for body in body_ids:
            for link in range(-1, p.getNumJoints(body, physicsClientId=cid)):
                p.setCollisionFilterGroupMask(body, link, PROTAGONIST_GROUP, -1, physicsClientId=cid)

    def cast_rays(self, starts: Sequence[Sequence[float]], ends: Sequence[Sequence[float]]) -> list[RayHit]:
        """``rayTestBatch`` from ``starts`` to ``ends``, skipping the protagonist group."""
        return [RayHit(r[0], r[2] if r[0] >= 0 else 1.0, r[3]) for r in self.cast_rays_raw(starts, ends)]

    def cast_rays_raw(self, starts: Sequence[Sequence[float]], ends: Sequence[Sequence[float]]) -> Sequence[Any]:
        """:meth:`cast_rays` as PyBullet returns it: per ray ``(body_id, link, fraction, position, normal)``
        (``fraction`` is meaningful only where ``body_id >= 0``). The perception's hot path reads these
        directly instead of building a :class:`RayHit` per ray (72 per decision)."""
        return p.rayTestBatch(starts, ends, collisionFilterMask=RAY_MASK, physicsClientId=self.client)


def display_available() -> bool:
    """Whether a GUI window can open (on Linux: an X11 or Wayland display is set)."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def _segment_box_entry(
    sx: float, sy: float, dx: float, dy: float, xmin: float, xmax: float, ymin: float, ymax: float
) -> float | None:
    """Parameter t in [0, 1] where the segment start + t*d first enters the open box, or None (slab test)."""
    t0, t1 = 0.0, 1.0
    for s, d, lo, hi in ((sx, dx, xmin, xmax), (sy, dy, ymin, ymax)):
        if d == 0.0:
            if not lo < s < hi:
                return None
            continue
        a, b = (lo - s) / d, (hi - s) / d
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
        if t0 >= t1:
            return None
    return t0


def _depth(x: float, y: float, xmin: float, xmax: float, ymin: float, ymax: float) -> float:
    """How far inside the box a point is (distance to the nearest face; <= 0 outside)."""
    return min(x - xmin, xmax - x, y - ymin, ymax - y)
