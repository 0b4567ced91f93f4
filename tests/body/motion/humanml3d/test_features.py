"""HumanML3D 263-dim features: layout, invariances, contacts, rotations and the round trip to joints."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.humanml3d.features import (
    LAYOUT,
    N_FEATURES,
    facing_yaw,
    features_to_joints,
    initial_alignment,
    joints_to_features,
)
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES
from wmbench.core.speed import SpeedClass

J = {name: i for i, name in enumerate(JOINT_NAMES)}

INTENTS = {
    "walk": MotionIntent("fwd", 0.0, SpeedClass.WALK),
    "jog": MotionIntent("fwd", 0.0, SpeedClass.JOG),
    "run": MotionIntent("fwd", 0.0, SpeedClass.RUN),
    "sprint": MotionIntent("fwd", 0.0, SpeedClass.SPRINT),
    "turn_left_jog": MotionIntent("left", math.pi / 2, SpeedClass.JOG),
    "turn_right_sprint_fear": MotionIntent("right", -math.pi / 2, SpeedClass.SPRINT,
                                           frozenset({"fear", "glance_back"})),
    "about_turn_walk": MotionIntent("back", math.pi, SpeedClass.WALK, frozenset({"caution"})),
    "backstep_defensive": MotionIntent("back", math.pi, SpeedClass.WALK, frozenset({"backstep", "defensive"}),
                                       face_travel=False),
    "crouch_walk": MotionIntent("fwd", 0.0, SpeedClass.WALK, frozenset({"crouch"})),
    "freeze": MotionIntent.still(styles=frozenset({"freeze"})),
    "relief": MotionIntent.still(styles=frozenset({"relief"})),
}


@pytest.fixture(scope="module")
def clips() -> dict[str, np.ndarray]:
    gen = ProceduralGenerator()
    return {name: gen.clip(it, 90) for name, it in INTENTS.items()}


def rotate_about_y(joints: np.ndarray, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    out = joints.copy()
    out[..., 0] = c * joints[..., 0] + s * joints[..., 2]
    out[..., 2] = -s * joints[..., 0] + c * joints[..., 2]
    return out


def test_layout_adds_up_to_263():
    parts = [LAYOUT.root_rot_velocity, LAYOUT.root_linear_velocity, LAYOUT.root_height, LAYOUT.ric,
             LAYOUT.rotations_6d, LAYOUT.local_velocity, LAYOUT.foot_contact]
    sizes = [p.stop - p.start for p in parts]
    assert sizes == [1, 2, 1, 63, 126, 66, 4]
    assert all(a.stop == b.start for a, b in itertools.pairwise(parts))
    assert parts[0].start == 0 and LAYOUT.size == N_FEATURES == 263


@pytest.mark.parametrize("name", sorted(INTENTS))
def test_features_shape(clips, name):
    features = joints_to_features(clips[name])
    assert features.shape == (89, 263)
    assert np.all(np.isfinite(features))


@pytest.mark.parametrize("name", sorted(INTENTS))
def test_round_trip_within_a_millimetre(clips, name):
    joints = clips[name]
    recovered = features_to_joints(joints_to_features(joints))
    assert recovered.shape == (89, 22, 3)
    expected = initial_alignment(joints)[:-1]
    assert np.abs(recovered - expected).max() < 1e-3


@pytest.mark.parametrize("smoothing", [0.0, 0.3, 2.0])
def test_round_trip_holds_for_any_facing_smoothing(clips, smoothing):
    joints = clips["turn_left_jog"]
    recovered = features_to_joints(joints_to_features(joints, facing_smoothing_s=smoothing))
    expected = initial_alignment(joints, facing_smoothing_s=smoothing)[:-1]
    assert np.abs(recovered - expected).max() < 1e-3


def test_recovery_starts_at_origin_facing_plus_z(clips):
    moved = rotate_about_y(clips["walk"], 2.0) + np.array([3.0, 0.0, -1.0])
    recovered = features_to_joints(joints_to_features(moved))
    np.testing.assert_allclose(recovered[0, 0, [0, 2]], 0.0, atol=1e-12)
    assert facing_yaw(recovered, facing_smoothing_s=0.0)[0] == pytest.approx(0.0, abs=0.05)
    assert recovered[-1, 0, 2] > 3.0, "a forward walk goes on along +z"


@pytest.mark.parametrize("name", ["walk", "turn_left_jog", "backstep_defensive"])
def test_features_ignore_where_and_which_way_the_motion_happens(clips, name):
    joints = clips[name]
    moved = rotate_about_y(joints, -1.1) + np.array([5.0, 0.0, -2.0])
    np.testing.assert_allclose(joints_to_features(moved), joints_to_features(joints), atol=1e-9)


def test_root_parts_are_what_they_say(clips):
    joints = clips["walk"]
    features = joints_to_features(joints)
    np.testing.assert_allclose(features[:, LAYOUT.root_height][:, 0], joints[:-1, 0, 1])
    step = features[:, LAYOUT.root_linear_velocity]
    np.testing.assert_allclose(step[:, 1], SpeedClass.WALK.speed / 30.0, rtol=0.05)  # forward = +z
    np.testing.assert_allclose(step[:, 0], 0.0, atol=0.01)
    ric = features[:, LAYOUT.ric].reshape(-1, 21, 3)
    np.testing.assert_allclose(ric[:, J["head"] - 1, 1], joints[:-1, J["head"], 1])


def test_turning_left_gives_negative_rotation_velocity(clips):
    left = joints_to_features(clips["turn_left_jog"])[:, LAYOUT.root_rot_velocity].sum()
    right = joints_to_features(clips["turn_right_sprint_fear"])[:, LAYOUT.root_rot_velocity].sum()
    assert left < -0.3 and right > 0.3


def test_local_velocity_matches_joint_displacement(clips):
    joints = clips["sprint"]  # straight along +z, so the root frame is the world frame (up to the sway)
    velocity = joints_to_features(joints)[:, LAYOUT.local_velocity].reshape(-1, 22, 3)
    displacement = np.diff(joints, axis=0)
    np.testing.assert_allclose(velocity[..., 1], displacement[..., 1], atol=1e-12)  # a turn about y keeps y
    np.testing.assert_allclose(np.linalg.norm(velocity, axis=-1), np.linalg.norm(displacement, axis=-1),
                               atol=1e-12)
    np.testing.assert_allclose(velocity[..., 2], displacement[..., 2], atol=0.01)


def test_foot_contacts(clips):
    standing = joints_to_features(clips["freeze"])[:, LAYOUT.foot_contact]
    assert np.all(standing == 1.0)
    walking = joints_to_features(clips["walk"])[:, LAYOUT.foot_contact]
    sprinting = joints_to_features(clips["sprint"])[:, LAYOUT.foot_contact]
    assert set(np.unique(walking)) == {0.0, 1.0}
    assert sprinting.mean() < walking.mean(), "a sprinter is on the ground less"
    left, right = walking[:, [0, 1]].max(axis=1), walking[:, [2, 3]].max(axis=1)
    assert np.all(np.maximum(left, right) == 1.0), "a walker always has a foot down"


@pytest.mark.parametrize("name", ["sprint", "backstep_defensive", "crouch_walk"])
def test_rotations_6d_are_rotation_columns(clips, name):
    six = joints_to_features(clips[name])[:, LAYOUT.rotations_6d].reshape(-1, 21, 6)
    first, second = six[..., :3], six[..., 3:]
    np.testing.assert_allclose(np.linalg.norm(first, axis=-1), 1.0, atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(second, axis=-1), 1.0, atol=1e-9)
    np.testing.assert_allclose(np.sum(first * second, axis=-1), 0.0, atol=1e-9)


def test_rotations_6d_of_the_rest_pose_are_identity():
    rest = np.stack([DEFAULT_SKELETON.rest_pose()] * 3)
    six = joints_to_features(rest)[:, LAYOUT.rotations_6d].reshape(-1, 21, 6)
    np.testing.assert_allclose(six, np.broadcast_to([1.0, 0.0, 0.0, 0.0, 1.0, 0.0], six.shape), atol=1e-12)


def test_rotations_6d_survive_a_bone_pointing_against_its_rest_direction():
    pose = DEFAULT_SKELETON.rest_pose().copy()
    pose[J["left_elbow"]] = pose[J["left_shoulder"]] - [0.27, 0.0, 0.0]   # upper arm folded back inwards
    pose[J["left_wrist"]] = pose[J["left_elbow"]] - [0.25, 0.0, 0.0]
    six = joints_to_features(np.stack([pose, pose]))[0, LAYOUT.rotations_6d].reshape(21, 6)
    elbow = six[J["left_elbow"] - 1]
    assert np.all(np.isfinite(six))
    np.testing.assert_allclose(elbow[:3] @ [1.0, 0.0, 0.0], -1.0, atol=1e-9)  # half turn: x -> -x
    np.testing.assert_allclose(np.linalg.norm(elbow[3:]), 1.0)


@pytest.mark.parametrize(
    ("bad", "message"),
    [(np.zeros((10, 21, 3)), "shape"), (np.zeros((1, 22, 3)), "at least 2"), (np.zeros((22, 3)), "shape"),
     (np.full((4, 22, 3), np.nan), "NaN")],
)
def test_bad_joints_are_rejected(bad, message):
    with pytest.raises(ValueError, match=message):
        joints_to_features(bad)


@pytest.mark.parametrize(
    ("bad", "message"),
    [(np.zeros((10, 262)), "shape"), (np.zeros((0, 263)), "empty"), (np.zeros(263), "shape"),
     (np.full((3, 263), np.inf), "NaN")],
)
def test_bad_features_are_rejected(bad, message):
    with pytest.raises(ValueError, match=message):
        features_to_joints(bad)
