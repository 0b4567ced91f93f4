"""The diffusion model's post-process: knees within their limit, planted feet slide less, shown frames smoother."""

from __future__ import annotations

import numpy as np

from wmbench.body.intent.reader import parse_motion
from wmbench.body.motion import quality as mq
from wmbench.body.motion.diffusion import postprocess as pp
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.skeleton import JOINT_NAMES

_HIP, _KNEE, _ANKLE, _FOOT = (JOINT_NAMES.index(f"left_{j}") for j in ("hip", "knee", "ankle", "foot"))


def _walk(n: int = 90) -> np.ndarray:
    return ProceduralGenerator(30).clip(parse_motion("a person walks forward"), n)


def _flex(pose: np.ndarray) -> float:
    thigh, shin = pose[_KNEE] - pose[_HIP], pose[_ANKLE] - pose[_KNEE]
    return float(np.arccos(thigh @ shin / np.linalg.norm(thigh) / np.linalg.norm(shin)))


def test_a_folded_shin_is_rotated_back_to_the_knee_limit_keeping_bone_lengths():
    pose = _walk(1)[0].copy()
    thigh = pose[_KNEE] - pose[_HIP]
    shin_len = np.linalg.norm(pose[_ANKLE] - pose[_KNEE])
    foot_len = np.linalg.norm(pose[_FOOT] - pose[_ANKLE])
    # fold the shin to 170 degrees: ankle almost back up at the hip, behind the thigh
    back = np.array([0.0, 0.0, -1.0]) - thigh * (thigh @ np.array([0.0, 0.0, -1.0])) / (thigh @ thigh)
    back /= np.linalg.norm(back)
    angle = np.deg2rad(170.0)
    direction = thigh / np.linalg.norm(thigh) * np.cos(angle) + back * np.sin(angle)
    pose[_ANKLE] = pose[_KNEE] + shin_len * direction
    pose[_FOOT] = pose[_ANKLE] + np.array([0.0, 0.0, foot_len])
    assert _flex(pose) > np.deg2rad(169.0)
    fixed = pp.limit_knees(pose)
    assert abs(_flex(fixed) - pp.KNEE_MAX_FLEX) < 1e-6
    assert np.isclose(np.linalg.norm(fixed[_ANKLE] - fixed[_KNEE]), shin_len)
    assert np.isclose(np.linalg.norm(fixed[_FOOT] - fixed[_ANKLE]), foot_len)
    assert np.array_equal(fixed[_HIP], pose[_HIP]) and np.array_equal(fixed[_KNEE], pose[_KNEE])


def test_a_pose_within_the_limits_is_unchanged():
    pose = _walk(1)[0]
    assert np.array_equal(pp.limit_knees(pose), pose)


def test_foot_locking_removes_part_of_a_planted_foot_slide():
    walk = _walk()
    slide = walk.copy()
    slide[..., 2] += np.arange(len(walk))[:, None] * (1.0 / 30)   # 1 m/s drift, planted feet too
    before = mq.foot_skating(slide, 30)
    after = mq.foot_skating(pp.lock_feet(slide), 30)
    assert after < before - 0.3
    full = mq.foot_skating(pp.lock_feet(slide, strength=1.0, window=1), 30)
    assert full < 0.2 * before


def test_the_smoother_passes_the_first_frame_and_cuts_jerk():
    rng = np.random.default_rng(0)
    noisy = _walk(60) + rng.normal(0.0, 0.01, size=(60, 22, 3))
    smoother = pp.FrameSmoother()
    smoothed = np.stack([smoother(f) for f in noisy])
    assert np.array_equal(smoothed[0], noisy[0])
    assert mq.jerk(smoothed, 30) < 0.5 * mq.jerk(noisy, 30)
