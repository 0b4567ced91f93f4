"""The cards' Setup/Expected text says what the records do: numbers, decision splits and wall readings.

Every length, time and speed in a card's Setup paragraph must be *grounded* in the record: a wall's near
face, extent or length, an NPC's position or distance, an event time, a phase duration, a speed the record
uses — or one of a few named derived facts (the sensing ranges, a corridor's width, where an NPC stands when
the protagonist never moves — at its events, at the phase end with jitter taken at both ends, and at the last
decision). A typo or a stale number after a layout change fails here. The decision splits a card states
("3 with the beast, 7 after") are recomputed from the events, and the walls a record's Expectations call
danger(wall) / safe(open) are checked against the ray-cast stand-in.
"""

from __future__ import annotations

import math
import re

import pytest

from tests.scenarios.test_records import OFFICIAL, _by_id, _cone_reading, _frozen_views
from wmbench.core.directions import DIRECTIONS
from wmbench.core.entities import BEHAVIOR_SPEEDS
from wmbench.scenarios import get_scenario
from wmbench.scenarios.records import Phase, Scenario

DECISION_DT = 0.5
TOLERANCE = 0.051  # a card rounds to 0.1
#: documented constants a card may quote (docs/simulation.md): wall / NPC / hearing range, personal space,
#: ray range
SENSING_LENGTHS = (6.0, 8.0, 20.0, 2.0, 10.0)
#: the character's sprint speed (docs/simulation.md), quoted where a card compares it with a charge
SPRINT_SPEED = 6.5
#: its run speed, quoted where a card says a charge outruns a run (S11)
RUN_SPEED = 4.5
NUMBER = r"-?\d+(?:\.\d+)?"
QUANTITY = re.compile(rf"({NUMBER})(?:\s*(?:-|to)\s*\+?({NUMBER}))?\s*(m/s|m\b|s\b)")


def _section(card: str, name: str, following: str) -> str:
    match = re.search(rf"\n{name}: (.*?)\n{following}: ", card, re.S)
    assert match, f"card lacks a {name}: paragraph followed by {following}:"
    return " ".join(match.group(1).split())


def _decision_times(phase: Phase) -> list[float]:
    return [k * DECISION_DT for k in range(round(phase.duration / DECISION_DT))]


def _npc_distances_if_frozen(phase: Phase) -> set[float]:
    """Where each NPC is (distance from a protagonist who never moves) at each event and at the phase end,
    nominal and with the start jitter at both ends. Approach/charge head straight in (an approaching human
    stops 0.6 m short), retreat goes straight out, stop stands; cross and wander are left to the pools."""
    out: set[float] = set()
    for scale in (1.0 - phase.jitter, 1.0, 1.0 + phase.jitter):
        for npc in phase.npcs:
            if npc.behavior == "cross" or npc.behavior == "wander":
                continue
            distance, speed, behavior, clock = math.hypot(*npc.position) * scale, npc.resolved_speed, \
                npc.behavior, 0.0
            events = sorted((e for e in phase.events if e.npc == npc.name), key=lambda e: e.at)
            for until, event in [(e.at, e) for e in events] + [(phase.duration, None)]:
                step = speed * (until - clock)
                if behavior in ("approach", "charge"):
                    floor = 0.6 if npc.kind != "beast" else 0.0
                    distance = max(floor, distance - step)
                elif behavior == "retreat":
                    distance += step
                clock = until
                out.add(distance)
                if event is not None and event.action == "switch":
                    behavior = event.behavior or behavior
                    speed = BEHAVIOR_SPEEDS[behavior] if event.speed is None else event.speed
    return out


def _sector_boundary_times(position: tuple[float, float], heading: float, speed: float, duration: float
                           ) -> set[float]:
    """When a straight-walking NPC meets a 45° sector boundary (seen from the origin), and the first decision
    time after that (when the decisions see it in the new sector)."""
    (x0, y0), (vx, vy) = position, (speed * math.cos(heading), speed * math.sin(heading))
    out: set[float] = set()
    for sign in (1.0, -1.0):  # y = x and y = -x
        rate = vy - sign * vx
        if abs(rate) > 1e-12:
            t = (sign * x0 - y0) / rate
            if 0.0 <= t <= duration:
                out |= {t, (math.floor(t / DECISION_DT) + 1) * DECISION_DT}
    return out


def _grounded(record: Scenario) -> dict[str, set[float]]:
    """The lengths (m), times (s) and speeds (m/s) a card's Setup may quote for ``record``."""
    lengths: set[float] = set(SENSING_LENGTHS)
    times: set[float] = {0.0, record.duration}
    speeds: set[float] = {SPRINT_SPEED, RUN_SPEED}
    if record.family is not None:  # a drawn pursuit runs at its behaviour's own speed (S11's charge)
        speeds |= {BEHAVIOR_SPEEDS[b] for b in record.family.pursuits}
    start = 0.0
    for phase in record.phases:
        times |= {phase.duration, start, start + phase.duration}
        near_faces: dict[str, float] = {}
        for wall in phase.walls:
            x0, x1 = (wall.center[0] - wall.size[0] / 2, wall.center[0] + wall.size[0] / 2)
            y0, y1 = (wall.center[1] - wall.size[1] / 2, wall.center[1] + wall.size[1] / 2)
            lengths |= {abs(x0), abs(x1), abs(y0), abs(y1), *wall.size}
            for axis, (lo, hi) in (("x", (x0, x1)), ("y", (y0, y1))):
                if lo * hi > 0:  # the wall lies to one side of the origin on this axis: a near face
                    face = min(abs(lo), abs(hi))
                    lengths.add(face)
                    near_faces[f"{axis}{'+' if lo > 0 else '-'}"] = face
        for axis in ("x", "y"):  # a corridor's or a room's width between opposite near faces
            if f"{axis}+" in near_faces and f"{axis}-" in near_faces:
                lengths.add(near_faces[f"{axis}+"] + near_faces[f"{axis}-"])
        for a, b in zip(phase.walls, phase.walls[1:]):  # a doorway: the gap between two wall pieces
            lengths.add(abs(abs(a.center[0] - b.center[0]) - (a.size[0] + b.size[0]) / 2))
        lengths |= _npc_distances_if_frozen(phase)
        last_decision = _decision_times(phase)[-1]  # where each NPC stands at the phase's last decision
        lengths |= {distance for (t, _), (_, distance, _) in _frozen_views(phase, 1.0).items() if t == last_decision}
        for npc in phase.npcs:
            lengths |= {math.hypot(*npc.position), abs(npc.position[0]), abs(npc.position[1])}
            speeds.add(npc.resolved_speed)
            if npc.behavior in ("approach", "charge"):
                lengths.add(npc.resolved_speed * phase.duration)  # the distance it covers in the phase
                speeds.add(SPRINT_SPEED - npc.resolved_speed)  # what a sprinting protagonist gains
            if npc.behavior == "cross":  # when it crosses the line ahead and the sector boundaries
                times.add(abs(npc.position[1]) / npc.resolved_speed)
                times |= _sector_boundary_times(npc.position, npc.heading, npc.resolved_speed, phase.duration)
        for event in phase.events:
            times |= {event.at, phase.duration - event.at}
            if event.behavior is not None:
                speeds.add(BEHAVIOR_SPEEDS[event.behavior] if event.speed is None else event.speed)
        start += phase.duration
    return {"m": lengths, "s": times, "m/s": speeds}


@pytest.mark.parametrize("record", _by_id(OFFICIAL))
def test_every_number_in_the_setup_is_grounded_in_the_record(record: Scenario) -> None:
    setup = _section(record.card, "Setup", "Expected")
    pools = _grounded(record)
    quoted = [(float(value), unit) for m in QUANTITY.finditer(setup) for value in m.groups()[:2]
              if value is not None for unit in (m.group(3),)]
    ungrounded = [f"{value:g} {unit}" for value, unit in quoted
                  if not any(abs(abs(value) - known) < TOLERANCE for known in pools[unit])]
    assert not ungrounded, f"{record.id}: Setup quotes {ungrounded}, which the record does not contain"


def test_the_grounding_check_catches_a_wrong_number() -> None:
    pools = _grounded(get_scenario("S06"))
    assert any(abs(5.0 - known) < TOLERANCE for known in pools["m"])
    assert not any(abs(5.5 - known) < TOLERANCE for known in pools["m"])
    assert not any(abs(2.0 - known) < TOLERANCE for known in pools["s"])


# ---- decision splits ---------------------------------------------------------------------------------------

#: (scenario, phase index, event npc/action, the card's words, decisions before the event, at or after it)
SPLITS = [
    ("S08", 0, "switch", "the last three see the charge", 3, 3),
    ("S10", 0, "despawn", "three with the beast, three after it is gone", 3, 3),
    ("S22", 0, "switch", "10 before the switch, 6 after", 10, 6),
    ("S23", 0, "switch", "four of charge", 4, 12),
    ("S23", 0, "despawn", "eight after it is gone", 8, 8),
    ("S24", 0, "spawn", "a beast appears 6 m ahead at 0.5 s", 1, 5),
    ("S31", 0, "despawn", "3 with the beast, 7 after", 3, 7),
    ("S37", 0, "despawn", "the 6 after the despawn are judged", 2, 6),
    ("S38", 0, "spawn", "at 1.0 s a beast appears", 2, 4),
    ("S39", 0, "despawn", "the 6 after the despawn are judged", 4, 6),
    ("S34", 1, "spawn", "appears 6 m to the left at 1.5 s", 3, 4),
]


@pytest.mark.parametrize(("sid", "phase_index", "action", "words", "before", "after"), SPLITS,
                         ids=[f"{s[0]}-{s[2]}" for s in SPLITS])
def test_stated_decision_splits_follow_the_timeline(sid: str, phase_index: int, action: str, words: str,
                                                    before: int, after: int) -> None:
    record = get_scenario(sid)
    assert words in " ".join(record.card.split()), f"{sid}: card no longer says {words!r}"
    phase = record.phases[phase_index]
    (event,) = [e for e in phase.events if e.action == action]
    times = _decision_times(phase)
    # an event at exactly a decision time is already visible in that decision (docs/simulation.md)
    assert (sum(t < event.at for t in times), sum(t >= event.at for t in times)) == (before, after)


def test_s23_has_four_decisions_of_a_standing_beast() -> None:
    phase = get_scenario("S23").phases[0]
    stop, gone = (e.at for e in sorted(phase.events, key=lambda e: e.at))
    assert sum(stop <= t < gone for t in _decision_times(phase)) == 4
    assert "four of a standing beast" in " ".join(get_scenario("S23").card.split())


# ---- expectations vs the layout ----------------------------------------------------------------------------

_VERDICT = re.compile(r"\b(fwd|left|right|back)=(danger\(wall\)|safe\(open\))")


@pytest.mark.parametrize("record", _by_id(OFFICIAL))
def test_expected_wall_verdicts_match_the_sensed_walls(record: Scenario) -> None:
    """Each direction the Expectations call danger(wall) has a sensed wall in some phase at the start pose;
    each it calls safe(open) has none in any phase (S26's unseen wall reads open, as intended)."""
    sensed = {d for p in record.phases for d in DIRECTIONS if _cone_reading(p.walls, d) is not None}
    for direction, verdict in _VERDICT.findall(record.expectations.perception):
        if verdict == "danger(wall)":
            assert direction in sensed, f"{record.id}: {direction}=danger(wall) but no wall is sensed there"
        else:
            assert direction not in sensed, f"{record.id}: {direction}=safe(open) but a wall is sensed there"


# ---- wall extents and NPC coordinates ----------------------------------------------------------------------

EXTENT = re.compile(rf"\b([xy]) (?:from|=) ({NUMBER}) to \+?({NUMBER})")
COORDINATES = re.compile(rf"\(({NUMBER}), ({NUMBER})\)")


def _wall_extents(record: Scenario) -> set[tuple[str, float, float]]:
    """Each wall's span along x and y (the family's variant walls included: the card states them too), and the
    gap between two walls in line (a doorway)."""
    variant = record.family.variant_walls if record.family is not None else ()
    spans = {
        (axis, round(wall.center[i] - wall.size[i] / 2, 2), round(wall.center[i] + wall.size[i] / 2, 2))
        for walls in [*(phase.walls for phase in record.phases), variant] for wall in walls
        for i, axis in enumerate("xy")
    }
    gaps = {(a[0], a[2], b[1]) for a in spans for b in spans if a[0] == b[0] and a[2] < b[1]}
    return spans | gaps


def _npc_coordinates(record: Scenario) -> set[tuple[float, float]]:
    """Start (and spawn) positions, plus where a crossing NPC ends the phase."""
    out: set[tuple[float, float]] = set()
    for phase in record.phases:
        out |= {npc.position for npc in phase.npcs}
        out |= {e.position for e in phase.events if e.position is not None}
        for npc in phase.npcs:
            if npc.behavior == "cross":
                travel = npc.resolved_speed * phase.duration
                out.add((round(npc.position[0] + travel * math.cos(npc.heading), 2),
                         round(npc.position[1] + travel * math.sin(npc.heading), 2)))
    return out


@pytest.mark.parametrize("record", _by_id(OFFICIAL))
def test_stated_wall_extents_are_those_of_a_wall(record: Scenario) -> None:
    setup = _section(record.card, "Setup", "Expected")
    extents = _wall_extents(record)
    for axis, lo, hi in EXTENT.findall(setup):
        assert (axis, float(lo), float(hi)) in extents, f"{record.id}: no wall spans {axis} {lo}..{hi}"


@pytest.mark.parametrize("record", _by_id(OFFICIAL))
def test_stated_npc_coordinates_are_in_the_record(record: Scenario) -> None:
    setup = _section(record.card, "Setup", "Expected")
    known = _npc_coordinates(record)
    for x, y in COORDINATES.findall(setup):
        assert (float(x), float(y)) in known, f"{record.id}: no NPC at ({x}, {y})"


def test_extent_and_coordinate_patterns_find_what_the_cards_state() -> None:
    assert EXTENT.findall(_section(get_scenario("S12").card, "Setup", "Expected")) == [
        ("x", "-8", "6"), ("y", "-4", "1.7")]
    assert ("y", -4.0, 1.7) in _wall_extents(get_scenario("S12"))
    assert (4.0, -2.5) in _npc_coordinates(get_scenario("S15"))
    assert COORDINATES.findall(_section(get_scenario("S45").card, "Setup", "Expected")) == [
        ("3", "6"), ("3", "-6"), ("-5", "4")]
