"""The drone's per-physics-step flight kernel: quaternion -> cascade -> mixer -> one net wrench.

Card
----
- **What it is.** :func:`flight_step`, one 240 Hz control step of the drone on plain floats: the rotation
  matrix from the base quaternion (Bullet's ``btMatrix3x3::setRotation`` formula, so it equals
  ``getMatrixFromQuaternion``), the body rates ``R^T w``, the cascade of :class:`~wmbench.body.drone.pid.
  QuadrotorCascade` (same operations, same order), the mixer of :class:`~wmbench.body.drone.airframe.Airframe`
  (same operations, same order, rotors saturated to ``[0, f_max]``), and then the four rotor thrusts and the
  rotors' drag torque folded into **one force along body z and one world torque** -- the wrench the four
  ``applyExternalForce`` calls at the rotors plus the yaw torque gave, as two PyBullet calls instead of five.
- **Compiled or not.** The same Python source runs as it is (the fallback) or compiled by numba
  (``pip install 'wmbench[fast]'``): :func:`kernel` is the compiled function when numba imports, else the
  plain one; :func:`kernel_path` says which (``"numba"`` / ``"python"``; ``WMBENCH_NO_NUMBA=1`` forces the
  fallback). The first compile takes ~2 s and is cached on disk (numba's ``cache=True``). numba compiles
  without ``fastmath`` (no FMA contraction, no reassociation) and the kernel avoids ``math.hypot`` (numba's
  and CPython's differ in the last bit) and ``math.remainder`` (not in numba; written out as CPython computes
  it), so both paths give the same doubles (``tests/body/drone/test_flight_kernel.py`` checks it).
- **What changed against 0.3.0's flight.** Folding the rotor forces into one wrench sums them in Python
  instead of inside Bullet, so the result differs from the five-call version in the last bits; over the
  contract's probe manoeuvres the trajectory stays within ``tests/body/drone/test_equivalence.py``'s stated
  tolerance of the kept 0.3.0 controller (issue 23 allows this; ``docs/speed.md`` has the numbers).

The PID integrals, the set-point and the outputs beside the wrench live in one small float buffer
(``mem``) written in place, so a call passes 13 floats and two buffers (numba's per-call cost grows with
every argument and every returned value).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from wmbench.body.kernels import LazyKernel

if TYPE_CHECKING:
    from wmbench.body.drone.airframe import Airframe
    from wmbench.body.drone.pid import QuadrotorCascade

GRAVITY = 9.81
_TWO_PI = 2.0 * math.pi
#: Mirrors :data:`wmbench.body.drone.pid.YAW_TIE_TOLERANCE` (kept literal so the kernel reads no module state).
_YAW_TIE = math.pi - 1e-6

#: How many constants :func:`flight_step` reads from its ``k`` (see :func:`kernel_constants`).
N_CONSTANTS = 36 + 16 + 4 + 2 + 8
#: ``mem`` of :func:`flight_step`: 0-5 the PID integrals (vx, vy, vz, roll, pitch, yaw rate) in and out;
#: 6-13 the set-point in (hold flag, hold x, y, velocity x, y, altitude, yaw) and dt; 14-19 out: the four
#: rotor thrusts, the desired thrust direction's z and the rotors' yaw torque.
M_INTEGRALS = slice(0, 6)
M_HELD, M_HOLD_X, M_HOLD_Y, M_VX, M_VY, M_ALTITUDE, M_YAW, M_DT = 6, 7, 8, 9, 10, 11, 12, 13
M_FORCES = slice(14, 18)
M_ZD_Z, M_YAW_TORQUE = 18, 19
N_MEMORY = 20
#: ``k`` and ``mem`` as each path wants them: float64 arrays for numba, a tuple and a list for Python.
Constants = np.ndarray | tuple[float, ...]
Memory = np.ndarray | list[float]


def flight_step(k: Constants, mem: Memory, px: float, py: float, pz: float,
                qx: float, qy: float, qz: float, qw: float, vx: float, vy: float, vz: float,
                wx_w: float, wy_w: float, wz_w: float) -> tuple[float, float, float, float]:
    """One step. ``k``: :func:`kernel_constants`; ``mem``: :func:`new_memory` (the PID integrals and the
    set-point in, the rotor thrusts, the desired thrust direction's z and the yaw torque out; indices
    ``M_*``); then position, quaternion (x, y, z, w), linear and angular velocity (world). Returns
    ``(thrust, torque_x, torque_y, torque_z)``: the net force along body z (N) and the net torque in the world
    frame (N m) of the four saturated rotor thrusts and their drag torque."""
    (hold_kp, max_climb, alt_kp, tan_tilt, az_floor, max_lead, mass, ix, iy, iz,
     xy_kp, xy_ki, xy_il, xy_ol, z_kp, z_ki, z_il, z_ol,
     akx, aky, akz, mrx, mry, mrz,
     rx_kp, rx_ki, rx_il, rx_ol, ry_kp, ry_ki, ry_il, ry_ol, rz_kp, rz_ki, rz_il, rz_ol,
     a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3,
     k0, k1, k2, k3, f_max, kf,
     x0r, y0r, x1r, y1r, x2r, y2r, x3r, y3r) = k
    ivx, ivy, ivz, iwx, iwy, iwz = mem[0], mem[1], mem[2], mem[3], mem[4], mem[5]
    held, hold_x, hold_y, sp_vx, sp_vy, sp_alt, sp_yaw, dt = (
        mem[6] != 0.0, mem[7], mem[8], mem[9], mem[10], mem[11], mem[12], mem[13])
    # rotation matrix (row-major body -> world), Bullet's setRotation
    d = qx * qx + qy * qy + qz * qz + qw * qw
    s = 2.0 / d
    xs, ys, zs = qx * s, qy * s, qz * s
    wxs, wys, wzs = qw * xs, qw * ys, qw * zs
    xx, xy, xz = qx * xs, qx * ys, qx * zs
    yy, yz, zz = qy * ys, qy * zs, qz * zs
    r0, r1, r2 = 1.0 - (yy + zz), xy - wzs, xz + wys
    r3, r4, r5 = xy + wzs, 1.0 - (xx + zz), yz - wxs
    r6, r7, r8 = xz - wys, yz + wxs, 1.0 - (xx + yy)
    # body rates = R^T w
    wx = r0 * wx_w + r3 * wy_w + r6 * wz_w
    wy = r1 * wx_w + r4 * wy_w + r7 * wz_w
    wz = r2 * wx_w + r5 * wy_w + r8 * wz_w
    # 1. outer loops -> velocity set-point
    if held:
        vx_sp, vy_sp = hold_kp * (hold_x - px), hold_kp * (hold_y - py)
    else:
        vx_sp, vy_sp = sp_vx, sp_vy
    u = alt_kp * (sp_alt - pz)
    u = u if u < max_climb else max_climb
    vz_sp = u if u > -max_climb else -max_climb
    # 2. velocity PIDs -> acceleration (P + I, clamped integral and output), tilt-limited
    e = vx_sp - vx
    if xy_ki:
        i = ivx + e * dt
        i = i if i < xy_il else xy_il
        ivx = i if i > -xy_il else -xy_il
    u = xy_kp * e + xy_ki * ivx + 0.0
    u = u if u < xy_ol else xy_ol
    ax = u if u > -xy_ol else -xy_ol
    e = vy_sp - vy
    if xy_ki:
        i = ivy + e * dt
        i = i if i < xy_il else xy_il
        ivy = i if i > -xy_il else -xy_il
    u = xy_kp * e + xy_ki * ivy + 0.0
    u = u if u < xy_ol else xy_ol
    ay = u if u > -xy_ol else -xy_ol
    e = vz_sp - vz
    if z_ki:
        i = ivz + e * dt
        i = i if i < z_il else z_il
        ivz = i if i > -z_il else -z_il
    u = z_kp * e + z_ki * ivz + 0.0
    u = u if u < z_ol else z_ol
    u = u if u > -z_ol else -z_ol
    az = (u if u > az_floor else az_floor) + GRAVITY
    # sqrt of the squares, not math.hypot: numba's hypot (libm) and CPython's own differ in the last bit
    horizontal = math.sqrt(ax * ax + ay * ay)
    max_horizontal = az * tan_tilt
    if horizontal > max_horizontal:
        ax, ay = ax * max_horizontal / horizontal, ay * max_horizontal / horizontal
    fx, fy, fz = mass * ax, mass * ay, mass * az
    # 3. attitude: desired body axes from the thrust direction and the (led) yaw
    norm = math.sqrt(fx * fx + fy * fy + fz * fz)
    z0, z1, z2 = fx / norm, fy / norm, fz / norm
    current = math.atan2(r3, r0)
    # error = math.remainder(sp_yaw - current, 2 pi), written out as CPython computes it
    error = sp_yaw - current
    m = abs(error) % _TWO_PI   # = fmod for positive operands (exact)
    c = _TWO_PI - m
    if m < c:
        r = m
    elif m > c:
        r = -c
    else:  # half way: the even quotient
        r = m - 2.0 * ((0.5 * (abs(error) - m)) % _TWO_PI)
    error = math.copysign(1.0, error) * r
    if abs(error) >= _YAW_TIE:
        error = math.pi
    error = error if error < max_lead else max_lead
    yaw = current + (error if error > -max_lead else -max_lead)
    cy, sy = math.cos(yaw), math.sin(yaw)
    # yd = normalise(zd x xc), xc = (cy, sy, 0)
    y0, y1, y2 = z1 * 0.0 - z2 * sy, z2 * cy - z0 * 0.0, z0 * sy - z1 * cy
    n = math.sqrt(y0 * y0 + y1 * y1 + y2 * y2)
    if n == 0.0:
        n = 1.0
    y0, y1, y2 = y0 / n, y1 / n, y2 / n
    # xd = yd x zd
    x0, x1, x2 = y1 * z2 - y2 * z1, y2 * z0 - y0 * z2, y0 * z1 - y1 * z0
    # e_R = vee(Rd^T R - R^T Rd) / 2; body axes = columns of R
    e0 = 0.5 * ((z0 * r1 + z1 * r4 + z2 * r7) - (y0 * r2 + y1 * r5 + y2 * r8))
    e1 = 0.5 * ((x0 * r2 + x1 * r5 + x2 * r8) - (z0 * r0 + z1 * r3 + z2 * r6))
    e2 = 0.5 * ((y0 * r0 + y1 * r3 + y2 * r6) - (x0 * r1 + x1 * r4 + x2 * r7))
    # 4. rate set-points (clamped) -> rate PIDs (P + I) -> body torques
    u = -akx * e0
    u = u if u < mrx else mrx
    e = (u if u > -mrx else -mrx) - wx
    if rx_ki:
        i = iwx + e * dt
        i = i if i < rx_il else rx_il
        iwx = i if i > -rx_il else -rx_il
    u = rx_kp * e + rx_ki * iwx + 0.0
    u = u if u < rx_ol else rx_ol
    tx = ix * (u if u > -rx_ol else -rx_ol)
    u = -aky * e1
    u = u if u < mry else mry
    e = (u if u > -mry else -mry) - wy
    if ry_ki:
        i = iwy + e * dt
        i = i if i < ry_il else ry_il
        iwy = i if i > -ry_il else -ry_il
    u = ry_kp * e + ry_ki * iwy + 0.0
    u = u if u < ry_ol else ry_ol
    ty = iy * (u if u > -ry_ol else -ry_ol)
    u = -akz * e2
    u = u if u < mrz else mrz
    e = (u if u > -mrz else -mrz) - wz
    if rz_ki:
        i = iwz + e * dt
        i = i if i < rz_il else rz_il
        iwz = i if i > -rz_il else -rz_il
    u = rz_kp * e + rz_ki * iwz + 0.0
    u = u if u < rz_ol else rz_ol
    tz = iz * (u if u > -rz_ol else -rz_ol)
    # collective thrust along the current body z
    t = fx * r2 + fy * r5 + fz * r8
    thrust = t if t > 0.0 else 0.0
    # 5. mixer: rotor thrusts, saturated, and the rotors' drag torque about body z
    f0 = (a0 * thrust + a2 * ty) + (a1 * tx + a3 * tz)
    f1 = (b0 * thrust + b2 * ty) + (b1 * tx + b3 * tz)
    f2 = (c0 * thrust + c2 * ty) + (c1 * tx + c3 * tz)
    f3 = (d0 * thrust + d2 * ty) + (d1 * tx + d3 * tz)
    f0 = 0.0 if f0 < 0.0 else f0
    f0 = f_max if f_max < f0 else f0
    f1 = 0.0 if f1 < 0.0 else f1
    f1 = f_max if f_max < f1 else f1
    f2 = 0.0 if f2 < 0.0 else f2
    f2 = f_max if f_max < f2 else f2
    f3 = 0.0 if f3 < 0.0 else f3
    f3 = f_max if f_max < f3 else f3
    q0, q1, q2, q3 = math.sqrt(f0 / kf), math.sqrt(f1 / kf), math.sqrt(f2 / kf), math.sqrt(f3 / kf)
    yaw_torque = 0.0 + k0 * q0 * q0 + k1 * q1 * q1 + k2 * q2 * q2 + k3 * q3 * q3
    # 6. one wrench: the rotor thrusts at (x_i, y_i) along body z give body torque (sum y f, -sum x f, 0)
    bx = y0r * f0 + y1r * f1 + y2r * f2 + y3r * f3
    by = -(x0r * f0 + x1r * f1 + x2r * f2 + x3r * f3)
    mem[0], mem[1], mem[2], mem[3], mem[4], mem[5] = ivx, ivy, ivz, iwx, iwy, iwz
    mem[14], mem[15], mem[16], mem[17], mem[18], mem[19] = f0, f1, f2, f3, z2, yaw_torque
    return (f0 + f1 + f2 + f3,
            r0 * bx + r1 * by + r2 * yaw_torque, r3 * bx + r4 * by + r5 * yaw_torque,
            r6 * bx + r7 * by + r8 * yaw_torque)


def kernel_constants(cascade: QuadrotorCascade, airframe: Airframe) -> Constants:
    """The ``k`` argument of :func:`flight_step`: the cascade's gains, the mixer's inverse rows, the rotors'
    signed drag-torque coefficients, ``f_max``, ``kf`` and the rotor positions (x, y). A float64 array for
    the compiled kernel (numba reads arrays fast, tuples slowly), a tuple for the plain one."""
    rows = tuple(v for row in airframe._rows for v in row)
    rotors = tuple(v for x, y, _ in airframe.rotor_positions for v in (x, y))
    k = tuple(float(v) for v in (*cascade._constants, *rows, *airframe._km_signs, airframe._f_max,
                                 airframe.params.kf, *rotors))
    if len(k) != N_CONSTANTS:
        raise ValueError(f"kernel_constants: expected {N_CONSTANTS} constants, built {len(k)}")
    return np.array(k) if kernel_path() == "numba" else k


def new_memory() -> Memory:
    """A zeroed ``mem`` for :func:`flight_step` (:data:`N_MEMORY` floats: a float64 array for the compiled
    kernel, a list for the plain one)."""
    return np.zeros(N_MEMORY) if kernel_path() == "numba" else [0.0] * N_MEMORY


def rotor_thrusts(mem: Memory) -> tuple[float, float, float, float]:
    """The four saturated rotor thrusts (N) of the last step, from ``mem`` (:data:`M_FORCES`)."""
    f0, f1, f2, f3 = mem[M_FORCES]
    return float(f0), float(f1), float(f2), float(f3)


Kernel = Callable[..., tuple[float, float, float, float]]


def _warm_up(compiled: Kernel) -> object:
    """One call on typical arguments, so numba compiles (or loads its cache) at first use, not mid-flight."""
    return compiled(np.zeros(N_CONSTANTS) + 1.0, np.zeros(N_MEMORY), *([0.0] * 6), 1.0, *([0.0] * 6))


_FLIGHT: LazyKernel[Kernel] = LazyKernel(flight_step, _warm_up)


def kernel() -> Kernel:
    """The flight kernel this process uses: numba's compiled :func:`flight_step` when numba imports and
    ``WMBENCH_NO_NUMBA`` is unset, else :func:`flight_step` itself (decided once, on first use; numba is
    imported only then, so ``import wmbench`` never pays for it)."""
    return _FLIGHT.get()


def kernel_path() -> str:
    """``"numba"`` or ``"python"``: which :func:`kernel` runs (benchmarks print it)."""
    return _FLIGHT.path()
