"""Scenario families: a record describes a family of worlds; ``reset(seed=...)`` draws one instance of it.

Card
----
- **Seed 0 is the canonical instance**: the record exactly as the spec lays it out (no draw is made, so the
  env's generator is left untouched and seed-0 traces are the same as before families existed). ``seed=None``
  also gives the canonical instance.
- **Mirror counterbalancing** (exact): for a layout that has a side (it differs from its left <-> right
  reflection), odd seeds are mirrored and even seeds are not. Walls, NPCs, timeline positions, remembered
  decisions, safe directions and the side words of the expectations all follow the mirror.
- **Front direction** (where the record's :class:`Family` lists more than ``fwd``): the layout is turned
  about the protagonist by quarter turns so that what the spec puts ahead lies in another direction. The
  front is cycled, not drawn, so the directions are balanced exactly: ``fronts[(seed // 2) % n]`` for a
  layout with a side (the mirror takes the lowest bit), ``fronts[seed % n]`` otherwise. :data:`SIDE_FRONTS`
  (no ``fwd`` in the cycle) turns every drawn instance to a side: left on odd seeds, right on even ones.
- **Creature kind** (where the record's :class:`Family` lists ``kinds``, C02): every beast of the record
  becomes ``kinds[(seed // 4 + seed) % n]`` from seed 1 on, so a brain that calls every creature a beast
  loses on the instances with a person; seed 0 keeps the spec's beast. The truth and the scorers read the
  drawn kind from the sim (``Instance.creature`` records it).
- **Pursuit** (where the record's :class:`Family` lists ``pursuits``, C03 S11): every pursuing beast of the
  record (``approach``/``charge``) takes ``pursuits[(seed // 4 + seed) % n]`` from seed 1 on, at that
  behaviour's own speed (the scene reports it: ``npc_behavior`` and ``npcs[].speed``); seed 0 keeps the spec's
  behaviour (``Instance.pursuit`` records a drawn one that differs from the record's).
- **Ranges** (drawn from the env's seeded generator, seeds >= 1 only): NPC start distances, wall distances
  (which are also corridor widths: the wall layout is scaled about the protagonist, wall thickness kept) and
  timeline event times (switch, spawn, despawn) are multiplied by factors drawn uniformly from the family's
  ranges. Each range is printed on the scenario's card (:func:`family_card_line`).
- **Ground truth follows the instance**: the env builds the drawn instance, so the ray-cast truth, the
  scene and everything the scorers read from the trace belong to it. The instance itself is recorded in the
  trace (``trace.meta["instance"]``, see :class:`Instance`) and in ``episodes.jsonl``; a scorer that needs a
  side named by the canonical rule maps it with :func:`instance_direction`.

Families are data on the record (``Scenario.family``); ``None`` means a fixed layout (every seed draws the
canonical instance, as user scenarios without a family always did).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, overload

import numpy as np

from wmbench.core.directions import BACK_FIRST_ORDER, QUARTER_TURNS, TURN_ORDER, Direction, mirrored
from wmbench.core.entities import BEAST, PURSUIT_BEHAVIORS, Behavior, NpcKind
from wmbench.scenarios.records import (
    UNVARIED,
    VARIANT_FROM_SEED,
    WALL_THICKNESS,
    Expectations,
    Family,
    NpcSpec,
    Phase,
    PriorDecision,
    Range,
    Scenario,
    TimelineEvent,
    Wall,
)

#: every front direction, cycled over the seeds (fwd, left, back, right)
ALL_FRONTS: tuple[Direction, ...] = TURN_ORDER
#: every front direction, the threat turned behind first: for a layout with a side, seeds 2-3 (the first turn,
#: the last seeds of one family cycle 0-3) put what the spec has ahead behind the protagonist, so a constant
#: retreat that the canonical layout happens to reward walks into it (S15, S18, S19, S28)
BACK_FIRST_FRONTS: tuple[Direction, ...] = BACK_FIRST_ORDER
#: the two sides, in turn: every drawn instance (seeds >= 1; seed 0 stays canonical) puts what the spec has
#: ahead at the left (odd seeds of an unsided layout) or the right (even seeds). For C08 (S36-S40): on an axis
#: (ahead or behind) a body whose left and right are swapped moves exactly like a correct one, so only a threat at
#: a side tells mirrored motion from right motion; the scenario's meaning (the expression the moment calls for)
#: does not depend on where the creature stands
SIDE_FRONTS: tuple[Direction, ...] = ("right", "left")


#: what a bench scenario gets when its builder names no family: exact mirror counterbalancing only
MIRROR_ONLY = Family()


@dataclass(frozen=True)
class Instance:
    """Which member of its family an episode saw (recorded in the trace's ``meta["instance"]``).

    ``number`` is the seed it was drawn for (0 = canonical); ``mirrored`` whether left and right are swapped;
    ``front`` where the spec's front lies; the three factors as drawn; ``safe_directions`` the instance's
    expected safe directions (start frame).
    """

    scenario: str
    number: int
    mirrored: bool = False
    front: Direction = "fwd"
    npc_distance: float = 1.0
    wall_distance: float = 1.0
    event_time: float = 1.0
    safe_directions: tuple[str, ...] = ()
    variant_walls: bool = False
    #: the creature's kind where the family draws it (``Family.kinds``), else ""
    creature: str = ""
    #: the pursuing beast's behaviour where the family draws one that differs from the record's
    #: (``Family.pursuits``), else ""
    pursuit: str = ""

    @property
    def canonical(self) -> bool:
        return (not self.mirrored and self.front == "fwd" and self.npc_distance == 1.0
                and self.wall_distance == 1.0 and self.event_time == 1.0 and not self.variant_walls
                and self.creature in ("", BEAST) and not self.pursuit)

    @property
    def label(self) -> str:
        """A short human-readable name, e.g. ``S12#3 mirrored npc x1.04``."""
        parts = [f"{self.scenario}#{self.number}"]
        if self.canonical:
            parts.append("canonical")
        if self.mirrored:
            parts.append("mirrored")
        if self.front != "fwd":
            parts.append(f"front={self.front}")
        if self.variant_walls:
            parts.append("variant walls")
        if self.creature and self.creature != BEAST:
            parts.append(f"creature={self.creature}")
        if self.pursuit:
            parts.append(f"pursuit={self.pursuit}")
        for name, value in (("npc", self.npc_distance), ("walls", self.wall_distance),
                            ("events", self.event_time)):
            if value != 1.0:
                parts.append(f"{name} x{value:.3f}")
        return " ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "number": self.number, "label": self.label,
                "canonical": self.canonical, "mirrored": self.mirrored, "front": self.front,
                "npc_distance": self.npc_distance, "wall_distance": self.wall_distance,
                "event_time": self.event_time, "safe_directions": list(self.safe_directions),
                "variant_walls": self.variant_walls, "creature": self.creature,
                "pursuit": self.pursuit}


# ---------------------------------------------------------------------------------------------- drawing
def has_side(record: Scenario) -> bool:
    """Whether the layout differs from its left <-> right reflection (then mirroring counterbalances it)."""
    return any(_signature(p) != _signature(p.mirrored()) for p in record.phases) or (
        set(record.expectations.safe_directions)
        != {mirrored(d) for d in record.expectations.safe_directions}
    )


def draw_instance(record: Scenario, seed: int | None, rng: np.random.Generator) -> tuple[Scenario, Instance]:
    """The instance of ``record``'s family for ``seed``: (the record to build, what was drawn).

    Seed 0 / None (or a record without a family) returns ``record`` itself and draws nothing from ``rng``.
    """
    family = getattr(record, "family", None)
    number = 0 if seed is None else int(seed)
    if family is None or number == 0:
        return record, Instance(record.id, number, safe_directions=record.expectations.safe_directions)
    sided = family.mirror and has_side(record)
    mirrored = sided and number % 2 == 1
    turn_index = number // 2 if sided else number
    front = family.fronts[turn_index % len(family.fronts)]
    npc_f, wall_f, time_f = (_draw(rng, r) for r in (family.npc_distance, family.wall_distance,
                                                    family.event_time))
    built = record
    kind = drawn_kind(family, number)
    if kind is not None and kind != BEAST:
        built = replace(built, phases=tuple(
            replace(p, npcs=tuple(replace(n, kind=kind) if n.kind == BEAST else n for n in p.npcs))
            for p in built.phases))
    pursuit = drawn_pursuit(family, number)
    changed = ""
    if pursuit is not None and any(n.kind == BEAST and n.behavior in PURSUIT_BEHAVIORS and n.behavior != pursuit
                                   for p in built.phases for n in p.npcs):
        changed = pursuit
        built = replace(built, phases=tuple(
            replace(p, npcs=tuple(replace(n, behavior=pursuit, speed=None) if n.kind == BEAST and n.behavior
                                  in PURSUIT_BEHAVIORS else n for n in p.npcs))
            for p in built.phases))
    variant = bool(family.variant_walls) and number >= VARIANT_FROM_SEED
    if variant:
        built = replace(built, phases=tuple(replace(p, walls=p.walls + family.variant_walls)
                                            for p in built.phases))
    if mirrored:
        built = mirror_record(built)
    if front != "fwd":
        built = turn_record(built, front)
    if (npc_f, wall_f, time_f) != (1.0, 1.0, 1.0):
        built = replace(built, phases=tuple(_scale_phase(p, npc_f, wall_f, time_f) for p in built.phases))
    return built, Instance(record.id, number, mirrored, front, npc_f, wall_f, time_f,
                           built.expectations.safe_directions, variant, kind or "",
                           changed)


def drawn_kind(family: Family, number: int) -> NpcKind | None:
    """The creature kind of instance ``number`` (None: the family draws no kind, or the canonical seed 0)."""
    if not family.kinds or number == 0:
        return None
    return family.kinds[(number // 4 + number) % len(family.kinds)]


def drawn_pursuit(family: Family, number: int) -> Behavior | None:
    """The pursuit of instance ``number`` (None: the family draws none, or the canonical seed 0)."""
    if not family.pursuits or number == 0:
        return None
    return family.pursuits[(number // 4 + number) % len(family.pursuits)]


def _draw(rng: np.random.Generator, bounds: Range) -> float:
    lo, hi = bounds
    return 1.0 if lo == hi else round(float(rng.uniform(lo, hi)), 4)


# ---------------------------------------------------------------------------------------------- mirror
def mirror_record(record: Scenario) -> Scenario:
    """``record`` reflected left <-> right, keeping its id (expectation texts' side words swapped too)."""
    flipped = record.mirrored(record.id, name=record.name)
    phases = tuple(  # memory words swapped whole-word (``right,`` too), not only space-separated ones
        replace(mirrored, prior_decisions=tuple(
            replace(d, motion=swap_side_words(orig.motion), outcome=swap_side_words(orig.outcome))
            for d, orig in zip(mirrored.prior_decisions, original.prior_decisions, strict=True)))
        for mirrored, original in zip(flipped.phases, record.phases, strict=True))
    return replace(flipped, phases=phases, mirror_of=record.mirror_of, setup=swap_side_words(record.setup),
                   expectations=_map_expectation_words(flipped.expectations, swap_side_words))


_SIDE_WORD = re.compile(r"\b(left|right|Left|Right)\b")


def swap_side_words(text: str) -> str:
    """``left`` <-> ``right`` in a text (whole words, case kept for a capital first letter)."""
    def swap(m: re.Match[str]) -> str:
        word = m.group(1)
        other = mirrored(word.lower())
        return other.capitalize() if word[0].isupper() else other

    return _SIDE_WORD.sub(swap, text)


# ---------------------------------------------------------------------------------------------- turning
@overload
def turn_direction(direction: Direction, front: str) -> Direction: ...
@overload
def turn_direction(direction: str, front: str) -> str: ...
def turn_direction(direction: str, front: str) -> str:
    """Where ``direction`` lies once the layout is turned so that its ``fwd`` lies at ``front``."""
    if direction not in QUARTER_TURNS:
        return direction
    return TURN_ORDER[(QUARTER_TURNS[direction] + QUARTER_TURNS[front]) % 4]


def turn_record(record: Scenario, front: Direction) -> Scenario:
    """``record`` turned about the protagonist by quarter turns so that its ``fwd`` lies at ``front``.

    Only for layouts whose phases all start at the origin facing +x (the protagonist does not turn; the
    world does). Expectation texts keep their canonical wording; ``safe_directions`` follow the turn.
    """
    for phase in record.phases:
        if phase.start_position != (0.0, 0.0) or phase.start_heading != 0.0:
            raise ValueError(f"scenario {record.id}: phase {phase.name!r} does not start at the origin facing "
                             f"+x, so its layout cannot be turned; expected fronts=('fwd',)")
    quarter = QUARTER_TURNS[front]
    angle = quarter * math.pi / 2
    phases = tuple(_turn_phase(p, quarter, angle, front) for p in record.phases)
    expectations = replace(record.expectations, safe_directions=tuple(
        turn_direction(d, front) for d in record.expectations.safe_directions))
    return replace(record, phases=phases, expectations=expectations)


def _rotate(point: tuple[float, float], quarter: int) -> tuple[float, float]:
    x, y = point
    for _ in range(quarter % 4):
        x, y = -y, x
    return (round(x, 9) + 0.0, round(y, 9) + 0.0)


def _turn_phase(phase: Phase, quarter: int, angle: float, front: str) -> Phase:
    def wall(w: Wall) -> Wall:
        size = w.size if quarter % 2 == 0 else (w.size[1], w.size[0])
        return replace(w, center=_rotate(w.center, quarter), size=size)

    def npc(n: NpcSpec) -> NpcSpec:
        return replace(n, position=_rotate(n.position, quarter), heading=_wrap(n.heading + angle))

    def event(e: TimelineEvent) -> TimelineEvent:
        return e if e.position is None else replace(e, position=_rotate(e.position, quarter))

    def prior(d: PriorDecision) -> PriorDecision:
        turned = None if d.direction is None else turn_direction(d.direction, front)
        return replace(d, direction=turned, motion=_turn_words(d.motion, front),
                       outcome=_turn_words(d.outcome, front))

    return replace(phase, walls=tuple(wall(w) for w in phase.walls), npcs=tuple(npc(n) for n in phase.npcs),
                   events=tuple(event(e) for e in phase.events),
                   prior_decisions=tuple(prior(d) for d in phase.prior_decisions))


_DIRECTION_WORD = re.compile(r"\b(fwd|front|left|right|back)\b")


def _turn_words(text: str, front: str) -> str:
    def one(m: re.Match[str]) -> str:
        word = m.group(1)
        turned = turn_direction("fwd" if word == "front" else word, front)
        return "front" if word == "front" and turned == "fwd" else turned

    return _DIRECTION_WORD.sub(one, text)


def _wrap(angle: float) -> float:
    return math.atan2(math.sin(angle), math.cos(angle))


# ---------------------------------------------------------------------------------------------- ranges
def _scale_phase(phase: Phase, npc_f: float, wall_f: float, time_f: float) -> Phase:
    def scaled(p: tuple[float, float], f: float) -> tuple[float, float]:
        return (p[0] * f, p[1] * f)

    def wall(w: Wall) -> Wall:
        # scale the footprint about the origin, keeping the wall's thickness: the near face moves with it
        sx, sy = w.size
        size = (sx * wall_f if sx > WALL_THICKNESS + 1e-9 else sx, sy * wall_f if sy > WALL_THICKNESS + 1e-9 else sy)
        return replace(w, center=scaled(w.center, wall_f), size=size)

    def event(e: TimelineEvent) -> TimelineEvent:
        pos = None if e.position is None else scaled(e.position, npc_f)
        at = min(e.at * time_f, phase.duration) if e.at > 0 else e.at
        return replace(e, at=round(at, 6), position=pos)

    return replace(phase, walls=tuple(wall(w) for w in phase.walls),
                   npcs=tuple(replace(n, position=scaled(n.position, npc_f)) for n in phase.npcs),
                   events=tuple(event(e) for e in phase.events))


# ---------------------------------------------------------------------------------------------- reading back
def instance_direction(meta: Mapping[str, Any] | None, canonical: str | None) -> str | None:
    """Where a direction the canonical layout names (e.g. S12's open ``right``) lies in the instance a trace
    recorded in ``meta["instance"]`` (mirror first, then the turn). Traces without an instance: unchanged."""
    if canonical is None:
        return None
    instance = (meta or {}).get("instance") or {}
    direction = mirrored(canonical) if instance.get("mirrored") else canonical
    return turn_direction(direction, str(instance.get("front") or "fwd"))


def family_card_line(record: Scenario) -> str:
    """The card's ``Family:`` line: how this scenario varies with the seed (empty for a fixed layout)."""
    family = getattr(record, "family", None)
    if family is None:
        return "Family: fixed layout (every seed is the canonical instance, up to the start-distance jitter)."
    parts = ["seed 0 is the canonical layout"]
    if family.mirror and has_side(record):
        parts.append("odd seeds are mirrored left <-> right (exactly balanced; every side named here swaps "
                     "with it)")
    if "fwd" not in family.fronts:
        parts.append(f"every drawn instance (seed 1 on) turns what the spec puts ahead to the "
                     f"{'/'.join(family.fronts)}, cycled by seed (seed 1: {family.fronts[1 % len(family.fronts)]}; "
                     "the directions named here turn with it)")
    elif len(family.fronts) > 1:
        parts.append(f"what the spec puts ahead is turned to {'/'.join(family.fronts)} in turn over the seeds "
                     "(the directions named here turn with it)")
    if family.variant_walls:
        parts.append(f"seeds {VARIANT_FROM_SEED} and up add {len(family.variant_walls)} wall(s) of the wmbench "
                     "variant (" + ", ".join(w.name for w in family.variant_walls) + "); seeds 0-1 keep the "
                     "spec's layout, which the official scene fields report in full")
    if family.kinds:
        parts.append("the creature is a " + "/".join(family.kinds) + " in turn over the seeds from seed 1 (each "
                     "block of four drawn instances plays every entry once; the directions, distances and "
                     "behaviours named here hold for whoever it is)")
    if family.pursuits:
        parts.append("the beast's pursuit is " + "/".join(family.pursuits) + " in turn over the seeds from seed 1 "
                     "(each at its own speed, which the scene reports; the directions named here hold for either)")
    for name, (lo, hi) in (("NPC start distances", family.npc_distance),
                           ("wall distances and corridor widths", family.wall_distance),
                           ("event times", family.event_time)):
        if (lo, hi) != UNVARIED:
            parts.append(f"{name} x{lo:g}-{hi:g}")
    if len(parts) == 1:
        parts.append("no side to mirror and no ranges, so every seed is the canonical layout up to jitter")
    return "Family: " + "; ".join(parts) + "."


# ---------------------------------------------------------------------------------------------- helpers
def _map_expectation_words(expectations: Expectations, fn: Any) -> Expectations:
    return replace(expectations, perception=fn(expectations.perception),
                   correct_actions=tuple(fn(a) for a in expectations.correct_actions),
                   incorrect_actions=tuple(fn(a) for a in expectations.incorrect_actions),
                   pattern=fn(expectations.pattern))


def _signature(phase: Phase) -> tuple[Any, ...]:
    """A phase's geometry without names: what mirroring could change."""
    walls = sorted((w.center, w.size) for w in phase.walls)
    npcs = sorted((n.position, round(n.heading, 9), n.kind, n.behavior) for n in phase.npcs)
    events = sorted((e.at, e.npc, e.action, e.position or (0.0, 0.0)) for e in phase.events)
    priors = tuple((d.direction, d.motion, d.outcome) for d in phase.prior_decisions)
    return (tuple(walls), tuple(npcs), tuple(events), priors, phase.start_position,
            round(phase.start_heading, 9))
