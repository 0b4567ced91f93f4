"""SmplCharacter: the 22-joint human character, played kinematically from motion-generator frames.

Card
----
- **What it is.** A capsule humanoid on the HumanML3D 22-joint skeleton (no licensed SMPL files: only the
  joint tree). Name ``"smpl"``; kinematic (``needs_physics = False``); sensor height 1.2 m; wall clearance
  radius 0.3 m.
- **How the root moves.** Per decision the intent fixes a world travel heading (current facing + the intent's
  relative heading) and a target speed (the speed class). Per frame the speed ramps linearly towards the
  target (any change completes within :data:`SPEED_RAMP_S`); with ``face_travel`` the facing turns towards the
  travel heading at up to pi per :data:`TURN_TIME_S` (a full about-turn in 0.2 s), otherwise it keeps facing
  (a back-step watches the threat). The step is swept against the walls with the 0.3 m radius: at a wall the
  character stops (speed 0) and the frame reports ``collided`` with the wall's name. Simplified: the travel
  direction switches at once (only the speed ramps), and a blocked character stops rather than sliding.
  (The controller is :class:`~wmbench.body.planar_root.PlanarRoot`; the servo robot drives its base with it.)
- **How the limbs move.** Every frame the generator (default
  :class:`wmbench.body.motion.procedural.generator.ProceduralGenerator`) gives 22 joints in root-local motion space
  (y up,
  facing +z, left +x), a gait phase and a posture. The body state reports that posture and the speed class of
  the realized root speed.
- **Rendering is lazy (a deliberate performance choice).** The joint capsules are visual-only PyBullet bodies
  (no collision shapes, so rays and NPCs ignore them). They are created and posed only by
  :meth:`sync_visuals`, which the env calls when it renders (every frame in ``human`` mode, before each
  ``rgb_array`` capture). Headless runs never touch PyBullet for this body, which keeps the loop at thousands
  of frames per second.
"""

from __future__ import annotations

import contextlib
import math
from typing import Any

import numpy as np
import pybullet as p

from wmbench.body.base import BodyBase, BodyState, FrameReport, Vec3, WorldHandle
from wmbench.body.envelope import classify_speed
from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.registry import GeneratorFactory, resolve_generator_factory
from wmbench.body.planar_root import PlanarRoot
from wmbench.body.skeleton import JOINT_NAMES, PARENTS
from wmbench.core.speed import SPEED_CLASS_SPEEDS

SENSOR_HEIGHT = 1.2
CLEARANCE_RADIUS = 0.3
SPEED_RAMP_S = 0.15
TURN_TIME_S = 0.2
DEFAULT_PELVIS_HEIGHT = 0.95
BONE_RADIUS = 0.045
HEAD_RADIUS = 0.11
BODY_COLOR = (0.95, 0.80, 0.15, 1.0)  # warm yellow: unlike the teal walls and every NPC
_MAX_ACCEL = max(SPEED_CLASS_SPEEDS.values()) / SPEED_RAMP_S
_TURN_RATE = math.pi / TURN_TIME_S


class SmplCharacter(BodyBase):
    """The 22-joint character body (see the module card)."""

    name = "smpl"
    needs_physics = False
    envelope = SPEED_CLASS_SPEEDS
    sensor_height = SENSOR_HEIGHT
    clearance_radius = CLEARANCE_RADIUS

    def __init__(self, generator_factory: GeneratorFactory | None = None,
                 generator: str | None = None) -> None:
        self._factory = resolve_generator_factory(generator_factory, generator)
        self._world: WorldHandle | None = None
        self._generator: Any = None
        self._intent = MotionIntent.still()
        self._root = PlanarRoot(_MAX_ACCEL, _TURN_RATE, CLEARANCE_RADIUS)
        self._frame: Any = None
        self._bone_ids: list[int] = []
        self._bones: list[tuple[int, int]] = []

    # ------------------------------------------------------------------ Body protocol
    def spawn(self, world: WorldHandle, position: Vec3, heading: float) -> None:
        if self._world is world:
            self.remove()
        else:  # a different (or reset) world: the old visual ids mean nothing there
            self._bone_ids, self._bones = [], []
        self._world = world
        self.reset_pose(position, heading)

    def reset_pose(self, position: Vec3, heading: float) -> None:
        if self._world is None:
            raise RuntimeError("SmplCharacter.reset_pose called before spawn(world, ...)")
        fps = round(1.0 / self._world.frame_dt)
        self._generator = self._factory(fps)
        self._root.place(position[0], position[1], heading)
        self._intent = MotionIntent.still()
        self._generator.set_intent(self._intent)
        self._frame = self._generator.next_frame(0.0)

    def apply_intent(self, intent: MotionIntent) -> None:
        self._intent = intent
        self._root.aim(intent, intent.speed)
        if self._generator is not None:
            self._generator.set_intent(intent)

    def on_frame(self) -> FrameReport:
        if self._world is None:
            raise RuntimeError("SmplCharacter.on_frame called before spawn(world, ...)")
        blocked = self._root.advance(self._world, self._intent)
        self._frame = self._generator.next_frame(self._root.speed)
        return FrameReport() if blocked is None else blocked

    def on_physics_step(self) -> None:
        """Nothing to do: the character is kinematic."""

    def state(self) -> BodyState:
        root = self._root
        c, s = math.cos(root.travel_heading), math.sin(root.travel_heading)
        return BodyState(
            position=(root.x, root.y, self._pelvis_height()),
            heading=root.heading,
            velocity=(root.speed * c, root.speed * s, 0.0),
            speed=root.speed,
            posture=str(getattr(self._frame, "posture", "upright")),
            speed_class=classify_speed(root.speed, self.envelope),
        )

    def body_ids(self) -> frozenset[int]:
        return frozenset(self._bone_ids)

    def remove(self) -> None:
        if self._world is not None and self._bone_ids:
            for body in self._bone_ids:
                with contextlib.suppress(p.error):  # the world was disconnected underneath us
                    p.removeBody(body, physicsClientId=self._world.client)
        self._bone_ids = []
        self._bones = []

    # ------------------------------------------------------------------ rendering
    def world_joints(self) -> np.ndarray:
        """The current frame's 22 joints in world coordinates (z up), shape (22, 3)."""
        joints = np.asarray(self._frame.joints, dtype=float)
        root = self._root
        c, s = math.cos(root.heading), math.sin(root.heading)
        fwd, left, up = joints[:, 2], joints[:, 0], joints[:, 1]
        return np.stack([root.x + fwd * c - left * s, root.y + fwd * s + left * c, up], axis=1)

    def sync_visuals(self) -> None:
        """Create (first call) and pose the joint capsules in PyBullet. Called only when rendering."""
        if self._world is None or self._frame is None:
            return
        joints = self.world_joints()
        cid = self._world.client
        if not self._bone_ids:
            self._create_visuals(joints, cid)
        for body, (child, parent) in zip(self._bone_ids, self._bones):
            a, b = joints[parent], joints[child]
            if child == parent:  # the head sphere
                p.resetBasePositionAndOrientation(body, a.tolist(), (0, 0, 0, 1), physicsClientId=cid)
            else:
                p.resetBasePositionAndOrientation(body, ((a + b) / 2).tolist(), _z_to(b - a),
                                                  physicsClientId=cid)

    def _create_visuals(self, joints: np.ndarray, cid: int) -> None:
        for child, parent in enumerate(PARENTS):
            if parent is None or parent < 0:
                continue
            length = float(np.linalg.norm(joints[child] - joints[parent]))
            vis = p.createVisualShape(p.GEOM_CAPSULE, radius=BONE_RADIUS, length=max(length, 1e-3),
                                      rgbaColor=BODY_COLOR, physicsClientId=cid)
            self._bone_ids.append(p.createMultiBody(0, -1, vis, joints[child].tolist(), physicsClientId=cid))
            self._bones.append((child, parent))
        head = JOINT_NAMES.index("head") if "head" in JOINT_NAMES else len(JOINT_NAMES) - 1
        vis = p.createVisualShape(p.GEOM_SPHERE, radius=HEAD_RADIUS, rgbaColor=BODY_COLOR,
                                  physicsClientId=cid)
        self._bone_ids.append(p.createMultiBody(0, -1, vis, joints[head].tolist(), physicsClientId=cid))
        self._bones.append((head, head))

    def _pelvis_height(self) -> float:
        if self._frame is None:
            return DEFAULT_PELVIS_HEIGHT
        return self._frame.pelvis_height


def _z_to(v: np.ndarray) -> tuple[float, float, float, float]:
    """Quaternion (x, y, z, w) rotating +z onto the direction of ``v``."""
    n = float(np.linalg.norm(v))
    if n < 1e-9:
        return (0.0, 0.0, 0.0, 1.0)
    x, y, z = v / n
    # axis = z_hat x v = (-y, x, 0); half-angle formula without trig
    w = 1.0 + z
    if w < 1e-9:  # pointing straight down
        return (1.0, 0.0, 0.0, 0.0)
    q = np.array([-y, x, 0.0, w])
    q /= np.linalg.norm(q)
    return (float(q[0]), float(q[1]), float(q[2]), float(q[3]))
