"""The robot's servo kernel: the same doubles on the compiled and the Python path, many frames long."""

from __future__ import annotations

import numpy as np
import pytest

from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.robot import servo_kernel
from wmbench.body.robot.servo_map import SERVO_MAP
from wmbench.core.speed import SpeedClass


def _frames() -> list[np.ndarray]:
    rng = np.random.default_rng(8)
    frames = []
    for k, speed in enumerate(SpeedClass):
        gen = ProceduralGenerator(30)
        gen.reset(seed=k)
        gen.set_intent(MotionIntent("fwd", 0.4 * k, speed, styles=("crouch",) if k % 2 else ()))
        frames += [np.array(gen.next_frame(0.6 * k).joints) for _ in range(60)]
    frames += [f + rng.normal(scale=0.08, size=f.shape) for f in frames[::4]]
    degenerate = frames[0].copy()
    degenerate[4] = degenerate[1]           # a zero-length thigh reads straight down
    return [*frames, degenerate]


def _run(data: servo_kernel.ServoKernelData, run, frames: list[np.ndarray]) -> list[tuple]:
    """Commands of a robot-like loop: each frame's command from the previous one (rate limit binding)."""
    command, out = [0.0] * data.n, []
    for joints in frames:
        command, velocity, clamped = run(joints, command)
        out.append((tuple(command), tuple(velocity), clamped, tuple(data.raw())))
    return out


@pytest.mark.skipif(servo_kernel.kernel_path() != "numba", reason="numba not installed: only Python runs")
def test_the_compiled_and_the_python_servo_kernel_give_the_same_doubles(monkeypatch):
    frames = _frames()
    data = SERVO_MAP.kernel_data(1.0 / 30.0)
    fast = _run(data, lambda j, c: data.step(j, c, 1.0 / 30.0), frames)
    monkeypatch.setattr(servo_kernel._SERVO, "resolved", (servo_kernel.servo_frame, "python"))
    slow_data = SERVO_MAP.kernel_data(1.0 / 30.0)
    assert not slow_data.numba
    slow = _run(slow_data, lambda j, c: slow_data.step(j, c, 1.0 / 30.0), frames)
    assert np.array(fast, dtype=object).shape == np.array(slow, dtype=object).shape
    for a, b in zip(fast, slow, strict=True):
        assert np.array(a[0]).tobytes() == np.array(b[0]).tobytes()
        assert np.array(a[1]).tobytes() == np.array(b[1]).tobytes()
        assert a[2] == b[2]
        assert np.array(a[3]).tobytes() == np.array(b[3]).tobytes()


def test_the_command_is_numpys_clip_and_rate_limit():
    dt = 1.0 / 30.0
    data = SERVO_MAP.kernel_data(dt)
    step = SERVO_MAP.max_speed * dt
    previous = [0.0] * data.n
    clamped_total = 0
    for joints in _frames()[:120]:
        raw = np.array(SERVO_MAP.raw_target_list(joints))
        command, velocity, clamped = data.step(joints, previous, dt)
        prev = np.array(previous)
        want = prev + np.clip(np.clip(raw, SERVO_MAP.lower, SERVO_MAP.upper) - prev, -step, step)
        assert np.array(command).tobytes() == want.tobytes()
        assert np.array(velocity).tobytes() == ((want - prev) / dt).tobytes()
        assert clamped == int(np.count_nonzero((raw < SERVO_MAP.lower) | (raw > SERVO_MAP.upper)))
        clamped_total += clamped
        previous = command
    assert clamped_total > 0


def test_the_tracking_statistics_kernel_gives_numpys_doubles_on_either_path(monkeypatch):
    """measure_frame's errors, sum and violation count equal numpy's ``abs(command - angles)``,
    ``np.add.reduce`` and the limit comparisons, on the compiled and the Python path, for every length 1-128,
    signed zeros, NaN angles and values of very different sizes (where the summation order shows)."""
    rng = np.random.default_rng(21)
    cases = []
    for n in [*range(1, 129), 20, 20, 20]:
        scale = rng.choice([1e-12, 1e-3, 1.0, 1e3], n)
        cases.append((rng.normal(0.0, 1.0, n) * scale, rng.normal(0.0, 1.0, n) * scale,
                      rng.uniform(-2.0, 0.0, n), rng.uniform(0.0, 2.0, n)))
    angles = np.array([0.0, -0.0, np.nan, 1.5, -2.5] * 4)
    cases.append((angles, np.full(20, -0.0), np.full(20, -1.0), np.full(20, 1.0)))

    def want(a, c, lo, hi):
        error = np.abs(c - a)
        return error, float(np.add.reduce(error)), int(np.sum((a < lo) | (a > hi)))

    kernels = [servo_kernel.measure_kernel(), servo_kernel.measure_frame]
    for fn in kernels:
        for a, c, lo, hi in cases:
            error, total, violations = want(a, c, lo, hi)
            if fn is servo_kernel.measure_frame:
                out = [0.0] * len(a)
                got = fn(a.tolist(), c.tolist(), tuple(lo.tolist()), tuple(hi.tolist()), out)
            else:
                out = np.zeros(len(a))
                got = fn(a, c, lo, hi, out)
            assert np.array(out).tobytes() == error.tobytes()
            assert np.array(got[0]).tobytes() == np.array(total).tobytes() and got[1] == violations


def test_the_robots_measure_takes_the_latest_command_or_converts_another(monkeypatch):
    """ServoKernelData.measure reads its own copy of the command only for the list its latest step returned."""
    data = SERVO_MAP.kernel_data(1.0 / 30.0)
    joints = _frames()[3]
    command, _, _ = data.step(joints, [0.0] * data.n, 1.0 / 30.0)
    lo, hi = data.limits_arg([-9.0] * data.n), data.limits_arg([9.0] * data.n)
    angles = [0.25] * data.n
    total, _, error = data.measure(angles, command, lo, hi)
    assert np.array(error).tolist() == [abs(c - 0.25) for c in command]
    other = [0.5] * data.n        # not the list the step returned: converted, not confused with the copy
    total, _, error = data.measure(angles, other, lo, hi)
    assert np.array(error).tolist() == [0.25] * data.n and total == pytest.approx(0.25 * data.n)
