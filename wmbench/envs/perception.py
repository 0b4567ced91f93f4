"""Perception: a ray fan and NPC look-ups -> the scene_context the brain sees, plus the ground truth.

Card
----
- **Ray fan.** ``n_rays`` horizontal rays (first straight ahead, then counter-clockwise, evenly spaced) from
  the body's sensor height, :data:`RAY_RANGE` long, one ``rayTestBatch`` together with one line-of-sight ray
  per NPC. Each ray gives a distance (capped at the range) and a hit class: 0 nothing, 1 wall, 2 beast,
  3 human.
- **Walls.** ``walls[d]`` = shortest wall hit among the rays within ±7.5° of direction ``d`` (the single
  nearest ray when the fan is coarser than that), rounded to 0.01 m; null beyond ``WALL_SENSING_RANGE``.
- **NPCs.** An NPC is *visible* when its line-of-sight ray (sensor -> body centre) hits it first, or when it
  is within :data:`TOUCH_RANGE` (the ray would start inside it). Visible NPCs within ``NPC_SENSING_RANGE``
  (inclusive, on the rounded distance) are *nearby* and listed in ``npcs``, most threatening first (beast
  before human; charge > approach > wander/cross > stop > retreat; then nearest; then name). The official
  ``npc_*`` fields describe the first one.
- **Sound.** The loudest moving NPC within ``HEARING_RANGE``, seen or not (charging beast > approaching
  beast > other moving beast > moving human; then nearest).
- **Truth** (trace only): per direction ``danger(beast)`` if a nearby beast is in the sector, else
  ``danger(wall)`` if ``walls[d]`` is set, else ``danger(human)`` for a nearby human within 2 m, else
  ``safe(open)``; facts for every present NPC; the primary NPC; the threat level.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np

from wmbench.body.base import BodyState
from wmbench.core.directions import DIRECTION_HEADINGS, SCENE_ORDER, SCENE_TO_GRAMMAR, SceneDirection, wrap_angle
from wmbench.core.entities import BEHAVIOR_ROWS, THREAT_HUMAN, THREAT_NONE
from wmbench.core.thresholds import HUMAN_DANGER_RANGE_M
from wmbench.envs.npc import Npc, NpcCrowd
from wmbench.envs.world import World
from wmbench.protocol.scene import (
    HEARING_RANGE,
    NPC_SENSING_RANGE,
    WALL_CONE_HALF_ANGLE,
    WALL_KEYS,
    WALL_SENSING_RANGE,
    NpcEntry,
    RecentDecision,
    SceneContext,
    Walls,
    sector_of,
    threat_order,
)
from wmbench.protocol.trace import (
    DirectionTruth,
    NpcFact,
    Truth,
)

RAY_RANGE = 10.0
#: The fewest rays a fan may have (DESIGN: at least 32 over 360°).
MIN_RAYS = 32
#: An NPC this close (m) counts as visible even when the line-of-sight ray starts inside it.
TOUCH_RANGE = 1.0
#: A human this close (m) raises the threat level to 1.
HUMAN_THREAT_RANGE = 3.0
#: A human's footsteps are quieter than any beast's noise (:attr:`~wmbench.core.entities.BehaviorRow.beast_loudness`).
HUMAN_LOUDNESS = 3
HIT_NONE, HIT_WALL, HIT_BEAST, HIT_HUMAN = range(4)


@dataclass(frozen=True)
class RayFan:
    """Relative ray angles (rad, 0 = ahead, counter-clockwise) and each direction's wall cone (indices)."""

    n_rays: int
    angles: tuple[float, ...]
    cones: dict[str, tuple[int, ...]]

    @classmethod
    def make(cls, n_rays: int) -> RayFan:
        if not isinstance(n_rays, int) or n_rays < MIN_RAYS:
            raise ValueError(f"n_rays must be an integer >= {MIN_RAYS}, got {n_rays!r}")
        angles = tuple(2 * math.pi * i / n_rays for i in range(n_rays))
        cones: dict[str, tuple[int, ...]] = {}
        for word in SCENE_ORDER:
            centre = DIRECTION_HEADINGS[SCENE_TO_GRAMMAR[word]]
            offsets = [abs(wrap_angle(a - centre)) for a in angles]
            inside = tuple(i for i, off in enumerate(offsets) if off <= WALL_CONE_HALF_ANGLE + 1e-9)
            cones[word] = inside or (min(range(n_rays), key=offsets.__getitem__),)
        return cls(n_rays, angles, cones)


@dataclass(frozen=True)
class Perception:
    """One decision's sensing: the scene_context, the ground truth and the raw ray arrays."""

    scene: SceneContext
    truth: Truth
    rays: np.ndarray        # (n_rays,) float32 distances, capped at RAY_RANGE
    ray_hits: np.ndarray    # (n_rays,) int64 hit classes

    def scene_json(self) -> str:
        return json.dumps(self.scene, ensure_ascii=True)


@dataclass(frozen=True)
class _Seen:
    npc: Npc
    distance: float          # rounded 0.01
    exact_distance: float
    direction: SceneDirection  # scene word
    visible: bool
    nearby: bool


def threat_key(npc: Npc, distance: float) -> tuple:
    """Sort key of a world NPC: :func:`~wmbench.protocol.scene.threat_order` of its kind, behaviour and distance."""
    return threat_order(npc.is_beast, npc.behavior, distance, npc.name)


def perceive(
    world: World,
    crowd: NpcCrowd | None,
    body: BodyState,
    sensor_height: float,
    fan: RayFan,
    *,
    recent_decisions: list[RecentDecision],
    last_prediction: str | None,
    t: float,
) -> Perception:
    """Cast the fan and the line-of-sight rays, then assemble the scene_context and the truth."""
    x, y, heading = body.position[0], body.position[1], body.heading
    origin = (x, y, sensor_height)
    npcs = crowd.present() if crowd is not None else []
    cos, sin, reach = math.cos, math.sin, RAY_RANGE
    ends = [(x + reach * cos(heading + a), y + reach * sin(heading + a), sensor_height) for a in fan.angles]
    ends += [(n.x, n.y, n.shape.centre_height) for n in npcs]
    raw = world.cast_rays_raw([origin] * len(ends), ends)
    n_rays = fan.n_rays

    # The fan's distances and classes on plain lists, turned into the float32 / int64 arrays once at the
    # end: each distance is rounded to float32 exactly once either way, and the wall readings read those
    # float32 values back (``float32_list``), so every number is the one the per-element array code gave.
    by_id = {n.body_id: n for n in npcs}
    walls = world.wall_body_ids
    classes_list = [HIT_NONE] * n_rays
    distance_list = [reach] * n_rays
    hit_any = False
    for i in range(n_rays):
        body_id = raw[i][0]
        if body_id < 0:   # nothing hit (the protagonist's group is masked out)
            continue
        if body_id in walls:
            classes_list[i] = HIT_WALL
        elif body_id in by_id:
            classes_list[i] = HIT_BEAST if by_id[body_id].is_beast else HIT_HUMAN
        else:
            continue
        distance_list[i] = min(reach, raw[i][2] * reach)
        hit_any = True
    distances = np.array(distance_list, dtype=np.float32)
    classes = np.array(classes_list, dtype=np.int64)
    float32_list = distances.tolist() if hit_any else distance_list   # RAY_RANGE is exact in float32

    wall_readings: dict[str, float | None] = {}
    for word in WALL_KEYS:
        near = [float32_list[i] for i in fan.cones[word] if classes_list[i] == HIT_WALL] if hit_any else []
        d = min(near) if near else None
        wall_readings[word] = round(d, 2) if d is not None and d <= WALL_SENSING_RANGE else None
    wall_view = Walls(left=wall_readings["left"], right=wall_readings["right"], front=wall_readings["front"],
                  back=wall_readings["back"])  # the order of SCENE_ORDER, the JSON's

    seen = []
    for npc, hit in zip(npcs, raw[n_rays:]):
        exact = math.hypot(npc.x - x, npc.y - y)
        rounded = round(exact, 2)
        visible = hit[0] == npc.body_id or exact < TOUCH_RANGE
        direction = sector_of(math.atan2(npc.y - y, npc.x - x) - heading)
        seen.append(_Seen(npc, rounded, exact, direction, visible, visible and rounded <= NPC_SENSING_RANGE))
    seen.sort(key=lambda s: threat_key(s.npc, s.exact_distance))
    nearby = [s for s in seen if s.nearby]
    primary = nearby[0] if nearby else None

    scene = SceneContext(
        walls=wall_view,
        ground="flat",
        npc_nearby=primary is not None,
        npc_type=primary.npc.kind if primary else None,
        npc_behavior=primary.npc.behavior if primary else None,
        npc_distance=primary.distance if primary else None,
        npc_direction=primary.direction if primary else None,
        sound=_sound(seen),
        recent_decisions=recent_decisions,
        last_prediction=last_prediction,
        t=round(t, 3),
        npcs=[
            NpcEntry(type=s.npc.kind, behavior=s.npc.behavior, distance=s.distance, direction=s.direction,
                     speed=round(s.npc.current_speed, 2))
            for s in nearby
        ],
    )
    return Perception(scene, _truth(wall_readings, seen, primary), distances, classes)


def _sound(seen: list[_Seen]) -> str | None:
    audible = [s for s in seen if s.npc.moving and s.exact_distance <= HEARING_RANGE]
    if not audible:
        return None

    def loudness(s: _Seen) -> tuple:
        npc = s.npc
        rank = BEHAVIOR_ROWS[npc.behavior].beast_loudness if npc.is_beast else HUMAN_LOUDNESS
        return (rank, s.exact_distance, npc.name)

    loudest = min(audible, key=loudness)
    npc = loudest.npc
    if npc.is_beast:
        noise = BEHAVIOR_ROWS[npc.behavior].beast_noise
    else:
        noise = "footsteps"
    return f"{noise} from the {loudest.direction}"


def _truth(wall_readings: dict[str, float | None], seen: list[_Seen], primary: _Seen | None) -> Truth:
    directions: dict[str, DirectionTruth] = {}
    for word in SCENE_ORDER:
        grammar = SCENE_TO_GRAMMAR[word]
        wall = wall_readings[word]
        here = [s for s in seen if s.nearby and s.direction == word]
        if any(s.npc.is_beast for s in here):
            safe, reason = False, "beast"
        elif wall is not None:
            safe, reason = False, "wall"
        elif any(not s.npc.is_beast and s.exact_distance <= HUMAN_DANGER_RANGE_M for s in here):
            safe, reason = False, "human"
        else:
            safe, reason = True, "open"
        directions[grammar] = DirectionTruth(grammar, safe, reason, wall)
    facts = tuple(_fact(s) for s in seen)
    level = THREAT_NONE
    for s in seen:
        if not s.nearby:
            continue
        if s.npc.is_beast:
            level = max(level, BEHAVIOR_ROWS[s.npc.behavior].beast_threat_level)
        elif s.exact_distance <= HUMAN_THREAT_RANGE:
            level = max(level, THREAT_HUMAN)
    return Truth(directions=directions, npcs=facts, primary=_fact(primary) if primary else None,
                 threat_level=level)


def _fact(s: _Seen) -> NpcFact:
    return NpcFact(
        name=s.npc.name, type=s.npc.kind, behavior=s.npc.behavior, distance=round(s.exact_distance, 3),
        direction=SCENE_TO_GRAMMAR[s.direction], speed=round(s.npc.current_speed, 3), nearby=s.nearby,
        visible=s.visible,
    )
