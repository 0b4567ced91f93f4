"""Postures of the procedural generator: the knobs a style sets and the table of styles.

Card
----
- :class:`Posture` holds every knob a style may set (gait and stride scale, pelvis drop, trunk lean and
  slump, head pitch, shoulders, arms, head scan, glance, breathing, sway, travel direction); the defaults are
  a relaxed upright walk.
- :data:`STYLE_PRIORITY`: when several styles set the same knob the one earlier in it wins. ``climb`` has no
  character posture (it is for the drone); ``normal`` sets nothing.
- :func:`posture_for` turns an intent into its posture; a moving intent that does not face its travel also
  sets the travel direction relative to the facing (a back-step keeps watching).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from wmbench.body.intent.record import MotionIntent


@dataclass(frozen=True)
class Posture:
    """Posture knobs a style sets. Angles in radians (pitch + = forward/down), lengths in metres."""

    gait_scale: float = 1.0        # 0 = no gait at all (freeze)
    stride_scale: float = 1.0      # < 1: shorter, quicker steps at the same speed
    pelvis_drop: float = 0.0       # pelvis lowered (knees flex through IK)
    torso_lean: float = 0.03       # static trunk pitch (- leans back)
    lean_per_speed: float = 0.02   # extra trunk pitch per m/s of speed
    slump: float = 0.0             # upper-back rounding
    head_pitch: float = 0.0        # head down (+) / up (-), on top of keeping the gaze level
    shoulder_raise: float = 0.0    # collars up (+, tense) / down (-, slumped)
    shoulder_protract: float = 0.0  # shoulders rolled forward
    arm_abduction: float = 0.10    # upper arms away from the body
    arm_forward: float = 0.0       # static upper-arm forward flexion
    elbow_flex: float = 0.2        # static elbow flexion
    forearm_inward: float = 0.0    # forearms turned towards the midline
    arm_swing_scale: float = 1.0   # multiplies the gait's arm swing
    head_scan: float = 0.0         # head left-right scanning amplitude
    glance: float = 0.0            # 1 = head and chest turned back over a shoulder
    breath_hz: float = 0.27        # breathing rate
    breath_depth: float = 0.02     # chest/shoulder breathing amplitude
    sway: float = 0.01             # idle trunk side-sway amplitude
    travel_x: float = 0.0          # travel direction relative to the facing (unit vector, +x = left)
    travel_z: float = 1.0


#: Which style wins a field two styles both set: earlier wins.
STYLE_PRIORITY: tuple[str, ...] = (
    "freeze", "defensive", "crouch", "terror", "desperate", "fear", "hurry", "tense", "caution", "vigilant",
    "relief", "calm", "backstep", "glance_back", "climb", "normal",
)

_STYLE_POSTURES: dict[str, dict[str, float]] = {
    "freeze": dict(gait_scale=0.0, pelvis_drop=0.03, torso_lean=0.02, shoulder_raise=0.22,
                   shoulder_protract=0.08, arm_abduction=0.0, arm_forward=0.15, elbow_flex=0.7,
                   forearm_inward=0.4, arm_swing_scale=0.0, breath_hz=0.5, breath_depth=0.002, sway=0.0),
    "defensive": dict(pelvis_drop=0.05, torso_lean=-0.12, lean_per_speed=0.0, arm_forward=0.6,
                      arm_abduction=0.1, elbow_flex=2.0, forearm_inward=0.8, arm_swing_scale=0.15,
                      shoulder_raise=0.08, shoulder_protract=0.1, head_pitch=0.08),
    "crouch": dict(pelvis_drop=0.30, torso_lean=0.45, head_pitch=-0.3, arm_forward=0.35, elbow_flex=0.7,
                   arm_abduction=0.2, stride_scale=0.8, arm_swing_scale=0.5),
    "terror": dict(lean_per_speed=0.07, arm_swing_scale=1.4, shoulder_raise=0.15, breath_hz=0.6,
                   breath_depth=0.035),
    "desperate": dict(lean_per_speed=0.07, arm_swing_scale=1.5, shoulder_raise=0.1, breath_hz=0.6),
    "fear": dict(lean_per_speed=0.06, arm_swing_scale=1.3, shoulder_raise=0.1, breath_hz=0.5,
                 breath_depth=0.03),
    "hurry": dict(lean_per_speed=0.045, arm_swing_scale=1.15),
    "tense": dict(shoulder_raise=0.12, elbow_flex=0.45, arm_abduction=0.05, sway=0.003, arm_swing_scale=0.7,
                  breath_hz=0.45),
    "caution": dict(stride_scale=0.78, pelvis_drop=0.03, head_scan=0.55, torso_lean=0.06, lean_per_speed=0.01,
                    arm_forward=0.12, elbow_flex=0.45, arm_swing_scale=0.5),
    "vigilant": dict(stride_scale=0.85, head_scan=0.7, shoulder_raise=0.05, arm_swing_scale=0.6,
                     elbow_flex=0.35),
    "relief": dict(shoulder_raise=-0.12, shoulder_protract=0.18, slump=0.25, head_pitch=0.5, breath_hz=0.16,
                   breath_depth=0.05, sway=0.03, arm_abduction=0.04, elbow_flex=0.08, arm_swing_scale=0.8,
                   lean_per_speed=0.01),
    "calm": dict(arm_swing_scale=0.8, elbow_flex=0.12, arm_abduction=0.09, breath_hz=0.22, breath_depth=0.025,
                 sway=0.015, shoulder_raise=-0.03),
    "backstep": dict(torso_lean=-0.04, stride_scale=0.7, arm_swing_scale=0.5),
    "glance_back": dict(glance=1.0),
    "climb": {},
    "normal": {},
}


def posture_for(intent: MotionIntent) -> Posture:
    """The posture an intent asks for (unknown style tags are ignored)."""
    values: dict[str, float] = {}
    for style in reversed(STYLE_PRIORITY):  # later (weaker) first, stronger ones overwrite
        if style in intent.styles:
            values.update(_STYLE_POSTURES[style])
    if intent.moving and not intent.face_travel:
        values.update(travel_x=math.sin(intent.heading), travel_z=math.cos(intent.heading))
    return Posture(**values)

