"""Two-bone leg IK: the leg reaches its target with exact bone lengths, bends towards the pole, stops short of
an unreachable target along the hip-target line, and bends forward when the pole gives no direction."""

from __future__ import annotations

import numpy as np

from wmbench.body.motion.diffusion.leg_ik import REACH_MARGIN, solve_legs

HIP = np.array([0.09, 0.90, 0.0])
THIGH, SHIN = 0.42, 0.40


def test_a_reachable_target_is_reached_with_both_bone_lengths_exact():
    rng = np.random.default_rng(0)
    targets = HIP + rng.uniform(-0.5, 0.5, size=(200, 3)) * np.array([0.3, 1.0, 1.0]) + np.array([0, -0.4, 0])
    dist = np.linalg.norm(targets - HIP, axis=1)
    ok = (dist < THIGH + SHIN - 2 * REACH_MARGIN) & (dist > abs(THIGH - SHIN) + 2 * REACH_MARGIN)
    hips = np.broadcast_to(HIP, targets.shape)
    knee, ankle = solve_legs(hips, targets, THIGH, SHIN, hips + np.array([0.0, -0.4, 0.3]))
    assert ok.sum() > 100
    assert np.allclose(ankle[ok], targets[ok], atol=1e-9)
    assert np.allclose(np.linalg.norm(knee - hips, axis=1), THIGH, atol=1e-9)
    assert np.allclose(np.linalg.norm(ankle - knee, axis=1), SHIN, atol=1e-9)


def test_the_knee_bends_towards_the_pole():
    target = HIP + np.array([0.0, -0.7, 0.0])
    forward, _ = solve_legs(HIP, target, THIGH, SHIN, HIP + np.array([0.0, -0.4, 1.0]))
    backward, _ = solve_legs(HIP, target, THIGH, SHIN, HIP + np.array([0.0, -0.4, -1.0]))
    assert forward[2] > 0.1 and backward[2] < -0.1


def test_an_unreachable_target_leaves_the_ankle_short_on_the_hip_target_line():
    target = HIP + np.array([0.0, -2.0, 0.0])
    knee, ankle = solve_legs(HIP, target, THIGH, SHIN, HIP + np.array([0.0, -0.4, 0.3]))
    assert np.isclose(np.linalg.norm(ankle - HIP), THIGH + SHIN - REACH_MARGIN)
    assert np.allclose(ankle[[0, 2]], HIP[[0, 2]])
    assert np.isclose(np.linalg.norm(ankle - knee), SHIN) and np.isclose(np.linalg.norm(knee - HIP), THIGH)


def test_a_pole_on_the_leg_line_bends_the_knee_forward():
    target = HIP + np.array([0.0, -0.6, 0.0])
    knee, _ = solve_legs(HIP, target, THIGH, SHIN, HIP + np.array([0.0, -0.3, 0.0]))
    assert knee[2] > 0.1
