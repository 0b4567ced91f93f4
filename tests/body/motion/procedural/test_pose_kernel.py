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
    monkeypatch.setattr(pose_kernel, "_compiled", [(pose_kernel.pose_bones, "python")])
    second = poses()
    assert all(_same_bits(a, b) for a, b in zip(first, second, strict=True))
    assert not any(math.isnan(v) for a in first for v in a.reshape(-1))
