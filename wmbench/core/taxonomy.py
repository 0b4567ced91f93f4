"""The WM Bench v1.0 taxonomy: ten categories in three pillars, 50 scenarios, the pillar weights and the grades.

Card
----
- :data:`CATEGORIES` ``C01``–``C10`` (:data:`TRACE_SCORED_CATEGORIES` C01–C08 are scored from traces);
  :data:`CATEGORY_TITLES` their display titles (spec wording);
  :data:`CATEGORY_SCENARIOS` the five official scenario ids of each (C01: S01–S05, …, C10: S46–S50).
- :data:`PILLARS` pillar -> its categories; :data:`CATEGORY_PILLARS` the inverse; :data:`PILLAR_TITLES`;
  :data:`PILLAR_RESCALED_MAX` each pillar's share of the 1000-point WM Score (250/450/300).
- :data:`SCENARIO_MAX_POINTS` (20), :data:`CATEGORY_MAX_POINTS` (100), :data:`WM_SCORE_MAX` (1000).
- :data:`GRADE_THRESHOLDS` letter -> lowest WM Score (S 900, A 750, B 600, C 400, D 200, F 0), best first.
"""

from __future__ import annotations

from types import MappingProxyType

__all__ = [
    "CATEGORIES",
    "CATEGORY_MAX_POINTS",
    "CATEGORY_PILLARS",
    "CATEGORY_SCENARIOS",
    "CATEGORY_TITLES",
    "GRADE_THRESHOLDS",
    "HARNESS_MEASURED_CATEGORIES",
    "OFFICIAL_SCENARIO_COUNT",
    "PILLARS",
    "PILLAR_RESCALED_MAX",
    "PILLAR_TITLES",
    "SCENARIOS_PER_CATEGORY",
    "SCENARIO_MAX_POINTS",
    "TRACE_SCORED_CATEGORIES",
    "WM_SCORE_MAX",
]

#: Points of one scenario (five make a category's 100).
SCENARIO_MAX_POINTS = 20.0
#: Points of one category.
CATEGORY_MAX_POINTS = 100.0
#: The WM Score's maximum (the pillars rescaled: 250 + 450 + 300).
WM_SCORE_MAX = 1000.0

#: The official scenarios per category.
SCENARIOS_PER_CATEGORY = 5
#: The ten categories.
CATEGORIES: tuple[str, ...] = tuple(f"C{i:02d}" for i in range(1, 11))
#: The categories the harness measures itself (C09 live timing, C10 transfer across bodies).
HARNESS_MEASURED_CATEGORIES: tuple[str, ...] = ("C09", "C10")
#: The categories scored from a bench episode's trace (C01–C08).
TRACE_SCORED_CATEGORIES: tuple[str, ...] = tuple(c for c in CATEGORIES if c not in HARNESS_MEASURED_CATEGORIES)
#: The official scenarios (S01–S50).
OFFICIAL_SCENARIO_COUNT = SCENARIOS_PER_CATEGORY * len(CATEGORIES)
#: Display titles of the ten categories (WM Bench v1.0).
CATEGORY_TITLES: MappingProxyType[str, str] = MappingProxyType({
    "C01": "Environmental Awareness", "C02": "Entity Recognition", "C03": "Predictive Reasoning",
    "C04": "Threat Differentiation", "C05": "Emotional Escalation", "C06": "Contextual Memory",
    "C07": "Threat Resolution", "C08": "Motion Expressiveness", "C09": "Real-time Performance",
    "C10": "Cross-body Transfer",
})
#: The official scenario ids of each category (C01: S01–S05, …).
CATEGORY_SCENARIOS: MappingProxyType[str, tuple[str, ...]] = MappingProxyType({
    c: tuple(f"S{SCENARIOS_PER_CATEGORY * k + j:02d}" for j in range(1, SCENARIOS_PER_CATEGORY + 1))
    for k, c in enumerate(CATEGORIES)
})
#: Pillar -> its categories.
PILLARS: MappingProxyType[str, tuple[str, ...]] = MappingProxyType({
    "P1": ("C01", "C02"), "P2": ("C03", "C04", "C05", "C06", "C07"), "P3": ("C08", "C09", "C10"),
})
#: Category -> its pillar.
CATEGORY_PILLARS: MappingProxyType[str, str] = MappingProxyType(
    {c: p for p, cats in PILLARS.items() for c in cats})
#: Pillar titles (spec wording).
PILLAR_TITLES: MappingProxyType[str, str] = MappingProxyType(
    {"P1": "Perception", "P2": "Cognition", "P3": "Embodiment"})
#: Each pillar's share of the 1000-point WM Score.
PILLAR_RESCALED_MAX: MappingProxyType[str, float] = MappingProxyType({"P1": 250.0, "P2": 450.0, "P3": 300.0})
#: Grade letter -> the lowest WM Score that earns it, best first.
GRADE_THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("S", 900.0), ("A", 750.0), ("B", 600.0), ("C", 400.0), ("D", 200.0), ("F", 0.0),
)
