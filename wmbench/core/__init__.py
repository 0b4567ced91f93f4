"""Shared vocabulary of wmbench: the leaf package every other part imports and that imports nothing of ours.

Card
----
- :mod:`~wmbench.core.directions`: fwd/left/right/back and front; their orders, headings, unit vectors, quarter
  turns, opposite/lateral/mirror maps, tolerant word readings, travel phrases; ``wrap_angle``, ``sector_word``.
- :mod:`~wmbench.core.entities`: NPC kinds and behaviours, each behaviour's default speed, one threat-rank scale.
- :mod:`~wmbench.core.speed`: the speed classes (``SpeedClass``), the character's speeds, their ranks.
- :mod:`~wmbench.core.taxonomy`: categories, titles, official scenario ids, pillars and weights, grades, maxima.
- :mod:`~wmbench.core.thresholds`: distances several parts must agree on (did it move, human danger range).
- :mod:`~wmbench.core.errors`: the :class:`~wmbench.core.errors.WMBenchError` hierarchy.

Import from the module that owns a name (``from wmbench.core.directions import OPPOSITE``); this ``__init__``
re-exports nothing. ``tests/core/test_single_source.py`` fails when a copy of these tables reappears elsewhere.
"""
