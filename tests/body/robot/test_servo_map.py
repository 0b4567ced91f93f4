"""Servo map: the declarative table, its measures, its frames and its validation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from wmbench.body.intent.record import MotionIntent
from wmbench.body.kernels import fma
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.robot.servo_map import (
    MEASURES,
    ROOT_FRAME,
    SERVO_MAP,
    SERVO_TABLE,
    ServoMap,
    ServoSpec,
    chest_frame,
    measure_angle,
)
from wmbench.body.skeleton import JOINT_NAMES
from wmbench.core.speed import SpeedClass

GROUPS = {"torso": 2, "neck": 2, "shoulder": 4, "elbow": 2, "hip": 6, "knee": 2, "ankle": 2}


def row(**changes) -> dict:
    base = SERVO_TABLE[0].to_dict()
    base.update(changes)
    return base


def standing_frame() -> np.ndarray:
    gen = ProceduralGenerator(30)
    gen.set_intent(MotionIntent.still())
    return gen.next_frame(0.0).joints


def test_twenty_servos_cover_the_humanoid():
    names = SERVO_MAP.names
    assert len(names) == 20 and len(set(names)) == 20
    for group, count in GROUPS.items():
        assert sum(group in n for n in names) == count, group
    assert {r.measure for r in SERVO_TABLE} <= set(MEASURES)
    assert all(s in JOINT_NAMES for r in SERVO_TABLE for s in r.sources)


def test_limits_speeds_and_efforts_are_physical():
    assert np.all(SERVO_MAP.lower < SERVO_MAP.upper)
    assert np.all((SERVO_MAP.max_speed > 1.0) & (SERVO_MAP.max_speed < 20.0))
    assert np.all((SERVO_MAP.effort >= 5.0) & (SERVO_MAP.effort <= 200.0))
    knee = SERVO_TABLE[SERVO_MAP.names.index("left_knee")]
    assert knee.lower == 0.0 and knee.upper > 2.0  # a knee only bends one way


@pytest.mark.parametrize("changes, message", [
    ({"measure": "wiggle"}, "measure"),
    ({"frame": "hand"}, "frame"),
    ({"sources": ("pelvis",)}, "reads 2 joints"),
    ({"sources": ("pelvis", "tail")}, "unknown skeleton joints"),
    ({"lower": 1.0, "upper": -1.0}, "lower"),
    ({"max_speed": 0.0}, "max_speed"),
])
def test_bad_rows_fail_with_a_clear_message(changes, message):
    with pytest.raises(ValueError, match=message):
        ServoSpec(**row(**changes))


def test_rows_round_trip_through_plain_dicts():
    again = ServoMap.from_dicts(SERVO_MAP.to_dicts())
    assert again.names == SERVO_MAP.names and again.rows == SERVO_MAP.rows
    with pytest.raises(ValueError, match="row 0"):
        ServoMap.from_dicts([{"name": "x"}])
    with pytest.raises(ValueError, match="unique"):
        ServoMap((SERVO_TABLE[0], SERVO_TABLE[0]))


def test_measures_read_what_they_say():
    o = np.zeros(3)
    down, fwd, left = np.array([0.0, -1.0, 0.0]), np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0])
    assert measure_angle("hinge", (o, down, down * 2), ROOT_FRAME) == pytest.approx(0.0)
    assert measure_angle("hinge", (o, down, down + fwd), ROOT_FRAME) == pytest.approx(math.pi / 2)
    swing = (np.zeros(3), np.array([0.0, -math.cos(0.3), math.sin(0.3)]))
    assert measure_angle("swing_pitch", swing, ROOT_FRAME) == pytest.approx(0.3)
    assert measure_angle("swing_roll", (o, np.array([math.sin(0.2), -math.cos(0.2), 0.0])), ROOT_FRAME) \
        == pytest.approx(0.2)
    lean = measure_angle("lean_pitch", (o, np.array([0.0, 1.0, 1.0])), ROOT_FRAME)
    assert lean == pytest.approx(math.pi / 4)
    turned = np.array([math.cos(0.4), 0.0, -math.sin(0.4)])  # a right->left line turned 0.4 rad to the left
    assert measure_angle("line_yaw", (o, turned), ROOT_FRAME) == pytest.approx(0.4)
    assert measure_angle("heading_yaw", (o, fwd + 0.2 * left), ROOT_FRAME) == pytest.approx(math.atan(0.2))
    # a segment tipped back past vertical reads its heading modulo pi, never as a half turn
    assert measure_angle("heading_yaw", (o, -fwd + 0.1 * left + 3 * np.array([0, 1.0, 0])), ROOT_FRAME) \
        == pytest.approx(-math.atan(0.1))


def test_hinge_yaw_undoes_pitch_and_roll():
    # Build a leg with the hardware chain (pitch 0.8 flexion, roll 0.1, yaw 0.3, knee 1.2) and read it back.
    def rot(axis, a):
        c, s = math.cos(a), math.sin(a)
        return {"x": np.array([[1, 0, 0], [0, c, -s], [0, s, c]]),
                "y": np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]),
                "z": np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])}[axis]
    thigh_frame = rot("y", -0.8) @ rot("x", 0.1) @ rot("z", 0.3)
    thigh = thigh_frame @ np.array([0.0, 0.0, -1.0])
    shin = thigh_frame @ rot("y", 1.2) @ np.array([0.0, 0.0, -1.0])
    def to_motion(v):
        return np.array([v[1], v[2], v[0]])  # robot (fwd, left, up) -> motion (x left, y up, z fwd)
    hip, knee = np.zeros(3), to_motion(thigh)
    ankle = knee + to_motion(shin)
    assert measure_angle("swing_pitch", (hip, knee), ROOT_FRAME) == pytest.approx(0.8)
    assert measure_angle("swing_roll", (hip, knee), ROOT_FRAME) == pytest.approx(0.1)
    assert measure_angle("hinge_yaw", (hip, knee, ankle), ROOT_FRAME) == pytest.approx(0.3)
    assert measure_angle("hinge", (hip, knee, ankle), ROOT_FRAME) == pytest.approx(1.2)


def test_chest_frame_is_a_rotation_that_starts_at_the_root_frame():
    assert np.allclose(chest_frame(0.0, 0.0), ROOT_FRAME)
    f = chest_frame(0.3, 0.5)
    assert np.allclose(f @ f.T, np.eye(3)) and np.linalg.det(f) == pytest.approx(1.0)
    assert f[0] @ np.array([0.0, -1.0, 0.0]) > 0  # pitched forward: the chest's forward axis dips


def test_standing_maps_near_zero_within_limits():
    raw = SERVO_MAP.raw_targets(standing_frame())
    assert np.all(raw >= SERVO_MAP.lower) and np.all(raw <= SERVO_MAP.upper)
    legs = [i for i, n in enumerate(SERVO_MAP.names) if any(k in n for k in ("hip", "knee", "ankle"))]
    assert np.all(np.abs(raw[legs]) < 0.35)  # a relaxed stance: knees a little bent


def test_signs_follow_the_hardware_axes():
    gen = ProceduralGenerator(30)
    gen.set_intent(MotionIntent("fwd", 0.0, SpeedClass.RUN))
    frames = [gen.next_frame(4.5) for _ in range(40)]
    hip_pitch = [SERVO_MAP.raw_targets(f.joints)[SERVO_MAP.names.index("left_hip_pitch")] for f in frames]
    knee = [SERVO_MAP.raw_targets(f.joints)[SERVO_MAP.names.index("left_knee")] for f in frames]
    # Hips swing both ways; a forward swing (flexion) is a negative turn about +y on the hardware.
    assert min(hip_pitch) < -0.5 and max(hip_pitch) > 0.1 and min(knee) >= 0.0 and max(knee) > 1.0


def test_violations_count_angles_outside_the_tolerance():
    inside = (SERVO_MAP.lower + SERVO_MAP.upper) / 2
    assert SERVO_MAP.violations(inside) == 0
    assert SERVO_MAP.violations(SERVO_MAP.upper + 0.01) == 0  # within the 0.02 rad tolerance
    outside = inside.copy()
    outside[[0, 5]] = SERVO_MAP.upper[[0, 5]] + 0.1
    assert SERVO_MAP.violations(outside) == 2


def test_wrong_shape_is_rejected():
    with pytest.raises(ValueError, match=r"\(22, 3\)"):
        SERVO_MAP.raw_targets(np.zeros((21, 3)))


def _targets_servo_by_servo(servo_map: ServoMap, joints: np.ndarray) -> np.ndarray:
    """raw_targets as it was before issue 23: every servo measured on its own with measure_angle()."""
    out = np.zeros(len(servo_map.rows))
    chest = None
    for k, r in enumerate(servo_map.rows):
        frame = ROOT_FRAME
        if r.frame == "chest":
            if chest is None:
                y, p_ = servo_map.names.index("torso_yaw"), servo_map.names.index("torso_pitch")
                chest = chest_frame(min(max(float(out[y]), float(servo_map.lower[y])), float(servo_map.upper[y])),
                                    min(max(float(out[p_]), float(servo_map.lower[p_])), float(servo_map.upper[p_])))
            frame = chest
        points = tuple(joints[JOINT_NAMES.index(s)] for s in r.sources)
        out[k] = r.sign * r.gain * measure_angle(r.measure, points, frame) + r.offset
    return out


def test_shared_segments_give_the_servo_by_servo_targets_bit_for_bit():
    """raw_targets computes each segment once for all servos that read it; the result must not change at all
    (the robot's traces depend on it), over gaits of every speed class, turns, crouches and noisy poses."""
    rng = np.random.default_rng(3)
    frames = [standing_frame()]
    for speed in SpeedClass:
        for heading in (0.0, 1.2, -2.5, math.pi):
            gen = ProceduralGenerator(30)
            gen.set_intent(MotionIntent("fwd", heading, speed, styles=("crouch",) if heading < 0 else ()))
            frames += [gen.next_frame(1.5 * (speed != SpeedClass.STILL)).joints for _ in range(12)]
    frames += [f + rng.normal(scale=0.05, size=f.shape) for f in frames[::3]]
    exact = _blas_is_the_kernels()
    for joints in frames:
        got, want = SERVO_MAP.raw_targets(joints), _targets_servo_by_servo(SERVO_MAP, np.asarray(joints))
        if exact:
            assert np.array_equal(got, want), np.abs(got - want).max()
        else:  # another BLAS sums in another order: the last bits may differ, nothing more
            assert np.allclose(got, want, rtol=0.0, atol=1e-12), np.abs(got - want).max()


def _blas_is_the_kernels() -> bool:
    """Whether numpy's BLAS computes a 3-vector dot and a 3x3 matrix-vector product as the servo kernel writes
    them out (OpenBLAS's Haswell/SkylakeX kernels do: servo_kernel's card); then the kernel must equal the
    servo-by-servo numpy measures bit for bit."""
    rng = np.random.default_rng(11)
    for _ in range(200):
        u, w, frame = rng.normal(size=3), rng.normal(size=3), rng.normal(size=(3, 3))
        if float(u @ w) != fma(u[2], w[2], fma(u[1], w[1], u[0] * w[0])):
            return False
        rows = np.matmul(frame, w[None, :, None])[0, :, 0]
        if any(rows[i] != fma(frame[i, 2], w[2], fma(frame[i, 0], w[0], frame[i, 1] * w[1])) for i in range(3)):
            return False
    return True
