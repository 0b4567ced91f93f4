"""Checks that a scenario record's values are usable, run when each record is constructed.

Card
----
- **Why.** Records are plain data a user can write; a NaN wall size is invisible to perception yet blocks the
  body, a negative speed walks an NPC backwards, and an unknown event action used to act as a despawn.
  Catching these at construction turns a silent, meaningless episode into one clear error.
- **What.** :func:`check_wall`, :func:`check_npc`, :func:`check_event`, :func:`check_phase` and
  :func:`check_scenario` raise :class:`RecordError` (a ``ValueError``) naming the record, the field, what was
  expected and what arrived, e.g. ``Wall 'wall_fwd': size[0] must be a finite number > 0, got nan``.
- **Rules.** Every number finite; wall sizes and heights > 0; NPC speeds, event times, phase durations and
  prior-decision times >= 0 (durations > 0); ``jitter`` in [0, 1); behaviours, NPC kinds, event actions
  and directions from their closed sets (:mod:`wmbench.scenarios.records`).
- **Where.** The record classes call these from ``__post_init__``; this module holds the rules only, so the
  records stay declarative.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from wmbench.core.directions import DIRECTIONS
from wmbench.core.entities import BEHAVIORS, NPC_KINDS
from wmbench.core.errors import ConfigError

#: The actions a timeline event may take (kinds, behaviours and directions: :mod:`wmbench.core`).
EVENT_ACTIONS = ("switch", "spawn", "despawn")


class RecordError(ConfigError):
    """A scenario record holds a value it cannot run with; the message names the record and the field."""


def _number(owner: str, name: str, value: object, *, minimum: float | None = None, strict: bool = False) -> None:
    """``value`` must be a real finite number, >= ``minimum`` (> when ``strict``)."""
    bound = "" if minimum is None else f" {'>' if strict else '>='} {minimum:g}"
    expected = f"a finite number{bound}"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RecordError(f"{owner}: {name} must be {expected}, got {value!r} ({type(value).__name__})")
    if not math.isfinite(value):
        raise RecordError(f"{owner}: {name} must be {expected}, got {value!r}")
    if minimum is not None and (value <= minimum if strict else value < minimum):
        raise RecordError(f"{owner}: {name} must be {expected}, got {value!r}")


def _pair(owner: str, name: str, value: object, *, minimum: float | None = None, strict: bool = False) -> None:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise RecordError(f"{owner}: {name} must be a pair (x, y), got {value!r}")
    for i, component in enumerate(value):
        _number(owner, f"{name}[{i}]", component, minimum=minimum, strict=strict)


def _word(owner: str, name: str, value: object, allowed: Iterable[str]) -> None:
    allowed = tuple(allowed)
    if value not in allowed:
        raise RecordError(f"{owner}: {name} must be one of {', '.join(allowed)}, got {value!r}")


def check_wall(wall: Any) -> None:
    owner = f"Wall {wall.name!r}"
    _pair(owner, "center", wall.center)
    _pair(owner, "size", wall.size, minimum=0.0, strict=True)
    _number(owner, "height", wall.height, minimum=0.0, strict=True)


def check_wall_placement(direction: Any, distance: Any, length: Any, offset: Any) -> None:
    """The arguments of ``Wall.facing``: a known direction, a distance > 0 (a negative one would put the wall
    on the opposite side: a ``fwd`` wall at -2 m is a back wall), a length > 0, a finite offset."""
    owner = f"Wall.facing({direction!r}, ...)"
    _word(owner, "direction", direction, DIRECTIONS)
    _number(owner, "distance", distance, minimum=0.0, strict=True)
    _number(owner, "length", length, minimum=0.0, strict=True)
    _number(owner, "offset", offset)


def check_npc(npc: Any) -> None:
    owner = f"NpcSpec {npc.name!r}"
    _word(owner, "kind", npc.kind, NPC_KINDS)
    _pair(owner, "position", npc.position)
    _word(owner, "behavior", npc.behavior, BEHAVIORS)
    if npc.speed is not None:
        _number(owner, "speed", npc.speed, minimum=0.0)
    _number(owner, "heading", npc.heading)


def check_event(event: Any) -> None:
    owner = f"TimelineEvent for {event.npc!r} at {event.at!r}"
    _number(owner, "at", event.at, minimum=0.0)
    _word(owner, "action", event.action, EVENT_ACTIONS)
    if event.behavior is not None:
        _word(owner, "behavior", event.behavior, BEHAVIORS)
    if event.speed is not None:
        _number(owner, "speed", event.speed, minimum=0.0)
    if event.position is not None:
        _pair(owner, "position", event.position)


def check_prior_decision(decision: Any) -> None:
    owner = f"PriorDecision at {decision.t!r}"
    _number(owner, "t", decision.t)
    if decision.direction is not None:
        _word(owner, "direction", decision.direction, DIRECTIONS)


def check_phase(phase: Any) -> None:
    owner = f"Phase {phase.name!r}"
    _number(owner, "duration", phase.duration, minimum=0.0, strict=True)
    _pair(owner, "start_position", phase.start_position)
    _number(owner, "start_heading", phase.start_heading)
    _number(owner, "jitter", phase.jitter, minimum=0.0)
    if phase.jitter >= 1.0:
        raise RecordError(f"{owner}: jitter must be a finite number in [0, 1), got {phase.jitter!r}")


def check_scenario(record: Any) -> None:
    """The scenario-level fields, and every phase, wall, NPC, event and prior decision again (cheap, and it
    also covers parts built without their constructor, e.g. by ``object.__new__`` or unpickling)."""
    owner = f"scenario {record.id}"
    _word(owner, "mode", record.mode, ("bench", "live", "transfer"))
    _word(owner, "difficulty", record.difficulty, ("easy", "medium", "hard"))
    for phase in record.phases:
        check_phase(phase)
        for wall in phase.walls:
            check_wall(wall)
        for npc in phase.npcs:
            check_npc(npc)
        for event in phase.events:
            check_event(event)
        for decision in phase.prior_decisions:
            check_prior_decision(decision)
    for direction in record.expectations.safe_directions:
        _word(owner, "expectations.safe_directions", direction, DIRECTIONS)
