"""The rewritten drone controller (issue 23: inlined cascade and mixer) flies like the 0.3.0 one.

Both drones fly the body contract's probe manoeuvres (:func:`wmbench.body.checker.probe_intents`: every
moving speed class ahead, a walk left, right and back; plus standing still, an about-turn, crouch, climb and a
freeze out of a sprint), one after another without a reset in between, each in its own headless world at the
env's rates. After every physics step the base pose and velocities must agree within :data:`TOLERANCE`.
Since the flight kernel (issue 23, round 3: :mod:`wmbench.body.drone.flight_kernel`) the four rotor forces and
the yaw torque reach PyBullet as one force and one torque, summed in Python instead of inside Bullet, and the
tilt limit takes ``sqrt(ax² + ay²)`` instead of ``hypot``: the trajectories are no longer bit-identical. Over
these manoeuvres (~1,900 physics steps, > 10 m flown) the largest difference seen was 7e-15 (numba and pure
Python kernels alike); the stated tolerance is 1e-9 (m, quaternion units, m/s, rad/s).
"""

from __future__ import annotations

import math

import numpy as np
import pybullet as p
import pytest

from tests.body.frame_loop import run_frames
from tests.body.reference_drone_controller import ReferenceCascade, ReferenceQuadrotor, reference_mix, reference_unmix
from wmbench.body.checker import PROBE_SECONDS, probe_intents
from wmbench.body.drone.airframe import Airframe
from wmbench.body.drone.pid import FlightState, QuadrotorCascade, Setpoint
from wmbench.body.drone.quadrotor import Quadrotor
from wmbench.body.intent.reader import parse_motion
from wmbench.body.intent.record import MotionIntent
from wmbench.envs.world import World

#: Largest allowed difference of position (m), orientation quaternion, linear (m/s) and angular (rad/s)
#: velocity between the two drones at any physics step.
TOLERANCE = 1e-9
FRAMES = round(PROBE_SECONDS * 30)


def manoeuvres() -> list[MotionIntent]:
    """The contract's probes, then what the contract does not probe but scenarios ask for."""
    extra = [parse_motion(text) for text in (
        "the drone turns around and sprints away", "it crouches low and creeps forward",
        "it climbs up and hovers", "it sprints forward", "it freezes in place")]
    return [MotionIntent.still("stand still"), *probe_intents(), *extra]


def fly(body: Quadrotor) -> np.ndarray:
    """Every manoeuvre for :data:`FRAMES` frames; one row per physics step: pos, quat, lin, ang."""
    world = World(frame_dt=1 / 30, physics_dt=1 / 240)
    rows: list[list[float]] = []
    try:
        body.spawn(world, (0.0, 0.0, 0.0), 0.3)

        def record(_state: object) -> None:
            pos, quat = p.getBasePositionAndOrientation(body._id, physicsClientId=world.client)
            lin, ang = p.getBaseVelocity(body._id, physicsClientId=world.client)
            rows.append([*pos, *quat, *lin, *ang])

        for intent in manoeuvres():
            body.apply_intent(intent)
            run_frames(world, body, FRAMES, every_step=record)
    finally:
        world.close()
    return np.array(rows)


def test_trajectories_match_the_reference_controller_over_the_probe_manoeuvres():
    new, old = fly(Quadrotor()), fly(ReferenceQuadrotor())
    assert new.shape == old.shape and new.shape[0] == len(manoeuvres()) * FRAMES * 8
    travelled = np.abs(np.diff(new[:, :2], axis=0)).sum()
    assert travelled > 10.0  # the manoeuvres really flew somewhere
    worst = float(np.abs(new - old).max())
    assert worst <= TOLERANCE, f"largest difference {worst:.3g} (tolerance {TOLERANCE})"


@pytest.mark.parametrize("hold", [None, (0.4, -0.2)])
def test_cascade_and_mixer_outputs_match_the_reference_on_random_states(hold):
    rng = np.random.default_rng(7)
    frame = Airframe()
    unmix = reference_unmix(frame)
    new, old = QuadrotorCascade(0.027, (1.4e-5, 1.4e-5, 2.17e-5)), ReferenceCascade(0.027, (1.4e-5, 1.4e-5, 2.17e-5))
    for _ in range(400):
        quat = rng.normal(size=4)
        quat /= np.linalg.norm(quat)
        rot = p.getMatrixFromQuaternion(quat.tolist())
        state = FlightState(tuple(rng.uniform(-3, 3, 3).tolist()), tuple(rng.uniform(-4, 4, 3).tolist()), rot,
                            tuple(rng.uniform(-6, 6, 3).tolist()))
        sp = Setpoint(velocity_xy=tuple(rng.uniform(-3, 3, 2).tolist()), altitude=float(rng.uniform(0.5, 2.0)),
                      yaw=float(rng.uniform(-math.pi, math.pi)), hold=hold)
        a, b = new.update(state, sp, 1 / 240), old.update(state, sp, 1 / 240)
        assert (a.thrust, *a.torque, a.tilt) == pytest.approx((b.thrust, *b.torque, b.tilt), rel=1e-12, abs=1e-15)
        mixed, reference = frame.mix(a.thrust, a.torque), reference_mix(frame, unmix, b.thrust, b.torque)
        assert mixed.forces == pytest.approx(reference.forces, rel=1e-12, abs=1e-15)
        assert mixed.yaw_torque == pytest.approx(reference.yaw_torque, rel=1e-9, abs=1e-18)
    assert new.velocity_integrals == pytest.approx(tuple(pid.integral for pid in old._vel), rel=1e-12)
    assert new.rate_integrals == pytest.approx(tuple(pid.integral for pid in old._rate), rel=1e-12)


def fly_fused(body: Quadrotor) -> tuple[np.ndarray, list[tuple[float, ...]]]:
    """:func:`fly` through ``run_physics_steps`` (the env's one-call-per-frame path); also the rotor rpm and
    tilt after every frame."""
    world = World(frame_dt=1 / 30, physics_dt=1 / 240)
    rows: list[list[float]] = []
    extras: list[tuple[float, ...]] = []
    try:
        body.spawn(world, (0.0, 0.0, 0.0), 0.3)

        def step_and_record() -> None:
            world.step_physics()
            pos, quat = p.getBasePositionAndOrientation(body._id, physicsClientId=world.client)
            lin, ang = p.getBaseVelocity(body._id, physicsClientId=world.client)
            rows.append([*pos, *quat, *lin, *ang])

        for intent in manoeuvres():
            body.apply_intent(intent)
            for _ in range(FRAMES):
                body.on_frame()
                body.run_physics_steps(8, step_and_record)
                extras.append((*body.rotor_rpm, body.tilt))
    finally:
        world.close()
    return np.array(rows), extras


def test_the_fused_physics_steps_equal_the_plain_loop_bit_for_bit():
    fused, fused_extras = fly_fused(Quadrotor())
    plain_body = Quadrotor()
    plain = fly(plain_body)
    assert fused.shape == plain.shape
    assert np.array_equal(fused, plain)  # exactly: the same operations in the same order
    assert fused_extras[-1] == (*plain_body.rotor_rpm, plain_body.tilt)
    assert len({e[0] for e in fused_extras}) > 10  # the rotors really changed speed between frames


def test_a_subclass_with_its_own_physics_step_keeps_it_in_the_fused_path():
    calls = []

    class Counting(Quadrotor):
        def on_physics_step(self) -> None:
            calls.append(1)
            super().on_physics_step()

    world = World(frame_dt=1 / 30, physics_dt=1 / 240)
    try:
        body = Counting()
        body.spawn(world, (0.0, 0.0, 0.0), 0.0)
        body.run_physics_steps(8, world.step_physics)
    finally:
        world.close()
    assert len(calls) == 8
