"""The robot's per-frame servo kernel: 22 joints -> 20 raw servo targets -> clamped, rate-limited command.

Card
----
- **What it is.** :func:`servo_frame`, one frame of the servo map (:class:`~wmbench.body.robot.servo_map.
  ServoMap`) and of the robot's command (:meth:`~wmbench.body.robot.servo_robot.ServoRobot.on_frame`) on
  plain floats: each distinct segment differenced and normalised once, put in the root frame, the chest
  frame (built from the clamped torso targets) or dotted with its hinge partner, the 20 measures
  (``atan2`` / ``asin`` / ``acos`` through ``math.*``), ``sign * gain * measure + offset``; then, when a frame
  time is given, the clamp to the limits (counting the clamped targets), the rate limit and the velocity
  feed-forward, with ``np.clip``'s semantics (max then min; NaN kept).
- **Same numbers as numpy's batched map.** The servo map computed its norms and dots with BLAS's dot (on
  this project's OpenBLAS: ``fma(x2, y2, fma(x1, y1, x0 * y0))``) and its frame products with BLAS's
  matrix-vector kernel (``fma(F[i,2], u2, fma(F[i,0], u0, F[i,1] * u1))`` per row, measured on 20,000
  random cases; the order is OpenBLAS's, not an obvious one). The kernel writes those operations out with
  :func:`~wmbench.body.kernels.fma`, so it reproduces that map's doubles exactly where OpenBLAS runs those
  kernels, and gives the same doubles on every CPU (an FMA is exactly specified; BLAS's choice of kernel is
  not). The chest frame ``robot @ ROOT_FRAME`` only permutes columns (every other product is an exact zero of
  the sign the row's positive entry forces: ``+0``), written as that permutation.
- **Compiled or not**: :func:`kernel` is numba's compiled :func:`servo_frame` when numba imports (the
  ``fast`` extra), else the plain one; :func:`kernel_path` says which; ``WMBENCH_NO_NUMBA=1`` forces Python.
  Constants and buffers are float64/int64 arrays for numba, tuples and lists for Python
  (:class:`ServoKernelData` builds them).

The ``heading_yaw`` measure's "too short to read" test compares ``sqrt(f*f + left*left)`` with its threshold
instead of ``math.hypot`` (numba's and CPython's hypot differ in the last bit): the two can only disagree
when the length is within a rounding of 0.05.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from wmbench.body.kernels import LazyKernel, fma

#: Measure codes of :func:`servo_frame` (the order of :data:`~wmbench.body.robot.servo_map.MEASURES`).
MEASURE_CODES: dict[str, int] = {"swing_pitch": 0, "swing_roll": 1, "lean_pitch": 2, "line_yaw": 3,
                                 "heading_yaw": 4, "hinge": 5, "hinge_yaw": 6}
#: ``ki``'s header: servos, segments, root-frame segments, chest-frame segments, hinges, torso yaw and pitch
#: servo indices (``ki`` continues with 4 ints per servo, 2 per segment, the root and chest segments and 2
#: per hinge).
N_HEADER = 7


def servo_frame(joints: Any, ki: Any, kf: Any, mem: Any, command: Any, velocity: Any, dt: float) -> int:
    """One frame. ``joints``: the 22 root-local joints, flat (66 floats, x y z per joint). ``ki`` / ``kf``:
    the map's integer and float constants (:class:`ServoKernelData`). ``mem``: scratch; the raw targets are
    left at ``mem[raw_offset:]``. With ``dt > 0``: ``command`` (the previous command in, the new one out) and
    ``velocity`` (out) are updated and the number of raw targets outside their limits is returned; with
    ``dt <= 0`` only the raw targets are computed (returns 0)."""
    n_servo, n_seg, n_root, n_chest, n_hinge = ki[0], ki[1], ki[2], ki[3], ki[4]
    i_yaw, i_pitch = ki[5], ki[6]
    o_seg = N_HEADER + 4 * n_servo
    o_root = o_seg + 2 * n_seg
    o_chest = o_root + n_root
    o_hinge = o_chest + n_chest
    m_root = 3 * n_seg
    m_chest = m_root + 3 * n_root
    m_hinge = m_chest + 3 * n_chest
    m_raw = m_hinge + n_hinge
    f_torso = 6 * n_servo
    f_frame = f_torso + 4
    # segments: difference, BLAS dot norm, unit (a degenerate segment reads straight down)
    for s in range(n_seg):
        a = 3 * ki[o_seg + 2 * s]
        b = 3 * ki[o_seg + 2 * s + 1]
        d0 = joints[b] - joints[a]
        d1 = joints[b + 1] - joints[a + 1]
        d2 = joints[b + 2] - joints[a + 2]
        n = math.sqrt(fma(d2, d2, fma(d1, d1, d0 * d0)))
        if n > 1e-9:
            mem[3 * s], mem[3 * s + 1], mem[3 * s + 2] = d0 / n, d1 / n, d2 / n
        else:
            mem[3 * s], mem[3 * s + 1], mem[3 * s + 2] = 0.0, -1.0, 0.0
    # root frame: BLAS's matrix-vector product, row by row
    for r in range(n_root):
        u = 3 * ki[o_root + r]
        u0, u1, u2 = mem[u], mem[u + 1], mem[u + 2]
        for i in range(3):
            f = f_frame + 3 * i
            mem[m_root + 3 * r + i] = fma(kf[f + 2], u2, fma(kf[f], u0, kf[f + 1] * u1))
    # hinges: BLAS dot of the two units
    for h in range(n_hinge):
        u = 3 * ki[o_hinge + 2 * h]
        w = 3 * ki[o_hinge + 2 * h + 1]
        mem[m_hinge + h] = fma(mem[u + 2], mem[w + 2], fma(mem[u + 1], mem[w + 1], mem[u] * mem[w]))
    chest_ready = False
    for k in range(n_servo):
        kind = ki[N_HEADER + 4 * k]
        measure = ki[N_HEADER + 4 * k + 1]
        a = ki[N_HEADER + 4 * k + 2]
        b = ki[N_HEADER + 4 * k + 3]
        if (kind == 1 or kind == 4) and not chest_ready:
            # the chest frame from the clamped torso targets: rows fwd, left, up of R_z(yaw) R_y(pitch) in
            # robot coordinates, permuted to motion coordinates (robot fwd/left/up = motion z/x/y); + 0.0
            # turns a -0.0 into the +0.0 the permutation matmul's zero products leave
            yaw = min(max(mem[m_raw + i_yaw], kf[f_torso]), kf[f_torso + 1])
            pitch = min(max(mem[m_raw + i_pitch], kf[f_torso + 2]), kf[f_torso + 3])
            cy, sy, cp, sp = math.cos(yaw), math.sin(yaw), math.cos(pitch), math.sin(pitch)
            fwd0, fwd1, fwd2 = cy * cp, sy * cp, -sp
            left0, left1, left2 = -sy, cy, 0.0
            up0, up1, up2 = cy * sp, sy * sp, cp
            rows = ((fwd1 + 0.0, fwd2 + 0.0, fwd0 + 0.0), (left1 + 0.0, left2 + 0.0, left0 + 0.0),
                    (up1 + 0.0, up2 + 0.0, up0 + 0.0))
            for c in range(n_chest):
                u = 3 * ki[o_chest + c]
                u0, u1, u2 = mem[u], mem[u + 1], mem[u + 2]
                for i in range(3):
                    f0, f1, f2 = rows[i]
                    mem[m_chest + 3 * c + i] = fma(f2, u2, fma(f0, u0, f1 * u1))
            chest_ready = True
        if kind == 2:
            x = mem[m_hinge + a]
            measured = math.acos(max(-1.0, min(1.0, x)))
        elif kind == 3 or kind == 4:
            base = m_root if kind == 3 else m_chest
            p = base + 3 * a
            q = base + 3 * b
            a0, a1, a2 = mem[p], mem[p + 1], mem[p + 2]
            b0, b1, b2 = mem[q], mem[q + 1], mem[q + 2]
            c0, c1, c2 = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0
            bend = math.sqrt(fma(c2, c2, fma(c1, c1, c0 * c0)))
            if bend < 1e-6:
                measured = 0.0
            else:
                pitch_ = math.atan2(a0, -a2)
                roll = math.asin(max(-1.0, min(1.0, a1)))
                cp_, sp_, cr, sr = math.cos(pitch_), math.sin(pitch_), math.cos(roll), math.sin(roll)
                n0, n1, n2 = c0 / bend, c1 / bend, c2 / bend
                n0, n2 = cp_ * n0 + sp_ * n2, -sp_ * n0 + cp_ * n2
                n1 = cr * n1 + sr * n2
                fade = min(bend / 0.15, 1.0)
                measured = fade * fade * (3.0 - 2.0 * fade) * math.atan2(-n0, n1)
        else:
            p = (m_root if kind == 0 else m_chest) + 3 * a
            f, left, up = mem[p], mem[p + 1], mem[p + 2]
            if measure == 0:
                measured = math.atan2(f, -up)
            elif measure == 1:
                measured = math.asin(max(-1.0, min(1.0, left)))
            elif measure == 2:
                measured = math.atan2(f, up)
            elif measure == 3:
                measured = math.atan2(-f, left)
            elif math.sqrt(f * f + left * left) < 0.05:
                measured = 0.0
            elif f < 0.0:
                measured = math.atan2(-left, -f)
            else:
                measured = math.atan2(left, f)
        mem[m_raw + k] = kf[6 * k] * measured + kf[6 * k + 1]
    if not dt > 0.0:
        return 0
    clamped = 0
    for k in range(n_servo):
        x = mem[m_raw + k]
        lo, hi, up_, down = kf[6 * k + 2], kf[6 * k + 3], kf[6 * k + 4], kf[6 * k + 5]
        prev = command[k]
        if x < lo or x > hi:
            clamped += 1
        if not (x > lo or x != x):
            x = lo
        if not (x < hi or x != x):
            x = hi
        move = x - prev
        if not (move > down or move != move):
            move = down
        if not (move < up_ or move != move):
            move = up_
        new = prev + move
        command[k] = new
        velocity[k] = (new - prev) / dt
    return clamped


def pairwise_sum(values: Any, n: int) -> float:
    """``float(np.add.reduce(values[:n]))`` for ``n <= 128``, on plain floats: numpy's pairwise sum (below 8
    values one running sum; else 8 running sums over blocks of 8, combined as
    ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the rest one by one), so the same bits
    (tests/body/robot/test_servo_robot.py checks it against numpy for every length). Longer runs are split
    further by numpy's recursion: not this function's (callers send those to numpy)."""
    if n < 8:
        total = 0.0
        for i in range(n):
            total += values[i]
        return total
    r0, r1, r2, r3 = values[0], values[1], values[2], values[3]
    r4, r5, r6, r7 = values[4], values[5], values[6], values[7]
    m = n - n % 8
    for i in range(8, m, 8):
        r0 += values[i]
        r1 += values[i + 1]
        r2 += values[i + 2]
        r3 += values[i + 3]
        r4 += values[i + 4]
        r5 += values[i + 5]
        r6 += values[i + 6]
        r7 += values[i + 7]
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for i in range(m, n):
        total += values[i]
    return total


def measure_frame(angles: Any, command: Any, low: Any, high: Any, error: Any) -> tuple[float, int]:
    """The robot's tracking statistics of one physics state (at most 128 servos): ``error[k] = |command[k] -
    angles[k]|`` (written), and returns (the errors' sum, numpy's pairwise order: :func:`pairwise_sum`; the
    number of angles outside ``[low, high]``). The squared error is left to the caller: it is BLAS's dot,
    whose order here is not a written-out one (round 6 tried OpenBLAS's Haswell and SkylakeX ddot orders)."""
    n = len(angles)
    violations = 0
    for k in range(n):
        angle = angles[k]
        error[k] = abs(command[k] - angle)
        if angle < low[k] or angle > high[k]:
            violations += 1
    return pairwise_sum(error, n), violations


Kernel = Callable[..., int]
MeasureKernel = Callable[..., tuple[float, int]]


class ServoKernelData:
    """The constants and buffers :func:`servo_frame` reads for one servo map (and, for a robot, its frame
    time): ``ki``, ``kf``, ``mem`` as the path in use wants them, and where the raw targets land."""

    def __init__(self, plan: Sequence[tuple[int, str, int, int, float, float]], seg_from: Sequence[int],
                 seg_to: Sequence[int], root_segs: Sequence[int], chest_segs: Sequence[int],
                 hinges: Sequence[tuple[int, int]], torso: tuple[tuple[int, float, float], ...],
                 lower: Sequence[float], upper: Sequence[float], step: Sequence[float],
                 root_frame: Sequence[float]) -> None:
        n = len(plan)
        (i_yaw, y_lo, y_hi), (i_pitch, p_lo, p_hi) = torso
        ki: list[int] = [n, len(seg_from), len(root_segs), len(chest_segs), len(hinges), i_yaw, i_pitch]
        kf: list[float] = []
        for (kind, measure, a, b, scale, offset), lo, hi, st in zip(plan, lower, upper, step):
            ki += [kind, MEASURE_CODES[measure], a, b]
            kf += [scale, offset, lo, hi, st, -st]
        for a, b in zip(seg_from, seg_to):
            ki += [a, b]
        ki += list(root_segs) + list(chest_segs)
        for a, b in hinges:
            ki += [a, b]
        kf += [y_lo, y_hi, p_lo, p_hi] + [float(v) for v in root_frame]
        self.n = n
        self.raw_offset = 3 * len(seg_from) + 3 * len(root_segs) + 3 * len(chest_segs) + len(hinges)
        n_mem = self.raw_offset + n
        self.numba = kernel_path() == "numba"
        if self.numba:
            self.ki: Any = np.array(ki, dtype=np.int64)
            self.kf: Any = np.array(kf, dtype=np.float64)
            self.mem: Any = np.zeros(n_mem)
            self.command: Any = np.zeros(n)
            self.velocity: Any = np.zeros(n)
        else:
            self.ki, self.kf, self.mem = tuple(ki), tuple(kf), [0.0] * n_mem
            self.command, self.velocity = [0.0] * n, [0.0] * n
        self._sent: list[float] | None = None   # the list the latest step returned (numba path)
        self.error: Any = np.zeros(n) if measure_kernel_path() == "numba" else [0.0] * n

    def step(self, joints: np.ndarray, previous: list[float], dt: float) -> tuple[list[float], list[float], int]:
        """One robot frame: ``(command, velocity, clamped)`` from the frame's joints and the previous command
        (see :func:`servo_frame`)."""
        command, velocity = self.command, self.velocity
        if previous is not self._sent:   # else the buffer holds it already (the list was made from it)
            command[:] = previous
        clamped = kernel()(self.joints_arg(joints), self.ki, self.kf, self.mem, command, velocity, dt)
        if self.numba:
            sent = command.tolist()
            self._sent = sent
            return sent, velocity.tolist(), int(clamped)
        return list(command), list(velocity), clamped

    def measure(self, angles: list[float], command: list[float], low: Any, high: Any) -> tuple[float, int, Any]:
        """:func:`measure_frame` of these angles (at most 128) against ``command`` and the limits ``low``,
        ``high`` (float64 arrays on the numba path, sequences on the Python path: :meth:`limits_arg`): (error
        sum, violations, the errors as a float64 array on the numba path or a list on the Python path).
        ``command`` may be the list the latest :meth:`step` returned (then its float64 copy in this object is
        read, no conversion)."""
        fn, error = measure_kernel(), self.error
        angles_arg: Any = angles
        command_arg: Any = command
        if measure_kernel_path() == "numba":
            angles_arg = np.array(angles)
            command_arg = self.command if command is self._sent else np.array(command, dtype=np.float64)
        total, violations = fn(angles_arg, command_arg, low, high, error)
        return total, violations, error

    def limits_arg(self, limits: Sequence[float]) -> Any:
        """Limits as :meth:`measure` reads them: a float64 array (numba) or a tuple (Python)."""
        return np.array(limits, dtype=np.float64) if measure_kernel_path() == "numba" else tuple(limits)

    def joints_arg(self, joints: np.ndarray) -> Any:
        """The (22, 3) joints as the kernel reads them: a flat float64 array (numba) or list (Python)."""
        flat = np.ascontiguousarray(joints, dtype=np.float64).reshape(-1)
        return flat if self.numba else flat.tolist()

    def raw(self) -> list[float]:
        """The raw targets of the latest call, as floats."""
        out = self.mem[self.raw_offset:self.raw_offset + self.n]
        return out.tolist() if self.numba else list(out)


def _warm_up(compiled: Kernel) -> object:
    ki = np.array([1, 1, 1, 0, 0, 0, 0, 1, 0, 0, -1, 1, 0, 0], dtype=np.int64)
    kf = np.array([1.0, 0.0, -1.0, 1.0, 0.1, -0.1, -1.0, 1.0, -1.0, 1.0] + [0.0] * 9)
    return compiled(np.arange(6.0), ki, kf, np.zeros(8), np.zeros(1), np.zeros(1), 0.1)


_SERVO: LazyKernel[Kernel] = LazyKernel(servo_frame, _warm_up)


def _warm_up_measure(compiled: MeasureKernel) -> object:
    return compiled(np.ones(9), np.zeros(9), np.zeros(9), np.full(9, 0.5), np.zeros(9))


_MEASURE: LazyKernel[MeasureKernel] = LazyKernel(measure_frame, _warm_up_measure, helpers=(pairwise_sum,))


def measure_kernel() -> MeasureKernel:
    """The tracking-statistics kernel this process uses (numba's compiled :func:`measure_frame` or itself)."""
    return _MEASURE.get()


def measure_kernel_path() -> str:
    """``"numba"`` or ``"python"``: which :func:`measure_kernel` runs."""
    return _MEASURE.path()


def kernel() -> Kernel:
    """The servo kernel this process uses: numba's compiled :func:`servo_frame`, or :func:`servo_frame`
    itself (decided once, on first use)."""
    return _SERVO.get()


def kernel_path() -> str:
    """``"numba"`` or ``"python"``: which :func:`kernel` runs."""
    return _SERVO.path()
