"""``vision`` — a scripted brain that perceives from the egocentric panorama alone (no learned model).

Card
----
- **Input.** In ``image`` mode (``wmbench run --observation image``) the scene holds only memory keys and
  ``image``, the ``[left | front | right | back]`` strip of :func:`wmbench.envs.cameras.panorama` as a data
  URL. :func:`read_panorama` turns the pixels into a scene_context; the decision is then the reference
  brain's (:class:`~wmbench.brain.reference.brain.ReferenceBrain`) on that perceived scene. Given a scene without
  ``image`` (``scene`` mode) it decides on the JSON directly: its **JSON mode**, the same policy on the true
  scene, so ``scene`` minus ``image`` scores are the perception gap of this one brain.
- **Colour segmentation** (per pixel, HSV-like): walls are saturated teal, the beast saturated orange, the
  woman purple, the man blue; ground, grid lines and sky are unsaturated (:data:`CLASS_HUES`).
- **Distance from image geometry.** Each panel is a level pinhole camera at
  :data:`~wmbench.protocol.camera_layout.EYE_HEIGHT` with known focal length, so the lowest pixel of a wall or an NPC
  in a column (where it meets the ground) gives its distance: depth ``z = eye_height * f / (row - cy)`` along the
  axis, ``z * sqrt(1 + x^2)`` along the column's horizontal ray. A wall reading is the nearest contact within ±7.5° of
  the direction (as the ray fan's cone), null beyond 6 m. A wall whose foot is below the frame (nearer than the eye
  height) is read from its top edge and the standard wall height (prior knowledge of the world, like the eye height).
- **NPCs.** Each colour's columns are grouped into blobs around the 360° strip (it wraps); a blob's
  direction is the sector of its centre column, its distance the ground contact of its lowest pixel.
  Behaviour is not visible in one frame: it is estimated from the change of distance since the previous
  decision, less what the protagonist's own last move (its MOTION's direction and gait, read back from
  ``recent_decisions``; zero when blocked) explains: closing faster than :data:`CHARGE_CLOSING` m/s is
  ``charge``, faster than :data:`APPROACH_CLOSING` ``approach``, else ``stop``; a beast seen for the first
  time counts as ``approach`` (assume the worst).
- **Blind spots** (what the JSON has and the pixels do not): no sound; speed and behaviour only from two
  frames; a beast's centre is estimated from its nearest legs (head-on or side-on from the blob's width in
  metres); two NPCs of one colour side by side read as one; occluded NPCs are unseen (as in the JSON).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from wmbench.body.intent.reader import parse_motion
from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome
from wmbench.brain.reference.brain import ReferenceBrain
from wmbench.core.entities import NPC_KINDS
from wmbench.protocol.camera_layout import EYE_HEIGHT, PANEL_YAWS, PanoramaSpec
from wmbench.protocol.observation import IMAGE_KEY, MEMORY_KEYS, BrainInput, as_brain_input, decode_data_url
from wmbench.protocol.scene import NPC_SENSING_RANGE, WALL_CONE_HALF_ANGLE, WALL_SENSING_RANGE, sector_of, threat_order
from wmbench.scenarios.records import WALL_HEIGHT

#: Hue band (degrees) and minimum saturation of each segmented class.
CLASS_HUES: dict[str, tuple[float, float, float]] = {
    "wall": (165.0, 200.0, 0.3), "beast": (12.0, 40.0, 0.45), "man": (210.0, 240.0, 0.45),
    "woman": (265.0, 300.0, 0.45),
}
CHARGE_CLOSING = 3.0
APPROACH_CLOSING = 0.6
#: A beast's legs stand 0.6 m ahead of / behind its centre and 0.2 m to its sides (envs/npc.py): seen head-on
#: (a blob narrower than BEAST_HEAD_ON_WIDTH m) its nearest legs are about this much closer than its centre.
BEAST_HEAD_ON_WIDTH = 1.0
BEAST_LEG_OFFSET_HEAD_ON = 0.55
BEAST_LEG_OFFSET_SIDE_ON = 0.2
#: Fewest pixels a blob needs (smaller ones are noise).
MIN_BLOB_PIXELS = 3


@dataclass(frozen=True)
class SeenNpc:
    """An NPC as read from the strip: kind, relative angle (rad, CCW), distance (m)."""

    kind: str
    angle: float
    distance: float


@dataclass(frozen=True)
class PanoramaReading:
    """What the pixels say: wall distance per scene direction (None = no wall within 6 m) and the NPCs."""

    walls: dict[str, float | None]
    npcs: tuple[SeenNpc, ...]


def segment(strip: np.ndarray) -> dict[str, np.ndarray]:
    """Boolean masks (H, W) per class of :data:`CLASS_HUES`."""
    rgb = strip.astype(np.float32) / 255.0
    high, low = rgb.max(axis=2), rgb.min(axis=2)
    chroma = high - low
    sat = np.where(high > 0, chroma / np.maximum(high, 1e-6), 0.0)
    r, g, b = rgb[:, :, 0], rgb[:, :, 1], rgb[:, :, 2]
    safe = np.maximum(chroma, 1e-6)
    hue = np.where(high == r, ((g - b) / safe) % 6, np.where(high == g, (b - r) / safe + 2, (r - g) / safe + 4))
    hue = hue * 60.0
    return {name: (sat >= smin) & (hue >= lo) & (hue <= hi) & (chroma > 0.08)
            for name, (lo, hi, smin) in CLASS_HUES.items()}


def _column_geometry(spec: PanoramaSpec) -> tuple[np.ndarray, np.ndarray]:
    """Per strip column: relative angle (rad, CCW from the heading) and the pinhole x of the column."""
    size, f, c = spec.panel, spec.focal_px, spec.centre_px
    x = (np.arange(size) - c) / f
    angles = np.concatenate([yaw - np.arctan(x) for _w, yaw in PANEL_YAWS])
    return angles, np.tile(x, 4)


def _ground_distance(row: float, x: float, spec: PanoramaSpec, eye_height: float) -> float:
    """Horizontal distance (m) to where the pixel ray through (row, column-x) meets the ground."""
    below = (row - spec.centre_px) / spec.focal_px
    if below <= 1e-6:
        return math.inf
    return eye_height / below * math.sqrt(1.0 + x * x)


def read_panorama(strip: np.ndarray, eye_height: float = EYE_HEIGHT) -> PanoramaReading:
    """Walls per direction and the visible NPCs from a ``(panel, 4 * panel, 3)`` strip."""
    height, width = strip.shape[:2]
    if width != 4 * height:
        raise ValueError(f"expected a [left|front|right|back] strip 4 panels wide, got {width}x{height} px")
    spec = PanoramaSpec(height)
    masks = segment(strip)
    angles, xs = _column_geometry(spec)
    rows = np.arange(height)
    walls: dict[str, float | None] = {}
    wall = masks["wall"]
    for word, yaw in PANEL_YAWS:
        offsets = np.abs((angles - yaw + math.pi) % (2 * math.pi) - math.pi)
        best = math.inf
        for col in np.nonzero(offsets <= WALL_CONE_HALF_ANGLE)[0]:
            hit = rows[wall[:, col]]
            if hit.size == 0:
                continue
            if hit.max() >= height - 1:  # foot below the frame: read the top edge and the wall's height
                above = (spec.centre_px - (hit.min() - 0.5)) / spec.focal_px
                d = (WALL_HEIGHT - eye_height) / above * math.sqrt(1 + xs[col] ** 2) if above > 1e-6 else 0.3
            else:
                d = _ground_distance(hit.max() + 0.5, xs[col], spec, eye_height)
            best = min(best, d)
        walls[word] = round(best, 2) if best <= WALL_SENSING_RANGE else None
    npcs: list[SeenNpc] = []
    for kind in NPC_KINDS:
        columns = np.asarray(masks[kind].any(axis=0))  # numpy types .any(axis=...) as "bool or array"
        for run in _circular_runs(columns):
            pixels = masks[kind][:, run]
            if pixels.sum() < MIN_BLOB_PIXELS:
                continue
            lowest = max(rows[pixels[:, i]].max() for i in range(len(run)) if pixels[:, i].any())
            centre = run[len(run) // 2]
            col_angles = np.unwrap(angles[run])
            angle = float(np.mean(col_angles))
            d = _ground_distance(lowest + 0.5, xs[centre], spec, eye_height)
            if kind == "beast":  # the lowest pixels are its nearest legs; its centre is further away
                width_m = len(run) * d / spec.focal_px
                d += BEAST_LEG_OFFSET_HEAD_ON if width_m < BEAST_HEAD_ON_WIDTH else BEAST_LEG_OFFSET_SIDE_ON
            npcs.append(SeenNpc(kind, math.atan2(math.sin(angle), math.cos(angle)), d))
    return PanoramaReading(walls, tuple(npcs))


def _circular_runs(columns: np.ndarray) -> list[list[int]]:
    """Runs of True columns around the strip (the last column touches the first)."""
    n = len(columns)
    if columns.all():
        return [list(range(n))]
    start = int(np.argmin(columns))  # a False column: runs never wrap past it
    runs: list[list[int]] = []
    current: list[int] = []
    for k in range(1, n + 1):
        i = (start + k) % n
        if columns[i]:
            current.append(i)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


class VisionBrain(ProviderBrain):
    """Reads the panorama, writes a scene_context, lets the reference policy decide (see the module card)."""

    name = "vision"
    provider = "vision"
    model = "vision-scripted-v1"

    def __init__(self) -> None:
        super().__init__()
        self._policy = ReferenceBrain()
        self._previous: dict[str, tuple[float, float, float]] = {}  # kind -> (t, distance, angle) last seen

    def reset(self, seed: int | None = None) -> None:
        with self._lock:
            self._policy.reset(seed)
            self._previous = {}

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        if IMAGE_KEY not in scene:  # JSON mode: the same policy on the true scene
            return ProviderOutcome(text=self._policy.think(scene).text)
        return ProviderOutcome(text=self._policy.think(self.perceive(scene)).text)

    def perceive(self, scene: BrainInput) -> BrainInput:
        """The scene_context the pixels of ``scene["image"]`` support (memory keys copied through)."""
        reading = read_panorama(decode_data_url(scene["image"]))
        t = float(scene.get("t") or 0.0)
        own = _own_motion(scene.get("recent_decisions"))
        seen = []
        for npc in reading.npcs:
            if npc.distance > NPC_SENSING_RANGE + 1e-9:
                continue
            seen.append((npc, self._behavior(npc, t, own)))
        self._previous = {npc.kind: (t, npc.distance, npc.angle) for npc, _b in seen}
        ranked = sorted(seen, key=lambda s: _rank(s[0], s[1]))
        listed = [{"type": n.kind, "behavior": b, "distance": round(n.distance, 2),
                   "direction": sector_of(n.angle), "speed": None} for n, b in ranked]
        primary = listed[0] if listed else None
        perceived: dict[str, Any] = {
            "walls": reading.walls, "ground": "flat", "npc_nearby": primary is not None,
            "npc_type": primary["type"] if primary else None,
            "npc_behavior": primary["behavior"] if primary else None,
            "npc_distance": primary["distance"] if primary else None,
            "npc_direction": primary["direction"] if primary else None,
            "sound": None,
        }
        keyed: Mapping[str, object] = scene
        perceived.update({k: keyed[k] for k in MEMORY_KEYS if k in keyed})
        perceived["npcs"] = listed
        return as_brain_input(perceived)

    def _behavior(self, npc: SeenNpc, t: float, own: tuple[float, float] | None) -> str:
        """Behaviour from the change of distance since the last decision, less the part the protagonist's own
        last move explains (``own``: its relative travel angle and speed, from ``recent_decisions``)."""
        before = self._previous.get(npc.kind)
        if before is None or t <= before[0]:
            return "approach" if npc.kind == "beast" else "stop"
        then_t, then_d, then_angle = before
        closing = (then_d - npc.distance) / (t - then_t)
        if own is not None:
            closing -= own[1] * math.cos(own[0] - then_angle)  # our own approach towards where it was
        if closing > CHARGE_CLOSING:
            return "charge"
        if closing > APPROACH_CLOSING:
            return "approach"
        return "stop"


def _own_motion(recent: Any) -> tuple[float, float] | None:
    """(relative angle, speed m/s) of the protagonist's last move, read from its own last MOTION and outcome."""
    if not isinstance(recent, list) or not recent or not isinstance(recent[-1], dict):
        return None
    last = recent[-1]
    if "blocked" in str(last.get("outcome", "")) or not isinstance(last.get("motion"), str):
        return (0.0, 0.0)
    intent = parse_motion(last["motion"])
    return (intent.heading, intent.speed) if intent.direction is not None else (0.0, 0.0)


def _rank(npc: SeenNpc, behavior: str) -> tuple:
    return threat_order(npc.kind == "beast", behavior, npc.distance, npc.kind)
