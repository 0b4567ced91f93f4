"""Re-simulating a recorded bench episode to read what its trace does not keep: joints, servos, rotors, every frame.

::

    replay = resimulate(line, env_kwargs={}, motion_model="procedural")   # an episodes.jsonl line
    replay.articulation.kind, replay.articulation.values.shape            # "joints", (F, 22, 3)

Card
----
- **Why re-simulate.** A trace keeps the root and NPC poses at 15 Hz (the pose log), not the body's joints.
  Bench mode is deterministic (sim time stops while the brain thinks; every random choice goes through the
  env's seeded generator), so a fresh env of the same scenario, body, seed, env options and motion model,
  fed the recorded replies in order, passes through exactly the same states — the approach
  :mod:`wmbench.harness.counterfactual.fork` already relies on. Normal runs therefore pay nothing: nothing
  is recorded during the run; the dataset export pays one re-simulation per episode (the sim's CPU time,
  no brain).
- **Checked every time.** The re-simulated trace must equal the recorded one (sorted-key JSON without the
  brain's wall-clock ``latency_s``, the comparison :mod:`wmbench.harness.counterfactual.fork` makes too;
  written here again because the dataset layer may not import the counterfactual one);
  otherwise :class:`ResimulationError` names the first differing decision (a run made by another wmbench
  version, a live episode, or a plugin that is not deterministic) and nothing is written for it.
- **What is read, per motion frame** (after the frame's physics, read-only: public readings of the body
  and PyBullet queries, never a call that changes state): the frame time; the root (x, y, z, heading, speed)
  from the state the env itself just read; the NPCs present (x, y, yaw); and the articulation of the body:
  ``joints`` (character: the 22 joint positions in world coordinates, m, ``world_joints()``), ``servos``
  (robot: measured servo angles and the last command, rad, in servo-map order), ``rotors`` (drone: the
  four rotor speeds, rpm, and the base attitude quaternion x, y, z, w). A body with none of these readings
  (a plugin) gets ``kind="none"``.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pybullet as p

from wmbench.body.base import JointReadings, RotorReadings, ServoReadings
from wmbench.body.motion.registry import MOTION_MODEL_ENV
from wmbench.core.errors import ConfigError
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.run.episode import MAX_DECISIONS
from wmbench.harness.run.results import EpisodeLine
from wmbench.protocol.trace import BrainRecord, TraceDict

#: Brain metadata fields that are wall-clock (never reproducible); left out when traces are compared.
WALL_CLOCK_BRAIN_FIELDS: tuple[str, ...] = ("latency_s",)


def comparable(trace: Any) -> str:
    """A trace (or part of one) as sorted-key JSON without wall-clock fields: two replays compare equal."""
    plain: dict[str, Any] = json.loads(json.dumps(trace))
    for decision in plain.get("decisions", ()):
        for key in WALL_CLOCK_BRAIN_FIELDS:
            (decision.get("brain") or {}).pop(key, None)
    return json.dumps(plain, sort_keys=True)


class ResimulationError(ConfigError):
    """Re-simulating an episode did not reproduce its recorded trace."""


@dataclass(frozen=True)
class Articulation:
    """The body's articulation per motion frame: ``kind`` (joints, servos, rotors or none), the names of
    the channels, the main array (F×22×3 joint positions, F×S servo angles, F×4 rotor rpm) and an extra
    array (servo commands F×S, attitude quaternions F×4; empty for joints)."""

    kind: str
    names: tuple[str, ...]
    values: np.ndarray
    extra: np.ndarray
    extra_name: str


@dataclass(frozen=True)
class Replay:
    """What a re-simulation read: frame times, root states (F×5), NPC poses (F×K×3, NaN while absent) with
    their names and kinds, the articulation, the frame rate, and the re-simulated trace."""

    t: np.ndarray
    root: np.ndarray
    npcs: np.ndarray
    npc_names: tuple[str, ...]
    npc_kinds: tuple[str, ...]
    articulation: Articulation
    frame_rate: float
    trace: TraceDict


class _Reader:
    """Reads one motion frame's state (see the module card); never changes the body or the world."""

    def __init__(self) -> None:
        self.t: list[float] = []
        self.root: list[tuple[float, ...]] = []
        self.npcs: list[dict[str, tuple[float, float, float]]] = []
        self.kinds: dict[str, str] = {}
        self.main: list[Any] = []
        self.extra: list[Any] = []
        self.kind = "none"
        self.names: tuple[str, ...] = ()

    def read(self, env: WMBenchEnv, t: float, state: Any) -> None:
        body = env.body
        self.t.append(float(t))
        self.root.append((*state.position[:3], state.heading, state.speed))
        crowd = env._crowd  # the env's own NPCs (read only)
        present = crowd.present() if crowd is not None else []
        self.npcs.append({n.name: (float(n.x), float(n.y), float(n.yaw)) for n in present})
        self.kinds.update({n.name: str(n.kind) for n in present})
        if isinstance(body, JointReadings):
            self.kind = "joints"
            self.main.append(np.asarray(body.world_joints(), dtype=np.float64))
        elif isinstance(body, ServoReadings):
            self.kind, self.names = "servos", tuple(body.servo_map.names)
            self.main.append(np.asarray(body.servo_angles(), dtype=np.float64))
            self.extra.append(np.asarray(body.servo_command, dtype=np.float64))
        elif isinstance(body, RotorReadings):
            self.kind, self.names = "rotors", ("rotor0", "rotor1", "rotor2", "rotor3")
            self.main.append(np.asarray(body.rotor_rpm, dtype=np.float64))
            ids = sorted(body.body_ids())
            quat = p.getBasePositionAndOrientation(ids[0], physicsClientId=env._world.client)[1] if ids and \
                env._world is not None else (np.nan,) * 4
            self.extra.append(np.asarray(quat, dtype=np.float64))

    def articulation(self) -> Articulation:
        frames = len(self.t)
        if self.kind == "joints":
            values = np.stack(self.main) if self.main else np.zeros((0, 22, 3))
            return Articulation("joints", tuple(f"joint{j}" for j in range(values.shape[1])), values,
                                np.zeros((frames, 0)), "")
        if self.kind in ("servos", "rotors"):
            extra_name = "servo_command" if self.kind == "servos" else "attitude_xyzw"
            return Articulation(self.kind, self.names, np.stack(self.main), np.stack(self.extra), extra_name)
        return Articulation("none", (), np.zeros((frames, 0)), np.zeros((frames, 0)), "")


class _RecordingEnv(WMBenchEnv):
    """A :class:`WMBenchEnv` that hands each motion frame to a reader after the frame ran (read-only hook)."""

    reader: _Reader | None = None

    def run_frame(self, xy: tuple[float, float], full_state: bool = True) -> Any:
        step = super().run_frame(xy, full_state=True)  # the reader takes every frame's full body state
        if self.reader is not None:
            self.reader.read(self, step.t, step.state)
        return step


@contextlib.contextmanager
def _motion_model(name: str) -> Iterator[None]:
    """The run's motion model for the bodies built in the block (the variable bodies read; restored after)."""
    previous = os.environ.get(MOTION_MODEL_ENV)
    os.environ[MOTION_MODEL_ENV] = name
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(MOTION_MODEL_ENV, None)
        else:
            os.environ[MOTION_MODEL_ENV] = previous


def resimulate(line: EpisodeLine, env_kwargs: Mapping[str, Any] | None = None,
               motion_model: str = "procedural") -> Replay:
    """Re-simulate the episode of ``line`` (an ``episodes.jsonl`` line) and read every motion frame (see the
    module card); :class:`ResimulationError` if the re-simulated trace differs from the recorded one."""
    trace = line["trace"]
    if trace is None:
        raise ResimulationError(f"{line['scenario']} seed {line['seed']}: the line has no trace to re-simulate")
    decisions = trace["decisions"]
    reader = _Reader()
    with _motion_model(motion_model):
        env = _RecordingEnv(line["scenario"], body=line["body"], **dict(env_kwargs or {}))
    try:
        env.reader = reader
        env.reset(seed=line["seed"])
        done, index = False, 0
        while not done:
            if index >= min(len(decisions), MAX_DECISIONS):
                raise ResimulationError(f"{line['scenario']} seed {line['seed']}: the re-simulated episode did "
                                        f"not end after the {len(decisions)} recorded decisions")
            _obs, _reward, terminated, truncated, _info = env.step(str(decisions[index]["reply"]))
            meta = decisions[index].get("brain") or {}
            if meta:
                env.record_brain_meta(cast(BrainRecord, dict(meta)))
            index += 1
            done = bool(terminated or truncated)
        replayed = env.trace.to_dict()
        frame_rate = 1.0 / env.frame_dt
    finally:
        env.reader = None
        env.close()
    _check_same(line, trace, replayed)
    names = tuple(sorted(reader.kinds))
    npcs = np.full((len(reader.t), len(names), 3), np.nan)
    for i, present in enumerate(reader.npcs):
        for k, name in enumerate(names):
            if name in present:
                npcs[i, k] = present[name]
    return Replay(np.asarray(reader.t, dtype=np.float64), np.asarray(reader.root, dtype=np.float64).reshape(-1, 5),
                  npcs, names, tuple(reader.kinds[n] for n in names), reader.articulation(), frame_rate, replayed)


def _check_same(line: EpisodeLine, original: TraceDict, replayed: TraceDict) -> None:
    if comparable(replayed) == comparable(original):
        return
    where = "its meta (pose log, instance)"
    for index, (a, b) in enumerate(zip(original["decisions"], replayed["decisions"], strict=False)):
        if comparable({"decisions": [a]}) != comparable({"decisions": [b]}):
            where = f"decision {index}"
            break
    else:
        if len(original["decisions"]) != len(replayed["decisions"]):
            where = f"the decision count ({len(original['decisions'])} recorded, {len(replayed['decisions'])} now)"
    raise ResimulationError(f"{line['scenario']} seed {line['seed']} ({line['body']}): re-simulating the recorded "
                            f"replies did not reproduce the trace (first difference: {where}); expected a bench "
                            f"episode recorded by this wmbench version with the run's env options and motion model")
