"""The 22-joint skeleton: tree, bone lengths, rest pose."""

from __future__ import annotations

import numpy as np
import pytest

from wmbench.body.skeleton import (
    DEFAULT_SKELETON,
    FOOT_CONTACT_JOINTS,
    JOINT_NAMES,
    MIRROR_PAIRS,
    N_JOINTS,
    PARENTS,
    Skeleton,
)

SK = DEFAULT_SKELETON


def test_joint_set_is_humanml3d_order():
    assert N_JOINTS == 22
    assert JOINT_NAMES[:4] == ("pelvis", "left_hip", "right_hip", "spine1")
    assert JOINT_NAMES[-2:] == ("left_wrist", "right_wrist")
    assert JOINT_NAMES[15] == "head"
    assert len(set(JOINT_NAMES)) == 22


def test_parents_form_a_tree_rooted_at_pelvis():
    assert len(PARENTS) == 22
    assert PARENTS[0] == -1
    assert all(0 <= p < j for j, p in enumerate(PARENTS) if j > 0)
    name_of = dict(enumerate(JOINT_NAMES))
    assert name_of[PARENTS[JOINT_NAMES.index("left_wrist")]] == "left_elbow"
    assert name_of[PARENTS[JOINT_NAMES.index("head")]] == "neck"
    assert name_of[PARENTS[JOINT_NAMES.index("right_collar")]] == "spine3"
    assert name_of[PARENTS[JOINT_NAMES.index("left_foot")]] == "left_ankle"


def test_skeleton_fields_and_shapes():
    assert SK.names == JOINT_NAMES and SK.parents == PARENTS
    assert SK.rest_offsets.shape == (22, 3)
    assert SK.bone_lengths().shape == (22,)
    assert SK.rest_pose().shape == (22, 3)


def test_bone_lengths_positive_except_root():
    lengths = SK.bone_lengths()
    assert lengths[0] == 0.0
    assert np.all(lengths[1:] > 0.01)


@pytest.mark.parametrize(("left", "right"), MIRROR_PAIRS)
def test_left_right_symmetric(left, right):
    assert JOINT_NAMES[left].replace("left_", "") == JOINT_NAMES[right].replace("right_", "")
    lengths = SK.bone_lengths()
    assert lengths[left] == pytest.approx(lengths[right])
    rest = SK.rest_pose()
    assert rest[left] == pytest.approx(rest[right] * np.array([-1.0, 1.0, 1.0]))
    assert rest[left, 0] > 0.0, "left side is +x"


def test_mirror_pairs_cover_all_sided_joints():
    sided = {i for i, n in enumerate(JOINT_NAMES) if n.startswith(("left_", "right_"))}
    assert {i for pair in MIRROR_PAIRS for i in pair} == sided
    assert len(MIRROR_PAIRS) == 8


def test_rest_pose_is_a_standing_adult():
    rest = SK.rest_pose()
    head = SK.joint_index("head")
    assert rest[:, 1].argmax() == head, "head is the highest joint"
    assert set(np.argsort(rest[:, 1])[:2]) == {SK.joint_index("left_foot"), SK.joint_index("right_foot")}
    assert rest[0, 1] == pytest.approx(0.95, abs=0.02)
    assert 1.5 < rest[head, 1] < 1.7, "head joint of a ~1.75 m adult"
    assert 0.0 < rest[FOOT_CONTACT_JOINTS, 1].min() < 0.1, "feet just above the floor"
    span = rest[SK.joint_index("left_wrist"), 0] - rest[SK.joint_index("right_wrist"), 0]
    assert 1.3 < span < 1.6, "T-pose wrist-to-wrist span"


def test_chain_matrix_sums_offsets_into_positions():
    chain = SK.chain_matrix
    assert chain.shape == (22, 22)
    assert np.all(np.diag(chain) == 1.0)
    np.testing.assert_allclose(chain @ SK.rest_offsets, SK.rest_pose())
    wrist = SK.joint_index("left_wrist")
    assert chain[wrist].sum() == 8  # wrist, elbow, shoulder, collar, spine3, spine2, spine1, pelvis


def test_measure_bone_lengths_of_rest_pose_and_batches():
    np.testing.assert_allclose(SK.measure_bone_lengths(SK.rest_pose()), SK.bone_lengths())
    batch = np.stack([SK.rest_pose(), SK.rest_pose() + 1.0])
    np.testing.assert_allclose(SK.measure_bone_lengths(batch), np.stack([SK.bone_lengths()] * 2))
    with pytest.raises(ValueError, match="22, 3"):
        SK.measure_bone_lengths(np.zeros((21, 3)))


def test_joint_index_unknown_name_says_what_exists():
    assert SK.joint_index("pelvis") == 0
    with pytest.raises(KeyError, match="unknown joint 'tail'"):
        SK.joint_index("tail")


def test_rest_offsets_are_read_only():
    with pytest.raises(ValueError):
        SK.rest_offsets[0, 0] = 1.0


@pytest.mark.parametrize(
    ("parents", "offsets", "message"),
    [
        ((-1, 0), np.zeros((3, 3)), "shape"),
        ((-1,), np.zeros((2, 3)), "parents must have 2"),
        ((0, 0), np.zeros((2, 3)), "root"),
        ((-1, 1), np.zeros((2, 3)), "precede"),
        ((-1, 0), np.array([[0.0, 1.0, 0.0], [np.nan, 0.0, 0.0]]), "finite"),
    ],
)
def test_invalid_skeletons_are_rejected(parents, offsets, message):
    with pytest.raises(ValueError, match=message):
        Skeleton(names=("a", "b"), parents=parents, rest_offsets=offsets)
