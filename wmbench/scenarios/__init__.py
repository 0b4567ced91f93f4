"""WHAT is tested: the 50 WM Bench scenarios as frozen declarative records (no simulator, no I/O)."""

from wmbench.scenarios import (  # noqa: F401  (importing registers the records)
    c01_environmental_awareness,
    c02_entity_recognition,
    c03_predictive_reasoning,
    c04_threat_differentiation,
    c05_emotional_escalation,
    c06_contextual_memory,
    c07_threat_resolution,
    c08_motion_expressiveness,
    c09_realtime_performance,
    c10_cross_body_transfer,
)
from wmbench.scenarios.records import (
    Expectations,
    NpcSpec,
    Phase,
    PriorDecision,
    Scenario,
    TimelineEvent,
    Wall,
)
from wmbench.scenarios.registry import all_scenarios, get_scenario, register, scenario, select

__all__ = [
    "Expectations", "NpcSpec", "Phase", "PriorDecision", "Scenario", "TimelineEvent", "Wall", "all_scenarios",
    "get_scenario", "register", "scenario", "select",
]
