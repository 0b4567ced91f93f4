"""The reference brain closed loop with the robot and the drone: no wall is hit or passed, and how often each
body is caught (their envelopes are slower than the character's: robot sprint 2.5 m/s, drone 3 m/s, against a
charging beast's 5 m/s).

Checked (C01, C03, C04, C06, C07, every scenario, seed 0): no ``collision:wall`` event, and no decision moves
the body into or across a wall box of its phase (the straight segment from ``body_before`` to ``body_after``
must miss every wall footprint). Reported (C05 and C08 too): the caught rate per body, with the character as
the baseline; it is printed and carried in the summary assertion's message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from wmbench.body.registry import available_bodies, get_body
from wmbench.harness.run.episode import EpisodeResult
from wmbench.scenarios import all_scenarios
from wmbench.scenarios.records import Wall
from wmbench.scenarios.registry import get_scenario

SEED = 0
#: The registered bodies that run physics (built-ins: robot, drone); the kinematic character is the baseline.
DYNAMIC_BODIES = tuple(name for name in available_bodies() if get_body(name).needs_physics)
REPORTED_BODIES = ("smpl", *DYNAMIC_BODIES)  # the character is the baseline of the caught report
CHECKED_CATEGORIES = ("C01", "C03", "C04", "C06", "C07")
REPORTED_ONLY_CATEGORIES = ("C05", "C08")
CHECKED_IDS = [s.id for s in all_scenarios() if s.category in CHECKED_CATEGORIES]
REPORTED_ONLY_IDS = [s.id for s in all_scenarios() if s.category in REPORTED_ONLY_CATEGORIES]

Point = tuple[float, float]


@dataclass(frozen=True)
class WallCrossing:
    """A decision whose straight path from start to end touches a wall's footprint."""

    scenario_id: str
    decision: int
    phase: int
    wall: str
    start: Point
    end: Point

    def __str__(self) -> str:
        return (f"{self.scenario_id} decision {self.decision} (phase {self.phase}): "
                f"({self.start[0]:.3f}, {self.start[1]:.3f}) -> ({self.end[0]:.3f}, {self.end[1]:.3f}) "
                f"enters {self.wall}")


def segment_touches_wall(start: Point, end: Point, wall: Wall) -> bool:
    """Whether the segment start->end meets the wall's axis-aligned footprint (closed box; slab test)."""
    t_enter, t_leave = 0.0, 1.0
    for axis in (0, 1):
        low = wall.center[axis] - wall.size[axis] / 2
        high = wall.center[axis] + wall.size[axis] / 2
        step = end[axis] - start[axis]
        if abs(step) < 1e-12:
            if not low <= start[axis] <= high:
                return False
            continue
        a, b = (low - start[axis]) / step, (high - start[axis]) / step
        t_enter, t_leave = max(t_enter, min(a, b)), min(t_leave, max(a, b))
        if t_enter > t_leave:
            return False
    return True


def wall_crossings(result: EpisodeResult) -> list[WallCrossing]:
    """Every decision of the episode whose movement touches a wall of its phase."""
    phases = get_scenario(result.scenario).phases
    found = []
    for d in result.trace["decisions"]:
        start = tuple(d["body_before"]["position"][:2])
        end = tuple(d["body_after"]["position"][:2])
        for wall in phases[d["phase"]].walls:
            if segment_touches_wall(start, end, wall):
                found.append(WallCrossing(result.scenario, d["index"], d["phase"], wall.name, start, end))
    return found


def caught_decisions(result: EpisodeResult) -> list[int]:
    return [d["index"] for d in result.trace["decisions"] if any(e["kind"] == "caught" for e in d["events"])]


@pytest.fixture(scope="module")
def runs(reference_episode) -> dict[tuple[str, str], EpisodeResult]:
    # the session's shared reference episodes (tests/conftest.py): the robot suite-limits test reads the same ones
    return {(body, sid): reference_episode(sid, body=body, seed=SEED)
            for body in REPORTED_BODIES for sid in CHECKED_IDS + REPORTED_ONLY_IDS}


def test_the_wall_check_sees_a_body_passing_through_a_wall():
    wall_ahead = Wall.facing("fwd", 3.0)  # S01's wall: near face 3 m ahead, 0.2 m thick
    assert segment_touches_wall((2.0, 0.0), (4.0, 0.0), wall_ahead)      # straight through
    assert segment_touches_wall((2.0, 0.0), (3.1, 0.0), wall_ahead)      # ends inside it
    assert segment_touches_wall((2.5, 3.0), (3.5, 4.5), wall_ahead)      # clips its end corner
    assert not segment_touches_wall((2.0, 0.0), (2.9, 0.0), wall_ahead)  # stops short
    assert not segment_touches_wall((2.0, 4.5), (4.0, 4.5), wall_ahead)  # passes beyond its end
    assert not segment_touches_wall((3.5, 0.0), (3.5, 0.0), wall_ahead)  # standing behind it


@pytest.mark.parametrize("sid", CHECKED_IDS)
@pytest.mark.parametrize("body", DYNAMIC_BODIES)
def test_reference_closed_loop_never_hits_nor_passes_a_wall(runs, body, sid):
    result = runs[(body, sid)]
    assert result.ok, f"{body} {sid}: the episode failed: {result.error}"
    assert result.n_decisions > 0
    hits = [(e["t"], e["detail"]) for e in result.trace["events"] if e["kind"] == "collision:wall"]
    assert not hits, f"{body} {sid}: collision:wall at (t, detail) {hits}"
    crossings = wall_crossings(result)
    assert not crossings, f"{body}: " + "; ".join(map(str, crossings))


def caught_line(runs: dict[tuple[str, str], EpisodeResult], body: str, ids: Sequence[str], label: str) -> str:
    caught = [sid for sid in ids if caught_decisions(runs[(body, sid)])]
    return f"{len(caught)}/{len(ids)} = {len(caught) / len(ids):.0%} on {label} {caught or ''}".rstrip()


def test_caught_rate_report(runs):
    report = "\n".join(
        f"{body:5s} caught {caught_line(runs, body, CHECKED_IDS, '/'.join(CHECKED_CATEGORIES))}; "
        f"{caught_line(runs, body, REPORTED_ONLY_IDS, '/'.join(REPORTED_ONLY_CATEGORIES))}"
        for body in REPORTED_BODIES)
    print(f"\nreference brain closed loop, seed {SEED}:\n{report}")
    failed = {key: r.error.splitlines()[0] for key, r in runs.items() if not r.ok}
    assert not failed, f"episodes failed: {failed}\n{report}"
    for (body, sid), result in runs.items():  # a catch ends the episode, on the decision that recorded it
        caught = caught_decisions(result)
        assert caught in ([], [result.n_decisions - 1]), (
            f"{body} {sid}: caught at decisions {caught} of {result.n_decisions}\n{report}")
