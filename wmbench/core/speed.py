"""Speed classes: the five gaits a MOTION line can ask for, their character speeds and their order.

Card
----
- :class:`SpeedClass` (``still`` < ``walk`` < ``jog`` < ``run`` < ``sprint``), a ``str`` enum; ``.rank`` is its
  position (0–4), ``.speed`` its speed for the human character.
- :data:`SPEED_CLASS_SPEEDS`: class name -> target ground speed (m/s) of the human character (still 0, walk 1.4,
  jog 3, run 4.5, sprint 6.5). Other bodies scale it to their own envelope (``wmbench.body.envelope``).
- :data:`SpeedName`: the class names as a ``Literal`` type (for text records such as a motion plan).
- :data:`SPEED_RANKS` (class name -> rank) and :data:`MAX_SPEED_RANK` are derived from the enum, not restated.
"""

from __future__ import annotations

import enum
from types import MappingProxyType
from typing import Literal

__all__ = ["MAX_SPEED_RANK", "SPEED_CLASS_SPEEDS", "SPEED_RANKS", "SpeedClass", "SpeedName"]

#: A speed class's name, as plain text (the value of a :class:`SpeedClass`).
SpeedName = Literal["still", "walk", "jog", "run", "sprint"]

#: Speed class -> target ground speed (m/s) for the human character. Bodies scale to their own envelope.
SPEED_CLASS_SPEEDS: MappingProxyType[str, float] = MappingProxyType(
    {"still": 0.0, "walk": 1.4, "jog": 3.0, "run": 4.5, "sprint": 6.5})


class SpeedClass(str, enum.Enum):
    """A gait, slowest first."""

    STILL = "still"
    WALK = "walk"
    JOG = "jog"
    RUN = "run"
    SPRINT = "sprint"

    @property
    def rank(self) -> int:
        """Position in the order still < walk < jog < run < sprint (0–4)."""
        return list(SpeedClass).index(self)

    @property
    def speed(self) -> float:
        """Target ground speed (m/s) of this class for the human character."""
        return SPEED_CLASS_SPEEDS[self.value]


#: Speed class name -> rank (still 0 … sprint 4).
SPEED_RANKS: MappingProxyType[str, int] = MappingProxyType({c.value: c.rank for c in SpeedClass})
#: The fastest class's rank.
MAX_SPEED_RANK: int = max(SPEED_RANKS.values())
