"""Observation modes: what the brain is shown each decision — the JSON, a camera strip, both, or raw rays.

Card
----
- ``scene`` (default): the official scene_context JSON, unchanged.
- ``image``: a 360° egocentric panorama (:func:`wmbench.envs.cameras.panorama`, ``[left | front | right |
  back]``) instead of the perception keys. The text part keeps only what is memory, not perception:
  ``observation``, ``t``, ``recent_decisions``, ``last_prediction``. Nothing the JSON says about walls,
  NPCs or sound reaches the brain.
- ``scene+image``: the full JSON plus the panorama.
- ``rays``: the raw ray fan as text instead of the perception keys: ``rays`` (m, 0.01 m, capped at 10),
  ``ray_hits`` (0 none, 1 wall, 2 beast, 3 human), ``ray_step_deg`` (first ray straight ahead, then
  counter-clockwise) plus the memory keys.
- Gymnasium: ``obs["scene"]`` is the text part above (JSON); with an image mode ``obs["image"]`` is the
  ``(H, W, 3)`` uint8 strip (a ``Box``), and with ``image_map=True`` also ``obs["map"]``, a heading-up map
  seen from above (:func:`wmbench.envs.cameras.heading_up_map`; the protagonist is at its centre).
  :func:`brain_input` turns an observation into the dict a brain's ``decide`` receives: the JSON, plus
  ``image`` (and ``map``) as PNG data URLs.
- The trace keeps the official scene per decision (scorers need it) and the mode in ``meta["observation"]``;
  the image is not stored (it is reproducible from the trace's pose log, :mod:`wmbench.envs.pose_log`).
"""

from __future__ import annotations

import base64
import io
import json
import struct
import zlib
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

import numpy as np
from numpy.typing import NDArray

from wmbench.core.errors import ConfigError
from wmbench.protocol.png_codec import decode_png, encode_png, png_header
from wmbench.protocol.scene import NpcEntry, RecentDecision, SceneContext, Walls

OBSERVATION_MODES: tuple[str, ...] = ("scene", "image", "scene+image", "rays")
#: Keys of the scene_context that are memory (what the brain did), not perception (what is out there).
MEMORY_KEYS: tuple[str, ...] = ("t", "recent_decisions", "last_prediction")
IMAGE_KEY = "image"
#: The optional second picture of the image modes: a heading-up map (``WMBenchEnv(image_map=True)``).
MAP_KEY = "map"
#: The most pixels :func:`decode_data_url` decodes by default (16 Mpx: the largest panorama, 4096x1024, and
#: room for a user's own camera); more is refused from the header, before decoding.
MAX_DECODE_PIXELS = 4096 * 4096


class Observation(TypedDict):
    """A :class:`~wmbench.envs.wmbench_env.WMBenchEnv` observation (the Gymnasium ``Dict`` space as data).

    ``scene`` is JSON *text* (a Gymnasium ``Text`` space): in the ``scene`` mode the
    :class:`~wmbench.protocol.scene.SceneContext`, in the other modes the mode's text part (see the card);
    ``json.loads`` it, or call :func:`brain_input`, for the :class:`BrainInput` a brain receives."""

    scene: str
    rays: NDArray[np.float32]
    ray_hits: NDArray[np.int64]
    image: NotRequired[NDArray[np.uint8]]
    map: NotRequired[NDArray[np.uint8]]


class BrainInput(TypedDict, total=False):
    """What ``Brain.decide`` receives: in the ``scene`` mode every :class:`~wmbench.protocol.scene.SceneContext`
    key; in the ``image`` and ``rays`` modes the memory keys (``t``, ``recent_decisions``, ``last_prediction``)
    with ``observation`` and, for ``rays``, the ray fan; ``image`` (and ``map``) as PNG data URLs in the image
    modes. Keys are not required because which are present depends on the mode (:func:`text_part`)."""

    walls: Walls
    ground: str
    npc_nearby: bool
    npc_type: str | None
    npc_behavior: str | None
    npc_distance: float | None
    npc_direction: str | None
    sound: str | None
    recent_decisions: list[RecentDecision]
    last_prediction: str | None
    t: float
    npcs: list[NpcEntry]
    observation: str
    ray_step_deg: float
    rays: list[float]
    ray_hits: list[int]
    image: str
    map: str


def as_brain_input(data: dict[str, Any]) -> BrainInput:
    """A scene dict from outside the env (a JSON object a client sent, a brain's own transformed copy) as the
    :class:`BrainInput` it claims to be: the same object, not validated (brains read what is there and
    tolerate what is missing, as the official protocol asks of them)."""
    return cast(BrainInput, data)


def check_mode(mode: str) -> str:
    """``mode`` if it is one of :data:`OBSERVATION_MODES`, else a ValueError naming them."""
    if mode not in OBSERVATION_MODES:
        raise ValueError(f"observation must be one of {', '.join(OBSERVATION_MODES)}; got {mode!r}")
    return mode


def has_image(mode: str) -> bool:
    return mode in ("image", "scene+image")


def text_part(mode: str, scene: SceneContext, rays: NDArray[np.float32], ray_hits: NDArray[np.int64]) -> BrainInput:
    """The JSON part the brain sees in ``mode`` (see the card)."""
    if mode == "scene":
        return BrainInput(**scene)
    if mode == "scene+image":
        return BrainInput(**scene, observation=mode)
    memory = BrainInput(t=scene["t"], recent_decisions=scene["recent_decisions"],
                        last_prediction=scene["last_prediction"])
    if mode == "image":
        return BrainInput(observation=mode, **memory)
    step = 360.0 / len(rays)
    return BrainInput(observation=mode, ray_step_deg=round(step, 6), rays=[round(float(r), 2) for r in rays],
                      ray_hits=[int(h) for h in ray_hits], **memory)


def encode_png_data_url(image: np.ndarray) -> str:
    """``data:image/png;base64,...`` of an (H, W, 3) uint8 image (stdlib PNG: no Pillow needed)."""
    return "data:image/png;base64," + base64.b64encode(encode_png(image)).decode("ascii")


def decode_data_url(url: str, max_pixels: int = MAX_DECODE_PIXELS) -> np.ndarray:
    """The (H, W, 3) uint8 image of a base64 image data URL (Pillow when installed, else PNG only);
    ValueError saying what arrived otherwise. An image whose header declares more than ``max_pixels`` pixels
    is refused *before* its pixels are decoded (a 221 KiB PNG can declare 26400x6600)."""
    if not isinstance(url, str) or not url.startswith("data:image/") or ";base64," not in url:
        raise ValueError(f"expected an image data URL 'data:image/png;base64,...', got {str(url)[:40]!r}")
    try:
        raw = base64.b64decode(url.split(",", 1)[1], validate=True)
    except ValueError as exc:
        raise ValueError(f"image data URL does not hold a readable image: {exc}") from None
    try:
        from PIL import Image
    except ImportError:
        try:
            header = png_header(raw)
            _check_pixels(header.width, header.height, max_pixels)
            return decode_png(raw)
        except ImageTooLargeError:
            raise
        except (ValueError, zlib.error, struct.error) as exc:
            raise ValueError(f"image data URL does not hold a readable image: {exc}") from None
    try:
        with Image.open(io.BytesIO(raw)) as img:  # lazy: reads the header only
            _check_pixels(img.size[0], img.size[1], max_pixels)
            return np.asarray(img.convert("RGB"), dtype=np.uint8)
    except ImageTooLargeError:
        raise
    except Exception as exc:  # the brain's/user's image bytes: Pillow raises many types on bad data
        raise ValueError(f"image data URL does not hold a readable image: {type(exc).__name__}: {exc}") from None


class ImageTooLargeError(ConfigError):
    """An image whose header declares more pixels than the reader allows (refused before decoding)."""


def _check_pixels(width: int, height: int, max_pixels: int) -> None:
    if width * height > max_pixels:
        raise ImageTooLargeError(f"image of {width}x{height} pixels; expected at most {max_pixels} pixels")


def brain_input(obs: Mapping[str, object]) -> BrainInput:
    """What ``brain.decide`` gets for an env observation: the JSON part, plus ``image`` (and ``map``) as PNG
    data URLs."""
    scene: BrainInput = json.loads(str(obs["scene"]))
    image, top_down = obs.get(IMAGE_KEY), obs.get(MAP_KEY)
    if isinstance(image, np.ndarray):
        scene["image"] = encode_png_data_url(image)
    if isinstance(top_down, np.ndarray):
        scene["map"] = encode_png_data_url(top_down)
    return scene
