"""``check_body(body)``: run a body through the :class:`~wmbench.body.base.Body` contract, as Gymnasium's
``check_env`` does for environments. For plugin authors: call it in your tests before registering a body.

Card
----
- :func:`require_body` (cheap, no simulation; the env calls it on construction): every member the framework
  reads is present (:data:`~wmbench.body.base.BODY_ATTRIBUTES`, :data:`~wmbench.body.base.BODY_METHODS`).
- :func:`check_body` (about a second per body): the members, their types (``name`` a non-empty string,
  ``needs_physics`` a bool, ``sensor_height`` in (0, 3] m, ``envelope`` a speed per class ``still`` 0 <
  ``walk`` < ``jog`` < ``run`` < ``sprint``), then in a tiny PyBullet world of its own (a ground, no walls,
  the env's default 30 FPS / 240 Hz):
  spawn at the origin (state is a :class:`~wmbench.body.base.BodyState` there, ``body_ids`` a frozenset of
  ints, ``sync_visuals`` runs); standing still stays put; each moving speed class straight ahead and a walk
  to the left, right and back move the root into the asked 90-degree sector, at a mean speed no higher than
  the class's envelope speed (plus :data:`SPEED_SLACK`); the same intents after ``reset_pose`` give the same
  states (reset determinism); ``remove`` leaves no PyBullet body behind.
- All violations are collected and raised together as one :class:`BodyContractError` with one line each.

Simplified: the probe world has no walls, so wall handling (``sweep``, contacts) is not checked here; the env
tests check it for registered bodies.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pybullet as p

from wmbench.body.base import BODY_ATTRIBUTES, BODY_METHODS, Body, BodyState, SweepResult, Vec3
from wmbench.body.intent.record import MotionIntent
from wmbench.core.directions import DIRECTION_HEADINGS, sector_word, wrap_angle
from wmbench.core.errors import WMBenchError
from wmbench.core.speed import SpeedClass
from wmbench.core.thresholds import SCORED_DISPLACEMENT_M

#: Rates of the probe world (the env's defaults).
FRAME_RATE = 30
PHYSICS_HZ = 240
#: Seconds each probe intent is acted out.
PROBE_SECONDS = 1.5
#: Standing still may drift this far (m) in :data:`PROBE_SECONDS` (a dynamic body settles).
STILL_DRIFT = 0.15
#: A mean speed may exceed the envelope's class speed by this factor plus 0.1 m/s (overshoot of a controller).
SPEED_SLACK = 1.25
#: Two runs of the same intents after ``reset_pose`` must agree to this (m, rad).
DETERMINISM_TOLERANCE = 1e-6
#: Spawn must place the root within this xy distance (m) of the asked position.
SPAWN_TOLERANCE = 0.25
#: Directions probed at walking speed (their relative headings: :data:`wmbench.core.directions.DIRECTION_HEADINGS`).
PROBED_DIRECTIONS: tuple[str, ...] = ("left", "right", "back")


class BodyContractError(WMBenchError, TypeError):
    """A body breaks the :class:`~wmbench.body.base.Body` contract; one line per violation."""

    def __init__(self, body_name: str, violations: list[str]) -> None:
        self.body_name = body_name
        self.violations = tuple(violations)
        lines = "\n".join(f"  - {v}" for v in violations)
        super().__init__(f"body {body_name!r} breaks the Body contract ({len(violations)} problem"
                         f"{'s' if len(violations) != 1 else ''}):\n{lines}")


def missing_members(body: object) -> list[str]:
    """The contract members ``body`` lacks (an attribute absent, or a method that is not callable)."""
    missing = [f"missing attribute {name!r}" for name in BODY_ATTRIBUTES if not hasattr(body, name)]
    missing += [f"missing method {name}()" for name in BODY_METHODS if not callable(getattr(body, name, None))]
    return missing


def require_body(body: object) -> Body:
    """``body`` if it has every contract member, else :class:`BodyContractError` naming the missing ones
    (derive from :class:`~wmbench.body.base.BodyBase` for the defaults)."""
    missing = missing_members(body)
    if missing:
        hint = "derive from wmbench.body.BodyBase for defaults of the optional members"
        raise BodyContractError(_name_of(body), [*missing, hint])
    assert isinstance(body, Body)
    return body


def check_body(body: Body) -> None:
    """Run ``body`` through the Body contract in a probe world (see the module card); raise
    :class:`BodyContractError` listing every violation, or return None when it passes."""
    violations = missing_members(body)
    if violations:
        raise BodyContractError(_name_of(body), violations)
    violations += _declared_types(body)
    if violations:  # the simulation checks read these declarations
        raise BodyContractError(_name_of(body), violations)
    world = ProbeWorld(1.0 / FRAME_RATE, 1.0 / PHYSICS_HZ)
    try:
        violations += _in_world(body, world)
    finally:
        world.close()
    if violations:
        raise BodyContractError(_name_of(body), violations)


# ------------------------------------------------------------------------------------------ declarations


def _declared_types(body: Body) -> list[str]:
    problems = []
    if not isinstance(body.name, str) or not body.name.strip():
        problems.append(f"name must be a non-empty string, got {body.name!r}")
    if not isinstance(body.needs_physics, bool):
        problems.append(f"needs_physics must be a bool, got {type(body.needs_physics).__name__}")
    height = body.sensor_height
    if not _real(height) or not 0.0 < float(height) <= 3.0:
        problems.append(f"sensor_height must be a number of metres in (0, 3], got {height!r}")
    problems += _envelope_problems(body.envelope)
    return problems


def _envelope_problems(envelope: object) -> list[str]:
    classes = [c.value for c in SpeedClass]
    if not isinstance(envelope, Mapping):
        return [f"envelope must be a mapping of speed class -> m/s, got {type(envelope).__name__}"]
    missing = [c for c in classes if c not in envelope]
    if missing:
        return [f"envelope lacks speed classes {missing}; expected all of {classes}"]
    speeds = [envelope[c] for c in classes]
    if not all(_real(v) and v >= 0 for v in speeds):
        return [f"envelope speeds must be finite numbers >= 0, got {dict(zip(classes, speeds))}"]
    problems = []
    if speeds[0] != 0:
        problems.append(f"envelope['still'] must be 0, got {speeds[0]}")
    if any(a >= b for a, b in itertools.pairwise(speeds)):
        problems.append(f"envelope speeds must rise strictly from still to sprint, got "
                        f"{dict(zip(classes, speeds))}")
    return problems


def _real(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _name_of(body: object) -> str:
    name = getattr(body, "name", None)
    return name if isinstance(name, str) and name else type(body).__name__


# ------------------------------------------------------------------------------------------ in the world


@dataclass(frozen=True)
class Probe:
    """One intent acted out from the origin: where the root went and how fast on average."""

    intent: MotionIntent
    start: BodyState
    end: BodyState

    @property
    def travel(self) -> float:
        return math.hypot(self.end.position[0] - self.start.position[0],
                          self.end.position[1] - self.start.position[1])

    @property
    def sector(self) -> str:
        dx = self.end.position[0] - self.start.position[0]
        dy = self.end.position[1] - self.start.position[1]
        return sector_word(wrap_angle(math.atan2(dy, dx) - self.start.heading))


def probe_intents() -> tuple[MotionIntent, ...]:
    """Every moving speed class straight ahead, then a walk to the left, right and back."""
    ahead = tuple(MotionIntent("fwd", 0.0, c, source=f"{c.value} fwd") for c in SpeedClass
                  if c is not SpeedClass.STILL)
    sides = tuple(MotionIntent(word, DIRECTION_HEADINGS[word], SpeedClass.WALK, source=f"walk {word}")
                  for word in PROBED_DIRECTIONS)
    return ahead + sides


def _in_world(body: Body, world: ProbeWorld) -> list[str]:
    origin: Vec3 = (0.0, 0.0, 0.0)
    bodies_before = p.getNumBodies(physicsClientId=world.client)
    step = _guarded(body.spawn, "spawn")
    problems = step(world, origin, 0.0)
    if problems:
        return problems
    problems += _after_spawn(body, origin)
    if problems:
        return problems
    problems += _guarded(body.sync_visuals, "sync_visuals")()
    frames = round(PROBE_SECONDS * FRAME_RATE)
    substeps = PHYSICS_HZ // FRAME_RATE
    try:
        still = _act(body, world, MotionIntent.still("stand still"), frames, substeps)
        if still.travel > STILL_DRIFT:
            problems.append(f"a still intent moved the root {still.travel:.3f} m in {PROBE_SECONDS} s "
                            f"(at most {STILL_DRIFT} m)")
        for intent in probe_intents():
            problems += _moving_problems(body, _act(body, world, intent, frames, substeps))
        problems += _determinism_problems(body, world, frames, substeps)
    except Exception as exc:  # a body method failing mid-run is a violation to report, not a crash
        problems.append(f"acting out an intent raised {type(exc).__name__}: {exc}")
    problems += _guarded(body.sync_visuals, "sync_visuals after moving")()
    problems += _guarded(body.remove, "remove")()
    left = p.getNumBodies(physicsClientId=world.client) - bodies_before
    if left:
        problems.append(f"remove() left {left} PyBullet bodies in the world")
    return problems


def _after_spawn(body: Body, origin: Vec3) -> list[str]:
    state = body.state()
    if not isinstance(state, BodyState):
        return [f"state() must return a BodyState, got {type(state).__name__}"]
    problems = []
    off = math.hypot(state.position[0] - origin[0], state.position[1] - origin[1])
    if not all(_real(v) for v in (*state.position, state.heading, state.speed)) or off > SPAWN_TOLERANCE:
        problems.append(f"spawn at the origin put the root at {state.position} (within {SPAWN_TOLERANCE} m "
                        "expected)")
    ids = body.body_ids()
    if not isinstance(ids, frozenset) or not all(isinstance(i, int) for i in ids):
        problems.append(f"body_ids() must return a frozenset of ints, got {ids!r}")
    return problems


def _act(body: Body, world: ProbeWorld, intent: MotionIntent, frames: int, substeps: int) -> Probe:
    body.reset_pose((0.0, 0.0, 0.0), 0.0)
    start = body.state()
    body.apply_intent(intent)
    for _ in range(frames):
        body.on_frame()
        if body.needs_physics:
            for _ in range(substeps):
                body.on_physics_step()
                world.step_physics()
    return Probe(intent, start, body.state())


def _moving_problems(body: Body, probe: Probe) -> list[str]:
    intent = probe.intent
    what = f"intent {intent.source!r}"
    if probe.travel < SCORED_DISPLACEMENT_M:
        return [f"{what} moved the root only {probe.travel:.3f} m in {PROBE_SECONDS} s (>= {SCORED_DISPLACEMENT_M} m "
                "expected)"]
    problems = []
    if probe.sector != intent.direction:
        problems.append(f"{what} moved the root {probe.sector}, expected {intent.direction}")
    limit = SPEED_SLACK * float(body.envelope[intent.speed_class.value]) + 0.1
    speed = probe.travel / PROBE_SECONDS
    if speed > limit:
        problems.append(f"{what} moved at {speed:.2f} m/s, above its envelope "
                        f"({body.envelope[intent.speed_class.value]} m/s, at most {limit:.2f} with slack)")
    return problems


def _determinism_problems(body: Body, world: ProbeWorld, frames: int, substeps: int) -> list[str]:
    sequence = (MotionIntent("fwd", 0.0, SpeedClass.RUN, source="run fwd"),
                MotionIntent("left", math.pi / 2, SpeedClass.WALK, source="walk left"))
    runs = []
    for _ in range(2):
        _act(body, world, MotionIntent.still(), 1, substeps)  # back at the origin, then the same intents
        states = []
        for intent in sequence:
            body.apply_intent(intent)
            for _ in range(frames // 2):
                body.on_frame()
                if body.needs_physics:
                    for _ in range(substeps):
                        body.on_physics_step()
                        world.step_physics()
            states.append(body.state())
        runs.append(states)
    gaps = [max(abs(a - b) for a, b in zip((*x.position, x.heading), (*y.position, y.heading)))
            for x, y in zip(*runs)]
    if max(gaps) > DETERMINISM_TOLERANCE:
        return [f"the same intents after reset_pose gave different states (largest gap {max(gaps):.2e}; at "
                f"most {DETERMINISM_TOLERANCE:g})"]
    return []


def _guarded(method: Callable[..., object], what: str) -> Callable[..., list[str]]:
    """``method`` as a call that returns its failure as a one-line violation instead of raising."""
    def call(*args: object) -> list[str]:
        try:
            method(*args)
        except Exception as exc:  # the body's code failing is what is being checked
            return [f"{what} raised {type(exc).__name__}: {exc}"]
        return []

    return call


class ProbeWorld:
    """The probe's world: its own DIRECT PyBullet client with a ground and no walls (implements
    :class:`~wmbench.body.base.WorldHandle`; the env's ``World`` is not imported, ``body`` stays below
    ``envs``)."""

    def __init__(self, frame_dt: float, physics_dt: float) -> None:
        self.frame_dt = frame_dt
        self.physics_dt = physics_dt
        self.client: int = p.connect(p.DIRECT)
        self.wall_body_ids: frozenset[int] = frozenset()
        p.setGravity(0, 0, -9.81, physicsClientId=self.client)
        p.setTimeStep(physics_dt, physicsClientId=self.client)
        half = [50.0, 50.0, 0.05]
        shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=half, physicsClientId=self.client)
        self.ground_id: int = p.createMultiBody(0, shape, -1, [0, 0, -0.05], physicsClientId=self.client)

    def sweep(self, start: Vec3, end: Vec3, radius: float) -> SweepResult:
        """No walls: every move is clear."""
        return SweepResult(end=(end[0], end[1], end[2]), blocked=False)

    def wall_name(self, body_id: int) -> str | None:
        return None

    def step_physics(self) -> None:
        p.stepSimulation(physicsClientId=self.client)

    def close(self) -> None:
        p.disconnect(physicsClientId=self.client)
