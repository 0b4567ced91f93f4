"""DeepMimic clips from pybullet_data, retargeted to the 22-joint skeleton, and the training data built on them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from wmbench.body.motion.diffusion import dataset as ds
from wmbench.body.motion.diffusion.deepmimic import FOOT_JOINT_HEIGHT, load_clip, read_frames
from wmbench.body.motion.registry import describe_clip
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES, MIRROR_PAIRS


@pytest.fixture(scope="module")
def walk():
    return load_clip("walk", 30.0, cycles=3)


def test_walk_clip_has_the_skeletons_shape_and_bone_lengths(walk):
    frames, loops = read_frames("walk")
    assert loops and frames.shape[1] == 44
    seconds = frames[:-1, 0].sum() * 3
    assert walk.joints.shape == (int(seconds * 30) + 1, 22, 3)
    measured = DEFAULT_SKELETON.measure_bone_lengths(walk.joints)
    assert np.allclose(measured, DEFAULT_SKELETON.bone_lengths()[None], atol=1e-9)


def test_walk_is_upright_on_the_floor_and_travels_forward_at_walking_speed(walk):
    j = walk.joints
    head, pelvis = JOINT_NAMES.index("head"), 0
    assert np.all(j[:, head, 1] > j[:, pelvis, 1] + 0.5)          # y is up
    feet = j[:, [JOINT_NAMES.index("left_foot"), JOINT_NAMES.index("right_foot")], 1]
    assert abs(np.percentile(feet.min(axis=1), 10) - FOOT_JOINT_HEIGHT) < 1e-9
    assert feet.min() > -0.02                                      # nothing sinks through the floor
    reading = describe_clip(j, 30.0)
    assert reading.direction == "fwd" and 0.8 < reading.speed < 1.2  # DeepMimic walks at about 1 m/s
    left_hip, right_hip = JOINT_NAMES.index("left_hip"), JOINT_NAMES.index("right_hip")
    assert np.all(j[:, left_hip, 0] > j[:, right_hip, 0])         # left is +x while facing +z


def test_run_is_faster_than_walk_and_crawl_is_low():
    run = describe_clip(load_clip("run").joints, 30.0)
    crawl = load_clip("crawl").joints
    assert run.direction == "fwd" and run.speed > 3.0
    assert crawl[:, 0, 1].mean() < 0.45 < load_clip("walk").joints[:, 0, 1].mean()


def test_mirroring_swaps_sides_and_reflects_across_the_sagittal_plane(walk):
    mirrored = ds.mirror_joints(walk.joints)
    assert np.allclose(ds.mirror_joints(mirrored), walk.joints)
    for left, right in MIRROR_PAIRS:
        assert np.allclose(mirrored[:, left, 0], -walk.joints[:, right, 0])
        assert np.allclose(mirrored[:, left, 1:], walk.joints[:, right, 1:])
    assert np.allclose(DEFAULT_SKELETON.measure_bone_lengths(mirrored), DEFAULT_SKELETON.bone_lengths()[None])
    # the mirrored walk still goes forward with the hips on their own sides
    assert describe_clip(mirrored, 30.0).direction == "fwd"
    assert np.all(mirrored[:, 1, 0] > mirrored[:, 2, 0])


def test_segments_are_labelled_by_the_motion_parser_and_reversed_walk_goes_back():
    segments = ds.mocap_segments(cycles=2)
    assert {s.source for s in segments} == {"mocap"}
    back = [s for s in segments if "reversed" in s.name]
    assert back and all(s.intent.direction == "back" and not s.intent.face_travel for s in back)
    assert all(s.frames.shape[1] == ds.FRAME_DIM and np.all(np.isfinite(s.frames)) for s in segments)
    # root linear velocity (root frame, z = forward) is positive forwards and negative for the reversed walk
    fwd = next(s for s in segments if s.name == "walk-x1.0")
    assert fwd.frames[:, 2].mean() > 0.02 and back[0].frames[:, 2].mean() < -0.02


def test_condition_vector_and_tokens():
    vocabulary = ds.build_vocabulary(["a person walks forward", "a person sprints to the left"])
    tokens = ds.tokenize("A person SPRINTS to the left, glancing back", vocabulary)
    assert tokens.shape == (ds.MAX_WORDS,) and (tokens > 0).sum() == 6   # unknown words skipped
    seg_intent = ds.parse_motion("a person sprints to the left in terror")
    v = ds.intent_vector(seg_intent, math.pi / 2)
    assert v.shape == (ds.COND_DIM,) and v[4] == 1.0 and np.allclose(v[5:8], (1.0, 0.0, 1.0), atol=1e-7)
    assert v[9 + ds.STYLE_ORDER.index("terror")] == 1.0
