"""C10 measurements: what the transfer runs of one scenario and seed show, as plain numbers.

Card
----
- :class:`BodyRun` is one body's run of a scenario (the character's closed-loop run with the brain, or a
  replay of its replies on another body); :class:`TransferRuns` holds all runs of one scenario and seed plus
  the character's recorded 22-joint frames. Everything below is a pure function of them.
- :func:`body_facts`: did a run finish (no error, every reply played, or ended by a catch), how many
  decisions collided with a wall (``collision:wall``), was the body caught; as counts and rates.
- :func:`retarget_errors`: the character's frames -> HumanML3D 263-dim features -> 22 joints recovered from
  them (round-trip error) -> each target rig (:func:`wmbench.body.retargeting.bone_scaling.retarget`);
  bone-length-normalised pose errors (:func:`wmbench.body.retargeting.bone_scaling.pose_error`, 0.05 = joints
  off by 5 % of their chain length).
- :func:`generator_readings`: each decision's intent rendered by two motion generators and read back by
  :func:`wmbench.body.motion.registry.describe_clip` (travel sector, speed, limb effort, final facing).
- :func:`~wmbench.scoring.c10.agreement.order_agreement` (the raw-speed agreement there is built on
  it): for every pair of decisions and every pair of sources, do both order the
  two decisions' values the same way (higher / lower / tied)? The fraction of agreeing comparisons.
  :func:`class_order_agreement`: over the decision pairs of different speed classes, do all sources order
  them like the classes?
- :func:`speed_classes`: each decision's realized mean speed classified against the body's own envelope.
- :func:`servo_readings`: the robot's servo tracking error and limit counts from its body-state extras.

Simplified: the character's frames are root-local (the body, not the generator, moves the root), so the
263-dim round trip carries no root travel; the rigs see the full limb motion.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import median
from typing import Any, TypeGuard

import numpy as np

from wmbench.body.envelope import classify_speed
from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.humanml3d import features as humanml3d
from wmbench.body.motion.registry import describe_clip, get_generator
from wmbench.body.retargeting import bone_scaling as retarget
from wmbench.core.directions import wrap_angle
from wmbench.core.speed import SPEED_CLASS_SPEEDS, SpeedClass
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scoring.c10.agreement import order_sign

#: Servo extras the robot reports in its body state (see :mod:`wmbench.body.robot.servo_robot`).
SERVO_ERROR_KEY = "servo_tracking_error_rad"
SERVO_RMS_KEY = "servo_tracking_rms_rad"
SERVO_VIOLATIONS_KEY = "servo_limit_violations"
SERVO_CLAMPED_KEY = "servo_commands_clamped"


@dataclass(frozen=True)
class BodyRun:
    """One body's run: its trace (None if it never started) and the error that stopped it, if any."""

    body: str
    trace: Trace | None
    error: str | None = None

    @property
    def decisions(self) -> list[DecisionRecord]:
        return list(self.trace.decisions) if self.trace is not None else []


@dataclass(frozen=True)
class TransferRuns:
    """All runs of one scenario and seed. ``source`` is the character's closed-loop run with the brain;
    ``replays`` the same replies on the other bodies (by body name); ``generator_replay`` the character driven
    by the second motion generator; ``frames`` the character's (T, 22, 3) root-local joint frames."""

    scenario_id: str
    seed: int
    replies: tuple[str, ...]
    source: BodyRun
    replays: Mapping[str, BodyRun]
    generator_replay: BodyRun | None = None
    frames: np.ndarray | None = None
    frame_rate: float = 30.0

    @property
    def bodies(self) -> dict[str, BodyRun]:
        """Every body that acted the decisions out, character first."""
        return {self.source.body: self.source, **self.replays}


# ------------------------------------------------------------------------------------------------ bodies


def is_moving(intent: Mapping[str, Any] | None) -> TypeGuard[Mapping[str, Any]]:
    """A decision's intent (``MotionIntent.to_dict``) asks the body to travel."""
    if not intent:
        return False
    return intent.get("direction") is not None and intent.get("speed_class") != "still"


def moving_decisions(run: BodyRun) -> int:
    return sum(is_moving(d.intent) for d in run.decisions)


def _caught(run: BodyRun) -> bool:
    return run.trace is not None and "caught" in run.trace.event_kinds()


def body_facts(run: BodyRun, expected_decisions: int) -> dict[str, Any]:
    """Finished or not, and the wall collisions and catch of one run (JSON-plain)."""
    decisions = run.decisions
    caught = _caught(run)
    collided = sum(any(e.kind == "collision:wall" for e in d.events) for d in decisions)
    played_all = len(decisions) >= expected_decisions or caught
    finished = run.error is None and run.trace is not None and played_all
    why = run.error or ("" if finished else f"played {len(decisions)} of {expected_decisions} decisions")
    return {
        "ran": finished, "error": why or None, "decisions": len(decisions),
        "collision_decisions": collided,
        "collision_rate": round(collided / len(decisions), 4) if decisions else 0.0,
        "caught": caught, "caught_rate": 1.0 if caught else 0.0,
    }


# ------------------------------------------------------------------------------------------------ S47


def retarget_errors(frames: np.ndarray, rigs: Sequence[str], fps: float = 30.0) -> dict[str, Any]:
    """Round trip of ``frames`` through the 263-dim features, then the recovered joints onto each rig."""
    frames = np.asarray(frames, dtype=float)
    features = humanml3d.joints_to_features(frames, fps=fps)
    recovered = humanml3d.features_to_joints(features)
    aligned = humanml3d.initial_alignment(frames, fps=fps)[:-1]
    out: dict[str, Any] = {
        "frames": len(frames), "feature_dims": int(features.shape[1]),
        "roundtrip_error": round(retarget.pose_error(aligned, recovered, "humanml22"), 6), "rigs": {},
    }
    for rig in rigs:
        moved = retarget.retarget(recovered, rig)
        out["rigs"][rig] = {
            "joints": int(moved.shape[1]),
            "pose_error": round(retarget.pose_error(recovered, moved, rig), 6),
            "bone_direction_error_deg": round(
                math.degrees(retarget.direction_error(recovered, moved, rig)), 4),
        }
    return out


# ------------------------------------------------------------------------------------------------ S49


@dataclass(frozen=True)
class ClipReading:
    """One generator's rendering of one decision's intent, read back from its joints."""

    direction: str | None
    speed_class: str
    limb_speed: float
    facing: float

    def to_dict(self) -> dict[str, Any]:
        return {"direction": self.direction, "speed_class": self.speed_class,
                "limb_speed": round(self.limb_speed, 4), "facing_deg": round(math.degrees(self.facing), 2)}


def generator_readings(intents: Sequence[Mapping[str, Any] | None], generators: Sequence[str],
                       seconds: float, fps: float = 30.0, seed: int = 0) -> dict[str, list[ClipReading]]:
    """Per generator, per decision: the intent (standing still where it is missing) rendered as a clip."""
    n_frames = max(2, round(seconds * fps))
    out: dict[str, list[ClipReading]] = {}
    for name in generators:
        generator = get_generator(name, fps)
        generator.reset(seed)
        readings = []
        for raw in intents:
            intent = MotionIntent.from_dict(dict(raw)) if raw else MotionIntent.still()
            clip = describe_clip(generator.clip(intent, n_frames), fps)
            readings.append(ClipReading(clip.direction, classify_speed(clip.speed, SPEED_CLASS_SPEEDS),
                                        clip.limb_speed, clip.facing))
        out[name] = readings
    return out


def facing_gap(a: float, b: float) -> float:
    """Absolute angle (rad) between two facings."""
    return abs(wrap_angle(a - b))


# ------------------------------------------------------------------------------------------------ orderings


def intent_rank(intent: Mapping[str, Any] | None) -> int:
    """Speed-class rank (still 0 ... sprint 4) of a decision's intent; a missing or non-moving one is 0."""
    return SpeedClass(intent["speed_class"]).rank if is_moving(intent) else 0


def class_order_agreement(ranks: Sequence[int], values: Mapping[str, Sequence[float]]) -> tuple[float, int]:
    """Over the decision pairs whose ``ranks`` differ: the fraction that every source's ``values`` order the
    same way as the ranks (strictly), and the number of such pairs (1.0 when there is none)."""
    pairs = [(i, j) for i, j in itertools.combinations(range(len(ranks)), 2) if ranks[i] != ranks[j]]
    if not pairs:
        return 1.0, 0
    ok = sum(all(order_sign(v[i], v[j], 0.0) == order_sign(ranks[i], ranks[j], 0.0) for v in values.values())
             for i, j in pairs)
    return ok / len(pairs), len(pairs)


# ------------------------------------------------------------------------------------------------ S50


def speed_classes(run: BodyRun, envelope: Mapping[str, float], n: int) -> list[str]:
    """The first ``n`` decisions' realized mean speeds, classified against ``envelope``."""
    return [classify_speed(float(d.realized.get("mean_speed", 0.0)), envelope) for d in run.decisions[:n]]


def class_rank(name: str, envelope: Mapping[str, float]) -> int:
    """Position of a speed class in ``envelope`` from slowest (0)."""
    return [k for k, _ in sorted(envelope.items(), key=lambda kv: kv[1])].index(name)


# ------------------------------------------------------------------------------------------------ S48


def servo_readings(run: BodyRun) -> dict[str, Any] | None:
    """The robot's per-decision servo tracking errors and its limit counts at the end; None if the body
    reports no servo extras."""
    extras = [d.body_after.get("extras") or {} for d in run.decisions]
    errors = [float(e[SERVO_ERROR_KEY]) for e in extras if SERVO_ERROR_KEY in e]
    if not errors:
        return None
    last = extras[-1]
    return {
        "per_decision_error_deg": [round(math.degrees(e), 4) for e in errors],
        "median_error_deg": round(math.degrees(median(errors)), 4),
        "rms_error_deg": round(math.degrees(float(last.get(SERVO_RMS_KEY, 0.0))), 4),
        "limit_violations": int(last.get(SERVO_VIOLATIONS_KEY, 0)),
        "commands_clamped": int(last.get(SERVO_CLAMPED_KEY, 0)),
    }
