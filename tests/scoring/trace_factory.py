"""Synthetic episode traces for scorer tests: build exactly the decisions a rule branch needs.

::

    b = TraceBuilder("S11")
    t = truth(npcs=[npc("beast", "charge", 5.0, "fwd")])
    b.step(t, motion="a person sprints left in terror", move="left", speed="sprint")
    trace = b.build()

``truth`` follows the sim's rules (``docs/simulation.md``): per direction ``danger(beast)`` for a nearby beast
in that sector, else ``danger(wall)`` for a sensed wall, else ``danger(human)`` for a nearby human within 2 m,
else ``safe(open)``; the primary NPC is the most threatening nearby one. ``step`` moves the body like a
kinematic character (speed class x decision time along the chosen relative direction, turning to face travel
unless ``face_travel`` is False) and records the realized motion the way the env does. The parse dict has the
env's shape (``{dir: [verdict, reason]}``, no raw text), so scorers must read raw items from the reply."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from wmbench.core.directions import DIRECTION_HEADINGS, GRAMMAR_ORDER
from wmbench.core.entities import (
    THREAT_BEAST_APPROACH,
    THREAT_BEAST_CHARGE,
    THREAT_BEAST_IDLE,
    THREAT_HUMAN,
    THREAT_NONE,
    threat_sort_key,
)
from wmbench.core.speed import SPEED_CLASS_SPEEDS
from wmbench.core.thresholds import HUMAN_DANGER_RANGE_M
from wmbench.protocol.trace import (
    DecisionRecord,
    DirectionTruth,
    Event,
    NpcFact,
    Trace,
    Truth,
)

NPC_RANGE = 8.0
#: on BEHAVIOR_THREAT_RANK's scale: an unknown behaviour sorts after retreat (as the sim's perception does)
_UNKNOWN_BEHAVIOR_RANK = -1
_REASON_WORDS = {"lion": "beast", "beast": "beast", "woman": "human", "man": "human", "human": "human",
                 "wall": "wall", "open": "open", "exit": "exit", "unknown": "unknown"}
CALM = "a person stands still, calm"


def npc(kind: str = "beast", behavior: str = "stop", distance: float = 5.0, direction: str = "fwd", *,
        nearby: bool | None = None, name: str | None = None, speed: float = 0.0) -> NpcFact:
    """An NPC fact; ``nearby`` defaults to ``distance <= 8``."""
    return NpcFact(name=name or kind, type=kind, behavior=behavior, distance=distance, direction=direction,
                   speed=speed, nearby=distance <= NPC_RANGE if nearby is None else nearby)


def truth(walls: Mapping[str, float] | None = None, npcs: Sequence[NpcFact] = ()) -> Truth:
    """Ground truth with the sim's priority rules (see module doc)."""
    walls = dict(walls or {})
    directions = {}
    for d in GRAMMAR_ORDER:
        if any(n.type == "beast" and n.nearby and n.direction == d for n in npcs):
            directions[d] = DirectionTruth(d, False, "beast", walls.get(d))
        elif d in walls:
            directions[d] = DirectionTruth(d, False, "wall", walls[d])
        elif any(n.type != "beast" and n.nearby and n.direction == d and n.distance <= HUMAN_DANGER_RANGE_M
                 for n in npcs):
            directions[d] = DirectionTruth(d, False, "human")
        else:
            directions[d] = DirectionTruth(d, True, "open")
    nearby = sorted((n for n in npcs if n.nearby),
                    key=lambda n: (n.type != "beast", threat_sort_key(n.behavior, _UNKNOWN_BEHAVIOR_RANK), n.distance))
    primary = nearby[0] if nearby else None
    return Truth(directions=directions, npcs=tuple(npcs), primary=primary, threat_level=_threat_level(npcs))


def _threat_level(npcs: Sequence[NpcFact]) -> int:
    beasts = [n for n in npcs if n.type == "beast" and n.nearby]
    if any(n.behavior == "charge" for n in beasts):
        return THREAT_BEAST_CHARGE
    if any(n.behavior == "approach" for n in beasts):
        return THREAT_BEAST_APPROACH
    if beasts:
        return THREAT_BEAST_IDLE
    if any(n.nearby and n.distance <= 3.0 for n in npcs):
        return THREAT_HUMAN
    return THREAT_NONE


def exact_predict(t: Truth) -> dict[str, str]:
    """The PREDICT items that match ``t`` exactly, e.g. ``{"fwd": "danger(beast)", "left": "safe(open)"}``."""
    return {d: f"{'safe' if x.safe else 'danger'}({x.reason})" for d, x in t.directions.items()}


def all_safe() -> dict[str, str]:
    return {d: "safe(open)" for d in GRAMMAR_ORDER}


def reply_text(predict: Mapping[str, str] | None, motion: str | None) -> str:
    lines = []
    if predict is not None:
        lines.append("PREDICT: " + ", ".join(f"{d}={item}" for d, item in predict.items()))
    if motion is not None:
        lines.append(f"MOTION: {motion}")
    return "\n".join(lines)


def _item(item: str) -> list[str | None]:
    verdict, _, rest = item.partition("(")
    first = rest.rstrip(")").split(",")[0].strip().split(" ")[0].lower() if rest else ""
    return [verdict.strip().lower(), _REASON_WORDS.get(first) if first else None]


def parse_dict(predict: Mapping[str, str] | None, motion: str | None, ok: bool = True) -> dict[str, Any]:
    """The env's parse dict for a reply built from ``predict`` and ``motion``."""
    if not ok or predict is None or not motion:
        code = "no_predict" if predict is None else ("no_motion" if not motion else "unreadable_predict")
        return {"ok": False, "code": code, "message": "synthetic parse error", "prediction": {},
                "motion": motion}
    return {"ok": True, "code": None, "message": "", "prediction": {d: _item(i) for d, i in predict.items()},
            "motion": motion}


class TraceBuilder:
    """Appends decisions with a consistent body pose, time and phase (see module doc)."""

    def __init__(self, scenario_id: str, seed: int | None = 0, decision_dt: float = 0.5) -> None:
        self.trace = Trace(scenario_id=scenario_id, seed=seed, body="smpl", phase_starts=[0],
                           meta={"decision_dt": decision_dt})
        self.dt = decision_dt
        self.phase = 0
        self.t = 0.0
        self.x = self.y = 0.0
        self.heading = 0.0

    def new_phase(self, position: tuple[float, float] = (0.0, 0.0), heading: float = 0.0) -> TraceBuilder:
        self.phase += 1
        self.x, self.y = position
        self.heading = heading
        self.trace.phase_starts.append(len(self.trace.decisions))
        return self

    def step(
        self,
        t: Truth,
        *,
        predict: Mapping[str, str] | str | None = "exact",
        motion: str | None = CALM,
        move: str | None = None,
        speed: str = "walk",
        posture: str = "upright",
        face_travel: bool = True,
        events: Sequence[str] = (),
        parse_ok: bool = True,
        scene: Mapping[str, Any] | None = None,
    ) -> DecisionRecord:
        """One decision. ``predict="exact"`` predicts ``t`` exactly; a mapping gives the items; None omits the
        PREDICT line (a parse error). ``move`` is the relative direction travelled (None = stand still)."""
        items = exact_predict(t) if predict == "exact" else predict
        assert items is None or isinstance(items, Mapping)
        speed_class = speed if move is not None else "still"
        distance = SPEED_CLASS_SPEEDS[speed_class] * self.dt
        before = self._state(speed_class="still")
        if move is not None and distance > 0:
            travel = self.heading + DIRECTION_HEADINGS[move]
            self.x += distance * math.cos(travel)
            self.y += distance * math.sin(travel)
            if face_travel:
                self.heading = math.atan2(math.sin(travel), math.cos(travel))
        after = self._state(speed_class=speed_class)
        beasts = [n.distance for n in t.npcs if n.type == "beast"]
        realized = {
            "direction": move if distance > 0 else None, "distance": distance,
            "mean_speed": SPEED_CLASS_SPEEDS[speed_class], "speed_class": speed_class, "posture": posture,
            "min_threat_distance": min(beasts) if beasts else None,
        }
        evs = tuple(Event(round(self.t + self.dt, 6), kind) for kind in events)
        record = DecisionRecord(
            index=len(self.trace.decisions), phase=self.phase, t=round(self.t, 6),
            scene=dict(scene or {"recent_decisions": [], "t": self.t}), truth=t,
            reply=reply_text(items, motion), parse=parse_dict(items, motion, parse_ok),
            intent={"direction": move, "speed_class": speed_class, "face_travel": face_travel},
            body_before=before, body_after=after, events=evs, realized=realized,
        )
        self.trace.decisions.append(record)
        self.trace.events.extend(evs)
        self.t += self.dt
        return record

    def repeat(self, n: int, t: Truth, **kwargs: Any) -> TraceBuilder:
        for _ in range(n):
            self.step(t, **kwargs)
        return self

    def build(self) -> Trace:
        return self.trace

    def _state(self, speed_class: str) -> dict[str, Any]:
        return {"position": [self.x, self.y, 0.0], "heading": self.heading, "velocity": [0.0, 0.0, 0.0],
                "speed": SPEED_CLASS_SPEEDS[speed_class], "posture": "upright", "speed_class": speed_class,
                "extras": {}}
