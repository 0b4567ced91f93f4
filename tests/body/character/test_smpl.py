"""SmplCharacter: root kinematics (ramp, turn, back-step, walls), joint mapping, lazy visuals."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pybullet as p
import pytest

from wmbench.body.base import Body
from wmbench.body.character.smpl import CLEARANCE_RADIUS, SmplCharacter
from wmbench.body.intent.record import MotionIntent
from wmbench.body.skeleton import N_JOINTS
from wmbench.core.speed import SpeedClass
from wmbench.scenarios import Wall


def intent(direction, speed_class=SpeedClass.SPRINT, face_travel=True, styles=()):
    headings = {"fwd": 0.0, "left": math.pi / 2, "right": -math.pi / 2, "back": math.pi}
    return MotionIntent(direction, headings[direction], speed_class, frozenset(styles), face_travel)


@pytest.fixture
def body(world):
    b = SmplCharacter()
    b.spawn(world, (0.0, 0.0, 0.0), 0.0)
    return b


@dataclass(frozen=True)
class _Frame:
    joints: np.ndarray
    gait_phase: float
    posture: str


class MarkerGenerator:
    """Pelvis at 0.9 m, every other joint 0.5 m ahead (+z) of it and 0.2 m to its left (+x); posture fixed."""

    def __init__(self, fps):
        self.fps = fps

    def set_intent(self, intent):
        pass

    def next_frame(self, speed):
        joints = np.tile([0.2, 0.9, 0.5], (N_JOINTS, 1))
        joints[0] = (0.0, 0.9, 0.0)
        return _Frame(joints, 0.0, "crouch")


def test_card_facts(body):
    assert isinstance(body, Body)
    assert body.name == "smpl" and body.needs_physics is False and body.sensor_height == 1.2


def test_speed_reaches_its_target_within_015_s(body):
    body.apply_intent(intent("fwd"))
    speeds = []
    for _ in range(6):
        body.on_frame()
        speeds.append(body.state().speed)
    assert speeds[3] < 6.5                       # 0.133 s: still ramping
    assert speeds[4] == pytest.approx(6.5)       # 0.167 s >= 0.15 s
    assert body.state().speed_class == "sprint"
    body.apply_intent(MotionIntent.still())
    for _ in range(5):
        body.on_frame()
    assert body.state().speed == 0.0 and body.state().speed_class == "still"


@pytest.mark.parametrize("direction, heading",
                         [("right", -math.pi / 2), ("back", math.pi), ("left", math.pi / 2)])
def test_turns_to_the_travel_heading_within_02_s(body, direction, heading):
    body.apply_intent(intent(direction, SpeedClass.WALK))
    for _ in range(6):  # 0.2 s
        body.on_frame()
    state = body.state()
    assert math.cos(state.heading - heading) == pytest.approx(1.0, abs=1e-9)
    assert math.atan2(state.velocity[1], state.velocity[0]) == pytest.approx(heading)


def test_a_back_step_keeps_facing(body):
    body.apply_intent(intent("back", SpeedClass.WALK, face_travel=False, styles=("backstep",)))
    for _ in range(15):
        body.on_frame()
    state = body.state()
    assert state.heading == 0.0 and state.position[0] < -0.5 and abs(state.position[1]) < 1e-9


def test_stops_at_a_wall_and_reports_it(world, body):
    world.set_walls([Wall.facing("fwd", 2.0, name="ahead")])
    body.apply_intent(intent("fwd"))
    reports = [body.on_frame() for _ in range(30)]
    hit = [r for r in reports if r.collided]
    assert hit and hit[0].wall_name == "ahead"
    assert body.state().position[0] == pytest.approx(2.0 - CLEARANCE_RADIUS, abs=1e-3)
    assert body.state().position[0] < 2.0 - CLEARANCE_RADIUS


def test_reset_pose_puts_it_back_standing(body):
    body.apply_intent(intent("left"))
    for _ in range(10):
        body.on_frame()
    body.reset_pose((1.0, -2.0, 0.0), 0.5)
    state = body.state()
    assert state.position[:2] == (1.0, -2.0) and state.heading == 0.5 and state.speed == 0.0


def test_motion_space_maps_to_the_world_and_posture_comes_from_the_generator(world):
    body = SmplCharacter(generator_factory=MarkerGenerator)
    body.spawn(world, (1.0, 2.0, 0.0), math.pi / 2)  # facing +y: motion forward (+z) -> world +y
    joints = body.world_joints()
    assert joints[0] == pytest.approx([1.0, 2.0, 0.9])
    assert joints[5] == pytest.approx([1.0 - 0.2, 2.0 + 0.5, 0.9])  # left of a +y heading is -x
    assert body.state().posture == "crouch" and body.state().position[2] == pytest.approx(0.9)


def test_real_generator_frames_are_used(body):
    body.apply_intent(intent("fwd", SpeedClass.RUN, styles=("fear",)))
    for _ in range(10):
        body.on_frame()
    joints = body.world_joints()
    assert joints.shape == (22, 3)
    assert joints[:, 2].min() >= -0.05 and joints[15, 2] > joints[0, 2]  # head above pelvis, feet near floor


def test_visuals_are_created_only_when_synced_and_never_hit_by_rays(world, body):
    assert body.body_ids() == frozenset()
    body.sync_visuals()
    ids = body.body_ids()
    assert len(ids) == 22  # 21 bones + head
    assert all(p.getCollisionShapeData(i, -1, physicsClientId=world.client) == () for i in ids)
    hit = world.cast_rays([(-3, 0, 1.0)], [(3, 0, 1.0)])[0]
    assert hit.body_id == -1
    body.remove()
    assert body.body_ids() == frozenset() and p.getNumBodies(physicsClientId=world.client) == 1
