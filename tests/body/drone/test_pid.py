"""PID primitives and the quadrotor cascade (no physics: one controller step at a time)."""

from __future__ import annotations

import math

import pytest

from wmbench.body.drone.pid import (
    GRAVITY,
    PID,
    CascadeGains,
    FlightState,
    PIDGains,
    QuadrotorCascade,
    Setpoint,
    led_yaw,
)

LEVEL = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
MASS, INERTIA = 0.027, (1.4e-5, 1.4e-5, 2.17e-5)


def still(z=1.2, rotation=LEVEL, velocity=(0.0, 0.0, 0.0), rates=(0.0, 0.0, 0.0)):
    return FlightState((0.0, 0.0, z), velocity, rotation, rates)


def roll(angle):
    c, s = math.cos(angle), math.sin(angle)
    return (1.0, 0.0, 0.0, 0.0, c, -s, 0.0, s, c)


def test_proportional_integral_derivative_terms():
    pid = PID(PIDGains(kp=2.0, ki=1.0, kd=0.5))
    assert pid.update(1.0, 0.1) == pytest.approx(2.0 + 0.1)          # first step: no derivative yet
    assert pid.update(2.0, 0.1) == pytest.approx(4.0 + 0.3 + 0.5 * 10.0)
    assert pid.update(2.0, 0.1, rate=3.0) == pytest.approx(4.0 + 0.5 - 1.5)  # derivative on measurement
    pid.reset()
    assert pid.integral == 0.0 and pid.update(0.0, 0.1) == 0.0


def test_integral_and_output_are_clamped():
    pid = PID(PIDGains(kp=0.0, ki=1.0, integral_limit=0.5, output_limit=0.3))
    for _ in range(100):
        out = pid.update(10.0, 0.1)
    assert pid.integral == pytest.approx(0.5) and out == pytest.approx(0.3)
    assert pid.update(-4.0, 0.1) == pytest.approx(0.1)   # the clamped integral unwinds at once


def test_hover_needs_weight_and_no_torque():
    ctrl = QuadrotorCascade(MASS, INERTIA)
    out = ctrl.update(still(), Setpoint(altitude=1.2), 1 / 240)
    assert out.thrust == pytest.approx(MASS * GRAVITY) and out.tilt == pytest.approx(0.0)
    assert all(t == pytest.approx(0.0, abs=1e-12) for t in out.torque)


def test_below_the_set_altitude_it_pushes_harder():
    ctrl = QuadrotorCascade(MASS, INERTIA)
    assert ctrl.update(still(z=0.8), Setpoint(altitude=1.2), 1 / 240).thrust > MASS * GRAVITY


def test_a_rolled_vehicle_gets_a_restoring_torque():
    ctrl = QuadrotorCascade(MASS, INERTIA)
    out = ctrl.update(still(rotation=roll(0.2)), Setpoint(altitude=1.2), 1 / 240)
    assert out.torque[0] < 0 and abs(out.torque[1]) < 1e-12


@pytest.mark.parametrize("direction, axis, sign", [((1.0, 0.0), 1, 1.0), ((0.0, 1.0), 0, -1.0)])
def test_a_velocity_demand_tilts_the_thrust_towards_it(direction, axis, sign):
    ctrl = QuadrotorCascade(MASS, INERTIA)
    out = ctrl.update(still(), Setpoint(velocity_xy=direction, altitude=1.2), 1 / 240)
    # pitch (about +y) forward to go +x; roll (about +x) negative to go +y
    assert sign * out.torque[axis] > 0 and out.tilt > 0.1


def test_tilt_never_exceeds_the_limit():
    gains = CascadeGains(max_tilt=math.radians(25))
    ctrl = QuadrotorCascade(MASS, INERTIA, gains)
    out = ctrl.update(still(), Setpoint(velocity_xy=(50.0, 0.0), altitude=1.2), 1 / 240)
    assert out.tilt == pytest.approx(math.radians(25), abs=1e-9)


def test_position_hold_pulls_back_to_the_hold_point():
    ctrl = QuadrotorCascade(MASS, INERTIA)
    state = FlightState((1.0, 0.0, 1.2), (0.0, 0.0, 0.0), LEVEL, (0.0, 0.0, 0.0))
    out = ctrl.update(state, Setpoint(altitude=1.2, hold=(0.0, 0.0)), 1 / 240)
    assert out.torque[1] < 0  # pitch back towards -x


LEAD = math.radians(50.0)


@pytest.mark.parametrize("current, target, expected", [
    (0.0, 0.3, 0.3),                                # within the lead: the set-point itself
    (0.0, 2.0, LEAD),                               # beyond it: led, towards the set-point
    (0.0, -2.0, -LEAD),
    (3.0, -3.0, 2 * math.pi - 3.0),                 # the shorter way round, across ±pi ...
    (3.0, -2.0, 3.0 + LEAD),                        # ... and led there
    (0.0, math.pi, LEAD),                           # exactly about: counter-clockwise ...
    (0.0, -math.pi, LEAD),                          # ... however the set-point is wrapped
    (-1e-9, math.pi, -1e-9 + LEAD),                 # ... and through measurement noise
    (1.0, 1.0 - math.pi, 1.0 + LEAD),
])
def test_led_yaw_never_runs_more_than_the_lead_ahead(current, target, expected):
    assert led_yaw(current, target, LEAD) == pytest.approx(expected, abs=1e-12)


def yawed(angle):
    c, s = math.cos(angle), math.sin(angle)
    return (c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0)


@pytest.mark.parametrize("heading", [0.0, 1.0, -2.5])
def test_an_about_turn_from_hover_yaws_and_tilts_back_at_once(heading):
    """At 180° of yaw error the plain geometric error is zero; led, the drone yaws counter-clockwise and
    already pitches towards the commanded (backward) velocity."""
    ctrl = QuadrotorCascade(MASS, INERTIA)
    back = (-math.cos(heading), -math.sin(heading))
    out = ctrl.update(still(rotation=yawed(heading)),
                      Setpoint(velocity_xy=back, altitude=1.2, yaw=heading + math.pi), 1 / 240)
    assert out.torque[2] > 0                       # counter-clockwise
    assert out.torque[1] < 0                       # pitch back: towards the body's -x
    assert out.tilt > 0.1
