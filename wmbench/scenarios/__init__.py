"""WHAT is tested: the 50 WM Bench scenarios as frozen declarative records (no simulator, no I/O).

Each category of :data:`~wmbench.core.taxonomy.CATEGORIES` has one module ``scenarios/<id>_<name>.py``
(``c03_predictive_reasoning.py``) whose records register themselves as it is imported; importing this package
imports every one of them, found by the category's id, so a new category's module needs no line here. A
taxonomy category with no module, or with two, is one :class:`~wmbench.core.errors.ConfigError` line.
"""

import importlib
import pkgutil

from wmbench.core.errors import ConfigError
from wmbench.core.taxonomy import CATEGORIES
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


def _import_category_modules() -> None:
    """Import ``scenarios/<id>_*.py`` for every taxonomy category, in taxonomy order (each registers its
    records)."""
    modules = sorted(info.name for info in pkgutil.iter_modules(__path__))
    for category in CATEGORIES:
        found = [name for name in modules if name.startswith(f"{category.lower()}_")]
        if len(found) != 1:
            raise ConfigError(f"category {category} (core/taxonomy.py): expected one scenario module "
                              f"wmbench/scenarios/{category.lower()}_<name>.py, got {found or 'none'}")
        importlib.import_module(f"{__name__}.{found[0]}")


_import_category_modules()

__all__ = [
    "Expectations", "NpcSpec", "Phase", "PriorDecision", "Scenario", "TimelineEvent", "Wall", "all_scenarios",
    "get_scenario", "register", "scenario", "select",
]
