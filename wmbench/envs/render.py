"""Camera for ``render_mode="rgb_array"``: the chase view of :mod:`wmbench.envs.cameras`.

The camera sits behind and above the protagonist; given the nearest threat it looks from behind the
protagonist towards the threat and backs off with their separation, so both are in frame. Works headless
(``DIRECT``), no OpenGL needed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pybullet as p

from wmbench.body.base import BodyState
from wmbench.envs import cameras

CAMERA_BACK = 4.0
CAMERA_UP = 4.5
FOV_DEG = cameras.CHASE_FOV_DEG


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


def capture(client: int, body: BodyState, camera: CameraSpec | None = None,
            threat: tuple[float, float] | None = None) -> np.ndarray:
    """An (H, W, 3) uint8 chase frame of the world around ``body`` (``threat`` xy kept in frame)."""
    cam = camera or CameraSpec()
    return cameras.chase(client, body.position[0], body.position[1], body.heading, threat,
                         cameras.ViewSpec(cam.width, cam.height), cam.fov_deg)
