"""MotionIntent: what every body can honour, read from the MOTION line.

A heading relative to the body's current facing, a speed class, and style tags. ``motion_intent.py`` builds it
from text; bodies (character, robot, drone) act it out, each within its own envelope.
"""

from __future__ import annotations

from dataclasses import dataclass

from wmbench.core.speed import SpeedClass

#: Style tags a MotionIntent may carry. Bodies use them for posture (crouch, freeze, defensive arms, ...).
STYLE_TAGS: frozenset[str] = frozenset({
    "fear", "terror", "desperate", "caution", "vigilant", "freeze", "crouch", "defensive", "relief", "calm",
    "backstep", "glance_back", "climb", "tense", "hurry", "normal",
})


@dataclass(frozen=True)
class MotionIntent:
    """What the MOTION line asks the body to do.

    ``direction`` is the relative sector word the text named (None = no translation: stand, freeze, hover);
    ``heading`` the relative angle in radians (0 = ahead, +pi/2 = left) — the travel direction;
    ``face_travel`` False means keep facing while moving (a back-step keeps the eyes on the threat);
    ``speed_class`` the gait; ``styles`` the posture/emotion tags; ``source`` the text it came from;
    ``fallback`` a note when the text asked for a movement the bodies cannot do and this intent is the nearest
    doable one (``"cartwheel -> stand still: no such motion"``, :mod:`wmbench.body.intent.fallback`).
    """

    direction: str | None
    heading: float
    speed_class: SpeedClass
    styles: frozenset[str] = frozenset()
    face_travel: bool = True
    source: str = ""
    fallback: str | None = None

    @property
    def speed(self) -> float:
        return self.speed_class.speed if self.direction is not None else 0.0

    @property
    def moving(self) -> bool:
        return self.direction is not None and self.speed_class is not SpeedClass.STILL

    @classmethod
    def still(cls, source: str = "", styles: frozenset[str] = frozenset()) -> MotionIntent:
        return cls(direction=None, heading=0.0, speed_class=SpeedClass.STILL, styles=styles, source=source)

    def to_dict(self) -> dict:
        record = {
            "direction": self.direction, "heading": round(self.heading, 6), "speed_class": self.speed_class.value,
            "speed": self.speed, "styles": sorted(self.styles), "face_travel": self.face_travel,
            "source": self.source,
        }
        if self.fallback is not None:  # only when there is one: traces without fallbacks stay byte-identical
            record["fallback"] = self.fallback
        return record

    @classmethod
    def from_dict(cls, d: dict) -> MotionIntent:
        return cls(
            direction=d["direction"], heading=float(d["heading"]), speed_class=SpeedClass(d["speed_class"]),
            styles=frozenset(d.get("styles", ())), face_travel=bool(d.get("face_travel", True)),
            source=d.get("source", ""), fallback=d.get("fallback"),
        )
