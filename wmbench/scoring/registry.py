"""Category scorers, registered by decorator: which module scores each category C01–C10, and how.

Card
----
- A category module registers itself with one decorator line (as Inspect AI registers its scorers):

  - ``@category_scorer("C03")`` on its *generic rule* — the scorer of a user scenario of the category that has
    no rule of its own. The module's ``RULE_TEXT`` (statements) and ``RULES`` (scorers) are its official
    scenarios' rules, read by :meth:`CategoryScorer.scenario_rules` once the module has finished importing.
  - ``@measured_category("C09", mode="live")`` on the rule of a category the harness measures outside bench
    episodes (C09 live runs, C10 transfer runs): its scores come from the measurer registered for that
    run mode (:func:`wmbench.harness.run.measure.measurer`).
- :func:`category_scorers` is the filled registry, category -> :class:`CategoryScorer`, in taxonomy order. It
  fills itself on first read by importing ``wmbench.scoring.<id>`` for every category of
  :data:`~wmbench.core.taxonomy.CATEGORIES` (the category's id names its scorer module, or its package whose
  ``__init__`` imports the registering module, as ``scoring/c10/`` does), so no caller has to
  import the category modules first: there is no import-order trap. A taxonomy category whose module does not
  register it, a second registration of a category, or a category the taxonomy does not know is one
  :class:`CategoryRegistrationError` line.
- Adding a category touches its scenario module, its scorer module ``scoring/cNN.py`` (with the decorator) and
  ``core/taxonomy.py``; ``tests/scoring/test_registry.py`` checks every registered category from the registry.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from wmbench.core.errors import ConfigError
from wmbench.core.registry import Registry
from wmbench.core.suggest import nearest
from wmbench.core.taxonomy import CATEGORIES
from wmbench.protocol.trace import Trace
from wmbench.scenarios.records import RunMode
from wmbench.scoring.keywords import KeywordBanks
from wmbench.scoring.report_types import ScenarioScore
from wmbench.scoring.rules import ScenarioRule, rule_table

#: a rule that scores one episode's trace of a C01–C08 scenario
TraceRule = Callable[[Trace, KeywordBanks], ScenarioScore]
#: any callable a measured category registers (its rule reads the measurer's records, not a trace)
AnyRule = TypeVar("AnyRule", bound=Callable[..., object])

#: the package whose ``<category id>`` modules score the categories (``wmbench.scoring.c03``)
SCORER_PACKAGE = "wmbench.scoring"


class CategoryRegistrationError(ConfigError):
    """A category scorer registered twice, for a category the taxonomy does not know, or not at all."""


@dataclass(frozen=True)
class CategoryScorer:
    """How one category is scored: by ``generic_rule`` and its module's rule table from traces (C01–C08), or by
    the measurer of run mode ``measured_by`` (C09 ``live``, C10 ``transfer``)."""

    category: str
    module: str
    generic_rule: TraceRule | None = None
    measured_by: RunMode | None = None

    @property
    def from_traces(self) -> bool:
        """True for a category scored from bench-episode traces (it has a generic rule)."""
        return self.generic_rule is not None

    def scenario_rules(self) -> dict[str, ScenarioRule]:
        """The official scenarios' rules of a trace-scored category: its module's ``RULE_TEXT`` paired with its
        ``RULES`` by :func:`~wmbench.scoring.rules.rule_table` (which refuses an id outside the category)."""
        if self.generic_rule is None:
            raise CategoryRegistrationError(
                f"{self.category} is measured by the {self.measured_by!r} measurer; expected a trace-scored "
                f"category (one of {', '.join(trace_scorers())}), got {self.category}")
        module = sys.modules[self.module]
        statements: Mapping[str, str] = module.RULE_TEXT
        scorers: Mapping[str, TraceRule] = module.RULES
        return rule_table(self.category, statements, scorers)


_SCORERS: Registry[CategoryScorer] = Registry("category scorer", normalise=lambda name: name.strip().upper())
_loaded: list[bool] = []   # non-empty once every taxonomy category's module has been imported


def _register(entry: CategoryScorer) -> None:
    if entry.category not in CATEGORIES:
        hint = nearest(entry.category, CATEGORIES)
        raise CategoryRegistrationError(
            f"{entry.module} registers category {entry.category!r}; expected one of core/taxonomy.py's "
            f"categories ({', '.join(CATEGORIES)}){f', did you mean {hint!r}?' if hint else ''}")
    if entry.category in _SCORERS.registered():
        first = _SCORERS.get(entry.category).module
        raise CategoryRegistrationError(
            f"category {entry.category} is registered twice: by {first} and by {entry.module}; expected one "
            f"scorer module per category")
    _SCORERS.register(entry.category, entry)


def category_scorer(category: str) -> Callable[[TraceRule], TraceRule]:
    """Decorator: register the decorated trace rule as ``category``'s generic rule (its module's ``RULE_TEXT``
    and ``RULES`` are the official scenarios' rules); the function is returned unchanged."""
    def register(rule: TraceRule) -> TraceRule:
        _register(CategoryScorer(category.strip().upper(), rule.__module__, generic_rule=rule))
        return rule
    return register


def measured_category(category: str, *, mode: RunMode) -> Callable[[AnyRule], AnyRule]:
    """Decorator: register ``category`` as measured by the harness's ``mode`` measurer; the decorated callable
    (the category's rule on the measurer's records) is returned unchanged."""
    def register(rule: AnyRule) -> AnyRule:
        _register(CategoryScorer(category.strip().upper(), rule.__module__, measured_by=mode))
        return rule
    return register


def _load_all() -> None:
    """Import every taxonomy category's scorer module once (each registers itself as it is imported)."""
    if _loaded:
        return
    for category in CATEGORIES:
        module = f"{SCORER_PACKAGE}.{category.lower()}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise  # the scorer module exists; something it imports does not
            raise CategoryRegistrationError(
                f"category {category} (core/taxonomy.py) has no scorer: expected a module {module}, got none"
            ) from None
        if category not in _SCORERS.registered():
            raise CategoryRegistrationError(
                f"category {category} (core/taxonomy.py) has no scorer: expected {module} to register it with "
                f"@category_scorer({category!r}) or @measured_category({category!r}, mode=...), got none")
    _loaded.append(True)


def category_scorers() -> Mapping[str, CategoryScorer]:
    """Every category's scorer, category -> :class:`CategoryScorer`, in taxonomy order (filled on first read)."""
    _load_all()
    return MappingProxyType({category: _SCORERS.get(category) for category in CATEGORIES})


def trace_scorers() -> Mapping[str, CategoryScorer]:
    """The categories scored from traces (C01–C08), category -> :class:`CategoryScorer`."""
    return MappingProxyType({c: s for c, s in category_scorers().items() if s.from_traces})


def measured_modes() -> Mapping[str, RunMode]:
    """The categories the harness measures, category -> the run mode whose measurer scores them."""
    return MappingProxyType({c: s.measured_by for c, s in category_scorers().items() if s.measured_by is not None})
