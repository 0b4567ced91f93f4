"""The procedural pose's trunk kernel: yaw-pitch-roll frames -> rotated rest offsets of the non-leg bones.

Card
----
- :func:`trunk_bones` rotates each trunk, neck and arm bone's rest offset by its parent's Euler frame (roll
  about z, pitch about x, yaw about y, in that order) on plain floats: what
  :meth:`~wmbench.body.motion.procedural.pose.PoseBuilder.pose` computed with ~20 small numpy calls
  (``np.cos`` / ``np.sin`` of the angle table, six products and sums per axis). numpy's float64 ``cos`` /
  ``sin`` give libm's doubles (checked on this project's machines) and its elementwise products and sums are
  single IEEE operations, which the kernel performs in the same order, so the bones are the same doubles.
- **Compiled or not**: :func:`kernel` is numba's compiled :func:`trunk_bones` when numba imports (the
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


Kernel = Callable[..., None]
_compiled: list[tuple[Kernel, str]] = []


def _warm_up(compiled: Kernel) -> object:
    return compiled(np.zeros(3), np.zeros(1, dtype=np.int64), np.ones(3), np.zeros(3))


def _resolve() -> tuple[Kernel, str]:
    if not _compiled:
        _compiled.append(compile_kernel(trunk_bones, _warm_up))
    return _compiled[0]


def kernel() -> Kernel:
    """The trunk kernel this process uses (decided once, on first use)."""
    return _resolve()[0]


def kernel_path() -> str:
    """``"numba"`` or ``"python"``: which :func:`kernel` runs."""
    return _resolve()[1]
