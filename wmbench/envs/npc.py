"""NPCs: kinematic bodies, their behaviours and the phase timeline.

Card
----
- **Bodies** (mass 0, moved with ``resetBasePositionAndOrientation``):
  *beast* — a long, low four-legged box body, orange-brown, 1.4 m tall (torso spans chest height so the
  1.2 m perception rays hit it); *woman* — a purple upright capsule (1.65 m); *man* — a blue one (1.8 m).
- **Behaviours** step by their row's steering (:data:`~wmbench.core.entities.BEHAVIOR_ROWS`; speed from the
  record, default the row's): ``hold`` (``stop``) stands facing the protagonist; ``pursue``
  (``approach``/``charge``) steers towards the protagonist's root every frame (a human halts at
  :data:`HUMAN_PERSONAL_SPACE`); ``flee`` (``retreat``) moves straight away from it; ``roam`` (``wander``) is a
  seeded random walk (new heading every 1–2 s from the env's generator, and at once after touching a wall);
  ``straight`` (``cross``) walks along the record's fixed world heading. Every move is swept against the walls.
- **Timeline.** ``switch``/``spawn``/``despawn`` events fire at the first frame boundary at or after their
  phase time (events at 0 fire when the phase is built) and are reported as ``switch:<npc>:<behavior>``,
  ``spawn:<npc>``, ``despawn:<npc>``.
- **Jitter.** Each NPC's start position is scaled along the ray from the origin by a seeded factor in
  ``[1 - jitter, 1 + jitter]`` (one draw per NPC spec, in record order, so mirrored scenarios stay mirrors).
- Simplified: NPCs do not collide with each other or push the protagonist; each NPC is a disc against the
  walls (beast 0.45 m, humans 0.22 m), so a long beast moving sideways may touch a wall with its head.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NoReturn, Protocol

import numpy as np
import pybullet as p

from wmbench.body.multibody import yaw_quaternion
from wmbench.core.entities import BEHAVIOR_ROWS, Behavior
from wmbench.envs.world import World
from wmbench.scenarios.records import NpcSpec, Phase, TimelineEvent

#: A beast whose centre is this close (m, ground plane) to the protagonist's root catches it.
CATCH_RADIUS = 0.8
#: An approaching human stops this far (m) from the protagonist.
HUMAN_PERSONAL_SPACE = 0.6
WANDER_INTERVAL_S = (1.0, 2.0)
BEAST_COLOR = (0.70, 0.40, 0.15, 1.0)
BEAST_HEAD_COLOR = (0.55, 0.30, 0.10, 1.0)
HUMAN_COLORS = {"woman": (0.58, 0.25, 0.72, 1.0), "man": (0.20, 0.35, 0.85, 1.0)}
HUMAN_HEIGHTS = {"woman": 1.65, "man": 1.80}
HUMAN_RADIUS = 0.22
_EVENT_EPS = 1e-9


@dataclass(frozen=True)
class NpcShape:
    """Geometry facts the world needs: clearance radius against walls and the height of the body centre."""

    radius: float
    centre_height: float
    height: float


NPC_SHAPES = {
    "beast": NpcShape(radius=0.45, centre_height=1.0, height=1.4),
    "woman": NpcShape(radius=HUMAN_RADIUS, centre_height=HUMAN_HEIGHTS["woman"] / 2, height=1.65),
    "man": NpcShape(radius=HUMAN_RADIUS, centre_height=HUMAN_HEIGHTS["man"] / 2, height=1.80),
}


class Npc:
    """One NPC's live state (mutable; owned by :class:`NpcCrowd`)."""

    def __init__(self, spec: NpcSpec, position: tuple[float, float]) -> None:
        self.spec = spec
        self.name = spec.name
        self.kind = spec.kind
        self.shape = NPC_SHAPES[spec.kind]
        self.behavior: Behavior = spec.behavior
        self.nominal_speed: float = spec.resolved_speed
        self.current_speed: float = self.nominal_speed if BEHAVIOR_ROWS[self.behavior].steering != "hold" else 0.0
        self.x, self.y = position
        self.yaw = 0.0
        self.wander_heading = 0.0
        self.next_wander_change = 0.0
        self.body_id = -1

    @property
    def present(self) -> bool:
        return self.body_id >= 0

    @property
    def is_beast(self) -> bool:
        return self.kind == "beast"

    @property
    def moving(self) -> bool:
        return BEHAVIOR_ROWS[self.behavior].steering != "hold" and self.nominal_speed > 0.0


class NpcCrowd:
    """All NPCs of one phase: builds their bodies, moves them per frame and runs the timeline."""

    def __init__(
        self, world: World, phase: Phase, rng: np.random.Generator, protagonist_xy: tuple[float, float],
        pass_through: frozenset[int] = frozenset(),
    ) -> None:
        self.world = world
        self.rng = rng
        #: protagonist bodies the NPCs must never push physically (a catch is judged by distance, not contact)
        self.pass_through = pass_through
        self.npcs: dict[str, Npc] = {}
        self._events: list[TimelineEvent] = sorted(phase.events, key=lambda e: e.at)
        self._next_event = 0
        for spec in phase.npcs:
            factor = 1.0 + phase.jitter * float(rng.uniform(-1.0, 1.0))
            npc = Npc(spec, (spec.position[0] * factor, spec.position[1] * factor))
            self.npcs[spec.name] = npc
            if spec.present:
                self._spawn(npc, protagonist_xy, phase_time=0.0)

    def remove_all(self) -> None:
        """Take every NPC body out of the world (phase change)."""
        for npc in self.npcs.values():
            if npc.present:
                p.removeBody(npc.body_id, physicsClientId=self.world.client)
                npc.body_id = -1

    # ------------------------------------------------------------------ queries
    def present(self) -> list[Npc]:
        return [n for n in self.npcs.values() if n.present]

    def by_body_id(self) -> dict[int, Npc]:
        return {n.body_id: n for n in self.npcs.values() if n.present}

    def catcher(self, x: float, y: float) -> Npc | None:
        """The first present beast whose centre is within :data:`CATCH_RADIUS` of (x, y), or None."""
        for npc in self.npcs.values():
            if npc.present and npc.is_beast and math.hypot(npc.x - x, npc.y - y) <= CATCH_RADIUS:
                return npc
        return None

    def nearest_beast_distance(self, x: float, y: float) -> float | None:
        dists = [math.hypot(n.x - x, n.y - y) for n in self.npcs.values() if n.present and n.is_beast]
        return min(dists) if dists else None

    # ------------------------------------------------------------------ per frame
    def fire_events(self, phase_time: float, protagonist_xy: tuple[float, float]) -> list[str]:
        """Apply every timeline event due at ``phase_time``; returns their event kinds."""
        fired: list[str] = []
        events = self._events
        while self._next_event < len(events) and events[self._next_event].at <= phase_time + _EVENT_EPS:
            event = events[self._next_event]
            self._next_event += 1
            kind = self._apply(event, phase_time, protagonist_xy)
            if kind:
                fired.append(kind)
        return fired

    def step(self, dt: float, phase_time: float, protagonist_xy: tuple[float, float]) -> None:
        """Move every present NPC by its behaviour for one frame of ``dt`` seconds."""
        px, py = protagonist_xy
        for npc in self.npcs.values():
            if npc.present:
                self._move(npc, dt, phase_time, px, py)

    # ------------------------------------------------------------------ internals
    def _apply(self, event: TimelineEvent, phase_time: float, protagonist_xy: tuple[float, float]) -> str:
        npc = self.npcs[event.npc]
        if event.action == "switch":
            self._set_behavior(npc, event.behavior or npc.behavior, event.speed, phase_time)
            return f"switch:{npc.name}:{npc.behavior}"
        if event.action == "spawn":
            if npc.present:
                return ""
            if event.position is not None:
                npc.x, npc.y = event.position
            if event.behavior is not None:
                self._set_behavior(npc, event.behavior, event.speed, phase_time)
            self._spawn(npc, protagonist_xy, phase_time)
            return f"spawn:{npc.name}"
        if not npc.present:  # despawn of an absent NPC: nothing to do
            return ""
        p.removeBody(npc.body_id, physicsClientId=self.world.client)
        npc.body_id = -1
        return f"despawn:{npc.name}"

    def _set_behavior(self, npc: Npc, behavior: Behavior, speed: float | None, phase_time: float) -> None:
        npc.behavior = behavior
        npc.nominal_speed = BEHAVIOR_ROWS[behavior].speed if speed is None else float(speed)
        npc.current_speed = npc.nominal_speed if BEHAVIOR_ROWS[behavior].steering != "hold" else 0.0
        if BEHAVIOR_ROWS[behavior].steering == "roam":
            self._new_wander_heading(npc, phase_time)

    def _new_wander_heading(self, npc: Npc, phase_time: float) -> None:
        npc.wander_heading = float(self.rng.uniform(-math.pi, math.pi))
        npc.next_wander_change = phase_time + float(self.rng.uniform(*WANDER_INTERVAL_S))

    def _spawn(self, npc: Npc, protagonist_xy: tuple[float, float], phase_time: float) -> None:
        npc.yaw = math.atan2(protagonist_xy[1] - npc.y, protagonist_xy[0] - npc.x)
        if BEHAVIOR_ROWS[npc.behavior].steering == "roam":
            self._new_wander_heading(npc, phase_time)
        builder = _build_beast if npc.is_beast else _build_human
        npc.body_id = builder(self.world.client, npc)
        self._disable_contacts(npc.body_id)
        self._place(npc)

    def _disable_contacts(self, npc_body: int) -> None:
        """No physical contact between this NPC and the protagonist: kinematic NPCs are teleported each frame,
        and overlapping a dynamic body (robot, drone) would shove its links past their joint limits."""
        cid = self.world.client
        npc_links = range(-1, p.getNumJoints(npc_body, physicsClientId=cid))
        for other in self.pass_through:
            for other_link in range(-1, p.getNumJoints(other, physicsClientId=cid)):
                for link in npc_links:
                    p.setCollisionFilterPair(npc_body, other, link, other_link, 0, physicsClientId=cid)

    def _place(self, npc: Npc) -> None:
        p.resetBasePositionAndOrientation(
            npc.body_id, (npc.x, npc.y, npc.shape.centre_height), yaw_quaternion(npc.yaw),
            physicsClientId=self.world.client,
        )

    def _move(self, npc: Npc, dt: float, phase_time: float, px: float, py: float) -> None:
        steering = BEHAVIOR_ROWS[npc.behavior].steering
        reach = npc.nominal_speed * dt
        to_x, to_y = px - npc.x, py - npc.y
        gap = math.hypot(to_x, to_y)
        if steering == "hold" or reach <= 0.0:
            npc.current_speed = 0.0
            yaw = math.atan2(to_y, to_x) if gap > 1e-9 else npc.yaw
            if abs(yaw - npc.yaw) > 1e-6:  # only touch PyBullet when the facing changes
                npc.yaw = yaw
                self._place(npc)
            return
        if steering == "pursue":
            heading = math.atan2(to_y, to_x)
            stop_gap = 0.0 if npc.is_beast else HUMAN_PERSONAL_SPACE
            reach = min(reach, max(0.0, gap - stop_gap))
        elif steering == "flee":
            heading = math.atan2(-to_y, -to_x)
        elif steering == "roam":
            if phase_time >= npc.next_wander_change - _EVENT_EPS:
                self._new_wander_heading(npc, phase_time)
            heading = npc.wander_heading
        elif steering == "straight":
            heading = npc.spec.heading
        else:
            _unhandled(steering)
        end = (npc.x + reach * math.cos(heading), npc.y + reach * math.sin(heading), 0.0)
        result = self.world.sweep((npc.x, npc.y, 0.0), end, npc.shape.radius)
        moved = math.hypot(result.end[0] - npc.x, result.end[1] - npc.y)
        npc.x, npc.y = result.end[0], result.end[1]
        npc.current_speed = moved / dt
        npc.yaw = heading
        if result.blocked and steering == "roam":
            npc.next_wander_change = phase_time  # pick a new heading next frame
        self._place(npc)


def _unhandled(steering: NoReturn) -> NoReturn:
    """mypy proves every :data:`~wmbench.core.entities.Steering` is handled above (a new one fails type checking)."""
    raise AssertionError(f"NPC steering {steering!r} has no step")


class PlacedNpc(Protocol):
    """What the NPC body builders read: the kind and the position (an :class:`Npc`, or a replayed pose)."""

    @property
    def kind(self) -> str: ...
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...


def _build_beast(cid: int, npc: PlacedNpc) -> int:
    """A long low quadruped: torso (base), head and four legs as fixed links, origin at the torso centre."""
    torso_half = (0.8, 0.3, 0.3)
    head_half = (0.22, 0.18, 0.2)
    leg_half = (0.08, 0.08, 0.35)
    col = p.createCollisionShape(p.GEOM_BOX, halfExtents=torso_half, physicsClientId=cid)
    vis = p.createVisualShape(p.GEOM_BOX, halfExtents=torso_half, rgbaColor=BEAST_COLOR, physicsClientId=cid)
    head_col = p.createCollisionShape(p.GEOM_BOX, halfExtents=head_half, physicsClientId=cid)
    head_vis = p.createVisualShape(p.GEOM_BOX, halfExtents=head_half, rgbaColor=BEAST_HEAD_COLOR,
                                   physicsClientId=cid)
    leg_col = p.createCollisionShape(p.GEOM_BOX, halfExtents=leg_half, physicsClientId=cid)
    leg_vis = p.createVisualShape(p.GEOM_BOX, halfExtents=leg_half, rgbaColor=BEAST_HEAD_COLOR,
                                  physicsClientId=cid)
    centre = NPC_SHAPES["beast"].centre_height
    leg_z = leg_half[2] - centre  # legs stand on the ground
    links = [((0.95, 0.0, 0.2), head_col, head_vis)] + [
        ((sx * 0.6, sy * 0.2, leg_z), leg_col, leg_vis) for sx in (1, -1) for sy in (1, -1)
    ]
    n = len(links)
    return p.createMultiBody(
        baseMass=0, baseCollisionShapeIndex=col, baseVisualShapeIndex=vis,
        basePosition=(npc.x, npc.y, centre),
        linkMasses=[0] * n, linkCollisionShapeIndices=[c for _, c, _ in links],
        linkVisualShapeIndices=[v for _, _, v in links], linkPositions=[pos for pos, _, _ in links],
        linkOrientations=[(0, 0, 0, 1)] * n, linkInertialFramePositions=[(0, 0, 0)] * n,
        linkInertialFrameOrientations=[(0, 0, 0, 1)] * n, linkParentIndices=[0] * n,
        linkJointTypes=[p.JOINT_FIXED] * n, linkJointAxis=[(0, 0, 1)] * n, physicsClientId=cid,
    )


def _build_human(cid: int, npc: PlacedNpc) -> int:
    """An upright capsule of the human's height, origin at its centre."""
    height = HUMAN_HEIGHTS[npc.kind]
    length = height - 2 * HUMAN_RADIUS
    col = p.createCollisionShape(p.GEOM_CAPSULE, radius=HUMAN_RADIUS, height=length, physicsClientId=cid)
    vis = p.createVisualShape(p.GEOM_CAPSULE, radius=HUMAN_RADIUS, length=length,
                              rgbaColor=HUMAN_COLORS[npc.kind], physicsClientId=cid)
    return p.createMultiBody(0, col, vis, (npc.x, npc.y, height / 2), physicsClientId=cid)
