"""The procedural pose's kernel: the bone vectors of one pose (trunk and arms from Euler frames, legs from IK).

Card
----
- :func:`trunk_bones` rotates each trunk, neck and arm bone's rest offset by its parent's Euler frame (roll
  about z, pitch about x, yaw about y, in that order) on plain floats: what
  :meth:`~wmbench.body.motion.procedural.pose.PoseBuilder.pose` computed with ~20 small numpy calls
  (``np.cos`` / ``np.sin`` of the angle table, six products and sums per axis). numpy's float64 ``cos`` /
  ``sin`` give libm's doubles (checked on this project's machines) and its elementwise products and sums are
  single IEEE operations, which the kernel performs in the same order, so the bones are the same doubles.
- :func:`pose_bones` adds the legs: the gait's foot targets and the two-bone IK
  (:mod:`~wmbench.body.motion.procedural.gait`'s plain-float functions, the only implementation: compiled
  with the kernel on the numba path, called as they are on the Python path).
- **Compiled or not**: :func:`kernel` is numba's compiled :func:`pose_bones` when numba imports (the
  ``fast`` extra; no fastmath, so no FMA contraction), else the plain one; ``WMBENCH_NO_NUMBA=1`` forces
  Python; :func:`kernel_path` says which. ``tests/body/motion/procedural/test_pose_kernel.py`` compares the
  two paths and numpy's version bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from wmbench.body.kernels import LazyKernel
from wmbench.body.motion.procedural.gait import (
    foot_target_xyz,
    foot_vector,
    stance_foot_xyz,
    stride_terms,
    two_bone_ik_xyz,
)
from wmbench.body.motion.stream import smoothstep


def trunk_bones(frames: Any, slots: Any, offsets: Any, out: Any) -> None:
    """``frames``: the frame joints' angles, 3 per joint (yaw, pitch, roll). ``slots``: per bone, its parent's
    joint among them. ``offsets``: per bone its rest offset (x, y, z), flat. ``out``: per bone the rotated
    offset (x, y, z), flat (written)."""
    for r in range(len(slots)):
        s = 3 * slots[r]
        yaw, pitch, roll = frames[s], frames[s + 1], frames[s + 2]
        c0, s0 = math.cos(yaw), math.sin(yaw)
        c1, s1 = math.cos(pitch), math.sin(pitch)
        c2, s2 = math.cos(roll), math.sin(roll)
        ox, oy, oz = offsets[3 * r], offsets[3 * r + 1], offsets[3 * r + 2]
        x1 = c2 * ox - s2 * oy            # roll about z
        y1 = s2 * ox + c2 * oy
        y2 = c1 * y1 - s1 * oz            # pitch about x
        z2 = s1 * y1 + c1 * oz
        out[3 * r] = c0 * x1 + s0 * z2    # yaw about y
        out[3 * r + 1] = y2
        out[3 * r + 2] = c0 * z2 - s0 * x1


#: ``legs`` of :func:`pose_bones`: foot geometry (ankle height, tip z, foot width, toe out, foot y, foot z), the
#: stride (stance travel, duty, lift, lift exponent, strike, toe-off, heel-off, follow, travel dx, dz), thigh
#: and shin, the knee pole (x, z), the pelvis height and the two legs' phases.
N_LEG_ARGS = 6 + 10 + 2 + 2 + 1 + 2


def pose_bones(frames: Any, slots: Any, offsets: Any, legs: Any, out: Any) -> None:
    """The trunk (:func:`trunk_bones`, rows first, the two hips first among them) and then the legs: per leg
    the gait's foot target (:func:`~wmbench.body.motion.procedural.gait.foot_target_xyz`), the two-bone IK
    from the hip (:func:`~wmbench.body.motion.procedural.gait.two_bone_ik_xyz`) and the foot vector, written
    after the trunk as the bone vectors knee (left, right), ankle (left, right), foot (left, right)."""
    trunk_bones(frames, slots, offsets, out)
    n = 3 * len(slots)
    (ankle_height, tip_z, foot_width, toe_out, foot_y, foot_z, travel, duty, lift, lift_exp, strike, toe_off,
     heel_off, follow, dx, dz, thigh, shin, pole_x, pole_z, pelvis_y, phase_l, phase_r) = (
        legs[0], legs[1], legs[2], legs[3], legs[4], legs[5], legs[6], legs[7], legs[8], legs[9], legs[10],
        legs[11], legs[12], legs[13], legs[14], legs[15], legs[16], legs[17], legs[18], legs[19], legs[20],
        legs[21], legs[22])
    for leg in range(2):
        side = 1.0 if leg == 0 else -1.0
        leg_phase = phase_l if leg == 0 else phase_r
        hx, hy, hz = out[3 * leg], out[3 * leg + 1] + pelvis_y, out[3 * leg + 2]
        tx, ty, tz, pitch = foot_target_xyz(ankle_height, tip_z, foot_width, toe_out, travel, duty, lift,
                                            lift_exp, strike, toe_off, heel_off, follow, dx, dz, side, leg_phase)
        kx, ky, kz, ax, ay, az = two_bone_ik_xyz(hx, hy, hz, tx, ty, tz, thigh, shin, pole_x, pole_z)
        fx, fy, fz = foot_vector(foot_y, foot_z, pitch, side * toe_out)
        k = n + 3 * leg
        out[k], out[k + 1], out[k + 2] = kx - hx, ky - hy, kz - hz
        out[k + 6], out[k + 7], out[k + 8] = ax - kx, ay - ky, az - kz
        out[k + 12], out[k + 13], out[k + 14] = fx, fy, fz


def pelvis_y(stand_height: float, pelvis_drop: float, drop: float, gait_scale: float, bob: float, amp: float,
             duty: float, phase: float) -> float:
    """The pelvis's height (m) of a pose: standing height less the posture's and the gait's drops, plus the
    gait's bob (twice per cycle, highest at mid-stance for ``bob > 0``)."""
    stance_mid = phase - 0.5 * duty
    return stand_height - pelvis_drop - drop * gait_scale + bob * amp * math.cos(4.0 * math.pi * stance_mid)


#: ``params`` of :func:`pose_frame`, in order: the posture's fields, the gait's, what the two give together
#: (the swing-height exponent, the travel direction x, z and its forward part), the speed below which the
#: gait fades out (``pose.GAIT_FADE_SPEED``), the skeleton's (standing
#: height, foot geometry, thigh, shin). :class:`~wmbench.body.motion.procedural.pose.PoseBuilder` fills it
#: whenever the posture or the gait object changes.
PARAM_FIELDS = (
    "gait_scale", "breath_depth", "sway", "glance", "torso_lean", "lean_per_speed", "pelvis_drop", "slump",
    "arm_swing_scale", "arm_forward", "shoulder_raise", "arm_abduction", "elbow_flex", "head_scan", "head_pitch",
    "shoulder_protract", "forearm_inward", "stride_scale",
    "duty", "obliquity", "twist", "arm_swing", "elbow_bend", "drop", "bob", "step_hz", "lift", "strike_pitch",
    "toe_off_pitch", "heel_off", "follow",
    "lift_exp", "dx", "dz", "ahead", "fade_speed",
    "stand_height", "ankle_height", "tip_z", "foot_width", "toe_out", "foot_y", "foot_z", "thigh", "shin",
)
N_POSTURE_PARAMS = 18
N_GAIT_PARAMS = 13


def pose_frame(params: Any, speed: float, phase: float, breath_phase: float, scan_phase: float,
               glance_side: float, slots: Any, offsets: Any, rows: Any, frames: Any, legs: Any, bones: Any,
               out: Any) -> float:
    """One whole pose's bone vectors: the Euler-angle table of the trunk, neck and arms (pelvis bob, twist
    and tilt, shoulders counter-rotating, arms swinging, breathing, sway, head scan and glance), the stride
    (:func:`~wmbench.body.motion.procedural.gait.stride_terms`) and the pelvis height (:func:`pelvis_y`),
    then :func:`pose_bones`. ``frames`` (33), ``legs`` (:data:`N_LEG_ARGS`) and ``bones`` (3 per row of
    ``rows``) are scratch buffers; ``out`` gets the bone vector of every joint, 3 per joint, flat (row 0, the
    pelvis, is ``(0, pelvis height, 0)``; ``rows`` says where :func:`pose_bones`' rows go). Returns the trunk
    lean. The arithmetic is what ``PoseBuilder.pose`` did in Python before round 6, operation for operation
    (``max``/``min`` written as Python's: the first argument unless the second is greater / smaller)."""
    (gait_scale, breath_depth, sway_amp, glance_amp, torso_lean, lean_per_speed, pelvis_drop, slump,
     arm_swing_scale, arm_forward, shoulder_raise, arm_abduction, elbow_flex, head_scan, head_pitch,
     shoulder_protract, forearm_inward, stride_scale,
     duty, obliquity, twist, arm_swing, elbow_bend, drop, bob, step_hz, lift, strike_pitch, toe_off_pitch,
     heel_off, follow, lift_exp, dx, dz, ahead, fade_speed,
     stand_height, ankle_height, tip_z, foot_width, toe_out, foot_y, foot_z, thigh, shin) = (
        params[0], params[1], params[2], params[3], params[4], params[5], params[6], params[7], params[8],
        params[9], params[10], params[11], params[12], params[13], params[14], params[15], params[16], params[17],
        params[18], params[19], params[20], params[21], params[22], params[23], params[24], params[25],
        params[26], params[27], params[28], params[29], params[30], params[31], params[32], params[33],
        params[34], params[35], params[36], params[37], params[38], params[39], params[40], params[41],
        params[42], params[43], params[44])
    amp = gait_scale * smoothstep(speed / fade_speed)
    travel, st_lift, strike, toe_off = stride_terms(step_hz, stride_scale, duty, gait_scale, lift, strike_pitch,
                                                    toe_off_pitch, ahead, speed, amp)
    cyc = math.cos(2.0 * math.pi * phase)
    stance_mid = phase - 0.5 * duty
    breath = breath_depth * math.sin(2.0 * math.pi * breath_phase)
    sway = sway_amp * math.sin(math.pi * breath_phase)
    glance = glance_amp * glance_side
    lean = torso_lean + lean_per_speed * speed
    lean = 0.6 if lean > 0.6 else lean

    pelvis = pelvis_y(stand_height, pelvis_drop, drop, gait_scale, bob, amp, duty, phase)
    pelvis_roll = obliquity * amp * math.cos(2.0 * math.pi * stance_mid)
    pelvis_yaw = -twist * amp * cyc
    chest_yaw = 0.6 * twist * amp * cyc + 0.4 * glance
    trunk_roll = -0.4 * pelvis_roll + sway
    chest_pitch = lean + slump - breath
    swing = arm_swing * arm_swing_scale * amp
    swing_l, swing_r = -swing * cyc, swing * cyc
    bend = elbow_bend * amp
    arm_pitch = 0.3 * chest_pitch - arm_forward
    raise_l = shoulder_raise + 0.5 * breath
    half_pi = 0.5 * math.pi
    ua_l0, ua_l1, ua_l2 = chest_yaw, arm_pitch - swing_l, trunk_roll - half_pi + arm_abduction
    ua_r0, ua_r1, ua_r2 = chest_yaw, arm_pitch - swing_r, trunk_roll + half_pi - arm_abduction
    flex_l = elbow_flex + bend + 0.15 * (0.0 if swing_l < 0.0 else swing_l)
    flex_r = elbow_flex + bend + 0.15 * (0.0 if swing_r < 0.0 else swing_r)
    f = frames
    f[0], f[1], f[2] = pelvis_yaw, 0.35 * lean, pelvis_roll + 0.5 * sway                      # pelvis
    f[3], f[4], f[5] = 0.3 * pelvis_yaw + 0.15 * glance, 0.6 * lean, 0.8 * trunk_roll         # spine1
    f[6], f[7], f[8] = 0.5 * chest_yaw + 0.1 * glance, 0.8 * lean + 0.5 * slump, trunk_roll   # spine2
    f[9], f[10], f[11] = chest_yaw, chest_pitch, trunk_roll                                   # spine3
    f[12] = 1.3 * glance + head_scan * math.sin(2.0 * math.pi * scan_phase)                    # neck
    f[13], f[14] = 0.45 * (lean + slump) + head_pitch, 0.5 * trunk_roll
    f[15], f[16], f[17] = chest_yaw - shoulder_protract, chest_pitch, trunk_roll + raise_l     # left collar
    f[18], f[19], f[20] = chest_yaw + shoulder_protract, chest_pitch, trunk_roll - raise_l     # right collar
    f[21], f[22], f[23] = ua_l0, ua_l1, ua_l2                                                  # upper arms
    f[24], f[25], f[26] = ua_r0, ua_r1, ua_r2
    f[27], f[28], f[29] = ua_l0 - forearm_inward, ua_l1 - flex_l, ua_l2                        # forearms
    f[30], f[31], f[32] = ua_r0 + forearm_inward, ua_r1 - flex_r, ua_r2
    g = legs
    g[0], g[1], g[2], g[3], g[4], g[5] = ankle_height, tip_z, foot_width, toe_out, foot_y, foot_z
    g[6], g[7], g[8], g[9], g[10], g[11], g[12] = travel, duty, st_lift, lift_exp, strike, toe_off, heel_off
    g[13], g[14], g[15], g[16], g[17] = follow, dx, dz, thigh, shin
    g[18], g[19], g[20], g[21], g[22] = (math.sin(pelvis_yaw), math.cos(pelvis_yaw), pelvis, phase,
                                         (phase + 0.5) % 1.0)
    pose_bones(frames, slots, offsets, legs, bones)
    out[0], out[1], out[2] = 0.0, pelvis, 0.0
    for i in range(len(rows)):
        k = 3 * rows[i]
        out[k], out[k + 1], out[k + 2] = bones[3 * i], bones[3 * i + 1], bones[3 * i + 2]
    return lean


Kernel = Callable[..., None]
FrameKernel = Callable[..., float]


def _warm_up(compiled: Kernel) -> None:
    legs = np.full(N_LEG_ARGS, 0.5)
    compiled(np.zeros(3), np.zeros(2, dtype=np.int64), np.ones(6), legs, np.zeros(6 + 18))


_BONES: LazyKernel[Kernel] = LazyKernel(pose_bones, _warm_up, helpers=(
    trunk_bones, foot_target_xyz, stance_foot_xyz, two_bone_ik_xyz, foot_vector, smoothstep))


def _warm_up_frame(compiled: FrameKernel) -> None:
    params = np.full(len(PARAM_FIELDS), 0.5)
    compiled(params, 0.5, 0.25, 0.1, 0.2, 1.0, np.zeros(2, dtype=np.int64), np.ones(6), np.arange(1, 9),
             np.zeros(33), np.zeros(N_LEG_ARGS), np.zeros(6 + 18), np.zeros(27))


_FRAME: LazyKernel[FrameKernel] = LazyKernel(pose_frame, _warm_up_frame, helpers=(
    pose_bones, pelvis_y, stride_terms, trunk_bones, foot_target_xyz, stance_foot_xyz, two_bone_ik_xyz,
    foot_vector, smoothstep))


def frame_kernel() -> FrameKernel:
    """The whole-pose kernel (:func:`pose_frame`) this process uses (decided once, on first use)."""
    return _FRAME.get()


def frame_kernel_path() -> str:
    """``"numba"`` or ``"python"``: which :func:`frame_kernel` runs."""
    return _FRAME.path()


def kernel() -> Kernel:
    """The bones kernel (:func:`pose_bones`) this process uses (decided once, on first use)."""
    return _BONES.get()


def kernel_path() -> str:
    """``"numba"`` or ``"python"``: which :func:`kernel` runs."""
    return _BONES.path()
