"""Realized motion: direction, distance, speed class, posture and threat distance of one decision."""

from __future__ import annotations

import math

import pytest

from wmbench.body.base import BodyState
from wmbench.envs.realized import RealizedTracker, classify_speed


@pytest.mark.parametrize("speed, name", [(0.0, "still"), (0.69, "still"), (0.71, "walk"), (2.3, "jog"),
                                         (3.8, "run"), (5.49, "run"), (5.51, "sprint"), (9.0, "sprint")])
def test_speed_classes_split_halfway(speed, name):
    assert classify_speed(speed) == name


def test_tracker_measures_relative_direction_distance_and_speed():
    start = BodyState(position=(1.0, 1.0, 0.9), heading=math.pi / 2, velocity=(0, 0, 0), speed=0.0)
    tracker = RealizedTracker(start, threat_distance=5.0)
    for k in range(1, 16):  # moving along -x = to the right of a +y heading, 3 m/s
        tracker.observe(1.0 - 0.1 * k, 1.0, "crouch" if k > 5 else "upright", 1 / 30, 5.0 - 0.1 * k)
    r = tracker.result()
    assert r.direction == "left"  # heading +y: -x is the body's left
    assert r.distance == pytest.approx(1.5)
    assert r.mean_speed == pytest.approx(3.0)
    assert r.speed_class == "jog" and r.posture == "crouch"
    assert r.min_threat_distance == pytest.approx(3.5)
    assert set(r.to_dict()) == {"direction", "distance", "mean_speed", "speed_class", "posture",
                                "min_threat_distance"}


def test_standing_has_no_direction_and_no_threat():
    start = BodyState(position=(0, 0, 0.9), heading=0.0, velocity=(0, 0, 0), speed=0.0, posture="freeze")
    tracker = RealizedTracker(start, threat_distance=None)
    for _ in range(15):
        tracker.observe(0.01, 0.0, "freeze", 1 / 30, None)
    r = tracker.result()
    assert r.direction is None and r.speed_class == "still" and r.posture == "freeze"
    assert r.min_threat_distance is None


@pytest.mark.parametrize("sequence, posture", [
    (["upright"] * 5 + ["crouch"] * 5 + ["freeze"] * 2, "crouch"),  # a tie not involving the last frame
    (["crouch"] * 5 + ["upright"] * 5, "upright"),                  # a tie with the last frame
    (["crouch"] * 6 + ["upright"] * 5, "crouch"),                   # no tie: most frames
])
def test_posture_is_the_most_seen_and_a_tie_goes_to_the_later_one(sequence, posture):
    start = BodyState(position=(0, 0, 0.9), heading=0.0, velocity=(0, 0, 0), speed=0.0)
    tracker = RealizedTracker(start, threat_distance=None)
    for seen in sequence:
        tracker.observe(0.0, 0.0, seen, 1 / 30, None)
    assert tracker.result().posture == posture
