"""Distances that several parts must agree on, each named once.

Card
----
- :data:`MOVED_DISTANCE_M` (0.05 m): below this a body did not move in a decision (the env's realized motion,
  C10's per-body reading) and a motion clip has no travel direction (the generators' clip check).
- :data:`SCORED_DISPLACEMENT_M` (0.1 m): below this the *scorers* read a decision's displacement as having no
  direction. It is deliberately twice :data:`MOVED_DISTANCE_M`: the scorers compare the protagonist's pose
  before and after a whole decision, where a standing body's balance sway and a hovering drone's drift reach
  a few centimetres; the official scores were calibrated with 0.1 m, so unifying the two would change them.
- :data:`HUMAN_DANGER_RANGE_M` (2 m): a human this close in a sector makes it ``danger(human)`` — the sim's
  ground-truth rule, which the reference brain's danger map restates from the scene.
"""

from __future__ import annotations

__all__ = ["HUMAN_DANGER_RANGE_M", "MOVED_DISTANCE_M", "SCORED_DISPLACEMENT_M"]

#: Below this displacement (m) a body did not move (a decision) or a clip has no travel direction.
MOVED_DISTANCE_M = 0.05
#: Below this displacement (m) over a decision the scorers read no direction of travel (see the card for why
#: it is not :data:`MOVED_DISTANCE_M`).
SCORED_DISPLACEMENT_M = 0.1
#: A human this close (m) in a sector makes that sector ``danger(human)``.
HUMAN_DANGER_RANGE_M = 2.0
