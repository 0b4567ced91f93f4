"""``panel:memoriser`` — the seed-0 memoriser cheat: it replays what the reference brain answered on the spec's
canonical (published) instances, and answers any other scene with the reply of the nearest remembered one.

Card
----
- **What it remembers.** :func:`seed0_table` plays the reference brain through seed 0 of every bench scenario
  (C01–C08, the closed loop in the real env) and keeps every (scene, reply) pair: the published layouts a
  brain could be trained or prompted on. It reaches the env the way a cheater outside the project would,
  through the public Gymnasium ids (``gym.make("wmbench:WMBench-S12-v0")``), not through wmbench's env
  module (the brain part does not import the env part). Built once per process (about 40 short episodes)
  and shared by every memoriser in it.
- **How it answers.** A scene seen on seed 0 gets its remembered reply exactly (its own replies are the
  reference's, so on seed 0 it walks the reference's trajectory and every scene is a hit). Any other scene
  gets the reply of the nearest remembered scene (:func:`scene_features`: wall distances, the primary NPC's
  type, behaviour, distance and direction, the number of NPCs, the sound, the memory length and the time;
  a weighted L1 distance). Simplified: one nearest neighbour, no interpolation — a memoriser, not a policy.
- **What it must not have.** It never learns the scenario id or the seed (no ``start_episode``): it sees only
  what every brain sees. It is the project's check that the test split works: on seed 0 it scores like the
  reference; on drawn instances it must not profit from the memorised layouts.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome
from wmbench.brain.reference.brain import ReferenceBrain
from wmbench.core.directions import SCENE_ORDER
from wmbench.core.entities import BEHAVIOR_THREAT_RANK
from wmbench.protocol.observation import BrainInput
from wmbench.scenarios import all_scenarios

#: what an absent wall or NPC distance counts as (beyond every sensing range)
FAR_M = 10.0
#: weights of :func:`scene_features`' entries in the nearest-scene distance (walls and NPC facts first)
_WEIGHTS = (1.0, 1.0, 1.0, 1.0,  # wall distances
            8.0, 2.0, 1.0, 6.0, 6.0, 6.0, 6.0,  # NPC: present/type, behaviour rank, distance, direction one-hot
            2.0, 3.0, 0.5, 0.5)  # number of NPCs, sound, memory length, time


@dataclass(frozen=True)
class Remembered:
    """One remembered seed-0 decision: the scene's features and the reference's reply to it."""

    features: tuple[float, ...]
    reply: str


@dataclass(frozen=True)
class MemoryTable:
    """Every seed-0 decision of the bench scenarios: exact lookups by scene text, and the list to search."""

    exact: Mapping[str, str]
    entries: tuple[Remembered, ...]


_TABLE: MemoryTable | None = None
_TABLE_LOCK = threading.Lock()


def scene_key(scene: BrainInput) -> str:
    """The exact-lookup key of a scene: its JSON with sorted keys."""
    return json.dumps(scene, sort_keys=True, default=str)


def scene_features(scene: BrainInput) -> tuple[float, ...]:
    """The numbers the nearest-scene search compares (see the module card)."""
    raw_walls = scene.get("walls")
    walls: Mapping[str, Any] = raw_walls if isinstance(raw_walls, Mapping) else {}
    wall_values = tuple(_metres(walls.get(d)) for d in SCENE_ORDER)
    npc_type = scene.get("npc_type")
    kind = 0.0 if not npc_type else (2.0 if npc_type == "beast" else 1.0)
    behaviour = float(BEHAVIOR_THREAT_RANK.get(str(scene.get("npc_behavior")), 0)) if npc_type else 0.0
    direction = tuple(1.0 if npc_type and scene.get("npc_direction") == d else 0.0 for d in SCENE_ORDER)
    raw_npcs, raw_memory = scene.get("npcs"), scene.get("recent_decisions")
    npcs: list[Any] = raw_npcs if isinstance(raw_npcs, list) else []
    memory: list[Any] = raw_memory if isinstance(raw_memory, list) else []
    t = scene.get("t")
    return (*wall_values, kind, behaviour, _metres(scene.get("npc_distance")), *direction,
            float(len(npcs)), 1.0 if scene.get("sound") else 0.0, float(len(memory)),
            float(t) if isinstance(t, (int, float)) and math.isfinite(t) else 0.0)


def _metres(value: object) -> float:
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else FAR_M


def _distance(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(w * abs(x - y) for w, x, y in zip(_WEIGHTS, a, b, strict=True))


def seed0_table() -> MemoryTable:
    """The reference's replies on seed 0 of every bench scenario (built on first use, once per process)."""
    global _TABLE
    with _TABLE_LOCK:
        if _TABLE is None:
            _TABLE = _build_table()
        return _TABLE


def _build_table() -> MemoryTable:
    exact: dict[str, str] = {}
    entries: list[Remembered] = []
    for record in all_scenarios():
        if record.mode != "bench":
            continue
        brain, env = ReferenceBrain(), gym.make(f"wmbench:WMBench-{record.id}-v0")
        try:
            obs, _ = env.reset(seed=0)
            brain.reset(0)
            done = False
            while not done:
                scene = json.loads(obs["scene"])
                reply = brain.decide(scene).text
                exact.setdefault(scene_key(scene), reply)
                entries.append(Remembered(scene_features(scene), reply))
                obs, _, terminated, truncated, _ = env.step(reply)
                done = bool(terminated or truncated)
        finally:
            env.close()
            brain.close()
    return MemoryTable(exact, tuple(entries))


class MemoriserBrain(ProviderBrain):
    """``panel:memoriser`` (see the module card)."""

    name = "panel:memoriser"
    provider = "panel"
    model = "seed-0 memoriser"

    def __init__(self, table: MemoryTable | None = None) -> None:
        super().__init__()
        self._table = table

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        table = self._table if self._table is not None else seed0_table()
        hit = table.exact.get(scene_key(scene))
        if hit is not None:
            return ProviderOutcome(text=hit)
        features = scene_features(scene)
        nearest = min(table.entries, key=lambda e: _distance(features, e.features))
        return ProviderOutcome(text=nearest.reply)
