"""Speed beside the physics floor: each body's loop next to raw PyBullet and (drone) gym-pybullet-drones.

Every row is per CPU second of this process (or of the anchor's process), the median of interleaved rounds
(each round runs every measurement once, in the same order), so the ratios are same-run ratios:

- **anchor**: gym-pybullet-drones ``HoverAviary`` (240 Hz physics, 30 Hz control, RPM actions at hover),
  stepped in a subprocess of the Python named by ``WMBENCH_ANCHOR_PYTHON`` with ``WMBENCH_ANCHOR_PATH`` on
  its path (a separate venv: never installed into wmbench's); its own CPU time of the stepping loop,
  resets at truncation included. The version and commit are read from ``ANCHOR_COMMIT`` beside the source
  (written by whoever installed it). When it is not available the row is skipped and the documented
  stand-in is the *raw + reads* row below (what any controller in Python costs at least).
- **raw floor**: wmbench's quadrotor URDF alone in a PyBullet world, per 240 Hz step 4
  ``applyExternalForce`` (hover thrust) and ``stepSimulation``; **raw + reads** adds the pose, velocity
  and rotation-matrix reads a controller needs.
- **drone S04**: the whole closed loop (``run_episode``, reference brain, one reused env, resets included)
  on S04 (open field), with the current controller and with the 0.3.0 controller kept for tests
  (``tests/body/reference_drone_controller.py``) -- before and after in one run. Also the body alone
  (``on_frame`` + 8 x ``on_physics_step``, no env) with both controllers.
- **aero cost**: the drone body alone with drag, ground effect and downwash on, against all off.
- **robot**: S04 closed loop, frames/s, beside two raw floors in the loop's own world (an S04 env after
  ``reset``, far wall included; same URDF, 20 revolute joints, 8 sub-steps). The **replayed floor** (round 5,
  the one the ratio is read against): the loop's own episodes (the same seeds) recorded once, then only their
  PyBullet calls that change the physics (motor commands, root and NPC placements, steps) and the joint read
  replayed in a bare loop, checked to end in the loop's joint states: the same physics, none of the rest. The
  **standing floor** (rounds 2-5): one ``setJointMotorControlArray`` at zero targets and one
  ``getJointStates`` per frame, per sub-step a root placement and ``stepSimulation`` -- a robot that does not
  move its joints.
- **smpl**: S04 closed loop, frames/s (kinematic: no physics per frame, so no floor).

Run: ``.venv/bin/python -m benchmarks.bench_floor [--quick] [--profile]`` (``--profile``: where the drone's
S04 loop time goes, cProfile self time grouped by part).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import json
import os
import pstats
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.common import REPO_ROOT, BenchRow, median_of, ratio

GROUP = "floor"
PHYSICS_HZ = 240
FRAME_RATE = 30
SUBSTEPS = PHYSICS_HZ // FRAME_RATE
SCENARIO = "S04"

ANCHOR_CODE = r"""
import json, subprocess, sys, time
import numpy as np
from gym_pybullet_drones.envs.HoverAviary import HoverAviary
seconds = float(sys.argv[1])
env = HoverAviary(gui=False)
env.reset(seed=0)
action = np.zeros(env.action_space.shape, dtype=np.float32)   # RPM action 0 = hover rpm
for _ in range(30):
    env.step(action)
steps = int(seconds * env.CTRL_FREQ)
t0 = time.process_time()
for _ in range(steps):
    _, _, terminated, truncated, _ = env.step(action)
    if terminated or truncated:
        env.reset(seed=0)
cpu = time.process_time() - t0
print(json.dumps({"sim_s": steps / env.CTRL_FREQ, "cpu_s": cpu, "pyb_freq": env.PYB_FREQ,
                  "ctrl_freq": env.CTRL_FREQ}))
"""


BASELINE_CODE = r"""
import json, sys, time
from wmbench.brain.registry import get_brain
from wmbench.harness.run.episode import make_env, run_episode
body, scenario, episodes, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
env = make_env(scenario, body, frame_rate=30)
brain = get_brain("reference")

class Held:
    def __getattr__(self, name):
        return getattr(env, name)
    def close(self):
        pass

def run(n, first):
    sim = 0.0
    for k in range(n):
        result = run_episode(scenario, brain, body, first + k, env_factory=lambda *a, **kw: Held())
        assert result.error is None, result.error
        sim += env.unwrapped.sim_time
    return sim

run(1, seed)   # warm-up
t0 = time.process_time()
sim = run(episodes, seed)
print(json.dumps({"sim_s": sim, "cpu_s": time.process_time() - t0}))
"""


# ------------------------------------------------------------------------------------------ measurements


def baseline_rate(path: Path, body: str, episodes: int, seed: int) -> float:
    """Sim seconds per CPU second of the S04 loop of an older checkout at ``path`` (a subprocess with it
    first on ``sys.path``; its own CPU time of the episodes, warm-up excluded)."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    out = subprocess.run([sys.executable, "-c", BASELINE_CODE, body, SCENARIO, str(episodes), str(seed)],
                         env=env, capture_output=True, text=True, timeout=600, check=True, cwd=str(path))
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return float(data["sim_s"]) / float(data["cpu_s"])


def anchor_source() -> tuple[str, Path] | None:
    """(python, source path) of the gym-pybullet-drones install, or None."""
    python, path = os.environ.get("WMBENCH_ANCHOR_PYTHON"), os.environ.get("WMBENCH_ANCHOR_PATH")
    if not python or not path or not Path(python).is_file() or not Path(path).is_dir():
        return None
    return python, Path(path)


def anchor_label(path: Path) -> str:
    """``gym-pybullet-drones <version> @ <commit>`` from its pyproject and ANCHOR_COMMIT file."""
    version = "?"
    pyproject = path / "pyproject.toml"
    if pyproject.is_file():
        for line in pyproject.read_text().splitlines():
            if line.startswith("version"):
                version = line.split("=", 1)[1].strip().strip('"')
                break
    commit_file = path / "ANCHOR_COMMIT"
    commit = commit_file.read_text().strip()[:12] if commit_file.is_file() else "unknown commit"
    return f"gym-pybullet-drones {version} @ {commit}"


def anchor_rtf(python: str, path: Path, seconds: float) -> float:
    """HoverAviary sim seconds per CPU second of its stepping loop (a subprocess)."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    out = subprocess.run([python, "-c", ANCHOR_CODE, str(seconds)], env=env, capture_output=True, text=True,
                         timeout=600, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return float(data["sim_s"]) / float(data["cpu_s"])


def raw_drone_rtf(seconds: float, reads: bool) -> float:
    """wmbench's quadrotor URDF, hover forces + stepSimulation (+ the reads a controller needs)."""
    import pybullet as p

    from wmbench.body.drone.airframe import CRAZYFLIE_2X, Airframe, drone_urdf_path
    from wmbench.body.drone.pid import GRAVITY

    cid = p.connect(p.DIRECT)
    try:
        p.setGravity(0, 0, -GRAVITY, physicsClientId=cid)
        p.setTimeStep(1.0 / PHYSICS_HZ, physicsClientId=cid)
        uid = p.loadURDF(str(drone_urdf_path()), [0, 0, 1.2], flags=p.URDF_USE_INERTIA_FROM_FILE,
                         physicsClientId=cid)
        rotors = Airframe().rotor_positions
        hover = CRAZYFLIE_2X.mass * GRAVITY / 4
        steps = int(seconds * PHYSICS_HZ)
        t0 = time.process_time()
        for _ in range(steps):
            if reads:
                _, quat = p.getBasePositionAndOrientation(uid, physicsClientId=cid)
                p.getBaseVelocity(uid, physicsClientId=cid)
                p.getMatrixFromQuaternion(quat)
            for at in rotors:
                p.applyExternalForce(uid, -1, (0.0, 0.0, hover), at, p.LINK_FRAME, physicsClientId=cid)
            p.stepSimulation(physicsClientId=cid)
        return seconds / (time.process_time() - t0)
    finally:
        p.disconnect(cid)


def drone_body_rtf(seconds: float, reference: bool, aero: bool = False) -> float:
    """The drone body alone in a world (no env): per frame ``on_frame`` then 8 physics steps, flying a
    fixed intent sequence. ``aero``: with drag, ground effect and downwash (a craft 1 m above) on."""
    from wmbench.body.drone.aero import AeroOptions
    from wmbench.body.drone.quadrotor import Quadrotor
    from wmbench.body.intent.reader import parse_motion
    from wmbench.envs.world import World

    body: Quadrotor
    if reference:
        from tests.body.reference_drone_controller import ReferenceQuadrotor
        body = ReferenceQuadrotor()
    elif aero:
        body = Quadrotor(aero=AeroOptions(drag=True, ground_effect=True, downwash=True))
        body.rotorcraft_above = lambda: [(0.0, 0.0, 2.2)]
    else:
        body = Quadrotor()
    world = World(frame_dt=1.0 / FRAME_RATE, physics_dt=1.0 / PHYSICS_HZ)
    intents = [parse_motion(t) for t in ("a person runs forward", "turns left and walks", "freezes",
                                         "sprints back")]
    try:
        body.spawn(world, (0.0, 0.0, 0.0), 0.0)
        frames = int(seconds * FRAME_RATE)
        t0 = time.process_time()
        for i in range(frames):
            if i % 30 == 0:
                body.apply_intent(intents[(i // 30) % len(intents)])
            body.on_frame()
            for _ in range(SUBSTEPS):
                body.on_physics_step()
                world.step_physics()
            body.state()
        return seconds / (time.process_time() - t0)
    finally:
        world.close()


class _Loop:
    """A reused S04 env for one body (instance or name), run episode after episode."""

    def __init__(self, body: Any) -> None:
        from wmbench.brain.registry import get_brain
        from wmbench.harness.run.episode import make_env

        self.env = make_env(SCENARIO, body, frame_rate=FRAME_RATE)
        self.brain = get_brain("reference")
        self.seed = 0

    def run(self, episodes: int) -> tuple[float, float]:
        """(sim seconds, CPU seconds) of ``episodes`` episodes (resets included, construction excluded)."""
        from wmbench.harness.run.episode import run_episode

        env = self.env

        class _Held:
            def __getattr__(self, name: str) -> Any:
                return getattr(env, name)

            def close(self) -> None:  # kept for the next episode
                pass

        sim = 0.0
        t0 = time.process_time()
        for _ in range(episodes):
            result = run_episode(SCENARIO, self.brain, "unused", self.seed, env_factory=lambda *a, **k: _Held())
            if result.error:
                raise RuntimeError(result.error.splitlines()[0])
            sim += env.sim_time
            self.seed += 1
        return sim, time.process_time() - t0

    def close(self) -> None:
        self.env.close()
        self.brain.close()


def _loop_rate(loop: _Loop, episodes: int, seed: int = 0) -> float:
    """Sim seconds per CPU second of ``episodes`` episodes from ``seed`` on: the episodes (seeds) every round
    and the subprocess rows (:func:`baseline_rate`) run. Before round 5 the in-process loops went on to new
    seeds every round while the subprocesses ran seeds 0-4 each time: S04's episodes differ in cost per sim
    second (seeds 2 and up draw the far wall; episodes end early or late), so the two kinds of row measured
    different workloads (round 5, drone, 5 interleaved rounds: fresh / in-process 0.89 with the old seeds,
    1.01 with the same seeds)."""
    loop.seed = seed
    sim, cpu = loop.run(episodes)
    return sim / cpu


def robot_floor_env(seed: int) -> Any:
    """The S04 robot env the floor runs in, reset with ``seed`` (the closed loop's world, see
    :func:`raw_robot_fps`)."""
    from wmbench.harness.run.episode import make_env

    env = make_env(SCENARIO, "robot", frame_rate=FRAME_RATE)
    env.reset(seed=seed)
    return env


def raw_robot_fps(frames: int, seed: int = 2) -> float:
    """The robot's URDF alone in the closed loop's own world: per frame one motor command array + one
    joint-state read, per sub-step a kinematic root placement and stepSimulation.

    The world is the loop's, built the loop's way (``make_env`` + ``reset(seed)``: S04's ground, walls --
    seeds 2 and up draw S04's far boundary wall, as most of the loop's episodes do --, collision groups and
    solver settings, the robot as the env spawned it), so the floor cannot differ from the loop in what
    the physics has to simulate; only the raw calls run on it (no brain, motion, servo map or env). Before
    round 4 the floor had its own world without the wall (measured: ~4 % faster than with it)."""
    import pybullet as p

    from wmbench.body.multibody import yaw_quaternion
    from wmbench.body.robot.servo_robot import ServoRobot

    env = robot_floor_env(seed)
    try:
        robot, world = env.body, env.world
        assert isinstance(robot, ServoRobot) and world is not None
        uid, cid = robot._id, world.client
        index = list(robot._servo_index)
        n = len(index)
        targets, zeros = [0.0] * n, [0.0] * n
        effort = robot.servo_map.effort.tolist()
        x0, y0, z0 = robot.state().position
        quat = yaw_quaternion(0.0)
        t0 = time.process_time()
        for i in range(frames):
            p.setJointMotorControlArray(uid, index, p.POSITION_CONTROL, targetPositions=targets,
                                        targetVelocities=zeros, forces=effort, physicsClientId=cid)
            p.getJointStates(uid, index, physicsClientId=cid)
            for k in range(SUBSTEPS):
                p.resetBasePositionAndOrientation(uid, (x0 + 0.001 * (i * SUBSTEPS + k), y0, z0), quat,
                                                  physicsClientId=cid)
                p.stepSimulation(physicsClientId=cid)
        return frames / (time.process_time() - t0)
    finally:
        env.close()


#: The PyBullet calls the robot's replayed floor repeats: everything that changes the physics state (motor
#: commands, kinematic root and NPC placements, joint resets, steps) and the joint read any servo controller
#: needs -- no ray casts, other reads, rendering or env work.
REPLAYED_CALLS = ("stepSimulation", "resetBasePositionAndOrientation", "resetBaseVelocity",
                  "setJointMotorControlArray", "resetJointState", "getJointStates")

#: Where each replayed call takes its client id positionally (``physicsClientId`` otherwise): a replay runs in
#: another client than the recording, so the id is put back at replay time.
CLIENT_POSITION = {"stepSimulation": 0, "resetBasePositionAndOrientation": 3, "resetBaseVelocity": 3,
                   "setJointMotorControlArray": 99, "resetJointState": 4, "getJointStates": 2}

#: One recorded PyBullet call: (function name, positional arguments, keyword arguments), the client id left
#: out (see :func:`_bound_call`).
Call = tuple[str, tuple[Any, ...], dict[str, Any]]


@dataclass(frozen=True)
class RobotWorkload:
    """The PyBullet calls of the robot's S04 closed-loop episodes (:data:`REPLAYED_CALLS`, in order, after
    each episode's reset), with each episode's frame count and the robot's joint states at its end."""

    seeds: tuple[int, ...]
    calls: tuple[tuple[Call, ...], ...]
    frames: tuple[int, ...]
    final_joints: tuple[tuple[tuple[float, ...], ...], ...]


class _CallRecorder:
    """While active, every :data:`REPLAYED_CALLS` function of the ``pybullet`` module records its call."""

    def __init__(self) -> None:
        import pybullet

        self.module = pybullet
        self.originals = {name: getattr(pybullet, name) for name in REPLAYED_CALLS}
        self.calls: list[Call] = []
        self.on = False

    def __enter__(self) -> _CallRecorder:
        for name, original in self.originals.items():
            def wrapper(*args: Any, _name: str = name, _fn: Any = original, **kwargs: Any) -> Any:
                if self.on:  # copies: a caller may reuse (and later change) the lists it passes
                    where = CLIENT_POSITION[_name]
                    kept = {k: _frozen(v) for k, v in kwargs.items() if k != "physicsClientId"}
                    self.calls.append((_name, _frozen(args[:where]) + _frozen(args[where + 1:]), kept))
                return _fn(*args, **kwargs)
            setattr(self.module, name, wrapper)
        return self

    def __exit__(self, *exc: object) -> None:
        for name, original in self.originals.items():
            setattr(self.module, name, original)


class _RecordingEnv:
    """An env for ``run_episode`` that switches ``recorder`` on after its reset and off at close (the env itself
    stays open: the recording reads its final joint states)."""

    def __init__(self, env: Any, recorder: _CallRecorder) -> None:
        self.env, self.recorder = env, recorder

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    def reset(self, **kwargs: Any) -> Any:
        out = self.env.reset(**kwargs)
        self.recorder.on = True  # the episode's calls from here on
        return out

    def close(self) -> None:
        self.recorder.on = False


def _frozen(value: Any) -> Any:
    """``value`` with every list or array in it copied into a tuple (recorded calls must not change later)."""
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        items = value.tolist() if hasattr(value, "tolist") else value
        return tuple(_frozen(v) for v in items) if isinstance(items, (list, tuple)) else items
    return value


def _bound_call(pybullet: Any, call: Call, client: int) -> tuple[Any, tuple[Any, ...], dict[str, Any]]:
    """A recorded call made ready to replay in ``client``: (function, positional arguments, keyword arguments)."""
    name, args, kwargs = call
    if len(args) >= CLIENT_POSITION[name]:
        return getattr(pybullet, name), (*args, client), kwargs
    return getattr(pybullet, name), args, {**kwargs, "physicsClientId": client}


def _robot_env_and_joints() -> tuple[Any, Callable[[], tuple[tuple[float, ...], ...]]]:
    """A fresh S04 robot env and a function reading its robot's joint states."""
    import pybullet as p

    from wmbench.body.robot.servo_robot import ServoRobot
    from wmbench.harness.run.episode import make_env

    env = make_env(SCENARIO, "robot", frame_rate=FRAME_RATE)

    def joints() -> tuple[tuple[float, ...], ...]:
        robot, world = env.body, env.world
        assert isinstance(robot, ServoRobot) and world is not None
        states = p.getJointStates(robot._id, list(robot._servo_index), physicsClientId=world.client)
        return tuple((float(s[0]), float(s[1])) for s in states)

    return env, joints


def record_robot_workload(seeds: tuple[int, ...] = (0, 1, 2, 3, 4)) -> RobotWorkload:
    """Run the robot's S04 closed loop (reference brain; a fresh env per episode, as deterministic as the
    reused one) and record its :data:`REPLAYED_CALLS` after each reset (:class:`RobotWorkload`)."""
    from wmbench.brain.registry import get_brain
    from wmbench.harness.run.episode import run_episode

    brain = get_brain("reference")
    calls, frames, finals = [], [], []
    try:
        for seed in seeds:
            env, joints = _robot_env_and_joints()
            with _CallRecorder() as recorder:
                recording = _RecordingEnv(env, recorder)
                result = run_episode(SCENARIO, brain, "robot", seed, env_factory=lambda *a, _env=recording, **k: _env)
                if result.error:
                    raise RuntimeError(result.error.splitlines()[0])
            steps = sum(1 for name, _, _ in recorder.calls if name == "stepSimulation")
            n_frames = round(env.sim_time * FRAME_RATE)
            if steps != n_frames * SUBSTEPS:  # a call made outside the pybullet module's attributes was missed
                raise RuntimeError(f"recorded {steps} physics steps for {n_frames} frames of {SUBSTEPS}")
            calls.append(tuple(recorder.calls))
            frames.append(n_frames)
            finals.append(joints())
            env.close()
    finally:
        brain.close()
    return RobotWorkload(tuple(seeds), tuple(calls), tuple(frames), tuple(finals))


def replayed_robot_fps(workload: RobotWorkload) -> float:
    """Frames per CPU second of the robot's raw floor *doing the loop's own physics*: each episode's world
    built and reset as the loop's (untimed), then only its recorded PyBullet calls, replayed in order in a
    bare Python loop (timed). The replay must end in the joint states the loop ended in (checked), so the
    floor simulated exactly what the loop did; what it leaves out is everything else the loop does."""
    import pybullet as p

    cpu = 0.0
    for seed, calls, final in zip(workload.seeds, workload.calls, workload.final_joints):
        env, joints = _robot_env_and_joints()
        try:
            env.reset(seed=seed, options={"scenario": SCENARIO})
            bound = [_bound_call(p, call, env.world.client) for call in calls]
            t0 = time.process_time()
            for fn, args, kwargs in bound:
                fn(*args, **kwargs)
            cpu += time.process_time() - t0
            if joints() != final:
                raise RuntimeError(f"the replay of seed {seed} did not reproduce the loop's physics")
        finally:
            env.close()
    return sum(workload.frames) / cpu


# ------------------------------------------------------------------------------------------ the table


def measure(quick: bool, rounds: int | None = None, baseline: Path | None = None, seconds: float | None = None,
            episodes: int | None = None) -> list[BenchRow]:
    """The rows; ``baseline``: a checkout of an older wmbench whose S04 loops run beside (``before``);
    ``seconds`` (sim seconds per raw / body measurement) and ``episodes`` (per loop measurement) override
    the workload."""
    rounds = rounds or (2 if quick else 5)
    seconds = seconds or (5.0 if quick else 15.0)
    episodes = episodes or (2 if quick else 5)
    anchor = anchor_source()
    from tests.body.reference_drone_controller import ReferenceQuadrotor

    loops = {"drone": _Loop("drone"), "drone 0.3.0": _Loop(ReferenceQuadrotor()), "robot": _Loop("robot"),
             "smpl": _Loop("smpl")}
    samples: dict[str, list[float]] = {}
    jobs: dict[str, Callable[[], float]] = {}
    if anchor is not None:
        jobs["anchor"] = lambda: anchor_rtf(anchor[0], anchor[1], seconds)
    jobs["raw"] = lambda: raw_drone_rtf(seconds, reads=False)
    jobs["raw+reads"] = lambda: raw_drone_rtf(seconds, reads=True)
    jobs["drone body"] = lambda: drone_body_rtf(seconds / 3, reference=False)
    jobs["drone body 0.3.0"] = lambda: drone_body_rtf(seconds / 3, reference=True)
    jobs["drone body aero"] = lambda: drone_body_rtf(seconds / 3, reference=False, aero=True)
    for name, loop in loops.items():
        jobs[name] = functools.partial(_loop_rate, loop, episodes)
    jobs["robot raw"] = lambda: raw_robot_fps(int(seconds * FRAME_RATE / 2)) / FRAME_RATE
    workload = record_robot_workload(tuple(range(episodes)))  # the loop's own episodes (seeds 0..episodes-1)
    jobs["robot replayed"] = lambda: replayed_robot_fps(workload) / FRAME_RATE
    if baseline is not None:
        for body in ("drone", "robot", "smpl"):
            jobs[f"{body} before"] = functools.partial(baseline_rate, baseline, body, episodes, 0)
            # this checkout the same way (a fresh subprocess): the in-process loops share this process with
            # three other envs, the anchor's results and the raw worlds, which slowed the robot's loop by
            # up to ~13 % against a fresh process in round 4's runs; now / before compares like with like
            jobs[f"{body} now (subprocess)"] = functools.partial(baseline_rate, REPO_ROOT, body, episodes, 0)
    try:
        for name in list(jobs):  # warm-up: imports, URDF caches, first clients
            if name != "anchor" and not name.endswith((" before", "(subprocess)")):
                jobs[name]()
        for _ in range(rounds):
            for name, job in jobs.items():
                samples.setdefault(name, []).append(job())
    finally:
        for loop in loops.values():
            loop.close()
    med = {name: median_of(values) for name, values in samples.items()}
    spread = {name: f"{min(v):,.0f}-{max(v):,.0f}" for name, v in samples.items()}
    note = f"median of {rounds} interleaved rounds (range {{}}); per CPU second"
    rows: list[BenchRow] = []
    if anchor is not None:
        rows.append(BenchRow(GROUP, "drone anchor: HoverAviary real-time factor", med["anchor"], "x", None,
                             f"{anchor_label(anchor[1])}; 240 Hz physics, 30 Hz RPM control at hover; "
                             + note.format(spread["anchor"])))
    else:
        rows.append(BenchRow.skip(GROUP, "drone anchor: HoverAviary real-time factor", "x",
                                  "WMBENCH_ANCHOR_PYTHON / WMBENCH_ANCHOR_PATH not set: stand-in is 'raw + reads'"))
    base = med.get("anchor", med["raw+reads"])
    base_name = "anchor" if anchor is not None else "raw + reads (stand-in)"
    labels = (("raw", "drone raw floor (4 forces + step)"), ("raw+reads", "drone raw + reads"),
              ("drone", f"drone {SCENARIO} closed loop"),
              ("drone 0.3.0", f"drone {SCENARIO} closed loop, 0.3.0 controller in today's loop"),
              ("drone body", "drone body alone"), ("drone body 0.3.0", "drone body alone, 0.3.0 controller"),
              ("drone body aero", "drone body alone, drag + ground effect + downwash on"))
    from wmbench.body.drone.flight_kernel import kernel_path

    kernel = f"flight kernel: {kernel_path()}; "  # which path flew: numba-compiled or pure Python
    for key, label in labels:
        which = kernel if key in ("drone", "drone body", "drone body aero") else ""
        rows.append(BenchRow(GROUP, f"{label}: real-time factor", med[key], "x", None,
                             f"{ratio(med[key], base):.2f}x {base_name}, {ratio(med[key], med['raw']):.3f} of raw, "
                             f"{ratio(med[key], med['raw+reads']):.2f} of raw+reads; {which}"
                             + note.format(spread[key])))
    rows.append(BenchRow(GROUP, "drone aero cost: body alone, aero on / off", ratio(med["drone body aero"],
                         med["drone body"]), "x", None, "all three effects on (a craft held 1 m above for downwash)"))
    rows.append(BenchRow(GROUP, "drone: closed loop now / 0.3.0", ratio(med["drone"], med["drone 0.3.0"]), "x",
                         None, "same run, same episodes (seeds differ per round, the same for both)"))
    robot_fps, robot_raw = med["robot"] * FRAME_RATE, med["robot replayed"] * FRAME_RATE
    standing = med["robot raw"] * FRAME_RATE
    rows.append(BenchRow(GROUP, "robot raw floor, the loop's own physics replayed: frames/s", robot_raw, "frames/s",
                         None, f"the S04 loop's PyBullet calls of seeds 0-{episodes - 1}, replayed; "
                         + note.format(f"{min(samples['robot replayed']) * FRAME_RATE:,.0f}-"
                                       f"{max(samples['robot replayed']) * FRAME_RATE:,.0f}")))
    rows.append(BenchRow(GROUP, "robot raw floor, standing at zero targets (rounds 2-5): frames/s", standing,
                         "frames/s", None, note.format(f"{min(samples['robot raw']) * FRAME_RATE:,.0f}-"
                                                       f"{max(samples['robot raw']) * FRAME_RATE:,.0f}")))
    rows.append(BenchRow(GROUP, f"robot {SCENARIO} closed loop: frames/s", robot_fps, "frames/s", None,
                         f"{ratio(robot_fps, robot_raw):.2f} of its replayed floor, {ratio(robot_fps, standing):.2f} "
                         "of the standing one; " + note.format(f"{min(samples['robot']) * FRAME_RATE:,.0f}-"
                                                               f"{max(samples['robot']) * FRAME_RATE:,.0f}")))
    rows.append(BenchRow(GROUP, f"smpl {SCENARIO} closed loop: frames/s", med["smpl"] * FRAME_RATE, "frames/s",
                         None, "kinematic, no physics floor; "
                         + note.format(f"{min(samples['smpl']) * FRAME_RATE:,.0f}-"
                                       f"{max(samples['smpl']) * FRAME_RATE:,.0f}")))
    if baseline is not None:
        for body in ("drone", "robot", "smpl"):
            before, now = med[f"{body} before"], med[f"{body} now (subprocess)"]
            for label, value, key in (("NOW, fresh subprocess", now, f"{body} now (subprocess)"),
                                      (f"BEFORE ({baseline.name}), fresh subprocess", before, f"{body} before")):
                beside = ""
                if body == "drone" and "anchor" in med:
                    beside = f"{ratio(value, med['anchor']):.2f}x anchor; "
                elif body == "robot":
                    beside = f"{ratio(value * FRAME_RATE, robot_raw):.2f} of its replayed floor; "
                rows.append(BenchRow(GROUP, f"{body} {SCENARIO} closed loop {label}: real-time factor", value,
                                     "x", None, f"now / before {ratio(now, before):.2f}x (both fresh subprocesses; "
                                     f"in-process now / before {ratio(med[body], before):.2f}x); {beside}"
                                     + note.format(spread[key])))
    return rows


# ------------------------------------------------------------------------------------------ the profile

#: Parts of the loop, by the file a function lives in (first match wins); self time is summed per part.
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("controller + mixer", ("body/drone/pid.py", "body/drone/airframe.py", "reference_drone_controller.py",
                            "body/drone/flight_kernel.py")),
    ("physics-step glue (Quadrotor.on_physics_step)",
     ("body/drone/quadrotor.py:on_physics_step", "body/drone/quadrotor.py:run_physics_steps",
      "body/drone/quadrotor.py:_apply_aero")),
    ("physics (stepSimulation)", ("stepSimulation",)),
    ("pybullet state reads / force calls", ("getBase", "getMatrixFromQuaternion", "applyExternal")),
    ("body per-frame (drone.py, sweeps, contacts)", ("body/drone/quadrotor.py", "body/multibody.py", "getContactPoints",
                                                     "envs/world.py", "rayTest")),
    ("perception", ("envs/perception.py", "envs/observation", "rayTestBatch")),
    ("npcs", ("envs/npc.py",)),
    ("trace + pose log", ("envs/trace.py", "protocol/trace.py", "envs/pose_log.py", "envs/decisions.py",
                          "envs/realized.py")),
    ("brain + reply grammar + intent reader", ("brain/", "protocol/", "body/intent/")),
    ("env step bookkeeping", ("envs/wmbench_env.py", "harness/", "envs/memory.py", "envs/rewards.py")),
)


#: The robot's parts, as :data:`PARTS` for the drone (the loop around the body is shared).
ROBOT_PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("physics (stepSimulation)", ("stepSimulation",)),
    ("pybullet root placement / joint calls", ("resetBasePosition", "getJointStates", "setJointMotorControl",
                                                "getBasePosition")),
    ("servo map + command (servo kernel)", ("body/robot/servo_map.py", "body/robot/servo_kernel.py",
                                            "servo_frame")),
    ("motion generator (procedural pose)", ("body/motion/",)),
    ("robot glue (servo_robot.py, root, contacts)", ("body/robot/", "body/planar_root.py", "body/multibody.py",
                                                      "getContactPoints", "envs/world.py")),
    ("numpy (called by the above)", ("numpy",)),
    *PARTS[5:],
)


def profile(seconds_of_episodes: int = 10, body: str = "drone") -> str:
    """Where a body's S04 loop time goes (cProfile self time, grouped by :data:`PARTS` for the drone and
    :data:`ROBOT_PARTS` for the robot)."""
    parts = ROBOT_PARTS if body == "robot" else PARTS
    loop = _Loop(body)
    try:
        loop.run(1)
        prof = cProfile.Profile()
        prof.enable()
        loop.run(seconds_of_episodes)
        prof.disable()
    finally:
        loop.close()
    stats = pstats.Stats(prof)
    totals: dict[str, float] = {}
    raw: Any = stats.stats  # type: ignore[attr-defined]
    for (filename, _line, func), (_cc, _nc, tottime, _ct, _callers) in raw.items():
        where = f"{filename}:{func}"
        part = next((name for name, keys in parts if any(k in where for k in keys)), "other")
        totals[part] = totals.get(part, 0.0) + tottime
    total = sum(totals.values())
    lines = [f"{body} {SCENARIO} loop, {seconds_of_episodes} episodes, cProfile self time ({total:.2f} s):"]
    if body == "drone":
        from wmbench.body.drone.flight_kernel import kernel_path

        lines[0] += f" [flight kernel: {kernel_path()}]"
    for part, t in sorted(totals.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {part:48s} {100 * t / total:5.1f} %")
    return "\n".join(lines)


def main() -> int:
    from wmbench.harness.cli.bench import format_rows

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--profile", action="store_true", help="print where the drone loop's time goes")
    parser.add_argument("--profile-body", default="drone", choices=("drone", "robot"),
                        help="the body --profile looks at")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="a checkout of an older wmbench (e.g. `git archive <commit>` unpacked): its S04 "
                             "loops run in the same rounds, in subprocesses")
    args = parser.parse_args()
    if args.profile:
        print(profile(body=args.profile_body))
        return 0
    rows = measure(args.quick, args.rounds, args.baseline)
    print(format_rows(rows))
    return 1 if any(r.status == "error" for r in rows) else 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO_ROOT))
    raise SystemExit(main())
