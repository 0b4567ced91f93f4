"""Speed envelopes: each body's own speed per speed class, and the class a realized speed belongs to.

The character uses :data:`~wmbench.core.speed.SPEED_CLASS_SPEEDS` (sprint 6.5 m/s). Slower bodies scale
every class by the same factor so that the classes keep their order and ratios (robot: sprint 2.5 m/s,
drone: sprint 3 m/s). A realized speed is classified against the body's own envelope with thresholds
halfway between neighbouring class speeds, like the env does for the character.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from types import MappingProxyType

from wmbench.core.speed import SPEED_CLASS_SPEEDS, SpeedClass


def scaled_envelope(top_speed: float) -> Mapping[str, float]:
    """Class -> speed (m/s) with ``sprint`` at ``top_speed`` and every class scaled by the same factor."""
    if not top_speed > 0:
        raise ValueError(f"top_speed must be > 0 m/s, got {top_speed!r}")
    factor = top_speed / SPEED_CLASS_SPEEDS[SpeedClass.SPRINT.value]
    return MappingProxyType({name: round(v * factor, 6) for name, v in SPEED_CLASS_SPEEDS.items()})


def classify_speed(speed: float, envelope: Mapping[str, float]) -> str:
    """The class whose envelope speed is nearest (thresholds halfway between class speeds)."""
    ordered = sorted(envelope.items(), key=lambda kv: kv[1])
    for (name, v), (_, v_next) in itertools.pairwise(ordered):
        if speed < (v + v_next) / 2:
            return name
    return ordered[-1][0]


class SpeedClassifier:
    """:func:`classify_speed` for one envelope with its thresholds sorted once (a body classifies its speed
    every frame): ``SpeedClassifier(env)(speed) == classify_speed(speed, env)`` for every speed, the same
    thresholds compared in the same order."""

    __slots__ = ("_thresholds", "_top", "envelope")

    def __init__(self, envelope: Mapping[str, float]) -> None:
        self.envelope = envelope
        ordered = sorted(envelope.items(), key=lambda kv: kv[1])
        self._thresholds = tuple((name, (v + v_next) / 2) for (name, v), (_, v_next) in itertools.pairwise(ordered))
        self._top = ordered[-1][0]

    def __call__(self, speed: float) -> str:
        for name, threshold in self._thresholds:
            if speed < threshold:
                return name
        return self._top


def classifier_for(envelope: Mapping[str, float], current: SpeedClassifier | None) -> SpeedClassifier:
    """``current`` if it classifies against this very ``envelope`` object, else a new one (a body's
    envelope may be replaced after construction)."""
    return current if current is not None and current.envelope is envelope else SpeedClassifier(envelope)
