"""The egocentric camera layout a brain is shown in the image observation modes.

Card
----
- The strip is four square panels, one per scene direction in :data:`~wmbench.core.directions.PANORAMA_ORDER`
  (:data:`PANEL_YAWS`: each panel's yaw relative to the heading), each a pinhole camera of
  :data:`PANEL_FOV_DEG` at :data:`EYE_HEIGHT` (:class:`PanoramaSpec`: panel size, focal length, principal point).
- The env renders it (:mod:`wmbench.envs.cameras`); a brain that reads pixels (:mod:`wmbench.brain.reference.vision`)
  needs the same numbers to turn a pixel back into a direction and a distance, so they live in the protocol.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from wmbench.core.directions import DIRECTION_HEADINGS, PANORAMA_ORDER, SCENE_TO_GRAMMAR

PANEL_FOV_DEG = 90.0
#: Eye height (m) of the egocentric panorama: a standing adult's eyes.
EYE_HEIGHT = 1.6
#: Panel order in the strip, with each panel's yaw relative to the heading (counter-clockwise, rad).
PANEL_YAWS: tuple[tuple[str, float], ...] = tuple(
    (word, DIRECTION_HEADINGS[SCENE_TO_GRAMMAR[word]]) for word in PANORAMA_ORDER)


@dataclass(frozen=True)
class PanoramaSpec:
    """Size of one square panel (px); the strip is ``panel`` high and ``4 * panel`` wide."""

    panel: int = 128

    def __post_init__(self) -> None:
        if not isinstance(self.panel, int) or not 16 <= self.panel <= 1024:
            raise ValueError(f"panorama panel size must be an integer in [16, 1024] px, got {self.panel!r}")

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(height, width, 3)`` of the strip."""
        return (self.panel, 4 * self.panel, 3)

    @property
    def focal_px(self) -> float:
        """Pinhole focal length in pixels (the same horizontally and vertically: square pixels)."""
        return (self.panel / 2) / math.tan(math.radians(PANEL_FOV_DEG) / 2)

    @property
    def centre_px(self) -> float:
        """Principal point (column and row) of a panel, in pixel-centre coordinates."""
        return (self.panel - 1) / 2
