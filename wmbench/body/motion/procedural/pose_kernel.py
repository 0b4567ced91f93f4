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

from wmbench.body.kernels import compile_kernel
from wmbench.body.motion.procedural.gait import foot_target_xyz, foot_vector, stance_foot_xyz, two_bone_ik_xyz
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


Kernel = Callable[..., None]
_compiled: list[tuple[Kernel, str]] = []


def _warm_up(compiled: Kernel) -> None:
    legs = np.full(N_LEG_ARGS, 0.5)
    compiled(np.zeros(3), np.zeros(2, dtype=np.int64), np.ones(6), legs, np.zeros(6 + 18))


def _resolve() -> tuple[Kernel, str]:
    if not _compiled:
        _compiled.append(compile_kernel(pose_bones, _warm_up, helpers=(
            trunk_bones, foot_target_xyz, stance_foot_xyz, two_bone_ik_xyz, foot_vector, smoothstep)))
    return _compiled[0]


def kernel() -> Kernel:
    """The trunk kernel this process uses (decided once, on first use)."""
    return _resolve()[0]


def kernel_path() -> str:
    """``"numba"`` or ``"python"``: which :func:`kernel` runs."""
    return _resolve()[1]
