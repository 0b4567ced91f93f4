"""Camera for ``render_mode="rgb_array"``: a TinyRenderer view from above and behind the protagonist.

The camera sits :data:`CAMERA_BACK` m behind and :data:`CAMERA_UP` m above the root, looking at a point
:data:`LOOK_AHEAD` m ahead, so the walls and NPCs around the protagonist are in frame. Works headless
(``DIRECT``), no OpenGL needed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pybullet as p

from wmbench.body.base import BodyState

CAMERA_BACK = 4.0
CAMERA_UP = 4.5
LOOK_AHEAD = 2.5
FOV_DEG = 70.0


@dataclass(frozen=True)
class CameraSpec:
    width: int = 320
    height: int = 240
    fov_deg: float = FOV_DEG


def follow(client: int, body: BodyState) -> None:
    """Point the GUI's camera (``human`` mode) at ``body`` from above and behind."""
    yaw_deg = math.degrees(body.heading) - 90.0
    target = (body.position[0], body.position[1], 0.5)
    p.resetDebugVisualizerCamera(cameraDistance=math.hypot(CAMERA_BACK, CAMERA_UP), cameraYaw=yaw_deg,
                                 cameraPitch=-45.0, cameraTargetPosition=target, physicsClientId=client)


def capture(client: int, body: BodyState, camera: CameraSpec | None = None) -> np.ndarray:
    """An (H, W, 3) uint8 frame of the world around ``body``."""
    cam = camera or CameraSpec()
    x, y, h = body.position[0], body.position[1], body.heading
    c, s = math.cos(h), math.sin(h)
    eye = (x - CAMERA_BACK * c, y - CAMERA_BACK * s, CAMERA_UP)
    target = (x + LOOK_AHEAD * c, y + LOOK_AHEAD * s, 0.5)
    view = p.computeViewMatrix(eye, target, (0, 0, 1), physicsClientId=client)
    aspect = cam.width / cam.height
    proj = p.computeProjectionMatrixFOV(cam.fov_deg, aspect, 0.1, 60.0, physicsClientId=client)
    _, _, rgba, _, _ = p.getCameraImage(
        cam.width, cam.height, view, proj, renderer=p.ER_TINY_RENDERER, physicsClientId=client
    )
    frame = np.asarray(rgba, dtype=np.uint8).reshape(cam.height, cam.width, 4)
    return np.ascontiguousarray(frame[:, :, :3])
