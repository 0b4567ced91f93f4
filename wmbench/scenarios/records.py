"""Frozen, declarative scenario records.

A scenario is data, not code: walls, NPCs, a timeline of events and what a good agent is expected to do.
Nothing here touches the simulator. Coordinates are in the protagonist's *start frame*: the protagonist
starts at the origin facing +x, so ``+x`` is ahead (fwd), ``+y`` is left, ``-y`` is right, ``-x`` is behind.
Metres, seconds, radians.

Users write their own scenarios with the same records (see ``README.md``) and run them through the same env::

    from wmbench.scenarios import Scenario, Phase, Wall, NpcSpec, Expectations
    my = Scenario(id="X01", category="C03", name="...", setup="...", phases=(Phase(...),),
                  expectations=Expectations(...), card="...")
    env = WMBenchEnv(scenario=my)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, overload

from wmbench.core.directions import DIRECTION_HEADINGS, DIRECTION_VECTORS, DIRECTIONS, MIRRORED, Direction
from wmbench.core.entities import BEHAVIOR_SPEEDS, NPC_KINDS, PURSUIT_BEHAVIORS, Behavior, NpcKind
from wmbench.core.taxonomy import CATEGORY_PILLARS
from wmbench.scenarios import validation

EventAction = Literal["switch", "spawn", "despawn"]
Difficulty = Literal["easy", "medium", "hard"]
RunMode = Literal["bench", "live", "transfer"]

WALL_THICKNESS = 0.2
WALL_HEIGHT = 2.0

Vec2 = tuple[float, float]


@dataclass(frozen=True)
class Wall:
    """An axis-aligned box wall standing on the ground.

    ``center`` is the box centre (x, y); ``size`` its extent along x and y; ``height`` its height.
    Use :meth:`facing` to place a wall by the distance of its near face from the origin.
    """

    center: Vec2
    size: Vec2
    height: float = WALL_HEIGHT
    name: str = "wall"

    def __post_init__(self) -> None:
        validation.check_wall(self)  # finite numbers, known words; errors name the field

    @classmethod
    def facing(
        cls, direction: Direction, distance: float, length: float = 8.0, offset: float = 0.0, name: str = ""
    ) -> Wall:
        """A wall across ``direction`` whose near face is ``distance`` m from the origin.

        ``length`` is its extent along the other axis; ``offset`` slides it along that axis
        (towards +y for fwd/back walls, towards +x for left/right walls).
        """
        validation.check_wall_placement(direction, distance, length, offset)  # distance > 0, known direction
        ux, uy = DIRECTION_VECTORS[direction]
        centre_along = distance + WALL_THICKNESS / 2
        label = name or f"wall_{direction}"
        if ux != 0.0:  # fwd/back: wall spans y
            return cls((ux * centre_along, offset), (WALL_THICKNESS, length), name=label)
        return cls((offset, uy * centre_along), (length, WALL_THICKNESS), name=label)

    def mirrored(self) -> Wall:
        """The same wall reflected left <-> right (y -> -y)."""
        return replace(self, center=(self.center[0], -self.center[1]), name=_mirror_name(self.name))


@dataclass(frozen=True)
class NpcSpec:
    """One NPC at the start of a phase (or spawned later by a timeline event).

    ``behavior`` is what it does from the start: ``stop`` stands; ``approach``/``charge`` head for the
    protagonist's current position; ``retreat`` moves away from it; ``wander`` takes a seeded random walk;
    ``cross`` walks along the fixed world direction ``heading`` (radians, start frame) — a lateral pass.
    ``speed`` None means the behaviour's default (:data:`BEHAVIOR_SPEEDS`). ``present`` False means the NPC
    only appears when a ``spawn`` event names it.
    """

    name: str
    kind: NpcKind
    position: Vec2
    behavior: Behavior = "stop"
    speed: float | None = None
    heading: float = 0.0
    present: bool = True

    def __post_init__(self) -> None:
        validation.check_npc(self)  # finite numbers, known words; errors name the field

    @property
    def resolved_speed(self) -> float:
        return BEHAVIOR_SPEEDS[self.behavior] if self.speed is None else self.speed

    def mirrored(self) -> NpcSpec:
        return replace(self, position=(self.position[0], -self.position[1]), heading=-self.heading)


@dataclass(frozen=True)
class TimelineEvent:
    """At sim time ``at`` (seconds since the phase began) do ``action`` to NPC ``npc``.

    ``switch`` changes behaviour (and optionally speed); ``spawn`` makes a not-yet-present NPC appear
    (at its spec position, or ``position`` if given); ``despawn`` removes it from the world.
    """

    at: float
    npc: str
    action: EventAction
    behavior: Behavior | None = None
    speed: float | None = None
    position: Vec2 | None = None

    def __post_init__(self) -> None:
        validation.check_event(self)  # finite numbers, known words; errors name the field

    def mirrored(self) -> TimelineEvent:
        pos = None if self.position is None else (self.position[0], -self.position[1])
        return replace(self, position=pos)


@dataclass(frozen=True)
class PriorDecision:
    """A remembered decision seeded into ``recent_decisions`` at phase start (e.g. S29's flight history)."""

    t: float
    motion: str
    direction: Direction | None
    outcome: str

    def __post_init__(self) -> None:
        validation.check_prior_decision(self)  # finite numbers, known words; errors name the field


@dataclass(frozen=True)
class Phase:
    """One stretch of an episode: a layout, its NPCs and timeline, and how long it lasts.

    Each phase starts the protagonist at ``start_position`` facing ``start_heading`` (start frame).
    ``carry_memory`` says whether ``recent_decisions`` from earlier phases stay visible to the brain
    (False = clean slate). ``prior_decisions`` are seeded into memory when the phase begins.
    ``jitter`` scales NPC start distances by a seeded factor in ``[1 - jitter, 1 + jitter]`` along the
    ray from the origin (a radial jitter, so mirrored scenarios stay exact mirrors for the same seed).
    """

    name: str
    duration: float
    walls: tuple[Wall, ...] = ()
    npcs: tuple[NpcSpec, ...] = ()
    events: tuple[TimelineEvent, ...] = ()
    carry_memory: bool = True
    prior_decisions: tuple[PriorDecision, ...] = ()
    start_position: Vec2 = (0.0, 0.0)
    start_heading: float = 0.0
    jitter: float = 0.02

    def __post_init__(self) -> None:
        validation.check_phase(self)  # finite numbers, known words; errors name the field

    def mirrored(self) -> Phase:
        return replace(
            self,
            walls=tuple(w.mirrored() for w in self.walls),
            npcs=tuple(n.mirrored() for n in self.npcs),
            events=tuple(e.mirrored() for e in self.events),
            prior_decisions=tuple(
                replace(d, direction=_mirror_direction(d.direction), motion=_mirror_words(d.motion),
                        outcome=_mirror_words(d.outcome))
                for d in self.prior_decisions
            ),
            start_position=(self.start_position[0], -self.start_position[1]),
            start_heading=-self.start_heading,
        )


@dataclass(frozen=True)
class Expectations:
    """What a good agent shows: the spec's expected perception, correct/incorrect actions, pattern."""

    perception: str = ""
    correct_actions: tuple[str, ...] = ()
    incorrect_actions: tuple[str, ...] = ()
    pattern: str = ""
    #: directions (relative to the start heading) that count as a safe escape in the first phase
    safe_directions: tuple[Direction, ...] = ()


Range = tuple[float, float]
#: a factor range that does not vary with the seed
UNVARIED: Range = (1.0, 1.0)


@dataclass(frozen=True)
class Family:
    """How a scenario varies with the seed (see the module card).

    ``mirror``: mirror odd seeds when the layout has a side. ``fronts``: the directions the spec's front may
    be turned to (``("fwd",)`` = never turned; only for single-phase layouts starting at the origin facing
    +x); a cycle that includes ``fwd`` starts with it, and one without it (``("left", "right")``, the C08 side
    fronts) turns every drawn instance — seed 0 is the canonical layout whatever the cycle lists.
    ``npc_distance``, ``wall_distance``, ``event_time``: ranges of the factors applied to NPC start distances,
    the wall layout and timeline event times (``(1, 1)`` = fixed). ``kinds``: the creature's kind per seed
    (C02: beast or person). ``variant_walls``: walls added from seed ``VARIANT_FROM_SEED`` on (wmbench-only
    variants; :meth:`mirrored` for a mirrored record).
    """

    mirror: bool = True
    fronts: tuple[Direction, ...] = ("fwd",)
    npc_distance: Range = UNVARIED
    wall_distance: Range = UNVARIED
    event_time: Range = UNVARIED
    #: walls only the wmbench variants carry (seeds >= ``VARIANT_FROM_SEED``), added to every phase before the
    #: mirror, the turn and the ranges: seeds 0-1 keep the spec's layout (and its mirror), which a brain reading
    #: only the official scene fields sees in full (S12/S13: the back wall, reported only in ``walls.back``)
    variant_walls: tuple[Wall, ...] = ()
    #: the kind every beast of the record takes per seed (scenarios with one creature whose meaning survives a
    #: person in its place, C02): ``kinds[(seed // 4 + seed) % len(kinds)]`` for seeds >= 1, so each block of
    #: four drawn instances (``4 * base + i``) plays every entry once; empty = the record's kinds on every seed
    kinds: tuple[NpcKind, ...] = ()
    #: the pursuit every pursuing beast of the record takes per seed, cycled like ``kinds`` from seed 1 (C03
    #: S11: an approach or a charge — either way a beast ahead closing in; against a charge that outruns a run,
    #: the direction chosen decides whether it catches the protagonist); empty = the record's behaviour
    pursuits: tuple[Behavior, ...] = ()

    def __post_init__(self) -> None:
        bad_kinds = [k for k in self.kinds if k not in NPC_KINDS]
        if bad_kinds:
            raise ValueError(f"Family.kinds: expected kinds from {NPC_KINDS}, got {bad_kinds!r}")
        bad_pursuits = [b for b in self.pursuits if b not in PURSUIT_BEHAVIORS]
        if bad_pursuits:
            raise ValueError(f"Family.pursuits: expected behaviours from {PURSUIT_BEHAVIORS}, got {bad_pursuits!r}")
        if not self.fronts or ("fwd" in self.fronts and self.fronts[0] != "fwd"):
            raise ValueError(f"Family.fronts must be non-empty and start with 'fwd' where it lists it (the "
                             f"cycle starts at the canonical front), got {self.fronts!r}")
        bad = [f for f in self.fronts if f not in DIRECTIONS]
        if bad:
            raise ValueError(f"Family.fronts: expected directions from {DIRECTIONS}, got {bad!r}")
        for label, (lo, hi) in (("npc_distance", self.npc_distance), ("wall_distance", self.wall_distance),
                                ("event_time", self.event_time)):
            if not 0.0 < lo <= hi:
                raise ValueError(f"Family.{label} must be a range 0 < lo <= hi, got ({lo}, {hi})")

    def mirrored(self) -> Family:
        """The family of the mirrored record (S13 from S12): its variant walls reflected too."""
        return replace(self, variant_walls=tuple(w.mirrored() for w in self.variant_walls))


#: the first seed whose instance carries the family's ``variant_walls`` (seeds 0-1: the spec's layout and its
#: mirror, official fields only)
VARIANT_FROM_SEED = 2


@dataclass(frozen=True)
class Scenario:
    """A WM Bench scenario as a declarative record. ``card`` is its human-readable card (title, setup,
    expectations, family); an official scenario's rule is not in it but stated once by its scorer
    (``wmbench show`` prints the card with it)."""

    id: str
    category: str
    name: str
    setup: str
    phases: tuple[Phase, ...]
    expectations: Expectations = field(default_factory=Expectations)
    difficulty: Difficulty = "medium"
    mode: RunMode = "bench"
    card: str = ""
    mirror_of: str | None = None
    #: how the scenario varies with the seed (:mod:`wmbench.scenarios.families`); None = a fixed layout
    family: Family | None = None

    def __post_init__(self) -> None:
        if not self.phases:
            raise ValueError(f"scenario {self.id}: needs at least one phase, got none")
        if self.category not in CATEGORY_PILLARS:
            raise ValueError(f"scenario {self.id}: unknown category {self.category!r}; expected C01..C10")
        for phase in self.phases:
            if phase.duration <= 0:
                raise ValueError(f"scenario {self.id}: phase {phase.name!r} duration must be > 0")
            names = [n.name for n in phase.npcs]
            if len(set(names)) != len(names):
                raise ValueError(f"scenario {self.id}: phase {phase.name!r} has duplicate NPC names {names}")
            for ev in phase.events:
                if ev.npc not in names:
                    raise ValueError(
                        f"scenario {self.id}: phase {phase.name!r} event at {ev.at}s names NPC {ev.npc!r}; "
                        f"expected one of {names}"
                    )
                if ev.action == "switch" and ev.behavior is None:
                    raise ValueError(f"scenario {self.id}: switch event at {ev.at}s needs a behavior")
        validation.check_scenario(self)

    @property
    def pillar(self) -> str:
        return CATEGORY_PILLARS[self.category]

    @property
    def duration(self) -> float:
        return sum(p.duration for p in self.phases)

    def mirrored(self, new_id: str, name: str | None = None) -> Scenario:
        """This scenario reflected left <-> right (used for S13 from S12)."""
        return replace(
            self, id=new_id, name=name or self.name, phases=tuple(p.mirrored() for p in self.phases),
            expectations=replace(
                self.expectations,
                safe_directions=tuple(_mirror_direction(d) for d in self.expectations.safe_directions),
            ),
            mirror_of=self.id,
        )


@overload
def _mirror_direction(direction: Direction) -> Direction: ...
@overload
def _mirror_direction(direction: None) -> None: ...
def _mirror_direction(direction: Direction | None) -> Direction | None:
    return MIRRORED.get(direction, direction) if direction else direction


def _mirror_words(text: str) -> str:
    return " ".join(MIRRORED.get(w, w) for w in text.split(" "))


def _mirror_name(name: str) -> str:
    for a, b in (("left", "right"), ("right", "left")):
        if a in name:
            return name.replace(a, b)
    return name


def heading_of(direction: Direction) -> float:
    """Relative angle (radians, +left) of a direction word."""
    return DIRECTION_HEADINGS[direction]
