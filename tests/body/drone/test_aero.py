"""Optional drone aerodynamics: off by default; drag, ground effect and downwash act as their models say."""

from __future__ import annotations

import math

import pytest

from tests.body.frame_loop import run_frames
from wmbench.body.drone.aero import (
    CRAZYFLIE_2X_AERO,
    GROUND_EFFECT_MAX_GAIN,
    AeroOptions,
    downwash_force,
    drag_force,
    ground_effect_gain,
)
from wmbench.body.drone.airframe import CRAZYFLIE_2X
from wmbench.body.drone.pid import GRAVITY
from wmbench.body.drone.quadrotor import Quadrotor


def test_the_default_drone_simulates_no_air():
    assert Quadrotor().aero is None
    assert Quadrotor(aero=AeroOptions()).aero is None  # all off is the same as none


def test_drag_opposes_the_body_velocity_with_the_identified_coefficients():
    rpm_sum = 4 * CRAZYFLIE_2X.hover_rpm
    fx, fy, fz = drag_force(CRAZYFLIE_2X_AERO, rpm_sum, (3.0, -1.0, 0.5))
    w = rpm_sum * 2 * math.pi / 60
    assert fx == pytest.approx(-9.1785e-7 * w * 3.0) and fy > 0 and fz == pytest.approx(-10.311e-7 * w * 0.5)
    assert 0.05 < -fx / (CRAZYFLIE_2X.mass * GRAVITY) < 0.08   # ~6 % of the weight at 3 m/s


def test_ground_effect_gain_is_capped_near_the_ground_and_vanishes_at_cruise_altitude():
    c = CRAZYFLIE_2X_AERO
    assert ground_effect_gain(c, 0.0) == pytest.approx(GROUND_EFFECT_MAX_GAIN)
    assert ground_effect_gain(c, c.ground_effect_min_height) == pytest.approx(GROUND_EFFECT_MAX_GAIN)
    assert ground_effect_gain(c, 0.1) == pytest.approx(11.36859 * (2.31348e-2 / 0.4) ** 2)
    assert ground_effect_gain(c, 1.2) < 1e-3


def test_downwash_only_from_above_and_nearby():
    c = CRAZYFLIE_2X_AERO
    me = (0.0, 0.0, 1.0)
    assert downwash_force(c, me, []) == 0.0
    assert downwash_force(c, me, [(0.0, 0.0, 0.5), (20.0, 0.0, 2.0)]) == 0.0   # below; too far
    straight = downwash_force(c, me, [(0.0, 0.0, 2.0)])
    assert straight == pytest.approx(2267.18 * (2.31348e-2 / 4.0) ** 2)
    assert 0.0 < downwash_force(c, me, [(0.3, 0.0, 2.0)]) < straight


def _settled(world, aero: AeroOptions | None, velocity=(0.0, 0.0), altitude=None, above=None) -> Quadrotor:
    drone = Quadrotor(aero=aero)
    drone.spawn(world, (0.0, 0.0, 0.0), 0.0)
    if above is not None:
        drone.rotorcraft_above = lambda: [above(drone)]
    drone.command_velocity(velocity, altitude)
    run_frames(world, drone, 90)   # 3 s
    return drone


def _mean_rpm(drone: Quadrotor) -> float:
    return sum(drone.state().extras["rotor_rpm"]) / 4


def test_cruising_against_drag_needs_a_steady_tilt(world):
    still_air = _settled(world, None, velocity=(3.0, 0.0))
    still_tilt = still_air.state().extras["tilt_rad"]
    still_air.remove()
    dragged = _settled(world, AeroOptions(drag=True), velocity=(3.0, 0.0))
    assert still_tilt < 0.01
    assert dragged.state().extras["tilt_rad"] == pytest.approx(math.atan(0.06), rel=0.3)   # ~6 % of weight
    assert dragged.state().speed == pytest.approx(3.0, abs=0.1)   # the controller still tracks


def test_ground_effect_lowers_the_rotor_speed_needed_to_hover_low(world):
    plain = _settled(world, None, altitude=0.1)
    plain_rpm = _mean_rpm(plain)
    plain.remove()
    cushioned = _settled(world, AeroOptions(ground_effect=True), altitude=0.1)
    assert cushioned.state().position[2] == pytest.approx(0.1, abs=0.02)
    gain = ground_effect_gain(CRAZYFLIE_2X_AERO, 0.1)
    assert _mean_rpm(cushioned) == pytest.approx(plain_rpm / math.sqrt(1 + gain), rel=0.005)


def test_downwash_from_a_craft_above_needs_more_thrust(world):
    plain = _settled(world, None)
    plain_rpm = _mean_rpm(plain)
    plain.remove()
    pushed = _settled(world, AeroOptions(downwash=True),
                      above=lambda d: (d.state().position[0], d.state().position[1], d.state().position[2] + 1.0))
    extra = downwash_force(CRAZYFLIE_2X_AERO, (0.0, 0.0, 0.0), [(0.0, 0.0, 1.0)])
    weight = CRAZYFLIE_2X.mass * GRAVITY
    assert _mean_rpm(pushed) == pytest.approx(plain_rpm * math.sqrt((weight + extra) / weight), rel=0.005)
