"""The scene_context contract: what a brain is shown each decision.

A superset of the official WM Bench scene JSON, so a brain written for the official benchmark works unchanged.
Official keys come first, then the wmbench extensions. All directions are relative to the protagonist's
current heading (``front`` in ``walls`` is the official spelling of ``fwd``).

Example::

    {
      "walls": {"left": 2.5, "right": null, "front": 3.0, "back": null},
      "ground": "flat",
      "npc_nearby": true, "npc_type": "beast", "npc_behavior": "charge",
      "npc_distance": 4.8, "npc_direction": "front", "sound": "roar and pounding paws from the front",
      "recent_decisions": [{"t": 0.0, "motion": "...", "direction": "right", "outcome": "moved right"}],
      "last_prediction": "PREDICT: left=danger(wall), ...",
      "t": 0.5,
      "npcs": [{"type": "beast", "behavior": "charge", "distance": 4.8, "direction": "front", "speed": 5.0}]
    }
"""

from __future__ import annotations

import math
from typing import Any, TypedDict

from wmbench.core.directions import SCENE_ORDER, SceneDirection, wrap_angle
from wmbench.core.entities import Behavior, NpcKind, threat_sort_key

#: Official keys, in order.
OFFICIAL_KEYS: tuple[str, ...] = (
    "walls", "ground", "npc_nearby", "npc_type", "npc_behavior", "npc_distance", "npc_direction", "sound",
    "recent_decisions", "last_prediction",
)
#: wmbench extension keys, in order (``walls.back`` is an extension inside ``walls``).
EXTENSION_KEYS: tuple[str, ...] = ("t", "npcs")
SCENE_KEYS: tuple[str, ...] = OFFICIAL_KEYS + EXTENSION_KEYS
#: The ``walls`` keys, in order (the scene's direction words).
WALL_KEYS: tuple[str, ...] = SCENE_ORDER
#: How many past decisions ``recent_decisions`` shows.
RECENT_DECISIONS_SHOWN = 5
#: Sensing ranges (metres): walls farther than this are null; NPCs within NPC range are "nearby".
WALL_SENSING_RANGE = 6.0
NPC_SENSING_RANGE = 8.0
#: Moving NPCs can be heard farther than they can be seen (reported in ``sound``).
HEARING_RANGE = 20.0


class Walls(TypedDict):
    left: float | None
    right: float | None
    front: float | None
    back: float | None


class NpcEntry(TypedDict):
    type: NpcKind
    behavior: Behavior
    distance: float
    direction: SceneDirection
    speed: float


class RecentDecision(TypedDict):
    t: float
    motion: str
    direction: str | None
    outcome: str


class SceneContext(TypedDict):
    walls: Walls
    ground: str
    npc_nearby: bool
    npc_type: NpcKind | None
    npc_behavior: Behavior | None
    npc_distance: float | None
    npc_direction: SceneDirection | None
    sound: str | None
    recent_decisions: list[RecentDecision]
    last_prediction: str | None
    t: float
    npcs: list[NpcEntry]


def validate_scene(scene: Any) -> list[str]:
    """Problems with a scene_context (empty list = valid). Used by tests and by brains that want to check."""
    problems: list[str] = []
    if not isinstance(scene, dict):
        return [f"scene_context must be a dict, got {type(scene).__name__}"]
    for key in SCENE_KEYS:
        if key not in scene:
            problems.append(f"missing key {key!r}")
    walls = scene.get("walls")
    if isinstance(walls, dict):
        for key in WALL_KEYS:
            v = walls.get(key, "absent")
            if v == "absent":
                problems.append(f"walls.{key} missing")
            elif v is not None and not isinstance(v, (int, float)):
                problems.append(f"walls.{key} must be metres or null, got {v!r}")
    elif "walls" in scene:
        problems.append("walls must be an object")
    if scene.get("npc_nearby") and scene.get("npc_type") is None:
        problems.append("npc_nearby is true but npc_type is null")
    return problems


#: Half-angle of the cone around each direction within which a wall's distance is reported (rad).
WALL_CONE_HALF_ANGLE = math.radians(7.5)
#: Rank (on :data:`~wmbench.core.entities.BEHAVIOR_THREAT_RANK`'s scale) of a behaviour outside the closed set:
#: below ``retreat``, so it sorts last.
UNKNOWN_BEHAVIOR_RANK = -1


def sector_of(relative_angle: float) -> SceneDirection:
    """Scene direction word of a relative angle (rad): 90° sectors centred on front/left/right/back."""
    a = wrap_angle(relative_angle)
    if abs(a) <= math.pi / 4:
        return "front"
    if math.pi / 4 < a < 3 * math.pi / 4:
        return "left"
    if -3 * math.pi / 4 < a < -math.pi / 4:
        return "right"
    return "back"


def threat_order(is_beast: bool, behavior: str, distance: float, name: str = "") -> tuple[int, int, float, str]:
    """Sort key of an NPC for the scene's "most threatening NPC in range": beast before human, then behaviour
    rank, nearest, name."""
    return (0 if is_beast else 1, threat_sort_key(behavior, UNKNOWN_BEHAVIOR_RANK), distance, name)
