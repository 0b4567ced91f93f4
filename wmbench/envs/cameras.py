"""Cameras: the brain's egocentric panorama, and the chase and top-down views people watch.

Card
----
- **Renderer.** PyBullet's TinyRenderer (CPU, headless, no OpenGL): every view here works in ``DIRECT``.
  Lighting is fixed (:data:`LIGHT`): a low sun from the south-west, so the faces of a wall or an NPC get
  different shades and edges stay visible; no specular highlight (it would wash colours towards white and
  confuse colour segmentation). No shadows (they cost a second pass).
- **Egocentric panorama** (:func:`panorama`): four square pinhole views of :data:`PANEL_FOV_DEG` (90°) each,
  from the protagonist's eye (:data:`EYE_HEIGHT`, level, no pitch), facing left, front, right and back,
  laid side by side as one strip ``[left | front | right | back]``. The strip is a continuous 360° sweep
  clockwise: the front panel is the second quarter, and each panel is exactly one of the four scene
  sectors (front = within 45° of the heading). :class:`PanoramaSpec` gives the panel size and the pinhole
  facts (focal length in pixels, principal point) a reader needs to turn a pixel into a direction and a
  ground-contact row into a distance (see :mod:`wmbench.brain.reference.vision`).
- **Chase view** (:func:`chase`): behind and above the protagonist. With a threat given (the nearest beast,
  else the nearest NPC) the camera looks along protagonist -> threat from behind the protagonist and backs
  off with their separation, so both are in frame; without one it looks along the heading.
- **Top-down view** (:func:`top_down`): straight down over a point, :data:`TOP_DOWN_EXTENT` m across;
  :class:`TopDownFrame` maps world xy to pixels so trails and markers can be drawn over it
  (:mod:`wmbench.harness.video.replay`). :func:`heading_up_map` is the brain's optional map: the same view
  turned so the protagonist's heading points up, :data:`MAP_EXTENT` m across, centred on it.
- Simplified: one light, no shadows; the protagonist's own body is not drawn in the egocentric views when
  the eye is inside it (TinyRenderer culls back faces), so the brain does not see its own limbs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pybullet as p

from wmbench.protocol.camera_layout import EYE_HEIGHT, PANEL_FOV_DEG, PANEL_YAWS, PanoramaSpec

NEAR_PLANE = 0.05
FAR_PLANE = 80.0
#: TinyRenderer lighting: direction towards the light, ambient/diffuse/specular shares.
LIGHT = {"lightDirection": (-0.5, -0.8, 1.2), "lightAmbientCoeff": 0.55, "lightDiffuseCoeff": 0.5,
         "lightSpecularCoeff": 0.0, "shadow": 0}
TOP_DOWN_EXTENT = 24.0
TOP_DOWN_HEIGHT = 40.0
#: The optional heading-up map of the image modes (``image_map=True``): side in px and metres across.
MAP_PX = 96
MAP_EXTENT = 16.0
CHASE_MIN_BACK = 4.0
CHASE_FOV_DEG = 65.0
GRID_SPACING = 1.0
GRID_LINE_HALF_WIDTH = 0.02
#: Grid lines fade out by this distance (m) and are at most this much darker than the ground.
GRID_FADE_M = 30.0
GRID_DARKEN = 0.3
CHASE_UP = 3.5


@dataclass(frozen=True)
class ViewSpec:
    """Size (px) of a chase or top-down frame."""

    width: int = 320
    height: int = 240


@dataclass(frozen=True)
class TopDownFrame:
    """A top-down image and the mapping from world xy (m) to its pixels."""

    image: np.ndarray
    centre: tuple[float, float]
    metres_per_px: float

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        """Pixel (column, row) of world point (x, y): +x is right, +y is up in the image."""
        h, w = self.image.shape[:2]
        return ((x - self.centre[0]) / self.metres_per_px + (w - 1) / 2,
                (h - 1) / 2 - (y - self.centre[1]) / self.metres_per_px)


def _render(client: int, width: int, height: int, eye: tuple[float, float, float],
            target: tuple[float, float, float], up: tuple[float, float, float], fov_deg: float,
            near: float = NEAR_PLANE, far: float = FAR_PLANE, grid_fade: float | None = None) -> np.ndarray:
    """Render one pinhole view (vertical FOV ``fov_deg``) and draw the ground grid over it."""
    view = p.computeViewMatrix(eye, target, up, physicsClientId=client)
    proj = p.computeProjectionMatrixFOV(fov_deg, width / height, near, far, physicsClientId=client)
    _, _, rgba, depth, _ = p.getCameraImage(
        width, height, view, proj, renderer=p.ER_TINY_RENDERER, flags=p.ER_NO_SEGMENTATION_MASK,
        physicsClientId=client, **LIGHT,
    )
    rgb = np.asarray(rgba, dtype=np.uint8).reshape(height, width, 4)[:, :, :3]
    zbuf = np.asarray(depth, dtype=np.float32).reshape(height, width)
    eye_depth = far * near / (far - (far - near) * zbuf)  # distance along the optical axis
    return _draw_grid(np.array(rgb), eye_depth, eye, target, up, fov_deg, grid_fade or GRID_FADE_M)


def _draw_grid(rgb: np.ndarray, eye_depth: np.ndarray, eye: tuple[float, float, float],
               target: tuple[float, float, float], up: tuple[float, float, float], fov_deg: float,
               fade_m: float = 30.0) -> np.ndarray:
    """Darken ground pixels (those whose depth is the ground plane's) lying on a :data:`GRID_SPACING` m line.

    A post-pass instead of line geometry: TinyRenderer's cost grows with the number of bodies, and a grid of
    3D strips made every frame four times dearer. Lines are about one pixel wide at any distance and fade out
    by ``fade_m`` (default :data:`GRID_FADE_M`), so far away they do not alias into noise."""
    height, width = eye_depth.shape
    e = np.asarray(eye, dtype=np.float64)
    forward = np.asarray(target, dtype=np.float64) - e
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, np.asarray(up, dtype=np.float64))
    right /= np.linalg.norm(right)
    cam_up = np.cross(right, forward)
    focal = (height / 2) / math.tan(math.radians(fov_deg) / 2)
    cols = ((np.arange(width) - (width - 1) / 2) / focal).astype(np.float32)[None, :]
    rows = (((height - 1) / 2 - np.arange(height)) / focal).astype(np.float32)[:, None]
    # each pixel's ray (not normalised: its component along ``forward`` is 1), one (H, W) plane per axis
    dx, dy, dz = (np.float32(forward[i]) + cols * np.float32(right[i]) + rows * np.float32(cam_up[i])
                  for i in range(3))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(dz < -1e-6, np.float32(-e[2]) / dz, np.float32(np.inf))  # eye depth of the ground
    ground = np.isfinite(t) & (np.abs(eye_depth - t) <= 0.02 * t + 0.02)
    if not ground.any():
        return rgb
    t = np.where(ground, t, np.float32(0.0))
    gx = np.float32(e[0]) + t * dx
    gy = np.float32(e[1]) + t * dy
    # one pixel's footprint on the ground, along the viewing direction (grows with distance and grazing)
    grazing = np.maximum(np.abs(dz) / np.sqrt(dx * dx + dy * dy + dz * dz), np.float32(0.05))
    footprint = t / np.float32(focal) / grazing
    off_x = np.abs(gx - np.round(gx / GRID_SPACING) * GRID_SPACING)
    off_y = np.abs(gy - np.round(gy / GRID_SPACING) * GRID_SPACING)
    line = ground & (np.minimum(off_x, off_y) < np.maximum(GRID_LINE_HALF_WIDTH, 0.5 * footprint))
    fade = np.clip(1.0 - t / fade_m, 0.0, 1.0) * GRID_DARKEN
    shade = np.where(line, 1.0 - fade, 1.0).astype(np.float32)
    return (rgb * shade[:, :, None]).astype(np.uint8)


def panorama(client: int, x: float, y: float, heading: float, spec: PanoramaSpec | None = None,
             eye_height: float = EYE_HEIGHT) -> np.ndarray:
    """The ``(panel, 4 * panel, 3)`` uint8 strip ``[left | front | right | back]`` seen from (x, y)."""
    spec = spec or PanoramaSpec()
    size = spec.panel
    panels = []
    for _word, yaw in PANEL_YAWS:
        a = heading + yaw
        eye = (x, y, eye_height)
        target = (x + math.cos(a), y + math.sin(a), eye_height)
        panels.append(_render(client, size, size, eye, target, (0, 0, 1), PANEL_FOV_DEG))
    return np.concatenate(panels, axis=1)


def chase(client: int, x: float, y: float, heading: float, threat: tuple[float, float] | None = None,
          spec: ViewSpec | None = None, fov_deg: float = CHASE_FOV_DEG) -> np.ndarray:
    """A ``(height, width, 3)`` frame from behind and above the protagonist, the threat (if any) in frame."""
    spec = spec or ViewSpec()
    if threat is not None and math.hypot(threat[0] - x, threat[1] - y) > 1e-6:
        tx, ty = threat
        gap = math.hypot(tx - x, ty - y)
        look = math.atan2(ty - y, tx - x)
        back = max(CHASE_MIN_BACK, 0.6 * gap + 2.0)
        target = (x + 0.5 * (tx - x), y + 0.5 * (ty - y), 0.6)
        up = CHASE_UP + 0.25 * gap
    else:
        look, back, up = heading, CHASE_MIN_BACK, CHASE_UP
        target = (x + 2.0 * math.cos(look), y + 2.0 * math.sin(look), 0.6)
    eye = (x - back * math.cos(look), y - back * math.sin(look), up)
    return _render(client, spec.width, spec.height, eye, target, (0, 0, 1), fov_deg)


def top_down(client: int, centre: tuple[float, float], spec: ViewSpec | None = None,
             extent: float = TOP_DOWN_EXTENT) -> TopDownFrame:
    """A view straight down over ``centre`` showing ``extent`` m of ground top to bottom (+y up)."""
    spec = spec or ViewSpec(240, 240)
    cx, cy = centre
    image = _render_down(client, cx, cy, (0.0, 1.0, 0.0), spec, extent)
    return TopDownFrame(image, (cx, cy), extent / spec.height)  # the vertical FOV spans ``extent`` m


def heading_up_map(client: int, x: float, y: float, heading: float, size: int = MAP_PX,
                   extent: float = MAP_EXTENT) -> np.ndarray:
    """The brain's optional map: straight down over (x, y), the heading pointing up, ``extent`` m across."""
    return _render_down(client, x, y, (math.cos(heading), math.sin(heading), 0.0), ViewSpec(size, size), extent)


def _render_down(client: int, cx: float, cy: float, up: tuple[float, float, float], spec: ViewSpec,
                 extent: float) -> np.ndarray:
    fov = 2 * math.degrees(math.atan((extent / 2) / TOP_DOWN_HEIGHT))
    return _render(client, spec.width, spec.height, (cx, cy, TOP_DOWN_HEIGHT), (cx, cy, 0.0), up, fov,
                   near=1.0, far=TOP_DOWN_HEIGHT + 5.0, grid_fade=4 * TOP_DOWN_HEIGHT)
