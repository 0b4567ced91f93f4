"""The drone's flight kernel: the same numbers as the typed cascade and mixer, compiled or not, and one net
wrench that moves the airframe like the four rotor forces it replaces."""

from __future__ import annotations

import math
import sys
import types

import numpy as np
import pybullet as p
import pytest

from wmbench.body.drone import flight_kernel as fk
from wmbench.body.drone.airframe import Airframe, drone_urdf_path
from wmbench.body.drone.pid import GRAVITY, QuadrotorCascade, Setpoint

MASS, INERTIA = 0.027, (1.4e-5, 1.4e-5, 2.17e-5)


def random_inputs(rng: np.random.Generator, n: int):
    """``n`` random flight states and set-points: (args after ``k, mem``; set-point; integrals)."""
    for i in range(n):
        quat = rng.normal(size=4)
        quat /= np.linalg.norm(quat)
        state = (*rng.uniform(-3, 3, 3).tolist(), *quat.tolist(), *rng.uniform(-4, 4, 3).tolist(),
                 *rng.uniform(-6, 6, 3).tolist())
        hold = (0.4, -0.2) if i % 2 else None
        sp = Setpoint(velocity_xy=tuple(rng.uniform(-3, 3, 2).tolist()), altitude=float(rng.uniform(0.5, 2.0)),
                      yaw=float(rng.uniform(-4, 4)), hold=hold)
        yield state, sp, rng.uniform(-0.4, 0.4, 6).tolist()


def memory_for(sp: Setpoint, integrals: list[float], dt: float = 1 / 240) -> list[float]:
    mem = [0.0] * fk.N_MEMORY
    mem[0:6] = integrals
    hx, hy = sp.hold if sp.hold is not None else (0.0, 0.0)
    mem[6:14] = [0.0 if sp.hold is None else 1.0, hx, hy, *sp.velocity_xy, sp.altitude, sp.yaw, dt]
    return mem


def test_the_kernel_equals_the_typed_cascade_and_mixer_bit_for_bit():
    """Its quaternion -> matrix is PyBullet's, and cascade, integrals, mixer and yaw torque are the same
    operations as QuadrotorCascade.step + Airframe.mix_forces (the pure-Python kernel is checked here)."""
    frame = Airframe()
    cascade = QuadrotorCascade(MASS, INERTIA)
    k = tuple(float(v) for v in fk.kernel_constants(cascade, frame))
    tilt_limited = 0
    for state, sp, integrals in random_inputs(np.random.default_rng(11), 3000):
        mem = memory_for(sp, integrals)
        fk.flight_step(k, mem, *state)
        cascade._ivx, cascade._ivy, cascade._ivz, cascade._iwx, cascade._iwy, cascade._iwz = integrals
        rot = p.getMatrixFromQuaternion(state[3:7])
        w = state[10:13]
        rates = (rot[0] * w[0] + rot[3] * w[1] + rot[6] * w[2], rot[1] * w[0] + rot[4] * w[1] + rot[7] * w[2],
                 rot[2] * w[0] + rot[5] * w[1] + rot[8] * w[2])
        thrust, tx, ty, tz, zd_z = cascade.step(*state[0:3], *state[7:10], rot, *rates, sp, 1 / 240)
        f0, f1, f2, f3, yaw = frame.mix_forces(thrust, tx, ty, tz)
        assert mem[14:20] == [f0, f1, f2, f3, zd_z, yaw]
        assert mem[0:6] == [*cascade.velocity_integrals, *cascade.rate_integrals]
        tilt_limited += zd_z < math.cos(math.radians(39.9))
    assert tilt_limited > 100  # the tilt limit (the hypot-free branch) was exercised


def test_the_wrench_is_the_rotor_forces_summed():
    frame = Airframe()
    k = tuple(float(v) for v in fk.kernel_constants(QuadrotorCascade(MASS, INERTIA), frame))
    for state, sp, integrals in random_inputs(np.random.default_rng(5), 300):
        mem = memory_for(sp, integrals)
        thrust, *torque = fk.flight_step(k, mem, *state)
        forces = mem[14:18]
        rot = np.array(p.getMatrixFromQuaternion(state[3:7])).reshape(3, 3)
        body = np.zeros(3)
        for f, at in zip(forces, frame.rotor_positions):
            body += np.cross(at, (0.0, 0.0, f))
        body[2] += mem[19]
        assert thrust == pytest.approx(sum(forces), rel=1e-15)
        assert torque == pytest.approx((rot @ body).tolist(), rel=1e-12, abs=1e-20)


@pytest.mark.skipif(fk.kernel_path() != "numba", reason="numba not installed: only the pure-Python kernel runs")
def test_the_numba_kernel_gives_the_same_doubles_as_the_python_one():
    cascade, frame = QuadrotorCascade(MASS, INERTIA), Airframe()
    compiled, k_array = fk.kernel(), np.asarray(fk.kernel_constants(cascade, frame))
    k_tuple = tuple(k_array.tolist())
    for state, sp, integrals in random_inputs(np.random.default_rng(3), 5000):
        plain, fast = memory_for(sp, integrals), np.array(memory_for(sp, integrals))
        out_plain, out_fast = fk.flight_step(k_tuple, plain, *state), compiled(k_array, fast, *state)
        assert out_fast == out_plain
        assert fast.tolist() == plain


def test_one_wrench_moves_the_airframe_like_four_rotor_forces():
    """A real PyBullet world: a tilted, spinning drone driven for 240 steps by the kernel's one force + one
    torque, and a twin driven by the four rotor forces at the rotors + the yaw torque, stay within 1e-12."""
    frame = Airframe()
    k = tuple(float(v) for v in fk.kernel_constants(QuadrotorCascade(MASS, INERTIA), frame))
    cid = p.connect(p.DIRECT)
    try:
        p.setGravity(0, 0, -GRAVITY, physicsClientId=cid)
        p.setTimeStep(1 / 240, physicsClientId=cid)
        ids = []
        for _ in range(2):
            uid = p.loadURDF(str(drone_urdf_path()), [0, 0, 5.0], p.getQuaternionFromEuler([0.3, -0.2, 1.0]),
                             flags=p.URDF_USE_INERTIA_FROM_FILE, physicsClientId=cid)
            p.setCollisionFilterGroupMask(uid, -1, 0, 0, physicsClientId=cid)
            p.resetBaseVelocity(uid, [0.5, -0.3, 0.1], [1.0, -2.0, 3.0], physicsClientId=cid)
            ids.append(uid)
        mems = [memory_for(Setpoint(velocity_xy=(1.0, 0.5), altitude=5.0, yaw=-2.0), [0.0] * 6) for _ in ids]
        for _ in range(240):
            for i, uid in enumerate(ids):
                pos, quat = p.getBasePositionAndOrientation(uid, physicsClientId=cid)
                lin, ang = p.getBaseVelocity(uid, physicsClientId=cid)
                thrust, t0, t1, t2 = fk.flight_step(k, mems[i], *pos, *quat, *lin, *ang)
                if i == 0:
                    p.applyExternalForce(uid, -1, (0, 0, thrust), (0, 0, 0), p.LINK_FRAME, physicsClientId=cid)
                    p.applyExternalTorque(uid, -1, (t0, t1, t2), p.WORLD_FRAME, physicsClientId=cid)
                else:
                    rot = p.getMatrixFromQuaternion(quat)
                    for f, at in zip(mems[i][14:18], frame.rotor_positions):
                        p.applyExternalForce(uid, -1, (0, 0, f), at, p.LINK_FRAME, physicsClientId=cid)
                    tz = mems[i][19]
                    p.applyExternalTorque(uid, -1, (rot[2] * tz, rot[5] * tz, rot[8] * tz), p.WORLD_FRAME,
                                          physicsClientId=cid)
            p.stepSimulation(physicsClientId=cid)
        a, b = ([*pos, *quat, *lin, *ang] for uid in ids
                for pos, quat in [p.getBasePositionAndOrientation(uid, physicsClientId=cid)]
                for lin, ang in [p.getBaseVelocity(uid, physicsClientId=cid)])
        assert max(abs(x - y) for x, y in zip(a, b)) < 1e-12
        assert abs(a[0]) + abs(a[1]) > 0.1  # it really flew (the set-point moves it)
    finally:
        p.disconnect(cid)


def test_a_numba_that_cannot_compile_falls_back_to_the_python_kernel(monkeypatch):
    fake = types.ModuleType("numba")

    def njit(**_options):
        raise RuntimeError("cannot cache function: no locator available")

    fake.njit = njit  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "numba", fake)
    monkeypatch.delenv("WMBENCH_NO_NUMBA", raising=False)
    monkeypatch.setattr(fk._FLIGHT, "resolved", None)
    with pytest.warns(RuntimeWarning, match="pure-Python"):
        assert fk.kernel_path() == "python"
    assert fk.kernel() is fk.flight_step
    assert isinstance(fk.new_memory(), list) and isinstance(fk.kernel_constants(
        QuadrotorCascade(MASS, INERTIA), Airframe()), tuple)


def test_no_numba_asked_for_gives_the_python_kernel(monkeypatch):
    monkeypatch.setenv("WMBENCH_NO_NUMBA", "1")
    monkeypatch.setattr(fk._FLIGHT, "resolved", None)
    assert fk.kernel_path() == "python" and fk.kernel() is fk.flight_step


@pytest.mark.skipif(fk.kernel_path() != "numba", reason="numba not installed: only the pure-Python kernel runs")
def test_a_drone_flies_the_same_trajectory_on_either_kernel(monkeypatch):
    from tests.body.drone.test_equivalence import fly
    from wmbench.body.drone.quadrotor import Quadrotor

    compiled = fly(Quadrotor())
    monkeypatch.setattr(fk._FLIGHT, "resolved", (fk.flight_step, "python"))
    python_body = Quadrotor()
    assert python_body._kernel is fk.flight_step
    assert np.array_equal(fly(python_body), compiled)
