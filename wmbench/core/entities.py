"""NPC kinds and behaviours: the closed word sets, each behaviour's default speed and its threat rank.

Card
----
- Kinds (:data:`NpcKind`, :data:`NPC_KINDS`): ``beast`` and two humans (:data:`HUMAN_KINDS`: ``woman``, ``man``).
- Behaviours (:data:`Behavior`, :data:`BEHAVIORS`): ``stop``, ``approach``, ``charge``, ``wander``, ``cross``,
  ``retreat``. :data:`PURSUIT_BEHAVIORS` are the two that close in on the protagonist.
- :data:`BEHAVIOR_SPEEDS`: default speed (m/s) of each behaviour; a scenario record may override it.
- :data:`BEHAVIOR_THREAT_RANK`: ONE scale, higher = more threatening (charge 4 > approach 3 > wander = cross 2 >
  stop 1 > retreat 0). A consumer that sorts "most threatening first" negates it (see
  :func:`threat_sort_key`); nothing else keeps a second table on the opposite scale.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

__all__ = [
    "BEAST",
    "BEHAVIORS",
    "BEHAVIOR_ROWS",
    "BEHAVIOR_SPEEDS",
    "BEHAVIOR_THREAT_RANK",
    "HUMAN_KINDS",
    "NPC_KINDS",
    "PURSUIT_BEHAVIORS",
    "STEERINGS",
    "THREAT_BEAST_APPROACH",
    "THREAT_BEAST_CHARGE",
    "THREAT_BEAST_IDLE",
    "THREAT_HUMAN",
    "THREAT_NONE",
    "Behavior",
    "BehaviorRow",
    "NpcKind",
    "Steering",
    "threat_sort_key",
]

#: What an NPC is.
NpcKind = Literal["beast", "woman", "man"]
#: What an NPC does.
Behavior = Literal["stop", "approach", "charge", "wander", "cross", "retreat"]

#: Every NPC kind (record order).
NPC_KINDS: tuple[NpcKind, ...] = ("beast", "woman", "man")
#: The one kind that is dangerous by itself.
BEAST: NpcKind = "beast"
#: The human kinds (dangerous only up close).
HUMAN_KINDS: tuple[NpcKind, ...] = ("woman", "man")
#: Every NPC behaviour (record order).
BEHAVIORS: tuple[Behavior, ...] = ("stop", "approach", "charge", "wander", "cross", "retreat")
#: The behaviours that move towards the protagonist.
PURSUIT_BEHAVIORS: tuple[Behavior, ...] = ("approach", "charge")

#: Threat levels of the ground truth, one ordered scale (higher = more threatening).
THREAT_NONE, THREAT_HUMAN, THREAT_BEAST_IDLE, THREAT_BEAST_APPROACH, THREAT_BEAST_CHARGE = range(5)

#: How an NPC moves each frame: ``hold`` (stands, turns to face the protagonist), ``pursue`` (straight at the
#: protagonist; a human stops at personal space), ``flee`` (straight away from the protagonist), ``roam`` (a
#: random heading, renewed at seeded intervals and when blocked), ``straight`` (its record's fixed heading).
Steering = Literal["hold", "pursue", "flee", "roam", "straight"]
STEERINGS: tuple[Steering, ...] = ("hold", "pursue", "flee", "roam", "straight")


@dataclass(frozen=True)
class BehaviorRow:
    """Everything wmbench reads of one NPC behaviour (see the module card)."""

    #: default speed (m/s); a scenario record may override it
    speed: float
    #: threat rank on the one scale, higher = more threatening
    threat_rank: int
    #: the ground truth's threat level while a nearby beast does this
    beast_threat_level: int
    #: what a beast doing this sounds like in the scene's ``sound`` ("... from the left")
    beast_noise: str
    #: which noise wins when several are audible: lower is louder (humans are quieter than every beast)
    beast_loudness: int
    #: the adjective that names it next to the NPC ("the charging beast")
    adjective: str
    #: how the NPC moves
    steering: Steering


#: One row per behaviour (record order = :data:`BEHAVIORS`).
BEHAVIOR_ROWS: MappingProxyType[str, BehaviorRow] = MappingProxyType({
    "stop": BehaviorRow(0.0, 1, THREAT_BEAST_IDLE, "rustling footsteps", 2, "stationary", "hold"),
    "approach": BehaviorRow(1.2, 3, THREAT_BEAST_APPROACH, "low growl", 1, "approaching", "pursue"),
    "charge": BehaviorRow(5.0, 4, THREAT_BEAST_CHARGE, "roar and pounding paws", 0, "charging", "pursue"),
    "wander": BehaviorRow(0.8, 2, THREAT_BEAST_IDLE, "rustling footsteps", 2, "roaming", "roam"),
    "cross": BehaviorRow(2.0, 2, THREAT_BEAST_IDLE, "rustling footsteps", 2, "crossing", "straight"),
    "retreat": BehaviorRow(1.2, 0, THREAT_BEAST_IDLE, "rustling footsteps", 2, "withdrawing", "flee"),
})
#: Default speed (m/s) of each NPC behaviour; a record may override it.
BEHAVIOR_SPEEDS: MappingProxyType[str, float] = MappingProxyType(
    {name: row.speed for name, row in BEHAVIOR_ROWS.items()})
#: Threat rank of a behaviour, higher = more threatening.
BEHAVIOR_THREAT_RANK: MappingProxyType[str, int] = MappingProxyType(
    {name: row.threat_rank for name, row in BEHAVIOR_ROWS.items()})


def threat_sort_key(behavior: str, unknown_rank: int) -> int:
    """Ascending sort key, most threatening behaviour first (the negated :data:`BEHAVIOR_THREAT_RANK`);
    ``unknown_rank`` is the rank on the same scale given to a behaviour outside :data:`BEHAVIORS`."""
    return -BEHAVIOR_THREAT_RANK.get(behavior, unknown_rank)
