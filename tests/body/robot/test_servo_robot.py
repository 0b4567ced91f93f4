"""ServoRobot: URDF, driven base, servo limits and tracking, pose fidelity, walls."""

from __future__ import annotations

import math

import numpy as np
import pybullet as p
import pytest

from tests.body.frame_loop import run_frames
from wmbench.body.base import Body
from wmbench.body.intent.reader import parse_motion
from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.registry import GENERATORS
from wmbench.body.robot.servo_map import LIMIT_TOLERANCE_RAD, SERVO_MAP
from wmbench.body.robot.servo_robot import CLEARANCE_RADIUS, ROBOT_SPEED_ENVELOPE, SOLVER_ITERATIONS, ServoRobot
from wmbench.body.robot.urdf import ROBOT_SCALE, robot_urdf_path, robot_urdf_text
from wmbench.body.skeleton import JOINT_NAMES
from wmbench.core.speed import SpeedClass
from wmbench.scenarios import Wall

MIXED = ("sprints forward in terror", "walks slowly left", "crouches low", "freezes", "jogs right cautiously",
         "steps back keeping eyes on the beast, arms raised defensively",
         "runs back glancing over the shoulder", "stands in relief", "bolts left in panic",
         "creeps forward, crouched")


@pytest.fixture
def robot(world):
    r = ServoRobot()
    r.spawn(world, (0.0, 0.0, 0.0), 0.0)
    return r


def test_card_facts_and_envelope(robot):
    assert isinstance(robot, Body)
    assert robot.name == "robot" and robot.needs_physics is True and robot.sensor_height == 1.2
    speeds = [ROBOT_SPEED_ENVELOPE[c.value] for c in SpeedClass]
    assert speeds == sorted(speeds) and speeds[0] == 0.0 and speeds[-1] == pytest.approx(2.5)


def test_urdf_has_the_servo_table_joints(world, robot):
    info = [p.getJointInfo(robot._id, j, physicsClientId=world.client)
            for j in range(p.getNumJoints(robot._id, physicsClientId=world.client))]
    assert len(info) == 20 and all(i[2] == p.JOINT_REVOLUTE for i in info)
    by_name = {i[1].decode(): i for i in info}
    for spec in SERVO_MAP.rows:
        joint = by_name[spec.name]
        limits = (joint[8], joint[9], joint[10], joint[11])
        assert limits == (spec.lower, spec.upper, spec.effort, spec.max_speed)
        assert joint[13] == spec.axis
    assert robot_urdf_path() == robot_urdf_path() and robot_urdf_path().read_text() == robot_urdf_text()


@pytest.mark.parametrize("generator", sorted(GENERATORS))
def test_no_servo_leaves_its_limits_over_many_mixed_frames(world, generator):
    robot = ServoRobot(generator=generator)
    robot.spawn(world, (0.0, 0.0, 0.0), 0.0)
    errors, commands, angles = [], [], []
    for text in MIXED:
        robot.apply_intent(parse_motion(text))
        for _ in range(20):
            run_frames(world, robot, 1)
            commands.append(robot.servo_command)
            angles.append(robot.servo_angles())
            errors.append(robot.state().extras["servo_tracking_error_rad"])
    commands, angles = np.array(commands), np.array(angles)
    assert np.all(commands >= SERVO_MAP.lower) and np.all(commands <= SERVO_MAP.upper)
    assert np.all(angles >= SERVO_MAP.lower - LIMIT_TOLERANCE_RAD)
    assert np.all(angles <= SERVO_MAP.upper + LIMIT_TOLERANCE_RAD)
    extras = robot.state().extras
    assert extras["servo_limit_violations"] == 0
    median = float(np.median(errors))
    rms = extras["servo_tracking_rms_rad"]
    print(f"\nrobot ({generator}) servo tracking error over {len(errors)} frames: median {median:.4f} rad "
          f"({math.degrees(median):.2f} deg), max {max(errors):.4f} rad, RMS {rms:.4f} rad")
    assert median < 0.05 and extras["servo_tracking_rms_rad"] < math.radians(5)


def test_rate_limit_holds_every_frame(world, robot):
    robot.apply_intent(parse_motion("sprints forward in terror"))
    previous = robot.servo_command
    for _ in range(30):
        run_frames(world, robot, 1)
        step = np.abs(robot.servo_command - previous)
        assert np.all(step <= SERVO_MAP.max_speed / 30 + 1e-9)
        previous = robot.servo_command


@pytest.mark.parametrize("text", ["stands", "crouches low", "raises arms defensively", "walks forward"])
def test_the_robot_takes_the_generators_pose(world, robot, text):
    robot.apply_intent(parse_motion(text))
    run_frames(world, robot, 45)
    state, links, joints = robot.state(), robot.link_positions(), robot._frame.joints
    c, s = math.cos(state.heading), math.sin(state.heading)
    for servo, joint, tolerance in (("left_knee", "left_knee", 0.02), ("right_ankle", "right_ankle", 0.03),
                                    ("left_elbow", "left_elbow", 0.035), ("right_knee", "right_knee", 0.02)):
        left, up, fwd = ROBOT_SCALE * joints[JOINT_NAMES.index(joint)]
        expected = (state.position[0] + fwd * c - left * s, state.position[1] + fwd * s + left * c, up)
        assert np.linalg.norm(links[servo] - expected) < tolerance, (servo, links[servo], expected)


def test_speed_ramps_within_015_s_and_classes_use_the_envelope(world, robot):
    robot.apply_intent(MotionIntent("fwd", 0.0, SpeedClass.SPRINT))
    run_frames(world, robot, 5)
    state = robot.state()
    assert state.speed == pytest.approx(2.5) and state.speed_class == "sprint"
    robot.apply_intent(MotionIntent("fwd", 0.0, SpeedClass.WALK))
    run_frames(world, robot, 5)
    assert robot.state().speed_class == "walk"
    assert robot.state().position[0] > 0.3


def test_turns_towards_travel_and_back_steps_keep_facing(world, robot):
    robot.apply_intent(MotionIntent("left", math.pi / 2, SpeedClass.JOG))
    run_frames(world, robot, 10)
    state = robot.state()
    assert math.cos(state.heading - math.pi / 2) == pytest.approx(1.0, abs=1e-6) and state.position[1] > 0.2
    robot.apply_intent(MotionIntent("back", math.pi, SpeedClass.WALK, frozenset({"backstep"}), False))
    run_frames(world, robot, 15)
    after = robot.state()
    assert after.heading == pytest.approx(state.heading, abs=1e-6) and after.position[1] < state.position[1]


def test_crouch_lowers_the_base(world, robot):
    standing = robot.state().position[2]
    robot.apply_intent(parse_motion("crouches low"))
    run_frames(world, robot, 20)
    assert robot.state().position[2] < standing - 0.1 and robot.state().posture == "crouch"


def test_stops_at_a_wall_and_reports_it(world, robot):
    world.set_walls([Wall.facing("fwd", 2.0, name="ahead")])
    robot.apply_intent(MotionIntent("fwd", 0.0, SpeedClass.SPRINT))
    reports = run_frames(world, robot, 60)
    hits = [r for r in reports if r.collided]
    assert hits and hits[0].wall_name == "ahead"
    x = robot.state().position[0]
    assert x == pytest.approx(2.0 - CLEARANCE_RADIUS, abs=1e-3) and x < 2.0 - CLEARANCE_RADIUS
    wall = next(iter(world.wall_body_ids))
    assert not p.getContactPoints(robot._id, wall, physicsClientId=world.client)  # no limb in the wall


def test_reset_pose_and_remove(world, robot):
    robot.apply_intent(parse_motion("runs left"))
    run_frames(world, robot, 10)
    robot.reset_pose((1.0, -2.0, 0.0), 0.5)
    state = robot.state()
    assert state.position[:2] == pytest.approx((1.0, -2.0)) and state.heading == pytest.approx(0.5)
    assert state.speed == 0.0
    assert robot.body_ids() == frozenset({robot._id})
    robot.remove()
    assert robot.body_ids() == frozenset() and p.getNumBodies(physicsClientId=world.client) == 1


def test_calls_before_spawn_fail_clearly():
    with pytest.raises(RuntimeError, match="before spawn"):
        ServoRobot().on_frame()


def _fly_robot(fused: bool) -> list[tuple]:
    """A turning, stopping walk; after every physics step the base pose and every servo's angle."""
    from wmbench.envs.world import World

    world = World(frame_dt=1 / 30, physics_dt=1 / 240)
    body = ServoRobot()
    rows: list[tuple] = []
    try:
        body.spawn(world, (0.0, 0.0, 0.0), 0.4)

        def step_and_record() -> None:
            world.step_physics()
            pose = p.getBasePositionAndOrientation(body._id, physicsClientId=world.client)
            rows.append((*pose[0], *pose[1], *body.servo_angles().tolist()))

        for text in ("a person runs forward", "turns around and sprints", "walks left", "freezes"):
            body.apply_intent(parse_motion(text))
            for _ in range(20):
                body.on_frame()
                if fused:
                    body.run_physics_steps(8, step_and_record)
                else:
                    for _ in range(8):
                        body.on_physics_step()
                        step_and_record()
                body.state()
    finally:
        world.close()
    return rows


def test_the_fused_physics_steps_equal_the_plain_loop_bit_for_bit():
    fused, plain = _fly_robot(True), _fly_robot(False)
    assert len(fused) == len(plain) == 4 * 20 * 8
    assert fused == plain  # exactly: the same root placements, computed the same way
    assert len({row[:2] for row in fused}) > 100  # the root really moved every step


def test_the_pairwise_sum_is_numpys_add_reduce_bit_for_bit():
    """The tracking error's mean sums on plain floats the way numpy's add.reduce does (pairwise, 8 running
    sums): the same bits for every length the kernel takes (up to 128; longer runs go to numpy itself), so the
    robot's traces did not change (issue 23, round 4)."""
    from wmbench.body.robot.servo_kernel import pairwise_sum

    rng = np.random.default_rng(11)
    for n in range(1, 129):
        for _ in range(40):
            values = np.abs(rng.normal(size=n)) * 10.0 ** rng.uniform(-9, 2, size=n)
            assert pairwise_sum(values.tolist(), n) == float(np.add.reduce(values)), n


def test_the_per_frame_command_is_numpys_clamp_and_rate_limit_bit_for_bit(world):
    """on_frame clamps, counts and rate-limits the 20 targets on plain floats; every frame's command and
    count must equal numpy's ``previous + clip(clip(target, lower, upper) - previous, -step, step)`` (the
    formula before round 4), over mixed intents; the limits are narrowed to their middle 30 % so that both
    bounds clamp, and the rate limit binds, many times."""
    from wmbench.body.robot.servo_map import ServoMap

    rows = []
    for row in SERVO_MAP.to_dicts():
        span = row["upper"] - row["lower"]
        rows.append({**row, "lower": row["lower"] + 0.35 * span, "upper": row["upper"] - 0.35 * span})
    robot = ServoRobot(servo_map=ServoMap.from_dicts(rows))
    robot.spawn(world, (0.0, 0.0, 0.0), 0.3)
    sm, dt = robot.servo_map, world.frame_dt
    step = sm.max_speed * dt
    clamped = limited = below = above = 0
    for text in MIXED:
        robot.apply_intent(parse_motion(text))
        for _ in range(12):
            previous = robot.servo_command
            count = robot._clamped
            robot.on_frame()
            target = sm.raw_targets(robot._frame.joints)
            want = previous + np.clip(np.clip(target, sm.lower, sm.upper) - previous, -step, step)
            got = robot.servo_command
            assert np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want))
            outside = int(np.count_nonzero((target < sm.lower) | (target > sm.upper)))
            assert robot._clamped - count == outside
            clamped += outside
            below += int(np.count_nonzero(target < sm.lower))
            above += int(np.count_nonzero(target > sm.upper))
            limited += int(np.count_nonzero(np.abs(np.clip(target, sm.lower, sm.upper) - previous) > step))
            for _ in range(8):
                robot.on_physics_step()
                world.step_physics()
    assert below > 0 and above > 0 and limited > 0  # every branch was exercised


def test_the_frame_pose_is_the_states_and_leaves_the_state_alone():
    """FramePose: frame_pose() gives state()'s x, y, heading and posture bit for bit, and a run that reads
    only frame_pose() between frames ends with the very state (servo statistics included) of a run that
    read state() every frame."""
    from wmbench.envs.world import World

    def fly(read_pose: bool) -> list:
        world = World(frame_dt=1 / 30, physics_dt=1 / 240)
        body = ServoRobot()
        out: list = []
        try:
            body.spawn(world, (0.0, 0.0, 0.0), 0.4)
            for text in ("a person runs forward", "turns around and sprints", "crouches low", "freezes"):
                body.apply_intent(parse_motion(text))
                for _ in range(15):
                    body.on_frame()
                    body.run_physics_steps(8, world.step_physics)
                    if read_pose:
                        pose = body.frame_pose()
                        out.append(pose)
                    else:
                        s = body.state()
                        out.append((s.position[0], s.position[1], s.heading, s.posture))
                full = body.state()
                out.append((full.to_dict(), body.frame_pose()))
        finally:
            world.close()
        return out

    with_pose, with_state = fly(True), fly(False)
    assert with_pose == with_state
    assert {row[3] for row in with_pose if len(row) == 4} >= {"upright", "crouch"}


def test_the_robots_world_runs_its_solver_iterations_and_a_world_reset_restores_the_default(world, robot):
    """The robot sets its world's solver iterations at spawn; resetting the world (every env reset does) gives
    the next body PyBullet's own default again, so no other body inherits the robot's setting."""
    iterations = p.getPhysicsEngineParameters(physicsClientId=world.client)["numSolverIterations"]
    assert iterations == SOLVER_ITERATIONS
    world.reset()
    assert p.getPhysicsEngineParameters(physicsClientId=world.client)["numSolverIterations"] == 50


def test_fewer_solver_iterations_change_only_how_tightly_the_servos_track(monkeypatch):
    """The module card's claim on one escape (S12, reference brain): with PyBullet's default 50 iterations
    instead of SOLVER_ITERATIONS, the robot goes the same way (same positions, replies and events), and the
    servo tracking RMS of each decision stays within 5 %."""
    from wmbench.body.robot import servo_robot
    from wmbench.brain.registry import get_brain
    from wmbench.harness.run.episode import run_episode

    def episode() -> dict:
        result = run_episode("S12", get_brain("reference"), body="robot", seed=0)
        assert result.ok and result.trace is not None, result.error
        return result.trace

    ours = episode()
    monkeypatch.setattr(servo_robot, "SOLVER_ITERATIONS", 50)
    default = episode()
    assert [d["reply"] for d in ours["decisions"]] == [d["reply"] for d in default["decisions"]]
    assert ours["events"] == default["events"]
    for a, b in zip(ours["decisions"], default["decisions"], strict=True):
        assert a["body_after"]["position"] == b["body_after"]["position"]
        rms_a = a["body_after"]["extras"]["servo_tracking_rms_rad"]
        rms_b = b["body_after"]["extras"]["servo_tracking_rms_rad"]
        assert rms_a == pytest.approx(rms_b, rel=0.05), (a["index"], rms_a, rms_b)
        assert a["body_after"]["extras"]["servo_limit_violations"] == 0
