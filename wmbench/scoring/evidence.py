"""Shared evidence readers: what a decision's words said and what its body did, each against the truth.

Keyword-compatible readings: the PREDICT items (:mod:`reply`), spatial accuracy of a PREDICT against the
ray-cast truth (here), the intensity, descriptors and emotions of a MOTION (:mod:`expression`).
Sim-grounded readings: the realized motion, collisions, ``caught``, moves into a sector the truth (or the
brain's own PREDICT) marks dangerous (:mod:`movement`), NPC presence and the hidden inconsistency — safe
action, wrong PREDICT (here). Everything the category rules use is importable from this module.

A decision whose reply could not be parsed (``parse["ok"]`` false) is a *miss*: no PREDICT, no intensity.
Its sim facts (collision, caught, where the body went on a salvaged MOTION) still count against it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from wmbench.core.directions import DIRECTION_READINGS, GRAMMAR_ORDER
from wmbench.protocol.trace import DecisionRecord, NpcFact, Truth
from wmbench.scoring.movement import (
    contact,
    moved_safe,
    realized,
)
from wmbench.scoring.reply import prediction

#: spatial accuracy (spec: exact 20 / partial 10 / miss 0); partial = this many directions right and, when the
#: truth has any danger, at least one danger direction flagged danger
SPATIAL_POINTS = {"exact": 20.0, "partial": 10.0, "miss": 0.0}
PARTIAL_MIN_CORRECT = 3
SAFE_REASONS = frozenset({"open", "exit", None})


# ───────────────────────────── where the beast is ─────────────────────────────

_SOUND_FROM = re.compile(r"from the (front|left|right|back)\b")


def audible_beast_directions(d: DecisionRecord) -> set[str]:
    """Directions a beast can be heard from (the scene's ``sound``, when a present beast lies that way)."""
    sound = str((d.scene or {}).get("sound") or "").lower()
    match = _SOUND_FROM.search(sound)
    if not match:
        return set()
    direction = DIRECTION_READINGS.get(match.group(1))
    beast_there = any(n.type == "beast" and n.direction == direction for n in d.truth.npcs)
    return {direction} if direction and beast_there else set()


def phantom_directions(d: DecisionRecord) -> list[str]:
    """Directions whose PREDICT item names a beast (whatever its verdict) where no beast is nearby and none can
    be heard: a threat named where there is none."""
    items = prediction(d) or {}
    real = {n.direction for n in d.truth.npcs if n.type == "beast" and n.nearby} | audible_beast_directions(d)
    return sorted(k for k, item in items.items() if item.reason == "beast" and k not in real)


def beast_located(d: DecisionRecord) -> bool:
    """PREDICT tells where the nearby beast is: the item at a nearby beast's direction is danger (reason beast,
    or none given) AND no direction names a beast where none is nearby or heard (:func:`phantom_directions`).
    A reply calling every direction ``danger(beast)`` locates nothing: its "right" direction is a guess."""
    if phantom_directions(d):
        return False
    items = prediction(d) or {}
    for npc in d.truth.npcs:
        if npc.type == "beast" and npc.nearby:
            item = items.get(npc.direction)
            if item is not None and item.verdict == "danger" and item.reason in ("beast", None, "unknown"):
                return True
    return False


# ───────────────────────────── PREDICT vs truth ─────────────────────────────

@dataclass(frozen=True)
class DirectionCheck:
    """One direction of a PREDICT against the truth: right when verdict and reason both fit."""

    direction: str
    truth_safe: bool
    truth_reason: str
    verdict: str | None
    reason: str | None

    @property
    def verdict_ok(self) -> bool:
        return self.verdict == ("safe" if self.truth_safe else "danger")

    @property
    def correct(self) -> bool:
        if not self.verdict_ok:
            return False
        return self.reason in SAFE_REASONS if self.truth_safe else self.reason == self.truth_reason


@dataclass(frozen=True)
class SpatialResult:
    """Spatial accuracy of one decision: ``exact``/``partial``/``miss`` and the direction checks behind it."""

    level: str
    n_correct: int
    danger_found: bool
    checks: tuple[DirectionCheck, ...] = ()

    @property
    def points(self) -> float:
        return SPATIAL_POINTS[self.level]

    def wrong_directions(self) -> list[str]:
        return [c.direction for c in self.checks if not c.correct]


def direction_checks(d: DecisionRecord) -> tuple[DirectionCheck, ...] | None:
    items = prediction(d)
    if items is None:
        return None
    checks = []
    for direction in GRAMMAR_ORDER:
        t = d.truth.directions.get(direction)
        if t is None:
            continue
        item = items.get(direction)
        checks.append(DirectionCheck(direction, t.safe, t.reason, item.verdict if item else None,
                                     item.reason if item else None))
    return tuple(checks)


def spatial_accuracy(d: DecisionRecord) -> SpatialResult:
    """Exact = every direction right; partial = ``PARTIAL_MIN_CORRECT`` right and (if the truth has danger) at
    least one true danger flagged ``danger``; otherwise (and for a parse error) a miss."""
    checks = direction_checks(d)
    if checks is None:
        return SpatialResult("miss", 0, False)
    return spatial_from_checks(checks)


def spatial_from_checks(checks: tuple[DirectionCheck, ...]) -> SpatialResult:
    """The :func:`spatial_accuracy` level of given direction checks (a rule that reads some checks its own way,
    e.g. S15's anticipated crossing, grades them with the same thresholds)."""
    n_correct = sum(c.correct for c in checks)
    dangers = [c for c in checks if not c.truth_safe]
    danger_found = any(c.verdict == "danger" for c in dangers)
    if checks and n_correct == len(checks):
        level = "exact"
    elif n_correct >= PARTIAL_MIN_CORRECT and (danger_found or not dangers):
        level = "partial"
    else:
        level = "miss"
    return SpatialResult(level, n_correct, danger_found, checks)


# ───────────────────────────── NPC truth ─────────────────────────────

def canonical_type(npc_type: str) -> str:
    return "beast" if npc_type == "beast" else "human"


def beasts(truth: Truth, nearby_only: bool = False) -> list[NpcFact]:
    return [n for n in truth.npcs if n.type == "beast" and (n.nearby or not nearby_only)]


def humans(truth: Truth, nearby_only: bool = False) -> list[NpcFact]:
    return [n for n in truth.npcs if n.type != "beast" and (n.nearby or not nearby_only)]


def beast_present(d: DecisionRecord) -> bool:
    return bool(beasts(d.truth))


def beast_nearby(d: DecisionRecord) -> bool:
    return bool(beasts(d.truth, nearby_only=True))


def beast_behavior(d: DecisionRecord) -> str | None:
    """Behaviour of the most relevant beast (nearby first, then any)."""
    found = beasts(d.truth, nearby_only=True) or beasts(d.truth)
    return found[0].behavior if found else None


def threatened(d: DecisionRecord) -> bool:
    """A beast is nearby: the decisions C03/C04 threat rules score."""
    return beast_nearby(d)


# ───────────────────────────── hidden inconsistency ─────────────────────────────

def safe_action(d: DecisionRecord) -> bool:
    """The body's action was safe: moved into a truly safe sector, or stood still with no beast nearby —
    either way without a collision or being caught."""
    if contact(d):
        return False
    r = realized(d)
    return moved_safe(d) if r.moved else not beast_nearby(d)


def hidden_inconsistency(decisions: Iterable[DecisionRecord]) -> dict[str, Any]:
    """Decisions whose action was safe but whose PREDICT was not exact: ``{count, safe_decisions, rate,
    indices}`` (rate None when no action was safe)."""
    safe = [d for d in decisions if safe_action(d)]
    wrong = [d.index for d in safe if spatial_accuracy(d).level != "exact"]
    return {"count": len(wrong), "safe_decisions": len(safe),
            "rate": round(len(wrong) / len(safe), 4) if safe else None, "indices": wrong}


def mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values)) if values else 0.0


__all__ = [
    "PARTIAL_MIN_CORRECT", "SAFE_REASONS", "SPATIAL_POINTS", "DirectionCheck", "SpatialResult",
    "beast_behavior", "beast_nearby", "beast_present", "beasts", "canonical_type", "direction_checks",
    "hidden_inconsistency", "humans", "mean", "safe_action", "spatial_accuracy", "spatial_from_checks",
    "threatened",
]
