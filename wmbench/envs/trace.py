"""Episode traces: everything that happened, per decision, in plain JSON-able records.

Scorers are pure functions of traces, so everything a scorer needs is here: the scene the brain saw, the
ground truth the sim computed (never shown to the brain), the reply, its parse, the intent, the body before
and after, and the events. ``Trace.to_dict``/``Trace.from_dict`` round-trip through JSON.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

#: threat levels used by the ground truth
THREAT_NONE, THREAT_HUMAN, THREAT_BEAST_IDLE, THREAT_BEAST_APPROACH, THREAT_BEAST_CHARGE = range(5)


@dataclass(frozen=True)
class DirectionTruth:
    """Ground truth for one relative direction: ``safe`` and why (``open``/``wall``/``beast``/``human``)."""

    direction: str          # fwd/left/right/back (grammar words)
    safe: bool
    reason: str
    wall_distance: float | None = None


@dataclass(frozen=True)
class NpcFact:
    """One NPC as the sim knows it at decision time (relative to the protagonist's heading)."""

    name: str
    type: str
    behavior: str
    distance: float
    direction: str          # fwd/left/right/back
    speed: float
    nearby: bool            # within NPC sensing range (and visible)
    visible: bool = True


@dataclass(frozen=True)
class Truth:
    """Per-decision ground truth: four directions, the NPCs, the most threatening one, the threat level."""

    directions: dict[str, DirectionTruth]
    npcs: tuple[NpcFact, ...] = ()
    primary: NpcFact | None = None
    threat_level: int = THREAT_NONE

    def verdicts(self) -> dict[str, tuple[str, str]]:
        return {d: ("safe" if t.safe else "danger", t.reason) for d, t in self.directions.items()}

    @property
    def safe_directions(self) -> tuple[str, ...]:
        return tuple(d for d, t in self.directions.items() if t.safe)


@dataclass(frozen=True)
class Event:
    """Something that happened at sim time ``t``: ``collision:wall``, ``caught``, ``spawn:<npc>``,
    ``despawn:<npc>``, ``switch:<npc>:<behavior>``, ``phase:<name>``, ``escaped``."""

    t: float
    kind: str
    detail: str = ""


@dataclass(frozen=True)
class DecisionRecord:
    """One decision: what the brain saw and said and what the body then did (``realized`` is measured)."""

    index: int
    phase: int
    t: float
    scene: dict[str, Any]
    truth: Truth
    reply: str
    #: {"ok", "code", "message", "prediction": {dir: [verdict, reason, raw]}, "motion", "reply_chars"}
    parse: dict[str, Any]
    intent: dict[str, Any] | None  # MotionIntent.to_dict()
    body_before: dict[str, Any]  # BodyState.to_dict()
    body_after: dict[str, Any]
    events: tuple[Event, ...] = ()
    #: {"direction", "distance", "mean_speed", "speed_class", "posture", "min_threat_distance"}
    realized: dict[str, Any] = field(default_factory=dict)
    #: latency_s, tokens, retries, provider, error (set by the harness)
    brain: dict[str, Any] = field(default_factory=dict)


@dataclass
class Trace:
    """A whole episode. Mutable while recording; treat as read-only once the episode ends."""

    scenario_id: str
    seed: int | None
    body: str
    decisions: list[DecisionRecord] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    phase_starts: list[int] = field(default_factory=list)  # decision index at which each phase began
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The trace as plain data: the same result as ``dataclasses.asdict(self)`` (a deep copy), built
        several times faster by :func:`plain_copy` (tracing dominated short episodes' wall time)."""
        return plain_copy(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Trace:
        def truth(t: dict) -> Truth:
            return Truth(
                directions={k: DirectionTruth(**v) for k, v in t["directions"].items()},
                npcs=tuple(NpcFact(**n) for n in t["npcs"]),
                primary=NpcFact(**t["primary"]) if t.get("primary") else None,
                threat_level=t["threat_level"],
            )

        decisions = [
            DecisionRecord(**{
                **r, "truth": truth(r["truth"]), "events": tuple(Event(**e) for e in r["events"]),
            })
            for r in d["decisions"]
        ]
        return cls(
            scenario_id=d["scenario_id"], seed=d["seed"], body=d["body"], decisions=decisions,
            events=[Event(**e) for e in d["events"]], phase_starts=list(d["phase_starts"]),
            meta=dict(d["meta"]),
        )

    def event_kinds(self) -> list[str]:
        return [e.kind for e in self.events]


_ATOMS = (str, int, float, bool, type(None))
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def plain_copy(obj: Any) -> Any:
    """``dataclasses.asdict`` semantics, faster: dataclasses become dicts (field order), lists, tuples and
    dicts are copied recursively, immutable atoms are shared, anything else is ``copy.deepcopy``-ed."""
    kind = type(obj)
    if kind in _ATOMS:
        return obj
    if kind is dict:
        return {plain_copy(k): plain_copy(v) for k, v in obj.items()}
    if kind is list:
        return [plain_copy(v) for v in obj]
    if kind is tuple:
        return tuple(plain_copy(v) for v in obj)
    names = _FIELD_NAMES.get(kind)
    if names is None and is_dataclass(obj) and not isinstance(obj, type):
        names = _FIELD_NAMES.setdefault(kind, tuple(f.name for f in fields(obj)))
    if names is not None:
        return {name: plain_copy(getattr(obj, name)) for name in names}
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):  # namedtuple, as asdict rebuilds it
        return kind(*[plain_copy(v) for v in obj])
    if isinstance(obj, (list, tuple)):
        return kind(plain_copy(v) for v in obj)
    if isinstance(obj, dict):
        items = {plain_copy(k): plain_copy(v) for k, v in obj.items()}
        if hasattr(obj, "default_factory"):  # defaultdict
            return kind(obj.default_factory, items)
        return kind(items)
    return copy.deepcopy(obj)
