"""Direction words and their geometry: the one home of fwd/left/right/back.

Card
----
- Two vocabularies name the same four 90° sectors relative to the protagonist's current heading:
  the *grammar* words (:data:`Direction`: ``fwd``/``left``/``right``/``back``) used by PREDICT, MOTION intents,
  scenario records, traces and scorers, and the *scene* words (:data:`SceneDirection`: ``front`` instead of
  ``fwd``) of the official ``scene_context``. :data:`SCENE_TO_GRAMMAR` converts at the edge.
- Orders are part of behaviour (they fix the order of PREDICT items, of ray cones, of seeded draws), so each
  order in use has its own name and docstring; none is "the" order:
  :data:`DIRECTIONS` (record order), :data:`GRAMMAR_ORDER` (PREDICT order), :data:`TURN_ORDER` (counter-clockwise
  quarter turns), :data:`SCENE_ORDER` (the scene's ``walls`` keys), :data:`PANORAMA_ORDER` (camera panels).
- Geometry: :data:`DIRECTION_HEADINGS` (relative yaw, rad, +left), :data:`DIRECTION_VECTORS` (unit vectors in
  the start frame, protagonist facing +x), :data:`QUARTER_TURNS` (counter-clockwise quarter turns from ``fwd``).
- Words: :data:`SCENE_TO_GRAMMAR` / :data:`GRAMMAR_TO_SCENE` (strict), :data:`DIRECTION_READINGS` (tolerant
  reading of a word), :data:`TRAVEL_PHRASES` (how a MOTION line names a direction).
- Maps: :data:`OPPOSITE` (180° turn), :data:`LATERAL` (the two 90° turns), :data:`MIRRORED` (left <-> right,
  the mirror through the heading axis); :func:`mirrored` of one word.
- Functions: :func:`wrap_angle` into (-pi, pi]; :func:`sector_word` of a relative angle (grammar word).
"""

from __future__ import annotations

import math
from types import MappingProxyType
from typing import Literal

__all__ = [
    "DIRECTIONS", "DIRECTION_HEADINGS", "DIRECTION_READINGS", "DIRECTION_VECTORS",
    "GRAMMAR_ORDER", "GRAMMAR_TO_SCENE", "LATERAL", "MIRRORED",
    "OPPOSITE", "PANORAMA_ORDER", "QUARTER_TURNS", "SCENE_ORDER", "SCENE_TO_GRAMMAR", "SIDES", "TRAVEL_PHRASES",
    "TURN_ORDER", "Direction",
    "SceneDirection", "mirrored", "sector_word", "wrap_angle",
]

#: A grammar direction word: a 90° sector relative to the protagonist's heading.
Direction = Literal["fwd", "left", "right", "back"]
#: The official scene_context's direction word (``front`` for ``fwd``).
SceneDirection = Literal["front", "left", "right", "back"]

#: Record order (scenario records, validation, expected-perception tables).
DIRECTIONS: tuple[Direction, ...] = ("fwd", "left", "right", "back")
#: PREDICT order: the grammar formats and the scorers iterate the four sectors left, right, fwd, back.
GRAMMAR_ORDER: tuple[Direction, ...] = ("left", "right", "fwd", "back")
#: Counter-clockwise quarter turns starting ahead (fwd, left, back, right): the order a turned family cycles.
TURN_ORDER: tuple[Direction, ...] = ("fwd", "left", "back", "right")
#: The turn order with the half turn first (fwd, back, left, right): a family cycled in this order puts what the
#: canonical layout has ahead behind the protagonist on its third instance.
BACK_FIRST_ORDER: tuple[Direction, ...] = ("fwd", "back", "left", "right")
#: The scene_context's ``walls`` keys, in the order perception reports them.
SCENE_ORDER: tuple[SceneDirection, ...] = ("left", "right", "front", "back")
#: The egocentric panorama's panels from left to right of the image strip (left, front, right, back).
PANORAMA_ORDER: tuple[SceneDirection, ...] = ("left", "front", "right", "back")
#: The two side words, left first (mirroring, per-side skeleton chains).
SIDES: tuple[Literal["left"], Literal["right"]] = ("left", "right")

#: Scene word -> grammar word (strict: exactly the four scene words).
SCENE_TO_GRAMMAR: MappingProxyType[str, Direction] = MappingProxyType(
    {"front": "fwd", "left": "left", "right": "right", "back": "back"})
#: Grammar word -> scene word.
GRAMMAR_TO_SCENE: MappingProxyType[str, SceneDirection] = MappingProxyType(
    {"fwd": "front", "left": "left", "right": "right", "back": "back"})
#: Tolerant reading of one lower-case direction word from a scene, a reply or a remembered decision
#: (scene and grammar words plus the everyday synonyms) -> grammar word. The PREDICT parser adds "forwards" and
#: "backwards"; the MOTION lexicon has its own, larger table of travel words.
DIRECTION_READINGS: MappingProxyType[str, Direction] = MappingProxyType({
    "front": "fwd", "fwd": "fwd", "forward": "fwd", "ahead": "fwd", "left": "left", "right": "right",
    "back": "back", "behind": "back", "backward": "back", "rear": "back",
})

#: Relative yaw of each direction (radians, counter-clockwise = towards the left; 0 = ahead).
DIRECTION_HEADINGS: MappingProxyType[str, float] = MappingProxyType(
    {"fwd": 0.0, "left": math.pi / 2, "right": -math.pi / 2, "back": math.pi})
#: Counter-clockwise quarter turns that bring ``fwd`` to each direction.
QUARTER_TURNS: MappingProxyType[str, int] = MappingProxyType({d: i for i, d in enumerate(TURN_ORDER)})
#: Unit vector of each direction in the start frame (z up, protagonist at the origin facing +x).
DIRECTION_VECTORS: MappingProxyType[str, tuple[float, float]] = MappingProxyType(
    {"fwd": (1.0, 0.0), "left": (0.0, 1.0), "right": (0.0, -1.0), "back": (-1.0, 0.0)})

#: Plain-English travel phrase of each direction, as a MOTION line says it ("runs to the left").
TRAVEL_PHRASES: MappingProxyType[str, str] = MappingProxyType(
    {"fwd": "forward", "left": "to the left", "right": "to the right", "back": "backward"})

#: The direction behind each direction (a half turn).
OPPOSITE: MappingProxyType[str, Direction] = MappingProxyType(
    {"fwd": "back", "back": "fwd", "left": "right", "right": "left"})
#: The two directions at a right angle to each direction (left/right of fwd and back, fwd/back of the sides).
LATERAL: MappingProxyType[str, tuple[Direction, Direction]] = MappingProxyType({
    "fwd": ("left", "right"), "back": ("left", "right"), "left": ("fwd", "back"), "right": ("fwd", "back"),
})
#: Left <-> right (the mirror image through the heading axis); fwd and back are their own mirror images.
MIRRORED: MappingProxyType[str, Direction] = MappingProxyType(
    {"fwd": "fwd", "back": "back", "left": "right", "right": "left"})


def mirrored(word: str) -> str:
    """``left`` <-> ``right``; any other word (fwd, back, front, free text) unchanged."""
    return MIRRORED.get(word, word)


def wrap_angle(a: float) -> float:
    """Angle wrapped into (-pi, pi]."""
    a = math.fmod(a + math.pi, 2 * math.pi)
    if a <= 0:
        a += 2 * math.pi
    return a - math.pi


def sector_word(relative_angle: float) -> Direction:
    """Grammar word (fwd/left/right/back) of a relative angle (rad, +left): 90° sectors centred on each
    direction, ±45° counting as fwd and ±135° as back."""
    a = math.atan2(math.sin(relative_angle), math.cos(relative_angle))
    if abs(a) <= math.pi / 4:
        return "fwd"
    if abs(a) >= 3 * math.pi / 4:
        return "back"
    return "left" if a > 0 else "right"
