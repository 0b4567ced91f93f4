"""What the body did in a decision: the realized motion, its events, and where it went against the truth.

``realized`` is the env's measurement (direction sector relative to the heading at the decision's start,
distance, speed class, posture, minimum distance to a beast); missing fields fall back to the body states.
Start-frame sectors (:func:`world_sector`) measure a displacement in the frame of the phase's start heading,
so "right" names the same place however the body has turned since.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from wmbench.core.directions import DIRECTION_READINGS, sector_word
from wmbench.core.speed import SPEED_RANKS
from wmbench.core.thresholds import SCORED_DISPLACEMENT_M
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scoring.reply import predicted_danger


@dataclass(frozen=True)
class Realized:
    """What the body did in one decision, as the env measured it (``realized``), with fallbacks."""

    direction: str | None
    distance: float
    speed_class: str
    posture: str
    min_threat_distance: float | None

    @property
    def speed_rank(self) -> int:
        return SPEED_RANKS.get(self.speed_class, 0)

    @property
    def moved(self) -> bool:
        return self.direction is not None and self.speed_rank > 0


def realized(d: DecisionRecord) -> Realized:
    """The realized motion; missing fields fall back to the body states (displacement, speed class)."""
    r = d.realized
    direction: str | None
    if "direction" in r:
        direction = DIRECTION_READINGS.get(str(r["direction"]).lower()) if r["direction"] else None
        distance = float(r.get("distance") or 0.0)
    else:
        displacement = _displacement(d)
        heading = float(d.body_before.get("heading", 0.0))
        direction = sector_of(displacement, heading) if displacement else None
        distance = math.hypot(*displacement) if displacement else 0.0
    speed_class = r.get("speed_class") or d.body_after.get("speed_class") or "still"
    return Realized(direction, distance, str(speed_class), str(r.get("posture") or "upright"),
                    r.get("min_threat_distance"))


def _displacement(d: DecisionRecord) -> tuple[float, float] | None:
    before, after = d.body_before.get("position"), d.body_after.get("position")
    if not before or not after:
        return None
    dx, dy = float(after[0]) - float(before[0]), float(after[1]) - float(before[1])
    return (dx, dy) if math.hypot(dx, dy) >= SCORED_DISPLACEMENT_M else None


def sector_of(vector: tuple[float, float], reference_heading: float) -> str:
    """Sector word (fwd/left/right/back) of a world-frame vector relative to ``reference_heading``."""
    return sector_word(math.atan2(vector[1], vector[0]) - reference_heading)


def phase_reference_heading(trace: Trace, phase: int) -> float:
    """The protagonist's heading at the first decision of ``phase`` (the phase's start frame)."""
    first = next((d for d in trace.decisions if d.phase == phase), None)
    return float(first.body_before.get("heading", 0.0)) if first else 0.0


def world_sector(d: DecisionRecord, reference_heading: float) -> str | None:
    """Start-frame sector of this decision's displacement (None when it hardly moved)."""
    displacement = _displacement(d)
    return sector_of(displacement, reference_heading) if displacement else None


def event_kinds(d: DecisionRecord) -> frozenset[str]:
    return frozenset(e.kind for e in d.events)


def collided(d: DecisionRecord) -> bool:
    return any(k.startswith("collision") for k in event_kinds(d))


def caught(d: DecisionRecord) -> bool:
    return "caught" in event_kinds(d)


def trace_caught(trace: Trace) -> bool:
    return "caught" in trace.event_kinds() or any(caught(d) for d in trace.decisions)


def contact(d: DecisionRecord) -> bool:
    """A collision with a wall or being caught during this decision."""
    return collided(d) or caught(d)


def into_danger(d: DecisionRecord) -> bool:
    """The body moved into a sector the truth marks dangerous."""
    r = realized(d)
    t = d.truth.directions.get(r.direction) if r.moved and r.direction is not None else None
    return t is not None and not t.safe


def into_danger_detail(d: DecisionRecord) -> str:
    """Where an :func:`into_danger` move went, in words: ``"moved <sector> into <truth's reason>"``."""
    r = realized(d)
    assert r.direction is not None, f"decision {d.index}: into_danger_detail needs a move (into_danger true)"
    return f"moved {r.direction} into {d.truth.directions[r.direction].reason}"


def into_predicted_danger(d: DecisionRecord) -> bool:
    """The body moved into a sector the brain's own PREDICT marks dangerous."""
    r = realized(d)
    return r.moved and predicted_danger(d, r.direction)


def moved_safe(d: DecisionRecord) -> bool:
    """Moved, into a sector the truth marks safe, without a collision or being caught."""
    r = realized(d)
    t = d.truth.directions.get(r.direction) if r.moved and r.direction is not None else None
    return t is not None and t.safe and not contact(d)


def facing_kept(d: DecisionRecord, tolerance_rad: float = math.radians(30)) -> bool:
    before, after = d.body_before.get("heading"), d.body_after.get("heading")
    if before is None or after is None:
        return False
    delta = math.atan2(math.sin(after - before), math.cos(after - before))
    return abs(delta) <= tolerance_rad


@dataclass(frozen=True)
class GroundChange:
    """How the distance to the nearest nearby beast changed over one decision, from its start to the next
    decision's start (the same beast, by name): ``change`` (m, + = farther) and ``beast_reach`` (m) — how much
    the beast alone could have closed in that time (its speed x the time between the two decisions)."""

    change: float
    beast_reach: float

    def toward(self, tolerance_m: float) -> bool:
        """The distance fell by more than the beast alone could close it: the body's own motion closed in."""
        return self.change < -(self.beast_reach + tolerance_m)


def ground_change(d: DecisionRecord, following: DecisionRecord | None) -> GroundChange | None:
    """The :class:`GroundChange` of ``d`` (None: no nearby beast, no following decision in the same phase, or
    the beast gone by then: not observed)."""
    near = sorted((n for n in d.truth.npcs if n.type == "beast" and n.nearby), key=lambda n: n.distance)
    if not near or following is None or following.phase != d.phase:
        return None
    later = next((n for n in following.truth.npcs if n.name == near[0].name), None)
    if later is None:
        return None
    return GroundChange(later.distance - near[0].distance, near[0].speed * max(following.t - d.t, 0.0))

