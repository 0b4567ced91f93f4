"""Quadrotor: published parameters, mixer, hover, step response, intents, walls."""

from __future__ import annotations

import math

import numpy as np
import pybullet as p
import pytest

from tests.body.frame_loop import STEPS_PER_FRAME, run_frames
from wmbench.body.base import Body
from wmbench.body.drone.airframe import CRAZYFLIE_2X, Airframe, drone_urdf_text
from wmbench.body.drone.pid import GRAVITY
from wmbench.body.drone.quadrotor import (
    CLIMB_ALTITUDE,
    CROUCH_ALTITUDE,
    CRUISE_ALTITUDE,
    DRONE_SPEED_ENVELOPE,
    Quadrotor,
    stoppable_speed,
    stopping_distance,
)
from wmbench.body.intent.reader import parse_motion
from wmbench.body.intent.record import MotionIntent
from wmbench.core.speed import SpeedClass
from wmbench.scenarios import Wall

BACKSTEP = MotionIntent("back", math.pi, SpeedClass.WALK, frozenset({"backstep"}), face_travel=False)


@pytest.fixture
def drone(world):
    d = Quadrotor()
    d.spawn(world, (0.0, 0.0, 0.0), 0.0)
    return d


def test_published_crazyflie_parameters():
    cf = CRAZYFLIE_2X
    assert (cf.mass, cf.arm, cf.kf, cf.km) == (0.027, 0.0397, 3.16e-10, 7.94e-12)
    assert cf.rotor_offset == pytest.approx(0.028, abs=1e-4)
    assert cf.hover_rpm == pytest.approx(14468, rel=1e-3)
    assert 4 * cf.max_rotor_force == pytest.approx(2.25 * cf.mass * GRAVITY)
    assert 'mass value="0.027"' in drone_urdf_text() and 'ixx="1.4e-05"' in drone_urdf_text()


def test_mixer_inverts_thrust_and_torques_and_saturates():
    frame = Airframe()
    hover = frame.mix(CRAZYFLIE_2X.mass * GRAVITY, (0.0, 0.0, 0.0))
    assert all(r == pytest.approx(CRAZYFLIE_2X.hover_rpm) for r in hover.rpm)
    assert hover.yaw_torque == pytest.approx(0.0, abs=1e-12)
    rolled = frame.mix(0.3, (1e-4, 0.0, 0.0))
    left = rolled.forces[0] + rolled.forces[1]   # rotors at +y
    right = rolled.forces[2] + rolled.forces[3]
    assert left > right and sum(rolled.forces) == pytest.approx(0.3)
    yawed = frame.mix(0.3, (0.0, 0.0, 1e-5))
    assert yawed.yaw_torque == pytest.approx(1e-5)
    flat_out = frame.mix(10.0, (0.0, 0.0, 0.0))
    assert all(f == pytest.approx(CRAZYFLIE_2X.max_rotor_force) for f in flat_out.forces)


def test_card_facts(drone):
    assert isinstance(drone, Body)
    assert drone.name == "drone" and drone.needs_physics is True
    assert drone.sensor_height == pytest.approx(CRUISE_ALTITUDE)
    speeds = [DRONE_SPEED_ENVELOPE[c.value] for c in SpeedClass]
    assert speeds == sorted(speeds) and speeds[-1] == pytest.approx(3.0)


def test_hovering_two_seconds_settles_at_the_set_altitude(world, drone):
    run_frames(world, drone, 60)
    state = drone.state()
    assert abs(state.position[2] - CRUISE_ALTITUDE) < 0.05
    assert math.hypot(state.position[0], state.position[1]) < 0.05 and state.speed < 0.05


@pytest.mark.parametrize("text, altitude", [("crouches low", CROUCH_ALTITUDE), ("climbs up", CLIMB_ALTITUDE)])
def test_altitude_changes_settle_within_two_seconds(world, drone, text, altitude):
    drone.apply_intent(parse_motion(text))
    run_frames(world, drone, 60)
    state = drone.state()
    assert abs(state.position[2] - altitude) < 0.05
    assert drone.sensor_height == pytest.approx(state.position[2])
    if "crouch" in text:
        assert state.posture == "crouch"


def test_one_metre_per_second_step_settles_within_one_second(world, drone):
    run_frames(world, drone, 15)
    drone.command_velocity((1.0, 0.0))
    trace = []
    run_frames(world, drone, 45, every_step=lambda s: trace.append(s.velocity[0]))
    v = np.array(trace)
    outside = np.nonzero(np.abs(v - 1.0) > 0.1)[0]
    settle_s = (outside[-1] + 1) / 240 if len(outside) else 0.0
    print(f"\ndrone 1 m/s step: within 10 % after {settle_s:.3f} s, overshoot {100 * (v.max() - 1):.1f} %")
    assert settle_s <= 1.0 and abs(v[-1] - 1.0) < 0.02


def test_moving_intents_turn_and_fly_within_the_envelope(world, drone):
    drone.apply_intent(MotionIntent("left", math.pi / 2, SpeedClass.RUN))
    run_frames(world, drone, 45)
    state = drone.state()
    assert state.position[1] > 1.5 and abs(state.position[0]) < 0.3
    assert math.cos(state.heading - math.pi / 2) > 0.99 and state.speed_class == "run"


def test_back_step_keeps_the_yaw(world, drone):
    drone.apply_intent(BACKSTEP)
    run_frames(world, drone, 30)
    state = drone.state()
    assert state.position[0] < -0.3 and abs(state.heading) < 0.05


@pytest.mark.parametrize("start_heading", [0.0, 2.0])
def test_turning_around_flies_back_at_once_and_yaw_catches_up(world, drone, start_heading):
    """An about-turn that faces its travel (180° of yaw error, where the geometric attitude error vanishes)
    moves the drone back straight away while it yaws round."""
    drone.reset_pose((0.0, 0.0, 0.0), start_heading)
    run_frames(world, drone, 15)
    intent = parse_motion("turns around and sprints away")
    assert intent.face_travel and intent.heading == pytest.approx(math.pi)
    drone.apply_intent(intent)
    back = (-math.cos(start_heading), -math.sin(start_heading))
    yaw_error = []
    positions = []

    def record(state):
        positions.append(state.position[:2])
        yaw_error.append(abs(math.remainder(state.heading - start_heading - math.pi, 2 * math.pi)))

    run_frames(world, drone, 45, every_step=record)
    xy = np.array(positions)
    along = xy @ back                                   # metres moved backwards (start heading frame)
    across = xy @ (-back[1], back[0])
    one_s = 30 * STEPS_PER_FRAME
    assert along[one_s // 4] > 0.05                     # moving back within 0.25 s
    assert along[one_s - 1] > 1.5                       # and a clear way back within 1 s
    assert np.abs(across).max() < 0.1                   # the velocity set-point is tracked while turning
    reached = np.nonzero(np.array(yaw_error) < 0.05)[0]
    assert len(reached) and reached[0] < int(1.5 * 240)
    assert max(yaw_error[reached[0]:]) < 0.1            # and stays there
    assert drone.state().speed_class == "sprint"


def test_freeze_brakes_then_holds(world, drone):
    drone.apply_intent(MotionIntent("fwd", 0.0, SpeedClass.SPRINT))
    run_frames(world, drone, 20)
    drone.apply_intent(parse_motion("freezes"))
    run_frames(world, drone, 30)
    stop = drone.state().position
    run_frames(world, drone, 30)
    end = drone.state()
    assert math.dist(stop[:2], end.position[:2]) < 0.05 and end.speed < 0.05 and end.posture == "freeze"


def test_never_flies_into_a_wall(world, drone):
    world.set_walls([Wall.facing("fwd", 3.0, name="ahead")])
    drone.apply_intent(MotionIntent("fwd", 0.0, SpeedClass.SPRINT))
    xs = []
    reports = run_frames(world, drone, 90, every_step=lambda s: xs.append(s.position[0]))
    hits = [r for r in reports if r.collided]
    assert hits and hits[0].wall_name == "ahead"
    assert max(xs) < 3.0 - CRAZYFLIE_2X.collision_radius
    wall = next(iter(world.wall_body_ids))
    assert not p.getContactPoints(drone._id, wall, physicsClientId=world.client)


def test_braking_helpers_are_inverse():
    for v in (0.5, 1.5, 3.0):
        assert stoppable_speed(stopping_distance(v) - 0.05) == pytest.approx(v)
    assert stoppable_speed(-1.0) == 0.0


def test_reset_pose_puts_it_back_hovering(world, drone):
    drone.apply_intent(parse_motion("sprints left"))
    run_frames(world, drone, 10)
    drone.reset_pose((2.0, 1.0, 0.0), 1.0)
    state = drone.state()
    assert state.position == pytest.approx((2.0, 1.0, CRUISE_ALTITUDE))
    assert state.heading == pytest.approx(1.0)
    run_frames(world, drone, 30)
    assert math.dist(drone.state().position[:2], (2.0, 1.0)) < 0.05


def test_calls_before_spawn_fail_clearly():
    with pytest.raises(RuntimeError, match="before spawn"):
        Quadrotor().on_frame()


def test_an_npc_walking_through_the_hovering_drone_does_not_push_it():
    from wmbench.envs.wmbench_env import WMBenchEnv
    from wmbench.scenarios import NpcSpec, Phase, Scenario

    man = NpcSpec("m", "man", (-1.0, 0.0), "cross", heading=0.0)  # walks along +x straight through the drone
    scenario = Scenario(id="T90", category="C03", name="test", setup="test",
                        phases=(Phase(name="test", duration=2.0, npcs=(man,), jitter=0.0),))
    env = WMBenchEnv(scenario, body="drone", pace="scene")  # the man at his own speed: through within 2 s
    try:
        env.reset(seed=0)
        for _ in range(4):
            env.step("MOTION: hovers in place")
        man_x = env.crowd.npcs["m"].x
        x, y, z = env.body.state().position
    finally:
        env.close()
    assert man_x > 1.0                            # the man went right through the drone's place
    assert math.hypot(x, y) < 0.02 and abs(z - CRUISE_ALTITUDE) < 0.05


def test_the_frame_pose_is_the_states_bit_for_bit():
    """FramePose (issue 23, round 4): frame_pose() is state()'s x, y, heading and posture, bit for bit, and
    reading it instead of state() between frames leaves the next state() unchanged (rotor rpm, tilt)."""
    from wmbench.body.drone.quadrotor import Quadrotor
    from wmbench.body.intent.reader import parse_motion
    from wmbench.envs.world import World

    def fly(read_pose: bool) -> list:
        world = World(frame_dt=1 / 30, physics_dt=1 / 240)
        body = Quadrotor()
        out: list = []
        try:
            body.spawn(world, (0.0, 0.0, 0.0), 0.2)
            for text in ("a person sprints forward", "crouches low", "turns left and walks", "freezes"):
                body.apply_intent(parse_motion(text))
                for _ in range(15):
                    body.on_frame()
                    body.run_physics_steps(8, world.step_physics)
                    if read_pose:
                        out.append(body.frame_pose())
                    else:
                        s = body.state()
                        out.append((s.position[0], s.position[1], s.heading, s.posture))
                out.append(body.state().to_dict())
        finally:
            world.close()
        return out

    with_pose, with_state = fly(True), fly(False)
    assert with_pose == with_state
    assert {row[3] for row in with_pose if isinstance(row, tuple)} >= {"upright", "crouch", "freeze"}
