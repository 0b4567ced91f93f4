"""Retargeting: bone lengths kept, directions copied, error 0 for identical/scaled rigs, small otherwise."""

from __future__ import annotations

import numpy as np
import pytest

from wmbench.body.intent.reader import parse_motion
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.retargeting.bone_scaling import (
    HUMANML22,
    RIGS,
    SMPL24,
    STUBBY,
    BoneSource,
    direction_error,
    get_rig,
    pose_error,
    retarget,
    root_scale,
    scaled_rig,
)
from wmbench.body.skeleton import DEFAULT_SKELETON

TEXTS = ("sprints forward in terror", "walks left calmly", "crouches low", "raises arms defensively",
         "runs back glancing over the shoulder")


@pytest.fixture(scope="module")
def clip() -> np.ndarray:
    gen = ProceduralGenerator(30)
    return np.concatenate([gen.clip(parse_motion(t), 30) for t in TEXTS])


@pytest.mark.parametrize("name", sorted(RIGS))
def test_every_rig_keeps_its_bone_lengths_and_copies_directions(clip, name):
    rig = RIGS[name]
    out = retarget(clip, rig)
    assert out.shape == (len(clip), rig.n_joints, 3)
    assert np.allclose(rig.skeleton.measure_bone_lengths(out), rig.skeleton.bone_lengths(), atol=1e-9)
    assert direction_error(clip, out, rig) == pytest.approx(0.0, abs=1e-6)
    assert out[..., 1].min() > -0.01  # feet stay on (or above) the floor


@pytest.mark.parametrize("rig", [HUMANML22, SMPL24, scaled_rig(SMPL24, 0.6), scaled_rig(HUMANML22, 1.8)],
                         ids=lambda r: r.name)
def test_identity_and_uniformly_scaled_rigs_transfer_exactly(clip, rig):
    assert pose_error(clip, retarget(clip, rig), rig) == pytest.approx(0.0, abs=1e-9)


def test_identity_reproduces_the_source(clip):
    assert np.allclose(retarget(clip, HUMANML22), clip)
    assert np.allclose(retarget(clip, SMPL24)[:, :22], clip)


@pytest.mark.parametrize("name, bound", [("stubby", 0.05), ("robot", 0.01)])
def test_other_proportions_have_a_small_error(clip, name, bound):
    rig = RIGS[name]
    error = pose_error(clip, retarget(clip, rig), rig)
    print(f"\npose error on {name}: {100 * error:.2f} % of chain length")
    assert 0.0 < error < bound


def test_a_wrong_transfer_scores_worse(clip):
    out = retarget(clip, STUBBY)
    shuffled = out[::-1].copy()
    assert pose_error(clip, shuffled, STUBBY) > 3 * pose_error(clip, out, STUBBY)


def test_smpl24_hands_lie_along_the_forearm(clip):
    out = retarget(clip, SMPL24)
    names = SMPL24.skeleton.names
    assert names[22:] == ("left_hand", "right_hand") and SMPL24.skeleton.parents[22:] == (20, 21)
    for side in ("left", "right"):
        hand, wrist, elbow = (names.index(f"{side}_{j}") for j in ("hand", "wrist", "elbow"))
        forearm = out[:, wrist] - out[:, elbow]
        palm = out[:, hand] - out[:, wrist]
        cos = np.sum(forearm * palm, axis=1) / np.linalg.norm(forearm, axis=1) / np.linalg.norm(palm, axis=1)
        assert np.allclose(cos, 1.0)


def test_custom_rig_is_short_legged_and_long_armed():
    rig = STUBBY.skeleton
    source = DEFAULT_SKELETON
    shin = rig.bone_lengths()[rig.names.index("left_ankle")]
    forearm = rig.bone_lengths()[rig.names.index("left_hand")]
    assert 15 <= rig.n_joints <= 17
    assert shin == pytest.approx(0.7 * source.bone_lengths()[source.joint_index("left_ankle")])
    assert forearm == pytest.approx(1.3 * source.bone_lengths()[source.joint_index("left_wrist")])
    assert root_scale(STUBBY) < 0.8


def test_single_frames_and_bad_input():
    pose = DEFAULT_SKELETON.rest_pose()
    assert retarget(pose, "smpl24").shape == (24, 3)
    with pytest.raises(ValueError, match="22, 3"):
        retarget(np.zeros((21, 3)), "smpl24")
    with pytest.raises(ValueError, match="non-finite"):
        retarget(np.full((22, 3), np.nan), "smpl24")
    with pytest.raises(KeyError, match="smpl24"):
        get_rig("octopus")
    with pytest.raises(ValueError, match="unknown source joint"):
        BoneSource("pelvis", "tail")
    with pytest.raises(ValueError, match="shape"):
        pose_error(pose, np.zeros((5, 3)), "stubby")
