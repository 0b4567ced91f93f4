"""ServoRobot: a 20-servo humanoid in PyBullet whose servos track the 22-joint motion through the servo map.

Card
----
- **What it is.** The URDF of :mod:`wmbench.body.robot.urdf` (about 1.5 m, 29 kg, 20 revolute servos). Name
  ``"robot"``; dynamic (``needs_physics = True``); sensor height 1.2 m (a chest camera); wall clearance
  radius 0.4 m (covers the swinging arms).
- **Speed envelope.** Slower than the character: every speed class scaled so that sprint = 2.5 m/s
  (:data:`ROBOT_SPEED_ENVELOPE`: walk 0.54, jog 1.15, run 1.73, sprint 2.5 m/s). The body state's
  ``speed_class`` is read against this envelope.
- **How the base moves (driven, not balanced).** The URDF is loaded as a fixed-base multibody whose base is
  moved kinematically along the planned path every physics step (``resetBasePositionAndOrientation``,
  interpolated across the frame). A fixed constraint moved with ``changeConstraint`` was tried first: PyBullet
  treats its pivot as static, so it lags a moving target by speed * dt / ERP (4 cm at 2.5 m/s, measured),
  which shows up as tracking error; the kinematic base follows the path exactly. Per frame the character's
  planar controller (:class:`~wmbench.body.planar_root.PlanarRoot`) plans the path: speed ramps to the target
  within 0.15 s, the facing turns towards travel at pi per 0.3 s (``face_travel``), the step is swept against
  the walls with the clearance radius and stops at a wall. Why driven: the legs animate the gait but a
  20-servo biped needs a balance controller (ZMP, whole-body control) to walk on its own, which is out of
  scope; driving the base keeps it upright and on the planned path while the servos still do real,
  torque-limited work against gravity and inertia. The feet do not collide with the ground (a pair filter),
  so they cannot drag against the driven base.
- **How the limbs move.** Per frame the motion generator (default procedural; ``generator="keyframe"`` or
  a ``generator_factory`` picks another) gives 22 joints at the robot's
  current speed; :data:`~wmbench.body.robot.servo_map.SERVO_MAP` turns them into 20 targets, clamped to the
  limits and rate-limited to each servo's max speed; PyBullet ``POSITION_CONTROL`` tracks them (position
  and velocity gains, velocity feed-forward from the rate-limited command, force = the servo's torque
  limit). The base height follows the frame's pelvis (so a crouch lowers the robot).
- **Solver.** The robot's world runs PyBullet's constraint solver for :data:`SOLVER_ITERATIONS` iterations per
  step instead of its default 50 (set at spawn; the world's next reset restores the default). The base is driven
  kinematically, so the solver only settles the servos: over S01-S50 (reference brain, seed 0) 10 iterations
  gave the same positions, replies and events as 50, servo tracking RMS within 4 % per scenario, no limit
  violation and the same clamped commands, for a robot frame about a third cheaper (``bench_bodies``: 399 ->
  607 frames per CPU second; the solver's 20 motor rows were most of a step).
- **Walls.** Never passes through: the base path is swept, and any physical contact of a link with a wall
  (seen after the frame's physics) is reported too (``FrameReport(collided=True)`` -> ``collision:wall``).
- **Extras** in :meth:`state`: ``servo_tracking_error_rad`` (mean |command - angle| over the servos at the
  end of the latest frame), ``servo_tracking_rms_rad`` (RMS over every servo and frame since spawn),
  ``servo_limit_violations`` (servo-frames whose measured angle left its limits by more than
  ``LIMIT_TOLERANCE_RAD``, since spawn), ``servo_commands_clamped`` (raw targets beyond a limit, since spawn).

Simplified: physical wall contact is reported one frame late (it is read after the frame's physics); the
robot does not balance (see above); NPCs touching it do not move the base.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pybullet as p

from wmbench.body.base import BodyState, FrameReport, Vec3, WorldHandle
from wmbench.body.envelope import SpeedClassifier, classifier_for, scaled_envelope
from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.registry import GeneratorFactory, resolve_generator_factory
from wmbench.body.multibody import UrdfBody, quaternion_yaw, wall_contact, yaw_quaternion
from wmbench.body.planar_root import PlanarRoot
from wmbench.body.robot.servo_kernel import ServoKernelData
from wmbench.body.robot.servo_map import LIMIT_TOLERANCE_RAD, SERVO_MAP, ServoMap
from wmbench.body.robot.urdf import ROBOT_SCALE, robot_urdf_path
from wmbench.core.directions import wrap_angle

SENSOR_HEIGHT = 1.2
CLEARANCE_RADIUS = 0.4
ROBOT_TOP_SPEED = 2.5
#: Speed class -> the robot's ground speed (m/s).
ROBOT_SPEED_ENVELOPE = scaled_envelope(ROBOT_TOP_SPEED)
SPEED_RAMP_S = 0.15
TURN_TIME_S = 0.3
#: Constraint-solver iterations per physics step in the robot's world (PyBullet's default is 50; module card).
SOLVER_ITERATIONS = 10
#: PD gains of PyBullet's POSITION_CONTROL (error-reduction factors per physics step).
POSITION_GAIN = 0.3
VELOCITY_GAIN = 1.0


class ServoRobot(UrdfBody):
    """The servo-mapped humanoid robot (see the module card)."""

    name = "robot"
    needs_physics = True
    sensor_height = SENSOR_HEIGHT
    clearance_radius = CLEARANCE_RADIUS

    def __init__(self, generator_factory: GeneratorFactory | None = None, servo_map: ServoMap = SERVO_MAP,
                 top_speed: float = ROBOT_TOP_SPEED, generator: str | None = None) -> None:
        self._factory = resolve_generator_factory(generator_factory, generator)
        self.servo_map = servo_map
        self.envelope = scaled_envelope(top_speed)
        self._classifier: SpeedClassifier | None = None
        self._world: WorldHandle | None = None
        self._id = -1
        self._servo_index: list[int] = []
        self._motor_lists: tuple[list[float], list[float], list[float]] = ([], [], [])
        self._generator: Any = None
        self._frame: Any = None
        self._intent = MotionIntent.still()
        self._root = PlanarRoot(accel=max(self.envelope.values()) / SPEED_RAMP_S,
                                turn_rate=math.pi / TURN_TIME_S, radius=CLEARANCE_RADIUS)
        self._z = 0.0
        #: The latest servo command (rad, servo-map order) as plain floats: the per-frame path works on lists.
        self._command: list[float] = [0.0] * len(servo_map)
        #: Per servo, in servo-map order: the limits widened by the violation tolerance (set at spawn).
        self._tolerant_limits: tuple[list[float], list[float]] = ([], [])
        #: The servo kernel's constants and buffers for this map and frame time (built at spawn).
        self._kernel: ServoKernelData | None = None
        #: The limits widened by the violation tolerance, as the servo kernel's measure reads them (at spawn).
        self._measure_limits: tuple[Any, Any] = ((), ())
        self._path: tuple[tuple[float, ...], tuple[float, ...]] = ((0.0,) * 4, (0.0,) * 4)
        self._substep = 0
        self._substeps = 1
        self._stamp = 0
        self._measured_stamp = -1
        self._reset_counters()

    # ------------------------------------------------------------------ Body protocol
    def spawn(self, world: WorldHandle, position: Vec3, heading: float) -> None:
        if self._world is world:
            self.remove()
        self._world = world
        cid = world.client
        self._id = p.loadURDF(str(robot_urdf_path()), [position[0], position[1], 1.0],
                              yaw_quaternion(heading), useFixedBase=True, flags=p.URDF_USE_INERTIA_FROM_FILE,
                              physicsClientId=cid)
        names = {p.getJointInfo(self._id, j, physicsClientId=cid)[1].decode(): j
                 for j in range(p.getNumJoints(self._id, physicsClientId=cid))}
        missing = [n for n in self.servo_map.names if n not in names]
        if missing:
            raise RuntimeError(f"robot URDF lacks servo joints {missing}; it has {sorted(names)}")
        self._servo_index = [names[n] for n in self.servo_map.names]
        n = len(self._servo_index)
        #: The motor command's constant lists (efforts, gains), built once instead of every frame.
        self._motor_lists = (self.servo_map.effort.tolist(), [POSITION_GAIN] * n, [VELOCITY_GAIN] * n)
        ground = world.ground_id
        if ground >= 0:  # the driven base must not drag its feet on the floor
            for link in range(-1, p.getNumJoints(self._id, physicsClientId=cid)):
                p.setCollisionFilterPair(self._id, ground, link, -1, 0, physicsClientId=cid)
        self._substeps = max(1, round(world.frame_dt / world.physics_dt))
        p.setPhysicsEngineParameter(numSolverIterations=SOLVER_ITERATIONS, physicsClientId=cid)
        sm = self.servo_map
        low, high = self._tolerant_limits = ((sm.lower - LIMIT_TOLERANCE_RAD).tolist(),
                                             (sm.upper + LIMIT_TOLERANCE_RAD).tolist())
        self._kernel = sm.kernel_data(world.frame_dt)
        self._measure_limits = (self._kernel.limits_arg(low), self._kernel.limits_arg(high))
        self._reset_counters()
        self.reset_pose(position, heading)

    def respawn(self, position: Vec3, heading: float) -> None:
        """A new episode in the same world without reloading the URDF (a reused env calls it instead of
        ``spawn``): the episode's servo counters restart, then ``reset_pose``."""
        self._require_world("respawn")
        self._reset_counters()
        self.reset_pose(position, heading)

    def reset_pose(self, position: Vec3, heading: float) -> None:
        world = self._require_world("reset_pose")
        self._generator = self._factory(round(1.0 / world.frame_dt))
        self._intent = MotionIntent.still()
        self._generator.set_intent(self._intent)
        self._frame = self._generator.next_frame(0.0)
        self._root.place(position[0], position[1], heading)
        self._z = self._pelvis_height()
        self._command = self.servo_map.clamp(self.servo_map.raw_targets(self._frame.joints)).tolist()
        cid = world.client
        pose = self._pose()
        p.resetBasePositionAndOrientation(self._id, pose[:3], yaw_quaternion(pose[3]), physicsClientId=cid)
        for joint, angle in zip(self._servo_index, self._command):
            p.resetJointState(self._id, joint, angle, 0.0, physicsClientId=cid)
        self._path = (pose, pose)
        self._substep = self._substeps
        self._send_command([0.0] * len(self._command))
        self._stamp += 1

    def apply_intent(self, intent: MotionIntent) -> None:
        self._intent = intent
        self._root.aim(intent, self.envelope[intent.speed_class.value])
        if self._generator is not None:
            self._generator.set_intent(intent)

    def on_frame(self) -> FrameReport:
        world = self._require_world("on_frame")
        self._measure()  # the previous frame's physics, before this frame changes the command
        report = wall_contact(world, self._id)
        dt = world.frame_dt
        start = self._pose()
        blocked = self._root.advance(world, self._intent)
        if blocked is not None:
            report = blocked
        self._frame = self._generator.next_frame(self._root.speed)
        self._z = self._pelvis_height()
        # Raw targets, the clamp to the limits (counting the clamped targets), the rate limit and the velocity
        # feed-forward in one kernel (numba when installed; servo_kernel's card): what numpy's
        # ``previous + clip(clip(target, lower, upper) - previous, -step, step)`` and
        # ``(command - previous) / dt`` compute elementwise (np.clip keeps NaN and takes the bound when x equals
        # it, max then min; so does the kernel, signed zeros included).
        assert self._kernel is not None  # built at spawn, which _require_world has checked
        command, velocity, clamped = self._kernel.step(self._frame.joints, self._command, dt)
        self._clamped += clamped
        self._command = command
        self._send_command(velocity)
        self._path = (start, self._pose())
        self._substep = 0
        return report

    def on_physics_step(self) -> None:
        if self._world is None or self._substep >= self._substeps:
            return
        self._substep += 1
        w = self._substep / self._substeps
        a, b = self._path
        yaw = a[3] + w * wrap_angle(b[3] - a[3])
        position = (a[0] + w * (b[0] - a[0]), a[1] + w * (b[1] - a[1]), a[2] + w * (b[2] - a[2]))
        p.resetBasePositionAndOrientation(self._id, position, yaw_quaternion(yaw), self._world.client)
        self._stamp += 1

    def run_physics_steps(self, substeps: int, step_physics: Callable[[], None]) -> None:
        """``substeps`` times :meth:`on_physics_step` then ``step_physics()`` in one call (the env's hot path,
        :class:`~wmbench.body.base.FusedPhysics`): the same root placements, computed the same way, with the
        frame's yaw change wrapped once instead of once per step (``wrap_angle`` of the same two numbers)."""
        world = self._world
        if world is None or type(self).on_physics_step is not ServoRobot.on_physics_step:
            for _ in range(substeps):
                self.on_physics_step()
                step_physics()
            return
        place, uid, cid, n = p.resetBasePositionAndOrientation, self._id, world.client, self._substeps
        a, b = self._path
        a0, a1, a2, a3 = a
        d0, d1, d2, d3 = b[0] - a0, b[1] - a1, b[2] - a2, wrap_angle(b[3] - a3)
        for _ in range(substeps):
            if self._substep < n:
                self._substep += 1
                w = self._substep / n
                place(uid, (a0 + w * d0, a1 + w * d1, a2 + w * d2), yaw_quaternion(a3 + w * d3), cid)
                self._stamp += 1
            step_physics()

    def state(self) -> BodyState:
        world = self._require_world("state")
        self._measure()
        (x, y, z), quat = p.getBasePositionAndOrientation(self._id, physicsClientId=world.client)
        root = self._root
        c, s = math.cos(root.travel_heading), math.sin(root.travel_heading)
        rms = math.sqrt(self._sq_error / self._n_error) if self._n_error else 0.0
        return BodyState(
            position=(x, y, z), heading=quaternion_yaw(quat), velocity=(root.speed * c, root.speed * s, 0.0),
            speed=root.speed, posture=str(getattr(self._frame, "posture", "upright")),
            speed_class=self._speed_class(root.speed),
            extras={"servo_tracking_error_rad": round(self._last_error, 6),
                    "servo_tracking_rms_rad": round(rms, 6),
                    "servo_limit_violations": self._violations,
                    "servo_commands_clamped": self._clamped},
        )

    def frame_pose(self) -> tuple[float, float, float, str]:
        """``(x, y, heading, posture)`` of :meth:`state`, without the rest (:class:`~wmbench.body.base.FramePose`):
        the same base read and yaw. The tracking statistics are not touched: the next ``on_frame`` or
        ``state`` measures this physics state (once, as always)."""
        world = self._require_world("frame_pose")
        (x, y, _), quat = p.getBasePositionAndOrientation(self._id, physicsClientId=world.client)
        return x, y, quaternion_yaw(quat), str(getattr(self._frame, "posture", "upright"))

    # ------------------------------------------------------------------ readings
    def servo_angles(self) -> np.ndarray:
        """Measured servo angles (rad), in servo-map order."""
        world = self._require_world("servo_angles")
        states = p.getJointStates(self._id, self._servo_index, physicsClientId=world.client)
        return np.array([s[0] for s in states])

    @property
    def servo_command(self) -> np.ndarray:
        """The latest command (rad) sent to the servos (clamped and rate-limited)."""
        return np.array(self._command)

    def link_positions(self) -> dict[str, np.ndarray]:
        """World position of every servo's child-link origin (the joint), keyed by servo name."""
        world = self._require_world("link_positions")
        states = p.getLinkStates(self._id, self._servo_index, physicsClientId=world.client)
        return {n: np.array(s[4]) for n, s in zip(self.servo_map.names, states)}

    # ------------------------------------------------------------------ internals
    def _speed_class(self, speed: float) -> str:
        """``classify_speed(speed, self.envelope)`` with the envelope's thresholds sorted once."""
        self._classifier = classifier = classifier_for(self.envelope, self._classifier)
        return classifier(speed)

    def _pose(self) -> tuple[float, float, float, float]:
        """The planned base pose (x, y, z, heading)."""
        return (self._root.x, self._root.y, self._z, self._root.heading)

    def _reset_counters(self) -> None:
        self._last_error = 0.0
        self._sq_error = 0.0
        self._n_error = 0
        self._violations = 0
        self._clamped = 0

    def _pelvis_height(self) -> float:
        return ROBOT_SCALE * float(self._frame.joints[0][1])

    def _send_command(self, velocity: list[float]) -> None:
        assert self._world is not None
        efforts, position_gains, velocity_gains = self._motor_lists
        p.setJointMotorControlArray(
            self._id, self._servo_index, p.POSITION_CONTROL, targetPositions=self._command,
            targetVelocities=velocity, forces=efforts, positionGains=position_gains,
            velocityGains=velocity_gains, physicsClientId=self._world.client)

    def _measure(self) -> None:
        """Tracking error and limit check of the current physics state (once per physics state).

        The servo kernel's :func:`~wmbench.body.robot.servo_kernel.measure_frame` (numba when installed) does
        numpy's arithmetic: ``|command - angle|`` and the limit comparisons elementwise, the errors' sum in
        numpy's pairwise order (over the count for the mean); the squared error stays a BLAS dot
        (``error @ error``: its order is OpenBLAS's, not written out)."""
        if self._measured_stamp == self._stamp:
            return
        self._measured_stamp = self._stamp
        world, kernel = self._world, self._kernel
        assert world is not None and kernel is not None
        states = p.getJointStates(self._id, self._servo_index, physicsClientId=world.client)
        angles = [joint[0] for joint in states]
        n = len(angles)
        if n > 128:   # longer than the kernel's pairwise sum (this robot has 20 servos): numpy
            error = np.abs(np.array(self._command) - np.array(angles))
            low, high = self._tolerant_limits
            total = float(np.add.reduce(error))
            violations = sum(1 for a, lo, hi in zip(angles, low, high) if a < lo or a > hi)
        else:
            low_arg, high_arg = self._measure_limits
            total, violations, error = kernel.measure(angles, self._command, low_arg, high_arg)
        self._last_error = total / n
        squares = error if isinstance(error, np.ndarray) else np.array(error)
        self._sq_error += float(squares @ squares)
        self._n_error += n
        self._violations += violations

