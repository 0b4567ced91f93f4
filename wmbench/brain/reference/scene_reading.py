"""How the reference brain reads a scene_context: what is where, what is heard, what is remembered, and the
danger map and threat that follow (the brain itself: :mod:`wmbench.brain.reference.brain`).

Card
----
- :func:`read_scene` -> :class:`SceneReading`, tolerant: anything missing or malformed reads as absent, never
  raises. Walls per grammar direction; NPCs in view (:class:`Sighting`, from ``npcs`` within sensing range,
  else the official scene's single ``npc_*`` fields); the ``sound`` (:func:`read_sound`: roar = charge,
  growl = approach, rustling = wander, else a human); the memory (:func:`read_memory`).
- Memory frame rule (:func:`read_memory`): ``recent_decisions`` directions are read in the *current* frame,
  newest first, back to and including the most recent decision that turned the body (travel left/right/back
  that was not a back-step); older ones were said in a frame the body has since left and are ignored.
  :func:`turned` carries a direction through a turn of the body.
- :func:`danger_map` (the sim's ground-truth rule): per direction ``danger(beast)`` if a nearby beast is in
  that sector, else ``danger(wall)`` if the wall reading is a distance, else ``danger(human)`` if a human is
  there within :data:`HUMAN_DANGER_RANGE_M`, else ``safe(open)``.
- :func:`find_threat`: the most threatening beast seen (charge > approach > wander/cross > stop > retreat, then
  nearest) or heard; else the nearest approaching human; else None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from wmbench.core.directions import DIRECTION_READINGS, GRAMMAR_ORDER, QUARTER_TURNS, TURN_ORDER
from wmbench.core.entities import BEHAVIOR_THREAT_RANK, threat_sort_key
from wmbench.core.thresholds import HUMAN_DANGER_RANGE_M
from wmbench.protocol.scene import NPC_SENSING_RANGE

#: Rank (on the :data:`~wmbench.core.entities.BEHAVIOR_THREAT_RANK` scale) read for a behaviour the scene names
#: outside the closed set: as threatening as ``stop``.
_UNKNOWN_BEHAVIOR_RANK = 1
_HUMAN_TYPES = frozenset({"woman", "man", "human", "person"})
_FLIGHT_WORDS = re.compile(
    r"\b(sprint\w*|run|runs|running|flee\w*|fled|terror|panic\w*|desperate\w*|frantic\w*)\b"
)
_BACKSTEP_WORDS = re.compile(r"\b(backs? away|backing away|steps? back|stepping back|backward)\b")


@dataclass(frozen=True)
class Sighting:
    """An NPC in view: ``kind`` beast/human, its ``behavior``, ``distance`` (m), ``direction`` (grammar)."""

    kind: str
    behavior: str
    distance: float
    direction: str
    noun: str = "beast"   # the scene's word for it: beast, woman, man


@dataclass(frozen=True)
class HeardSound:
    """What ``sound`` says: who (``beast``/``human``), doing what, from which direction (grammar word)."""

    kind: str
    behavior: str
    direction: str | None


@dataclass(frozen=True)
class MemoryHints:
    """What ``recent_decisions`` tells the brain (directions in the current frame, see the module card)."""

    blocked: frozenset[str] = frozenset()
    escaped: frozenset[str] = frozenset()
    fled_before: bool = False
    entries: tuple[tuple[str, str], ...] = ()   # (t, motion) of every entry, to notice a cleared memory


@dataclass(frozen=True)
class SceneReading:
    """The scene_context as the reference understands it."""

    walls: dict[str, float | None]
    sightings: tuple[Sighting, ...] = ()
    sound: HeardSound | None = None
    memory: MemoryHints = MemoryHints()
    valid: bool = True

    @property
    def beasts(self) -> tuple[Sighting, ...]:
        return tuple(s for s in self.sightings if s.kind == "beast")

    @property
    def humans(self) -> tuple[Sighting, ...]:
        return tuple(s for s in self.sightings if s.kind == "human")

    @property
    def primary(self) -> Sighting | None:
        """The most threatening NPC in view (the official ``npc_*`` rule): beasts, by behaviour, nearest."""
        return min(self.sightings, default=None, key=lambda s: (
            s.kind != "beast", threat_sort_key(s.behavior, _UNKNOWN_BEHAVIOR_RANK), s.distance))


@dataclass(frozen=True)
class Threat:
    """The threat the body reacts to. ``distance`` is None when it is only heard (``seen`` False)."""

    kind: str
    behavior: str
    direction: str | None
    distance: float | None
    seen: bool


# ---------------------------------------------------------------------------------------------- reading
# ---------------------------------------------------------------------------------------------- reading


def _direction(word: Any) -> str | None:
    return DIRECTION_READINGS.get(word.strip().lower()) if isinstance(word, str) else None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _read_walls(walls: Any) -> dict[str, float | None]:
    out: dict[str, float | None] = dict.fromkeys(GRAMMAR_ORDER)
    if isinstance(walls, dict):
        for key, value in walls.items():
            d = _direction(key)
            if d is not None:
                out[d] = _number(value)
    return out


def _sighting(kind: Any, behavior: Any, distance: Any, direction: Any) -> Sighting | None:
    d, dist = _direction(direction), _number(distance)
    if d is None or dist is None or not isinstance(kind, str):
        return None
    k = kind.strip().lower()
    k = "human" if k in _HUMAN_TYPES else k
    if k not in ("beast", "human"):
        return None
    b = behavior.strip().lower() if isinstance(behavior, str) else "stop"
    noun = kind.strip().lower() if k == "human" and kind.strip().lower() in ("woman", "man") else (
        "stranger" if k == "human" else "beast")
    return Sighting(kind=k, behavior=b, distance=dist, direction=d, noun=noun)


def _read_sightings(scene: dict) -> tuple[Sighting, ...]:
    npcs = scene.get("npcs")
    found: list[Sighting] = []
    if isinstance(npcs, list) and npcs:
        for n in npcs:
            if isinstance(n, dict):
                s = _sighting(n.get("type"), n.get("behavior"), n.get("distance"), n.get("direction"))
                if s is not None and s.distance <= NPC_SENSING_RANGE:
                    found.append(s)
    elif scene.get("npc_nearby"):  # an official scene: only the primary NPC is described
        s = _sighting(scene.get("npc_type"), scene.get("npc_behavior"), scene.get("npc_distance"),
                      scene.get("npc_direction"))
        if s is not None:
            found.append(s)
    return tuple(found)


def read_sound(sound: Any) -> HeardSound | None:
    """``"roar and pounding paws from the back"`` -> HeardSound("beast", "charge", "back"); None if silent."""
    if not isinstance(sound, str) or not sound.strip():
        return None
    text = sound.lower()
    match = re.search(r"\b(front|fwd|ahead|left|right|back|behind|rear)\b", text)
    direction = DIRECTION_READINGS[match.group(1)] if match else None
    if "roar" in text or "pounding" in text:
        return HeardSound("beast", "charge", direction)
    if "growl" in text:
        return HeardSound("beast", "approach", direction)
    if "rustl" in text or "paw" in text:
        return HeardSound("beast", "wander", direction)
    return HeardSound("human", "move", direction)


def _turned_the_body(entry: dict) -> bool:
    direction = _direction(entry.get("direction"))
    if direction in (None, "fwd"):
        return False
    motion = entry.get("motion")
    return not (isinstance(motion, str) and _BACKSTEP_WORDS.search(motion.lower()))


def read_memory(recent: Any) -> MemoryHints:
    """Blocked/escaped directions (current frame only, see the card) and whether a flight is remembered."""
    if not isinstance(recent, list):
        return MemoryHints()
    entries = [e for e in recent if isinstance(e, dict)]
    blocked: set[str] = set()
    escaped: set[str] = set()
    for entry in reversed(entries):
        outcome = str(entry.get("outcome") or "").lower()
        match = re.match(r"blocked by (?:a )?wall (?:on|to) (?:the )?(\w+)", outcome)
        if match and (side := _direction(match.group(1))):
            blocked.add(side)
        if outcome.startswith("escaped") and (side := _direction(entry.get("direction"))):
            escaped.add(side)
        if _turned_the_body(entry):
            break
    fled = any(
        str(e.get("outcome") or "").lower().startswith(("escaped", "caught"))
        or bool(_FLIGHT_WORDS.search(str(e.get("motion") or "").lower()))
        for e in entries
    )
    return MemoryHints(
        blocked=frozenset(blocked), escaped=frozenset(escaped), fled_before=fled,
        entries=tuple((str(e.get("t")), str(e.get("motion"))) for e in entries),
    )


def turned(direction: str, facing: str | None) -> str:
    """Where ``direction`` lies after the body turns to face ``facing`` (None or fwd: no turn)."""
    if facing is None:
        return direction
    return TURN_ORDER[(QUARTER_TURNS[direction] - QUARTER_TURNS[facing]) % 4]


def read_scene(scene: Any) -> SceneReading:
    """Tolerant reading of a scene_context: anything missing or malformed reads as absent, never raises."""
    if not isinstance(scene, dict):
        return SceneReading(walls=dict.fromkeys(GRAMMAR_ORDER), valid=False)
    return SceneReading(
        walls=_read_walls(scene.get("walls")),
        sightings=_read_sightings(scene),
        sound=read_sound(scene.get("sound")),
        memory=read_memory(scene.get("recent_decisions")),
        valid=isinstance(scene.get("walls"), dict),
    )


def danger_map(reading: SceneReading) -> dict[str, tuple[str, str]]:
    """Per grammar direction ``(verdict, reason)`` by the ground-truth rule (beast > wall > human ≤ 2 m), a
    person farther away named as ``safe(human)`` (the prompt: "left=safe(human, standing, 6m)")."""
    verdicts: dict[str, tuple[str, str]] = {}
    for d in GRAMMAR_ORDER:
        if any(b.direction == d for b in reading.beasts):
            verdicts[d] = ("danger", "beast")
        elif reading.walls[d] is not None:
            verdicts[d] = ("danger", "wall")
        elif any(h.direction == d and h.distance <= HUMAN_DANGER_RANGE_M for h in reading.humans):
            verdicts[d] = ("danger", "human")
        elif any(h.direction == d for h in reading.humans):
            verdicts[d] = ("safe", "human")  # the prompt: a person farther away is named, not a danger
        else:
            verdicts[d] = ("safe", "open")
    return verdicts


def find_threat(reading: SceneReading) -> Threat | None:
    """The threat to react to: the worst beast seen or heard, else the nearest approaching human, or None."""
    candidates: list[tuple[int, int, float, Threat]] = []
    for b in reading.beasts:
        rank = BEHAVIOR_THREAT_RANK.get(b.behavior, _UNKNOWN_BEHAVIOR_RANK)
        candidates.append((rank, 1, -b.distance, Threat("beast", b.behavior, b.direction, b.distance, True)))
    heard = reading.sound
    seen_there = heard is not None and any(b.direction == heard.direction for b in reading.beasts)
    if heard is not None and heard.kind == "beast" and not seen_there:  # else the sound is the beast in view
        rank = BEHAVIOR_THREAT_RANK[heard.behavior]
        candidates.append((rank, 0, -99.0, Threat("beast", heard.behavior, heard.direction, None, False)))
    if candidates:
        return max(candidates, key=lambda c: c[:3])[3]
    approaching = [h for h in reading.humans if h.behavior in ("approach", "charge")]
    if approaching:
        h = min(approaching, key=lambda s: s.distance)
        return Threat("human", h.behavior, h.direction, h.distance, True)
    return None
