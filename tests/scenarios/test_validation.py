"""Scenario records refuse values they cannot run with, and the error names the field (issue 15)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from wmbench.scenarios import (
    NpcSpec,
    Phase,
    PriorDecision,
    Scenario,
    TimelineEvent,
    Wall,
    all_scenarios,
    get_scenario,
)
from wmbench.scenarios.validation import RecordError

NAN, INF = math.nan, math.inf


@pytest.mark.parametrize(("build", "field", "shown"), [
    (lambda: Wall((0.0, 0.0), (NAN, 1.0)), "size[0]", "nan"),
    (lambda: Wall((INF, 0.0), (1.0, 1.0)), "center[0]", "inf"),
    (lambda: Wall((0.0, 0.0), (1.0, 1.0), height=-2.0), "height", "-2.0"),
    (lambda: NpcSpec("b", "beast", (NAN, 1.0)), "position[0]", "nan"),
    (lambda: NpcSpec("b", "beast", (1.0, 1.0), "fly"), "behavior", "'fly'"),
    (lambda: NpcSpec("b", "dragon", (1.0, 1.0)), "kind", "'dragon'"),
    (lambda: NpcSpec("b", "beast", (1.0, 1.0), speed=-1.0), "speed", "-1.0"),
    (lambda: NpcSpec("b", "beast", (1.0, 1.0), speed=INF), "speed", "inf"),
    (lambda: TimelineEvent(1.0, "b", "explode"), "action", "'explode'"),
    (lambda: TimelineEvent(-1.0, "b", "despawn"), "at", "-1.0"),
    (lambda: TimelineEvent(1.0, "b", "switch", behavior="teleport"), "behavior", "'teleport'"),
    (lambda: Phase("p", NAN), "duration", "nan"),
    (lambda: Phase("p", 1.0, jitter=1.5), "jitter", "1.5"),
    (lambda: Phase("p", 1.0, start_heading=INF), "start_heading", "inf"),
    (lambda: PriorDecision(NAN, "walk", "fwd", "ok"), "t", "nan"),
    (lambda: PriorDecision(0.0, "walk", "up", "ok"), "direction", "'up'"),
])
def test_bad_value_is_refused_naming_the_field(build, field, shown) -> None:
    with pytest.raises(RecordError) as caught:
        build()
    message = str(caught.value)
    assert f"{field} must be" in message and f"got {shown}" in message


def test_a_bad_part_slipped_into_a_scenario_is_caught_by_the_scenario() -> None:
    """``object.__setattr__`` on a frozen part bypasses its constructor; the scenario still checks it."""
    wall = Wall((3.0, 0.0), (0.2, 4.0), name="w")
    object.__setattr__(wall, "size", (NAN, 4.0))
    with pytest.raises(RecordError, match=r"Wall 'w': size\[0\]"):
        Scenario("X90", "C01", "x", "x", (Phase("p", 2.0, walls=(wall,)),))


def test_scenario_words_are_checked() -> None:
    base = get_scenario("S01")
    with pytest.raises(RecordError, match="mode must be one of"):
        replace(base, mode="marathon")
    with pytest.raises(RecordError, match="difficulty must be one of"):
        replace(base, difficulty="brutal")


def test_every_shipped_scenario_passes() -> None:
    assert len(all_scenarios()) >= 50  # all built through the checked constructors at import
