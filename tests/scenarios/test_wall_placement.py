"""Issue 24 item 13: a wall placed by distance refuses a distance that would put it on the other side."""

from __future__ import annotations

import math

import pytest

from wmbench.scenarios.records import Wall
from wmbench.scenarios.validation import RecordError


@pytest.mark.parametrize("distance", [-2.0, 0.0, math.nan, math.inf])
def test_wall_facing_refuses_a_distance_that_is_not_positive_and_finite(distance):
    with pytest.raises(RecordError, match=r"Wall.facing\('fwd', ...\): distance must be a finite number > 0"):
        Wall.facing("fwd", distance)


def test_a_positive_distance_still_places_the_wall_ahead():
    wall = Wall.facing("fwd", 2.0)
    assert wall.center[0] > 2.0  # ahead (+x), its near face at 2 m


def test_an_unknown_direction_is_a_record_error_not_a_key_error():
    with pytest.raises(RecordError, match="direction must be one of fwd, left, right, back, got 'up'"):
        Wall.facing("up", 2.0)  # type: ignore[arg-type]
