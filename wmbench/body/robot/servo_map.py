"""The servo map: a declarative table from the 22 HumanML3D joints to the robot's 20 servo angles.

Card
----
- **One row per servo** (:class:`ServoSpec`): the URDF joint it drives, how its angle is *measured* from the
  22 joint positions (:data:`MEASURES`), which skeleton joints the measure reads, the frame the measure is
  taken in, the joint axis, and ``command = sign * gain * measured + offset`` clamped to ``[lower, upper]``,
  plus the servo's max speed (rad/s) and torque limit (N·m). The URDF takes its joint limits, efforts and
  velocities from this table, so the two never disagree.
- **Hardware convention.** Every servo is mounted the same way: pitch joints turn about +y (left), roll
  joints about +x (forward), yaw joints about +z (up), in the robot's frame (x forward, y left, z up). The
  anatomical measures (flexion forward = +) are adapted to the hardware by ``sign``; rows whose robot zero is
  not the skeleton's rest angle carry an ``offset`` computed from the rest pose.
- **Frames.** ``root``: the motion frame's root frame (facing +z, left +x, y up) — the robot's base stays
  upright and faces the heading, so leg and trunk angles are read there. ``chest``: the robot's chest as the
  torso servos will put it (``R_z(torso_yaw) R_y(torso_pitch)``), so arm and neck angles are relative to the
  chest the robot really has.
- **Chains.** Torso yaw -> pitch; neck yaw -> pitch; shoulder pitch -> roll -> elbow; hip pitch -> roll ->
  yaw (about the thigh) -> knee -> ankle. For a pitch-then-roll pair the limb direction ``d`` (unit, frame
  components fwd/left/up) gives ``pitch = atan2(d_fwd, -d_up)`` and ``roll = asin(d_left)`` exactly.

Simplifications: no humeral rotation (an inward-turned forearm is not reproduced); the hip yaw is read from
the foot's heading in the root frame (exact for a vertical thigh); the neck pitch ignores the neck yaw; the
pelvis's own twist/tilt is not reproduced (the base stays upright and faces the heading).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from wmbench.body.robot import servo_kernel
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES

#: How an angle is read from joint positions (``d`` = unit vector sources[0] -> sources[1], row's frame).
MEASURES: dict[str, str] = {
    "swing_pitch": "forward swing of a hanging limb: atan2(d_fwd, -d_up)",
    "swing_roll": "sideways swing of a hanging limb (towards the left = +): asin(d_left)",
    "lean_pitch": "forward lean of an upward segment: atan2(d_fwd, d_up)",
    "line_yaw": "yaw of a right-to-left line (left = + turn): atan2(-d_fwd, d_left)",
    "heading_yaw": "yaw of a forward-pointing segment (left = + turn): atan2(d_left, d_fwd), modulo pi",
    "hinge": "angle between segments a->b and b->c (0 = straight), frame-free",
    "hinge_yaw": "twist about segment a->b that puts the a-b-c hinge axis where the chain pitch -> roll "
                 "-> yaw -> hinge has it (0 when the hinge is straight)",
}
FRAMES: tuple[str, ...] = ("root", "chest")
AXES: dict[str, tuple[float, float, float]] = {"pitch": (0.0, 1.0, 0.0), "roll": (1.0, 0.0, 0.0),
                                               "yaw": (0.0, 0.0, 1.0)}
#: A measured angle may leave its limits by this much (rad) before it counts as a violation (the PD motor
#: is a soft constraint; commands themselves never leave the limits).
LIMIT_TOLERANCE_RAD = 0.02
#: A heading_yaw segment whose floor projection (unit vector) is shorter than this reads as yaw 0.
MIN_HEADING_LENGTH = 0.05
#: A hinge bent less than asin(this) fades its hinge_yaw towards 0 (smoothstep).
HINGE_FADE_SIN = 0.15


@dataclass(frozen=True)
class ServoSpec:
    """One servo: ``command = clip(sign * gain * measure(sources, frame) + offset, lower, upper)``."""

    name: str
    measure: str
    sources: tuple[str, ...]
    frame: str
    axis: tuple[float, float, float]
    sign: float
    offset: float
    gain: float
    lower: float
    upper: float
    max_speed: float
    effort: float

    def __post_init__(self) -> None:
        if self.measure not in MEASURES:
            raise ValueError(f"servo {self.name!r}: measure must be one of {sorted(MEASURES)}, "
                             f"got {self.measure!r}")
        if self.frame not in FRAMES:
            raise ValueError(f"servo {self.name!r}: frame must be one of {FRAMES}, got {self.frame!r}")
        need = 3 if self.measure in ("hinge", "hinge_yaw") else 2
        if len(self.sources) != need:
            raise ValueError(f"servo {self.name!r}: measure {self.measure!r} reads {need} joints, "
                             f"got {len(self.sources)}: {self.sources}")
        unknown = [s for s in self.sources if s not in JOINT_NAMES]
        if unknown:
            raise ValueError(f"servo {self.name!r}: unknown skeleton joints {unknown}")
        if not self.lower < self.upper:
            raise ValueError(f"servo {self.name!r}: lower ({self.lower}) must be < upper ({self.upper})")
        if self.max_speed <= 0 or self.effort <= 0:
            raise ValueError(f"servo {self.name!r}: max_speed and effort must be > 0")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# ------------------------------------------------------------------------------------------------ measuring

def _norm(v: np.ndarray) -> float:
    """``np.linalg.norm`` of a real 1-D vector, without its Python-level dispatch: numpy computes it as
    ``sqrt(v.dot(v))`` for exactly this case, so the result is the same to the last bit."""
    return math.sqrt(float(v.dot(v)))


def _unit(v: np.ndarray) -> np.ndarray:
    n = _norm(v)
    return v / n if n > 1e-9 else np.array([0.0, -1.0, 0.0])


def measure_angle(measure: str, points: tuple[np.ndarray, ...], frame: np.ndarray) -> float:
    """One measure (see :data:`MEASURES`); ``frame`` rows: the frame's fwd, left, up axes (motion space)."""
    if measure == "hinge":
        a, b, c = points
        return _hinge(_unit(b - a), _unit(c - b))
    if measure == "hinge_yaw":
        return _hinge_yaw(frame @ _unit(points[1] - points[0]), frame @ _unit(points[2] - points[1]))
    f, left, up = (frame @ _unit(points[1] - points[0])).tolist()
    return _segment_angle(measure, f, left, up)


def _hinge(u: np.ndarray, w: np.ndarray) -> float:
    """The ``hinge`` measure of two unit segment directions."""
    return math.acos(max(-1.0, min(1.0, float(u @ w))))


def _segment_angle(measure: str, f: float, left: float, up: float) -> float:
    """A one-segment measure (swing, lean, line or heading) of the segment's unit direction in the frame."""
    if measure == "swing_pitch":
        return math.atan2(f, -up)
    if measure == "swing_roll":
        return math.asin(max(-1.0, min(1.0, left)))
    if measure == "lean_pitch":
        return math.atan2(f, up)
    if measure == "line_yaw":
        return math.atan2(-f, left)
    if math.hypot(f, left) < MIN_HEADING_LENGTH:  # pointing straight up/down: no heading to read
        return 0.0
    if f < 0.0:  # a segment tipped back past vertical (a head looking up) points backwards: heading mod pi
        f, left = -f, -left
    return math.atan2(left, f)  # heading_yaw


def _hinge_yaw(upper: np.ndarray, lower: np.ndarray) -> float:
    """Yaw of a pitch -> roll -> yaw -> hinge chain whose upper segment is ``upper`` and lower ``lower``
    (frame components fwd, left, up). The hinge axis is +left at yaw 0; the axis seen in the frame is carried
    back through the pitch and roll the upper segment implies, then read like ``line_yaw``. Faded to 0 as the
    hinge straightens (the axis is undefined for a straight limb)."""
    a0, a1, a2 = upper.tolist()
    b0, b1, b2 = lower.tolist()
    # np.cross(upper, lower) written out (numpy computes each component as the same two products and a
    # difference, so the result is identical; without its dispatch overhead)
    c0, c1, c2 = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0
    bend = _norm(np.array((c0, c1, c2)))  # BLAS dot (as np.linalg.norm): Python's a*a+b*b+c*c differs in bits
    if bend < 1e-6:
        return 0.0
    f, left, up = a0, a1, a2
    pitch = math.atan2(f, -up)                     # flexion; the hardware turns about +y by -pitch
    roll = math.asin(max(-1.0, min(1.0, left)))
    cp, sp, cr, sr = math.cos(pitch), math.sin(pitch), math.cos(roll), math.sin(roll)
    n0, n1, n2 = c0 / bend, c1 / bend, c2 / bend   # axis / bend: IEEE division, elementwise as numpy's
    n0, n2 = cp * n0 + sp * n2, -sp * n0 + cp * n2  # undo R_y(-pitch)
    n1 = cr * n1 + sr * n2                          # undo R_x(roll) (the fwd component is unchanged)
    fade = min(bend / HINGE_FADE_SIN, 1.0)
    return fade * fade * (3.0 - 2.0 * fade) * math.atan2(-n0, n1)


#: The root frame as rows (fwd, left, up) in motion space (facing +z, left +x, y up).
ROOT_FRAME = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def chest_frame(torso_yaw: float, torso_pitch: float) -> np.ndarray:
    """Rows (fwd, left, up) of the robot chest after ``R_z(yaw) R_y(pitch)``, in motion space."""
    cy, sy, cp, sp = math.cos(torso_yaw), math.sin(torso_yaw), math.cos(torso_pitch), math.sin(torso_pitch)
    # robot coordinates (x fwd, y left, z up): columns of R_z(yaw) @ R_y(pitch)
    fwd = (cy * cp, sy * cp, -sp)
    left = (-sy, cy, 0.0)
    up = (cy * sp, sy * sp, cp)
    robot = np.array([fwd, left, up])       # rows, robot coordinates
    return robot @ ROOT_FRAME               # -> motion coordinates (robot fwd/left/up = motion z/x/y)


def _rest_measure(measure: str, sources: tuple[str, ...]) -> float:
    rest = DEFAULT_SKELETON.rest_pose()
    points = tuple(rest[JOINT_NAMES.index(s)] for s in sources)
    return measure_angle(measure, points, ROOT_FRAME)


# ------------------------------------------------------------------------------------------------ the table

def _row(name: str, measure: str, sources: tuple[str, ...], frame: str, axis: str, sign: float,
         limits: tuple[float, float], max_speed: float, effort: float, gain: float = 1.0,
         zero_at_rest: bool = False) -> ServoSpec:
    offset = -sign * gain * _rest_measure(measure, sources) if zero_at_rest else 0.0
    return ServoSpec(name, measure, sources, frame, AXES[axis], sign, round(offset, 6), gain, *limits,
                     max_speed, effort)


def _limb_rows(side: str) -> list[ServoSpec]:
    s = f"{side}_"
    out = 1.0 if side == "left" else -1.0    # sideways-out sign for the roll limits
    def roll(lo, hi):
        return ((lo, hi) if out > 0 else (-hi, -lo))
    return [
        _row(s + "shoulder_pitch", "swing_pitch", (s + "shoulder", s + "elbow"), "chest", "pitch", -1.0,
             (-3.0, 1.0), 7.0, 40.0),
        _row(s + "shoulder_roll", "swing_roll", (s + "shoulder", s + "elbow"), "chest", "roll", 1.0,
             roll(-0.3, 2.8), 7.0, 40.0),
        _row(s + "elbow", "hinge", (s + "shoulder", s + "elbow", s + "wrist"), "root", "pitch", -1.0,
             (-2.6, 0.0), 8.0, 25.0),
        _row(s + "hip_pitch", "swing_pitch", (s + "hip", s + "knee"), "root", "pitch", -1.0,
             (-2.0, 0.6), 9.0, 120.0),
        _row(s + "hip_roll", "swing_roll", (s + "hip", s + "knee"), "root", "roll", 1.0,
             roll(-0.4, 0.8), 6.0, 80.0),
        _row(s + "hip_yaw", "hinge_yaw", (s + "hip", s + "knee", s + "ankle"), "root", "yaw", 1.0,
             (-0.6, 0.6), 5.0, 40.0),
        _row(s + "knee", "hinge", (s + "hip", s + "knee", s + "ankle"), "root", "pitch", 1.0,
             (0.0, 2.5), 11.0, 120.0),
        _row(s + "ankle", "hinge", (s + "knee", s + "ankle", s + "foot"), "root", "pitch", -1.0,
             (-1.0, 0.9), 9.0, 60.0, zero_at_rest=True),
    ]


#: The robot's 20 servos. Torso rows come first: the chest frame of later rows is built from them.
SERVO_TABLE: tuple[ServoSpec, ...] = (
    _row("torso_yaw", "line_yaw", ("right_collar", "left_collar"), "root", "yaw", 1.0, (-0.6, 0.6), 4.0,
         120.0),
    _row("torso_pitch", "lean_pitch", ("spine1", "neck"), "root", "pitch", 1.0, (-0.3, 0.8), 4.0, 150.0,
         zero_at_rest=True),
    _row("neck_yaw", "heading_yaw", ("neck", "head"), "chest", "yaw", 1.0, (-1.3, 1.3), 6.0, 10.0),
    _row("neck_pitch", "lean_pitch", ("neck", "head"), "chest", "pitch", 1.0, (-0.6, 0.8), 6.0, 10.0,
         zero_at_rest=True),
    *_limb_rows("left"),
    *_limb_rows("right"),
)


class ServoMap:
    """The table as arrays, and the mapping 22 joints -> raw servo targets (see the module card)."""

    def __init__(self, rows: tuple[ServoSpec, ...] = SERVO_TABLE) -> None:
        names = [r.name for r in rows]
        if len(set(names)) != len(names):
            raise ValueError(f"servo names must be unique, got {names}")
        for required in ("torso_yaw", "torso_pitch"):
            if any(r.frame == "chest" for r in rows) and required not in names:
                raise ValueError(f"rows measured in the chest frame need a {required!r} row")
        self.rows = tuple(rows)
        self.names = tuple(names)
        self.lower = np.array([r.lower for r in rows])
        self.upper = np.array([r.upper for r in rows])
        self.max_speed = np.array([r.max_speed for r in rows])
        self.effort = np.array([r.effort for r in rows])
        self._sources = [tuple(JOINT_NAMES.index(s) for s in r.sources) for r in rows]
        self._yaw = names.index("torso_yaw") if "torso_yaw" in names else -1
        self._pitch = names.index("torso_pitch") if "torso_pitch" in names else -1
        #: Per servo: measure, on the chest frame?, its first segment (from, to), its second segment for the
        #: two-segment measures (else None), sign * gain, offset -- what raw_targets() reads per frame.
        self._plan = tuple(
            (r.measure, r.frame == "chest", (idx[0], idx[1]), (idx[1], idx[2]) if len(idx) == 3 else None,
             r.sign * r.gain, r.offset)
            for r, idx in zip(rows, self._sources))
        # raw_targets' flat form of the plan: the distinct segments (from, to) in first-use order, and per
        # servo its segments as indices into them (second -1 for one-segment measures)
        segments: list[tuple[int, int]] = []
        for _, _, first, second, _, _ in self._plan:
            for seg in (first, second):
                if seg is not None and seg not in segments:
                    segments.append(seg)
        self._seg_from = np.array([a for a, _ in segments], dtype=np.intp)
        self._seg_to = np.array([b for _, b in segments], dtype=np.intp)
        self._flat_plan = tuple(
            (measure, int(on_chest), segments.index(first), -1 if second is None else segments.index(second),
             scale, offset)
            for measure, on_chest, first, second, scale, offset in self._plan)
        # raw_targets' batched form (round 4): per servo (kind, measure, a, b, scale, offset). kind 0 / 1: a
        # one-segment measure on the root / chest frame, ``a`` its segment's slot among that frame's products;
        # kind 2: a hinge, ``a`` its slot among the hinge dot products; kind 3 / 4: a hinge_yaw on the root /
        # chest frame, ``a`` and ``b`` its two segments' slots among that frame's products.
        root_segs: list[int] = []
        chest_segs: list[int] = []
        hinges: list[tuple[int, int]] = []

        def slot(used: list[Any], item: Any) -> int:
            if item not in used:
                used.append(item)
            return used.index(item)

        batched = []
        for measure, on_chest, seg_a, seg_b, scale, offset in self._flat_plan:
            if measure == "hinge":
                batched.append((2, measure, slot(hinges, (seg_a, seg_b)), -1, scale, offset))
                continue
            used = chest_segs if on_chest else root_segs
            yaw = measure == "hinge_yaw"
            kind = (4 if on_chest else 3) if yaw else on_chest
            batched.append((kind, measure, slot(used, seg_a), slot(used, seg_b) if yaw else -1, scale, offset))
        self._batched_plan = tuple(batched)
        self._root_segs = np.array(root_segs, dtype=np.intp)
        self._chest_segs = np.array(chest_segs, dtype=np.intp)
        self._hinge_first = np.array([i for i, _ in hinges], dtype=np.intp)
        self._hinge_second = np.array([j for _, j in hinges], dtype=np.intp)
        self._tolerant_limits = (self.lower - LIMIT_TOLERANCE_RAD, self.upper + LIMIT_TOLERANCE_RAD)
        #: (index, lower, upper) of the torso yaw and pitch rows, read to build the chest frame
        self._torso_limits = tuple((i, float(self.lower[i]), float(self.upper[i])) if i >= 0 else (0, 0.0, 0.0)
                                   for i in (self._yaw, self._pitch))
        self._kernel_data: servo_kernel.ServoKernelData | None = None

    def __len__(self) -> int:
        return len(self.rows)

    def raw_targets(self, joints: np.ndarray) -> np.ndarray:
        """Servo targets (rad) for one (22, 3) root-local frame, before clamping to the limits."""
        return np.array(self.raw_target_list(joints))

    def raw_target_list(self, joints: np.ndarray) -> list[float]:
        """:meth:`raw_targets` as a plain list (the robot's per-frame path reads it as floats)."""
        joints = np.asarray(joints, dtype=float)
        if joints.shape != (len(JOINT_NAMES), 3):
            raise ValueError(f"joints must have shape ({len(JOINT_NAMES)}, 3), got {joints.shape}")
        # Several servos read the same segment (a hip's pitch, roll, yaw and the knee share hip -> knee): each
        # of the 13 distinct segments is differenced, normalised and put in each frame once per call, in one
        # scalar kernel (issue 23, round 5: compiled by numba when installed) that writes out the BLAS dot and
        # matrix-vector products measure_angle() gets from numpy as fused multiply-adds
        # (:mod:`~wmbench.body.robot.servo_kernel`); tests/body/robot/test_servo_map.py compares the two.
        data = self.kernel_data()
        mem = data.mem
        servo_kernel.kernel()(data.joints_arg(joints), data.ki, data.kf, mem, mem, mem, 0.0)
        return data.raw()

    def kernel_data(self, frame_dt: float | None = None) -> servo_kernel.ServoKernelData:
        """The constants and buffers of :func:`~wmbench.body.robot.servo_kernel.servo_frame` for this map: the
        map's own (raw targets only) without ``frame_dt``, else new ones whose rate limit is each servo's max
        speed times ``frame_dt`` (a robot builds its own at spawn)."""
        if frame_dt is None and self._kernel_data is not None:
            return self._kernel_data
        step = (self.max_speed * frame_dt).tolist() if frame_dt is not None else [0.0] * len(self.rows)
        data = servo_kernel.ServoKernelData(
            self._batched_plan, self._seg_from.tolist(), self._seg_to.tolist(), self._root_segs.tolist(),
            self._chest_segs.tolist(),
            list(zip(self._hinge_first.tolist(), self._hinge_second.tolist())), self._torso_limits,
            self.lower.tolist(), self.upper.tolist(), step, ROOT_FRAME.reshape(-1).tolist())
        if frame_dt is None:
            self._kernel_data = data
        return data

    def clamp(self, targets: np.ndarray) -> np.ndarray:
        return np.clip(targets, self.lower, self.upper)

    def violations(self, angles: np.ndarray, tolerance: float = LIMIT_TOLERANCE_RAD) -> int:
        """How many of ``angles`` lie outside their limits by more than ``tolerance``."""
        angles = np.asarray(angles, dtype=float)
        if tolerance == LIMIT_TOLERANCE_RAD:  # the robot's per-frame check: the widened limits, built once
            low, high = self._tolerant_limits
        else:
            low, high = self.lower - tolerance, self.upper + tolerance
        return int(np.count_nonzero((angles < low) | (angles > high)))

    def to_dicts(self) -> list[dict[str, Any]]:
        return [r.to_dict() for r in self.rows]

    @classmethod
    def from_dicts(cls, rows: list[dict[str, Any]]) -> ServoMap:
        """A map from plain rows (e.g. loaded from JSON); fields as in :class:`ServoSpec`."""
        specs = []
        for i, d in enumerate(rows):
            try:
                specs.append(ServoSpec(**{**d, "sources": tuple(d["sources"]), "axis": tuple(d["axis"])}))
            except (KeyError, TypeError) as exc:
                raise ValueError(f"servo row {i} is malformed ({exc}); expected the ServoSpec fields") \
                    from exc
        return cls(tuple(specs))


SERVO_MAP = ServoMap()
