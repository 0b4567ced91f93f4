"""Episode traces: everything that happened, per decision, in plain JSON-able records.

Scorers are pure functions of traces, so everything a scorer needs is here: the scene the brain saw, the
ground truth the sim computed (never shown to the brain), the reply, its parse, the intent, the body before
and after, and the events. ``Trace.to_dict``/``Trace.from_dict`` round-trip through JSON.

Card
----
- The frozen dataclasses (:class:`Truth`, :class:`Event`, :class:`DecisionRecord`, :class:`Trace`) are the
  in-memory trace. The parts a decision stores as plain JSON are typed by TypedDicts, so a scorer reads
  ``d.parse["ok"]`` with a checked key instead of an ad-hoc ``.get(...).get(...)`` path: :class:`ParseRecord`
  (what the grammar read), :class:`IntentRecord` (the MOTION as an intent), :class:`BodyStateRecord` (the body
  before/after), :class:`RealizedRecord` (what the body measurably did), :class:`BrainRecord` (the provider's
  metadata) and :class:`TraceMeta` with :class:`InstanceRecord` (which family member the episode saw).
- :class:`TraceDict`/:class:`DecisionDict` type the same trace after ``to_dict`` (as stored in
  ``episodes.jsonl``), for the harness code that reads episode lines.
- TypedDicts are plain dicts at run time: the JSON written is unchanged. Keys that older traces may lack are
  ``NotRequired`` and read with ``.get``.
- :meth:`Trace.from_dict` reads a file's data: what is not a trace (a missing field, a value of the wrong
  shape) raises :class:`TraceFormatError` (a ``ConfigError``) that says which, in one line, never a bare
  ``KeyError`` or ``TypeError`` from deep inside.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, NotRequired, TypedDict

from wmbench.core.entities import THREAT_NONE
from wmbench.core.errors import ConfigError
from wmbench.protocol.scene import SceneContext

#: one PREDICT item as the trace stores it: ``[verdict, reason, raw item text]`` (older traces: two items)
PredictionEntry = list[str | None]


class ParseRecord(TypedDict):
    """What the grammar read from a reply (:func:`wmbench.envs.decisions.parse_record`)."""

    ok: bool
    code: str | None                       # ParseErrorCode value, None when ok
    message: str
    prediction: dict[str, PredictionEntry]  # grammar direction (fwd/left/right/back) -> item
    motion: str | None
    reply_chars: int                       # length of the reply before clipping
    warnings: NotRequired[list[str]]


class IntentRecord(TypedDict):
    """The MOTION line as an intent (``MotionIntent.to_dict``)."""

    direction: str
    heading: float
    speed_class: str
    speed: float
    styles: list[str]
    face_travel: bool
    source: str
    fallback: NotRequired[str]  # a movement the bodies cannot do -> the nearest doable one (body.motion_fallback)


class BodyStateRecord(TypedDict):
    """The body at a decision's start or end (``BodyState.to_dict``); ``extras`` are body-specific."""

    position: list[float]
    heading: float
    velocity: list[float]
    speed: float
    posture: str
    speed_class: str
    extras: dict[str, Any]


class RealizedRecord(TypedDict, total=False):
    """What the body measurably did in a decision (``RealizedMotion.to_dict``); empty before it ended."""

    direction: str | None                  # sector relative to the heading at the decision's start
    distance: float
    mean_speed: float
    speed_class: str
    posture: str
    min_threat_distance: float | None


class BrainRecord(TypedDict, total=False):
    """The brain's metadata for a decision (``BrainReply.meta``, set by the harness); ``fatal`` only when true."""

    latency_s: float
    provider: str
    model: str
    prompt_tokens: int | None
    completion_tokens: int | None
    retries: int
    cached: bool
    error: str | None
    fatal: bool
    snapshot_t: float   # live mode: the sim time of the scene the reply answered
    live: bool          # live mode: always true


class InstanceRecord(TypedDict):
    """Which member of its family the episode saw (``Instance.to_dict``)."""

    scenario: str
    number: int
    label: str
    canonical: bool
    mirrored: bool
    front: str
    npc_distance: float
    wall_distance: float
    event_time: float
    safe_directions: list[str]
    #: the family's extra walls were added (wmbench variants, seeds past the official ones)
    variant_walls: bool
    #: the creature's kind where the family draws it (C02), else "" (absent in traces before 0.4)
    creature: NotRequired[str]
    #: the pursuing beasts' drawn behaviour where the family draws it (C03 S11), else "" (absent before 0.4)
    pursuit: NotRequired[str]
    #: the pace the scene was played at on a body slower than the character (NPC speeds x pace, times / pace;
    #: :mod:`wmbench.envs.pacing`); absent: 1, the scene's own clock (and in every trace before 0.4)
    pace: NotRequired[float]


class TraceMeta(TypedDict, total=False):
    """The trace's ``meta``: the env's clocks and ray count, the instance, the pose log; ``observation`` when
    not ``scene``, ``mode`` ``live`` for a live episode, ``category`` for a user scenario that names one."""

    decision_dt: float
    frame_rate: float
    physics_hz: float
    n_rays: int
    instance: InstanceRecord
    observation: str
    poses: dict[str, Any]
    mode: str
    category: str


class TraceFormatError(ConfigError):
    """Data read as a trace is not one; the message says which field is missing or of the wrong shape."""


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
    scene: SceneContext
    truth: Truth
    reply: str
    parse: ParseRecord
    intent: IntentRecord | None
    body_before: BodyStateRecord
    body_after: BodyStateRecord
    events: tuple[Event, ...] = ()
    realized: RealizedRecord = field(default_factory=lambda: RealizedRecord())
    brain: BrainRecord = field(default_factory=lambda: BrainRecord())


@dataclass
class Trace:
    """A whole episode. Mutable while recording; treat as read-only once the episode ends."""

    scenario_id: str
    seed: int | None
    body: str
    decisions: list[DecisionRecord] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    phase_starts: list[int] = field(default_factory=list)  # decision index at which each phase began
    meta: TraceMeta = field(default_factory=lambda: TraceMeta())

    def to_dict(self) -> TraceDict:
        """The trace as plain data: the same result as ``dataclasses.asdict(self)`` (a deep copy), built
        several times faster by :func:`plain_copy` (tracing dominated short episodes' wall time)."""
        result: TraceDict = plain_copy(self)
        return result

    @classmethod
    def from_dict(cls, d: TraceDict) -> Trace:
        """The trace ``d`` holds (as ``to_dict`` wrote it); :class:`TraceFormatError` if it is not one."""
        try:
            return cls._from_dict(d)
        except KeyError as err:
            raise TraceFormatError(f"not a wmbench trace: a record has no field {err.args[0]!r}") from None
        except (TypeError, ValueError, AttributeError) as err:
            raise TraceFormatError(f"not a wmbench trace: {err}") from None

    @classmethod
    def _from_dict(cls, d: TraceDict) -> Trace:
        def truth(t: TruthDict) -> Truth:
            primary = t.get("primary")
            return Truth(
                directions={k: DirectionTruth(**v) for k, v in t["directions"].items()},
                npcs=tuple(NpcFact(**n) for n in t["npcs"]),
                primary=NpcFact(**primary) if primary else None,
                threat_level=t["threat_level"],
            )

        decisions = [
            DecisionRecord(
                index=r["index"], phase=r["phase"], t=r["t"], scene=r["scene"], truth=truth(r["truth"]),
                reply=r["reply"], parse=r["parse"], intent=r["intent"], body_before=r["body_before"],
                body_after=r["body_after"], events=tuple(Event(**e) for e in r["events"]),
                realized=r.get("realized", RealizedRecord()), brain=r.get("brain", BrainRecord()),
            )
            for r in d["decisions"]
        ]
        return cls(
            scenario_id=d["scenario_id"], seed=d["seed"], body=d["body"], decisions=decisions,
            events=[Event(**e) for e in d["events"]], phase_starts=list(d["phase_starts"]),
            meta=TraceMeta(**d["meta"]),
        )

    def event_kinds(self) -> list[str]:
        return [e.kind for e in self.events]


class DirectionTruthDict(TypedDict):
    """A :class:`DirectionTruth` as plain data."""

    direction: str
    safe: bool
    reason: str
    wall_distance: NotRequired[float | None]


class NpcFactDict(TypedDict):
    """An :class:`NpcFact` as plain data (``visible`` absent in the oldest traces: True)."""

    name: str
    type: str
    behavior: str
    distance: float
    direction: str
    speed: float
    nearby: bool
    visible: NotRequired[bool]


class TruthDict(TypedDict):
    """A :class:`Truth` as plain data (``npcs`` a tuple in memory, a list once read back from JSON)."""

    directions: dict[str, DirectionTruthDict]
    npcs: Sequence[NpcFactDict]
    primary: NpcFactDict | None
    threat_level: int


class EventDict(TypedDict):
    """An :class:`Event` as plain data."""

    t: float
    kind: str
    detail: str


class DecisionDict(TypedDict):
    """A :class:`DecisionRecord` as plain data (``truth`` as nested dicts)."""

    index: int
    phase: int
    t: float
    scene: SceneContext
    truth: TruthDict
    reply: str
    parse: ParseRecord
    intent: IntentRecord | None
    body_before: BodyStateRecord
    body_after: BodyStateRecord
    events: Sequence[EventDict]  # a tuple in memory (asdict keeps tuples), a list once read back from JSON
    realized: RealizedRecord
    brain: BrainRecord


class TraceDict(TypedDict):
    """A :class:`Trace` as plain data (``Trace.to_dict``; the ``trace`` of an ``episodes.jsonl`` line)."""

    scenario_id: str
    seed: int | None
    body: str
    decisions: list[DecisionDict]
    events: list[EventDict]
    phase_starts: list[int]
    meta: TraceMeta


_ATOMS = (str, int, float, bool, type(None))
_ATOM_TYPES = frozenset(_ATOMS)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def plain_copy(obj: Any) -> Any:
    """``dataclasses.asdict`` semantics, faster: dataclasses become dicts (field order), lists, tuples and
    dicts are copied recursively, immutable atoms are shared, anything else is ``copy.deepcopy``-ed."""
    kind = type(obj)
    if kind in _ATOM_TYPES:
        return obj
    # containers share their atoms without a call per atom (most of a trace's nodes are atoms: the same
    # result, ~2x faster; issue 23)
    atoms = _ATOM_TYPES
    if kind is dict:
        return {k if type(k) in atoms else plain_copy(k): v if type(v) in atoms else plain_copy(v)
                for k, v in obj.items()}
    if kind is list:
        return [v if type(v) in atoms else plain_copy(v) for v in obj]
    if kind is tuple:
        return tuple([v if type(v) in atoms else plain_copy(v) for v in obj])
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
