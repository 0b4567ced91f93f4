"""Motion-quality metrics: each one moves the way it should when the motion gets worse."""

from __future__ import annotations

import numpy as np

from wmbench.body.intent.reader import parse_motion
from wmbench.body.motion import quality as mq
from wmbench.body.motion.diffusion.dataset import mirror_joints
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.skeleton import JOINT_NAMES


def _walk(n: int = 90) -> np.ndarray:
    return ProceduralGenerator(30).clip(parse_motion("a person walks forward"), n)


def test_foot_skating_grows_when_the_whole_body_slides():
    walk = _walk()
    slide = walk.copy()
    slide[..., 2] += np.arange(len(walk))[:, None] * (1.0 / 30)   # 1 m/s extra drift, feet included
    base = mq.foot_skating(walk, 30)
    assert base < 0.35
    assert mq.foot_skating(slide, 30) > base + 0.8


def test_jerk_is_zero_for_uniform_motion_and_grows_with_a_jolt():
    still = np.repeat(_walk(1), 30, axis=0)
    uniform = still + np.arange(30)[:, None, None] * np.array([0.0, 0.0, 0.05])
    assert mq.jerk(uniform, 30) < 1e-6
    jolted = uniform.copy()
    jolted[15:, :, 0] += 0.05
    assert mq.jerk(jolted, 30) > 10.0


def test_frechet_distance_is_zero_for_the_same_frames_and_grows_with_a_shift():
    reference = mq.mocap_reference()
    basis, centre = mq._basis(reference)
    run = reference["run"]
    assert abs(mq.frechet_distance(run, run, basis, centre)) < 1e-6
    assert mq.frechet_distance(run, reference["walk"], basis, centre) > 1.0


def test_intent_fidelity_counts_direction_and_speed_class():
    texts = ["a person walks forward", "a person jogs to the left"]
    clips = [ProceduralGenerator(30).clip(parse_motion(t), 90) for t in texts]
    assert mq.intent_fidelity(clips, texts, 30) == (1.0, 1.0, 1.0)
    swapped = [clips[0], mirror_joints(clips[1])]                    # the jog now goes right
    assert mq.intent_fidelity(swapped, texts, 30) == (0.5, 0.5, 1.0)


def test_held_out_distances_cover_every_held_out_kind_and_separate_them():
    from wmbench.body.motion.diffusion.corpus import HELD_OUT_KINDS

    generator = ProceduralGenerator(30)
    held = mq.held_out_distances(generator)
    assert set(held) == set(HELD_OUT_KINDS)
    assert all(np.isfinite(v) and v >= 0.0 for v in held.values())
    # the same standing/walking render is far from spinning and from dancing, and differently so
    assert held["turn"] != held["dance"]


class _FrozenPose:
    """A generator that always shows the same standing pose: in the loop its feet slide at the root's speed."""

    fps = 30.0

    def __init__(self) -> None:
        self.pose = _walk(1)[0].copy()
        self.pose[:, [0, 2]] -= self.pose[0, [0, 2]]

    def reset(self, seed: int | None = None) -> None:
        pass

    def set_intent(self, intent) -> None:
        pass

    def next_frame(self, speed: float):
        from wmbench.body.motion.contract import MotionFrame

        return MotionFrame(self.pose, 0.0, "upright")

    def clip(self, intent, n_frames: int) -> np.ndarray:
        return np.repeat(self.pose[None], n_frames, axis=0)


def test_loop_skating_is_the_root_speed_for_frozen_feet_and_low_for_a_real_gait():
    frozen = _FrozenPose()
    walk = mq.stream_clip(frozen, "a person walks forward", 60)
    assert abs(mq.foot_skating(walk[30:], 30) - 1.4) < 0.3     # the walk class speed: the feet do not step
    assert mq.foot_skating(mq.stream_clip(frozen, "a person stands still", 60), 30) == 0.0
    assert mq.loop_foot_skating(ProceduralGenerator(30)) < 0.3   # a gait whose stride matches its speed


def test_distance_breakdown_adds_up_and_points_at_the_group_that_differs():
    from wmbench.body.motion.diffusion.deepmimic import load_clip

    reference = mq.mocap_reference(30)
    basis, centre = mq._basis(reference)
    run = reference["run"]
    same = mq.distance_breakdown(run, run, basis, centre)
    assert abs(same.total) < 1e-6 and all(abs(v) < 1e-6 for v in same.per_group.values())
    # the same run with the arms held still: the arm groups carry the difference, the legs none of it
    clip = load_clip("run", 30, cycles=5).joints.copy()
    arms = [JOINT_NAMES.index(f"{s}_{j}") for s in ("left", "right") for j in ("elbow", "wrist")]
    clip[:, arms] = clip[:, [JOINT_NAMES.index("left_shoulder")] * 2 + [JOINT_NAMES.index("right_shoulder")] * 2] \
        + np.array([0.0, -0.25, 0.0])
    still = mq.pose_features(clip, 30)
    parts = mq.distance_breakdown(still, run, basis, centre)
    assert parts.total == mq.frechet_distance(still, run, basis, centre)
    assert abs(parts.mean_term + parts.covariance_term - parts.total) < 1e-9 and parts.mean_term >= 0.0
    assert parts.per_group["arm velocities"] > 1.0 and parts.per_group["arm positions"] > 0.01
    assert parts.per_group["leg velocities"] < 1e-6 and parts.per_group["leg positions"] < 1e-6


def test_gait_statistics_read_a_real_walk_and_run():
    from wmbench.body.motion.diffusion.deepmimic import load_clip

    walk = mq.gait_statistics(load_clip("walk", 30, cycles=3).joints, 30)
    run = mq.gait_statistics(load_clip("run", 30, cycles=5).joints, 30)
    assert 0.8 < walk.speed < 1.1 and 3.3 < run.speed < 3.7              # 0.96 and 3.51 m/s clips
    assert run.cadence > walk.cadence > 1.0 and run.stride > walk.stride
    assert run.arm_swing > walk.arm_swing and run.foot_lift > walk.foot_lift
    assert 0.7 < walk.pelvis_height < 1.0 and run.trunk_lean > walk.trunk_lean
    assert abs(run.stride - 2.0 * run.speed / run.cadence) < 1e-9
