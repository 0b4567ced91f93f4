"""The procedural pose's trunk kernel: numpy's doubles, on either path."""

from __future__ import annotations

import math

import numpy as np

from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.procedural import pose_kernel
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.motion.procedural.pose import _TRUNK_ROWS, PoseBuilder
from wmbench.body.skeleton import DEFAULT_SKELETON
from wmbench.core.speed import SpeedClass


def _numpy_trunk(angles: np.ndarray, slots: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The trunk as PoseBuilder.pose computed it before round 5 (numpy over the angle table)."""
    a = angles.reshape(-1, 3).T[:, slots]
    cos, sin = np.cos(a), np.sin(a)
    ox, oy, oz = offsets
    x1 = cos[2] * ox - sin[2] * oy
    y1 = sin[2] * ox + cos[2] * oy
    y2 = cos[1] * y1 - sin[1] * oz
    z2 = sin[1] * y1 + cos[1] * oz
    x3 = cos[0] * x1 + sin[0] * z2
    z3 = cos[0] * z2 - sin[0] * x1
    return np.stack((x3, y2, z3), axis=1).reshape(-1)


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return np.asarray(a, dtype=np.float64).tobytes() == np.asarray(b, dtype=np.float64).tobytes()


def _angle_tables(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    tables = [rng.uniform(-3.5, 3.5, 33) * rng.choice([1e-9, 0.01, 1.0], 33) for _ in range(n)]
    zeros = np.zeros(33)
    zeros[::2] = -0.0                     # signed zeros: a still pose's angles
    return [*tables, zeros, np.full(33, -0.0)]


def test_the_trunk_kernel_gives_numpys_doubles_on_either_path():
    builder = PoseBuilder(DEFAULT_SKELETON)
    slots, offsets = builder.trunk_slots, builder.trunk_offsets
    compiled = pose_kernel.kernel()
    legs = np.array([0.07, 0.2, 0.1, 0.08, 0.15, 0.05, 0.6, 0.6, 0.1, 1.2, 0.1, 0.8, 0.5, 0.3, 0.0, 1.0, 0.4,
                     0.4, 0.0, 1.0, 0.9, 0.3, 0.8])
    assert legs.size == pose_kernel.N_LEG_ARGS
    for angles in _angle_tables(3000):
        want = _numpy_trunk(angles, slots, offsets)
        out = [0.0] * (3 * len(_TRUNK_ROWS))
        pose_kernel.trunk_bones(tuple(angles.tolist()), tuple(slots.tolist()),
                                tuple(offsets.T.reshape(-1).tolist()), out)
        assert _same_bits(out, want)
        fast = np.zeros(3 * len(_TRUNK_ROWS) + 18)   # the compiled kernel is pose_bones: trunk, then legs
        compiled(angles, slots.astype(np.int64), np.ascontiguousarray(offsets.T).reshape(-1), legs, fast)
        assert _same_bits(fast[:3 * len(_TRUNK_ROWS)], want)


def test_poses_are_the_same_on_either_path(monkeypatch):
    """Whole poses (gait, turns, crouch, still) on the compiled path and the Python path: the same doubles."""
    def poses() -> list[np.ndarray]:
        out = []
        for speed in SpeedClass:
            gen = ProceduralGenerator(30)
            gen.reset(seed=4)
            gen.set_intent(MotionIntent("fwd", 0.7, speed, styles=("crouch",) if speed == SpeedClass.JOG else ()))
            out += [np.array(gen.next_frame(1.2 * (speed != SpeedClass.STILL)).joints) for _ in range(20)]
        return out
    first = poses()
    monkeypatch.setattr(pose_kernel._BONES, "resolved", (pose_kernel.pose_bones, "python"))
    monkeypatch.setattr(pose_kernel._FRAME, "resolved", (pose_kernel.pose_frame, "python"))
    second = poses()
    assert all(_same_bits(a, b) for a, b in zip(first, second, strict=True))
    assert not any(math.isnan(v) for a in first for v in a.reshape(-1))


def _round5_pose(builder: PoseBuilder, p, gait, speed: float, phase: float, rhythm) -> tuple[np.ndarray, float]:
    """``PoseBuilder.pose`` as round 5 left it (test-only copy): the angle table, the stride and the pelvis
    height in Python, then ``pose_bones`` (the plain one) and numpy's chain sum."""
    from wmbench.body.motion.stream import smoothstep
    amp = p.gait_scale * smoothstep(speed / 0.35)
    step_hz = gait.step_hz / p.stride_scale
    stride = 2.0 * speed / step_hz
    tx, tz = p.travel_x, p.travel_z
    n = math.hypot(tx, tz)
    tx, tz = (tx / n, tz / n) if n > 1e-6 else (0.0, 1.0)
    roll = amp * max(tz, 0.0)
    travel, lift = gait.duty * stride * p.gait_scale, gait.lift * amp
    lift_exp = math.log(0.5) / math.log(gait.lift_peak)
    strike, toe_off = gait.strike_pitch * roll, gait.toe_off_pitch * roll
    cyc = math.cos(2.0 * math.pi * phase)
    stance_mid = phase - 0.5 * gait.duty
    breath = p.breath_depth * math.sin(2.0 * math.pi * rhythm.breath)
    sway = p.sway * math.sin(math.pi * rhythm.breath)
    glance = p.glance * rhythm.glance_side
    lean = min(p.torso_lean + p.lean_per_speed * speed, 0.6)
    pelvis_y = (builder.stand_height - p.pelvis_drop - gait.drop * p.gait_scale
                + gait.bob * amp * math.cos(4.0 * math.pi * stance_mid))
    pelvis_roll = gait.obliquity * amp * math.cos(2.0 * math.pi * stance_mid)
    pelvis_yaw = -gait.twist * amp * cyc
    chest_yaw = 0.6 * gait.twist * amp * cyc + 0.4 * glance
    trunk_roll = -0.4 * pelvis_roll + sway
    chest_pitch = lean + p.slump - breath
    swing = gait.arm_swing * p.arm_swing_scale * amp
    swing_l, swing_r = -swing * cyc, swing * cyc
    bend = gait.elbow_bend * amp
    arm_pitch = 0.3 * chest_pitch - p.arm_forward
    raise_l = p.shoulder_raise + 0.5 * breath
    half_pi = 0.5 * math.pi
    ua_l = (chest_yaw, arm_pitch - swing_l, trunk_roll - half_pi + p.arm_abduction)
    ua_r = (chest_yaw, arm_pitch - swing_r, trunk_roll + half_pi - p.arm_abduction)
    flex_l = p.elbow_flex + bend + 0.15 * max(swing_l, 0.0)
    flex_r = p.elbow_flex + bend + 0.15 * max(swing_r, 0.0)
    frames = (
        pelvis_yaw, 0.35 * lean, pelvis_roll + 0.5 * sway,
        0.3 * pelvis_yaw + 0.15 * glance, 0.6 * lean, 0.8 * trunk_roll,
        0.5 * chest_yaw + 0.1 * glance, 0.8 * lean + 0.5 * p.slump, trunk_roll,
        chest_yaw, chest_pitch, trunk_roll,
        1.3 * glance + p.head_scan * math.sin(2.0 * math.pi * rhythm.scan),
        0.45 * (lean + p.slump) + p.head_pitch, 0.5 * trunk_roll,
        chest_yaw - p.shoulder_protract, chest_pitch, trunk_roll + raise_l,
        chest_yaw + p.shoulder_protract, chest_pitch, trunk_roll - raise_l,
        *ua_l, *ua_r,
        ua_l[0] - p.forearm_inward, ua_l[1] - flex_l, ua_l[2],
        ua_r[0] + p.forearm_inward, ua_r[1] - flex_r, ua_r[2],
    )
    g = builder.geo
    legs = (g.ankle_height, g.tip_z, g.foot_width, g.toe_out, g.foot_y, g.foot_z, travel, gait.duty, lift,
            lift_exp, strike, toe_off, gait.heel_off, gait.follow, tx, tz, builder.thigh, builder.shin,
            math.sin(pelvis_yaw), math.cos(pelvis_yaw), pelvis_y, phase, (phase + 0.5) % 1.0)
    flat = [0.0] * (3 * len(builder._kernel_rows))
    pose_kernel.pose_bones(frames, tuple(builder.trunk_slots.tolist()),
                           tuple(builder.trunk_offsets.T.reshape(-1).tolist()), legs, flat)
    bones = np.zeros_like(builder.bones)
    bones[0] = (0.0, pelvis_y, 0.0)
    bones[builder._kernel_rows] = np.array(flat).reshape(-1, 3)
    return builder.chain @ bones, lean


def _pose_cases(n: int):
    """(posture, gait, speed, phase, rhythm): every style's posture blended part-way, random speeds (incl. 0,
    -0.0 and the fade), phases and rhythms, gaits from the table and with a raised drop."""
    from dataclasses import fields as dc_fields
    from dataclasses import replace

    from wmbench.body.motion.procedural.posture import Posture
    from wmbench.body.motion.stream import RhythmPhase
    rng = np.random.default_rng(11)
    builder = PoseBuilder(DEFAULT_SKELETON)
    names = [f.name for f in dc_fields(Posture)]
    for k in range(n):
        base = Posture()
        posture = replace(base, **{f: float(getattr(base, f)) + float(rng.normal(0.0, 0.2))
                                   for f in names if rng.random() < 0.5 and f != "stride_scale"})
        speed = float(rng.choice([0.0, -0.0, 0.2, 0.35, rng.uniform(0.0, 9.0)]))
        gait = builder.gait_at(abs(speed)) if k % 2 else replace(builder.gait_at(abs(speed)), drop=0.03)
        phase = float(rng.choice([0.0, rng.uniform(0.0, 1.0)]))
        rhythm = RhythmPhase(float(rng.uniform(0, 50)), float(rng.uniform(0, 50)), float(rng.choice([1.0, -1.0])))
        yield posture, gait, speed, phase, rhythm


def test_the_whole_pose_kernel_gives_round_5s_poses_on_either_path(monkeypatch):
    """The angle table, stride and pelvis height moved into the kernel: the joints and lean are round 5's doubles
    on 600 random postures, gaits, speeds, phases and rhythms, compiled and in Python; and pelvis_height is the
    pose's pelvis height."""
    cases = list(_pose_cases(600))
    for python in (False, True):
        if python:
            monkeypatch.setattr(pose_kernel._FRAME, "resolved", (pose_kernel.pose_frame, "python"))
        builder = PoseBuilder(DEFAULT_SKELETON)
        for posture, gait, speed, phase, rhythm in cases:
            want, want_lean = _round5_pose(builder, posture, gait, speed, phase, rhythm)
            got, lean = builder.pose(posture, gait, speed, phase, rhythm)
            assert _same_bits(got, want) and _same_bits(lean, want_lean)
            pelvis = builder.pelvis_height(posture, gait, speed, phase)
            assert _same_bits(pelvis, got[0][1])
