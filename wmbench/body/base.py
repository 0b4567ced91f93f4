"""The Body contract and the world handle a body is given.

A body lives in a PyBullet world owned by the env. Per decision the env calls :meth:`Body.apply_intent` once;
then for each motion frame (30 FPS by default) :meth:`Body.on_frame`, and for each physics step inside that
frame (240 Hz by default) :meth:`Body.on_physics_step` followed by the world's ``stepSimulation`` (only when the
world is dynamic, see ``needs_physics``). Kinematic bodies move in ``on_frame``; dynamic ones apply forces or
motor targets in ``on_physics_step``. Bodies never pass through walls: a kinematic body asks the world handle
for a swept clearance check; dynamic bodies collide physically. Either way a wall contact in a frame is
reported in :class:`FrameReport` and the env records ``collision:wall``. Three optional capabilities speed up
the loop without changing it: :class:`Respawnable` (a reused world), :class:`FusedPhysics` (a frame's
physics steps in one call) and :class:`FramePose` (what the env reads every frame, without the full state).

What the framework reads of a body is declared here and nowhere else: :class:`Body` is the structural
contract (every member the env, live mode, the C10 transfer runs and the renderer use), :class:`BodyBase` the
convenience base with defaults for the optional parts (the character's speed ``envelope``, a static
``sensor_height``, no physics, no-op ``on_physics_step`` and ``sync_visuals``), as dm_control's walkers.
:func:`wmbench.body.checker.check_body` runs a body through the contract in a tiny world.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from wmbench.body.intent.record import MotionIntent
from wmbench.core.speed import SPEED_CLASS_SPEEDS

Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class SweepResult:
    """Where a disc of ``radius`` moving from ``start`` to ``end`` (xy plane) may stop without entering a wall."""

    end: Vec3
    blocked: bool
    wall_name: str | None = None


@runtime_checkable
class WorldHandle(Protocol):
    """What the world offers a body (implemented by ``wmbench.envs.world.World``)."""

    client: int          # pybullet physics client id
    frame_dt: float      # seconds per motion frame
    physics_dt: float    # seconds per physics step
    wall_body_ids: frozenset[int]
    ground_id: int       # the ground's pybullet body id (-1 when there is none)

    def sweep(self, start: Vec3, end: Vec3, radius: float) -> SweepResult: ...
    def wall_name(self, body_id: int) -> str | None: ...  # the wall's name, None if body_id is no wall


@dataclass(frozen=True)
class BodyState:
    """A snapshot of a body: root position (world, z up), heading (rad, world), planar velocity,
    speed (m/s), posture label, the speed class it is realizing and body-specific extras (e.g. servo error)."""

    position: Vec3
    heading: float
    velocity: Vec3
    speed: float
    posture: str = "upright"
    speed_class: str = "still"
    extras: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "position": [round(v, 6) for v in self.position], "heading": round(self.heading, 6),
            "velocity": [round(v, 6) for v in self.velocity], "speed": round(self.speed, 6),
            "posture": self.posture, "speed_class": self.speed_class, "extras": self.extras,
        }


@dataclass(frozen=True)
class FrameReport:
    """What happened to the body during one motion frame."""

    collided: bool = False
    wall_name: str | None = None


@runtime_checkable
class Body(Protocol):
    """A swappable body: everything the framework reads of one (the env, live mode, C10, the renderer).

    - ``name``: the registry name, recorded in traces. ``needs_physics``: True when ``stepSimulation`` must
      run for this body (robot, drone). ``sensor_height``: metres above ground where perception rays start.
    - ``envelope``: the body's own speed (m/s) per speed class (``still``, ``walk``, ``jog``, ``run``,
      ``sprint``); realized speeds are classified against it (C08, C10 S50).
    - ``spawn`` once per episode, ``reset_pose`` at each later phase; ``apply_intent`` once per decision;
      ``on_frame`` per motion frame, ``on_physics_step`` per physics step inside it (dynamic bodies only).
    - ``state`` the :class:`BodyState` now; ``body_ids`` its PyBullet bodies (left out of rays; NPCs pass
      through them); ``remove`` deletes them; ``sync_visuals`` brings display-only geometry up to date
      before a render (a no-op for bodies whose PyBullet bodies are all there is to draw).

    Derive from :class:`BodyBase` for the defaults; check a body with :func:`wmbench.body.check_body`.
    """

    @property
    def name(self) -> str: ...
    @property
    def needs_physics(self) -> bool: ...
    @property
    def sensor_height(self) -> float: ...
    @property
    def envelope(self) -> Mapping[str, float]: ...

    def spawn(self, world: WorldHandle, position: Vec3, heading: float) -> None: ...
    def reset_pose(self, position: Vec3, heading: float) -> None: ...
    def apply_intent(self, intent: MotionIntent) -> None: ...
    def on_frame(self) -> FrameReport: ...
    def on_physics_step(self) -> None: ...
    def state(self) -> BodyState: ...
    def body_ids(self) -> frozenset[int]: ...
    def remove(self) -> None: ...
    def sync_visuals(self) -> None: ...


@runtime_checkable
class Respawnable(Protocol):
    """An optional capability of a :class:`Body`: start a new episode in the same world without being
    built again. A reused env (``wmbench run``) then keeps the body's PyBullet bodies between episodes,
    removes only the last episode's walls and NPCs, and calls ``respawn`` instead of ``spawn``; it must
    leave the body exactly as a fresh ``spawn`` at ``position``/``heading`` would (traces byte-identical,
    ``tests/harness/run/test_env_reuse.py``). Bodies without it get a full world reset."""

    def respawn(self, position: Vec3, heading: float) -> None: ...


@runtime_checkable
class FusedPhysics(Protocol):
    """An optional capability of a dynamic :class:`Body`: run a whole frame's physics sub-steps in one call.

    ``run_physics_steps(n, step_physics)`` must do exactly what ``n`` times ``on_physics_step()`` then
    ``step_physics()`` does (same calls, same floating-point results: traces byte-identical); it exists
    only to drop the per-step Python overhead of the plain loop (issue 23). The env uses it when present."""

    def run_physics_steps(self, substeps: int, step_physics: Callable[[], None]) -> None: ...


@runtime_checkable
class FramePose(Protocol):
    """An optional capability of a :class:`Body`: the part of :meth:`Body.state` the env reads after every
    motion frame, without building the rest.

    ``frame_pose()`` returns ``(x, y, heading, posture)``, equal to ``state()``'s ``position[0]``,
    ``position[1]``, ``heading`` and ``posture`` at the same moment (same floats, bit for bit), and must not
    change what a later ``state()`` returns. A bench decision's frames read it (planar position for the
    timeline, NPCs and realized motion; heading for the pose log; posture for the tracker) and take the full
    :class:`BodyState` -- extras such as servo statistics or rotor speeds -- once, after the decision's last
    frame (issue 23: most of a body's per-frame state went unread)."""

    def frame_pose(self) -> tuple[float, float, float, str]: ...


@runtime_checkable
class JointReadings(Protocol):
    """What an episode dataset reads of an articulated character: its 22 joints in world coordinates."""

    def world_joints(self) -> object: ...


class NamedServos(Protocol):
    """The part of a servo map a reader needs: the servos' names, in command order."""

    @property
    def names(self) -> tuple[str, ...]: ...


@runtime_checkable
class ServoReadings(Protocol):
    """What an episode dataset reads of a servo robot: the servo map's names, the measured angles and the
    last command."""

    servo_map: NamedServos
    servo_command: object

    def servo_angles(self) -> object: ...


@runtime_checkable
class RotorReadings(Protocol):
    """What an episode dataset reads of a rotorcraft: its rotors' speeds (rpm)."""

    rotor_rpm: object


#: Every member of the :class:`Body` contract (data first, then methods), as checked by the env and
#: :func:`wmbench.body.check_body`.
BODY_ATTRIBUTES: tuple[str, ...] = ("name", "needs_physics", "sensor_height", "envelope")
BODY_METHODS: tuple[str, ...] = ("spawn", "reset_pose", "apply_intent", "on_frame", "on_physics_step", "state",
                                 "body_ids", "remove", "sync_visuals")


#: Where :class:`BodyBase` starts the perception rays (m above ground): a standing adult's chest.
DEFAULT_SENSOR_HEIGHT = 1.2


class BodyBase(ABC):
    """A :class:`Body` with defaults for the optional parts: subclass it and implement the abstract methods.

    Defaults: the character's speed envelope, a kinematic body (``needs_physics`` False, ``on_physics_step``
    does nothing), rays from 1.2 m, and ``sync_visuals`` doing nothing. ``name`` must be set by the subclass.
    """

    name: str
    needs_physics: bool = False
    envelope: Mapping[str, float] = SPEED_CLASS_SPEEDS

    @property
    def sensor_height(self) -> float:
        """Metres above ground where the perception rays start (override with an attribute or a property)."""
        return DEFAULT_SENSOR_HEIGHT

    @abstractmethod
    def spawn(self, world: WorldHandle, position: Vec3, heading: float) -> None:
        """Create the body's PyBullet bodies in ``world`` at ``position`` facing ``heading`` (rad, world)."""

    @abstractmethod
    def reset_pose(self, position: Vec3, heading: float) -> None:
        """Put the spawned body back at ``position``/``heading``, standing still (a new phase)."""

    @abstractmethod
    def apply_intent(self, intent: MotionIntent) -> None:
        """Start acting out ``intent`` from the next frame on."""

    @abstractmethod
    def on_frame(self) -> FrameReport:
        """Advance one motion frame; report a wall contact during it."""

    def on_physics_step(self) -> None:
        """Apply forces or motor targets before one physics step (dynamic bodies); nothing by default."""
        return None  # a deliberate default hook (kinematic bodies), not an abstract method

    @abstractmethod
    def state(self) -> BodyState:
        """The body now."""

    @abstractmethod
    def body_ids(self) -> frozenset[int]:
        """The PyBullet ids of the body's parts (empty before ``spawn``)."""

    @abstractmethod
    def remove(self) -> None:
        """Delete the body's PyBullet bodies (safe to call twice)."""

    def sync_visuals(self) -> None:
        """Bring display-only geometry up to date before a render; nothing by default."""
        return None  # a deliberate default hook (bodies whose PyBullet bodies are all there is to draw)
