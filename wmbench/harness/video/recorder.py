"""Video files: rgb frames (optionally with lines written over them) saved as mp4.

::

    run_live("S42", "reference", record="s42.mp4")       # rendered from the trace after the run

Card
----
- Episodes are rendered *after* the run from their trace's pose log (:mod:`wmbench.harness.video.replay`:
  chase + top-down side by side, captions below), so recording costs a live run no frame time.
  :class:`VideoRecorder` only writes frames; ``upscale`` (default :data:`UPSCALE`) enlarges small frames so
  overlaid text stays readable. :func:`capture_frame` reads the env's own camera (a still, e.g. for docs).
- The overlay (Pillow ``ImageDraw``) is a dark band at the bottom with the sim time and scenario, the
  PREDICT line and the MOTION line, each wrapped to the frame width.
- Writing needs the ``video`` extra (``imageio``, ``imageio-ffmpeg``, ``pillow``). A missing module raises
  :class:`MissingVideoExtraError` naming the extra, before anything runs.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from wmbench.core.errors import MissingExtraError
from wmbench.envs import render as camera

VIDEO_FPS = 30
UPSCALE = 2
LINE_HEIGHT = 13
CHAR_WIDTH = 6  # Pillow's default bitmap font
TEXT_COLOR = (255, 255, 255)
BAND_ALPHA = 170


class MissingVideoExtraError(MissingExtraError):
    """Recording video needs an optional dependency that is not installed."""


def _require(module: str, extra: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise MissingVideoExtraError("recording video", extra, module, str(err)) from None


class VideoRecorder:
    """Collects overlaid frames and writes them to an mp4 (H.264 via imageio-ffmpeg) as they come."""

    def __init__(self, path: str | Path, fps: int = VIDEO_FPS, upscale: int = UPSCALE) -> None:
        self.path = Path(path)
        self.fps = int(fps)
        self.upscale = max(1, int(upscale))
        self._imageio = _require("imageio", "video")
        _require("imageio_ffmpeg", "video")
        self._pil_image = _require("PIL.Image", "video")
        self._pil_draw = _require("PIL.ImageDraw", "video")
        self._writer: Any = None
        self.frames_written = 0

    def add(self, frame: np.ndarray, lines: Sequence[str] = ()) -> None:
        """Append one (H, W, 3) uint8 frame with ``lines`` written over its bottom."""
        image = self.overlay(frame, lines)
        if self._writer is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._writer = self._imageio.get_writer(str(self.path), fps=self.fps, codec="libx264",
                                                    quality=7, macro_block_size=16)
        self._writer.append_data(image)
        self.frames_written += 1

    def overlay(self, frame: np.ndarray, lines: Sequence[str]) -> np.ndarray:
        """The frame scaled by ``upscale`` with ``lines`` wrapped into a dark band at the bottom."""
        rgb = np.asarray(frame, dtype=np.uint8)[:, :, :3]
        image = self._pil_image.fromarray(rgb).convert("RGBA")
        if self.upscale > 1:
            image = image.resize((image.width * self.upscale, image.height * self.upscale))
        width = max(10, image.width // CHAR_WIDTH - 2)
        wrapped = [part for line in lines for part in (textwrap.wrap(line, width) or [""])]
        if wrapped:
            band = self._pil_image.new("RGBA", image.size, (0, 0, 0, 0))
            draw = self._pil_draw.Draw(band)
            top = image.height - LINE_HEIGHT * len(wrapped) - 6
            draw.rectangle((0, top, image.width, image.height), fill=(0, 0, 0, BAND_ALPHA))
            for i, text in enumerate(wrapped):
                draw.text((6, top + 3 + i * LINE_HEIGHT), text, fill=(*TEXT_COLOR, 255))
            image = self._pil_image.alpha_composite(image, band)
        return np.asarray(image.convert("RGB"))

    def close(self) -> Path | None:
        """Finish the file; returns its path, or None when no frame was added (no file is written)."""
        if self._writer is None:
            return None
        self._writer.close()
        self._writer = None
        return self.path


def capture_frame(env: Any) -> np.ndarray | None:
    """The env's current camera frame: ``env.render()`` in ``rgb_array`` mode; in a GUI run the same camera
    read directly (after the GUI's own render); None without a world."""
    env = getattr(env, "unwrapped", env)
    if env.render_mode == "rgb_array":
        return env.render()
    if env.world is None:
        return None

    env.render()  # human mode: poses the character's visuals and moves the GUI camera
    return camera.capture(env.world.client, env.body.state())
