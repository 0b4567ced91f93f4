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

from types import MappingProxyType
from typing import Literal

__all__ = [
    "BEAST", "BEHAVIORS", "BEHAVIOR_SPEEDS", "BEHAVIOR_THREAT_RANK", "HUMAN_KINDS", "NPC_KINDS", "PURSUIT_BEHAVIORS",
    "Behavior", "NpcKind", "threat_sort_key",
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

#: Default speed (m/s) of each NPC behaviour; a record may override it.
BEHAVIOR_SPEEDS: MappingProxyType[str, float] = MappingProxyType({
    "stop": 0.0, "approach": 1.2, "charge": 5.0, "wander": 0.8, "cross": 2.0, "retreat": 1.2,
})
#: Threat rank of a behaviour, higher = more threatening.
BEHAVIOR_THREAT_RANK: MappingProxyType[str, int] = MappingProxyType({
    "charge": 4, "approach": 3, "wander": 2, "cross": 2, "stop": 1, "retreat": 0,
})


def threat_sort_key(behavior: str, unknown_rank: int) -> int:
    """Ascending sort key, most threatening behaviour first (the negated :data:`BEHAVIOR_THREAT_RANK`);
    ``unknown_rank`` is the rank on the same scale given to a behaviour outside :data:`BEHAVIORS`."""
    return -BEHAVIOR_THREAT_RANK.get(behavior, unknown_rank)
