"""Styles of the keyframe generator, as overlays on the key poses.

Card
----
- :class:`StyleOverlay`: additive channel offsets (crouch bends hips, knees and ankles and the grounding
  lowers the pelvis; defensive raises the forearms; relief slumps ...) and knobs (gait scale, arm swing,
  lean per m/s, head scan, glance, breathing).
- :func:`overlay_vector` combines the overlays of a set of style tags: offsets of several styles add; a knob
  comes from the first style in :data:`STYLE_ORDER` that sets it, else from :data:`KNOB_DEFAULTS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wmbench.body.motion.keyframe.poses import CHANNEL_INDEX, CHANNELS


@dataclass(frozen=True)
class StyleOverlay:
    """What a style adds to the pose: channel offsets and knobs (None = this style leaves the knob alone)."""

    offsets: dict[str, float] = field(default_factory=dict)
    gait_scale: float | None = None
    arm_swing: float | None = None
    lean_per_speed: float | None = None
    scan: float | None = None
    glance: float | None = None
    breath_hz: float | None = None
    breath_depth: float | None = None


#: Knob defaults when no style sets them.
KNOB_DEFAULTS = {"gait_scale": 1.0, "arm_swing": 1.0, "lean_per_speed": 0.02, "scan": 0.0, "glance": 0.0,
                 "breath_hz": 0.25, "breath_depth": 0.02}
#: Knob names in pose-vector order (after the channels).
KNOBS: tuple[str, ...] = tuple(KNOB_DEFAULTS)
STYLE_ORDER: tuple[str, ...] = ("freeze", "defensive", "crouch", "terror", "desperate", "fear", "hurry",
                                "tense", "caution", "vigilant", "relief", "calm", "backstep", "glance_back")


def _sides(**both: float) -> dict[str, float]:
    """Channel offsets with per-side channels given once: ``_sides(knee=0.1)`` -> knee_l and knee_r."""
    out: dict[str, float] = {}
    for name, value in both.items():
        if f"{name}_l" in CHANNEL_INDEX:
            out[f"{name}_l"] = out[f"{name}_r"] = value
        else:
            out[name] = value
    return out


STYLE_OVERLAYS: dict[str, StyleOverlay] = {
    "freeze": StyleOverlay(_sides(elbow=0.8, shoulder=0.15, neck_pitch=0.1) | {"raise": 0.2},
                           gait_scale=0.0, arm_swing=0.0, breath_hz=0.6, breath_depth=0.004),
    "defensive": StyleOverlay(_sides(shoulder=0.9, elbow=1.9, trunk=-0.1, knee=0.15, hip=0.1),
                              arm_swing=0.2, lean_per_speed=0.0),
    "crouch": StyleOverlay(_sides(hip=0.75, knee=1.4, ankle=0.6, trunk=0.45, neck_pitch=-0.35, shoulder=0.3,
                                  elbow=0.6), arm_swing=0.5),
    "terror": StyleOverlay({"raise": 0.12}, arm_swing=1.4, lean_per_speed=0.07, breath_hz=0.6,
                           breath_depth=0.035),
    "desperate": StyleOverlay({"raise": 0.1}, arm_swing=1.4, lean_per_speed=0.07, breath_hz=0.6),
    "fear": StyleOverlay({"raise": 0.08}, arm_swing=1.3, lean_per_speed=0.06, breath_hz=0.5),
    "hurry": StyleOverlay(arm_swing=1.15, lean_per_speed=0.045),
    "tense": StyleOverlay(_sides(elbow=0.3) | {"raise": 0.12}, arm_swing=0.7, breath_hz=0.45),
    "caution": StyleOverlay(_sides(knee=0.1, hip=0.05, elbow=0.25, trunk=0.05), gait_scale=0.8, arm_swing=0.5,
                            scan=0.55),
    "vigilant": StyleOverlay(_sides(elbow=0.15) | {"raise": 0.05}, gait_scale=0.85, arm_swing=0.6, scan=0.7),
    "relief": StyleOverlay({"slump": 0.25, "neck_pitch": 0.35, "raise": -0.1}, arm_swing=0.8, breath_hz=0.16,
                           breath_depth=0.05),
    "calm": StyleOverlay(arm_swing=0.8, breath_hz=0.22),
    "backstep": StyleOverlay({"trunk": -0.05}, gait_scale=0.7, arm_swing=0.5),
    "glance_back": StyleOverlay(glance=1.0),
}


def overlay_vector(styles: frozenset[str]) -> np.ndarray:
    """Channel offsets followed by the knobs (:data:`KNOB_DEFAULTS` order) for a set of style tags."""
    offsets = np.zeros(len(CHANNELS))
    knobs = dict(KNOB_DEFAULTS)
    chosen: set[str] = set()
    for style in STYLE_ORDER:
        if style not in styles:
            continue
        overlay = STYLE_OVERLAYS[style]
        for name, value in overlay.offsets.items():
            offsets[CHANNEL_INDEX[name]] += value
        for knob in KNOBS:
            value = getattr(overlay, knob)
            if value is not None and knob not in chosen:
                knobs[knob] = value
                chosen.add(knob)
    return np.concatenate([offsets, [knobs[k] for k in KNOBS]])
