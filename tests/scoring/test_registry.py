"""The category scorer registry: every category C01–C10 registered exactly once, by its own module's decorator;
registration mistakes are one clear error; and checks generated from the registry, so a new category is
covered as it is added."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.scoring.trace_factory import TraceBuilder, npc, truth
from wmbench.core.registry import Registry
from wmbench.core.taxonomy import CATEGORIES, HARNESS_MEASURED_CATEGORIES, TRACE_SCORED_CATEGORIES
from wmbench.scenarios import get_scenario
from wmbench.scoring import registry
from wmbench.scoring.dispatch import SCENARIO_RULES
from wmbench.scoring.keywords import load_banks
from wmbench.scoring.registry import (
    CategoryRegistrationError,
    category_scorer,
    category_scorers,
    measured_category,
)
from wmbench.scoring.report_types import ScenarioScore
from wmbench.scoring.rules import category_scenario_ids

PACKAGE_DIR = Path(registry.__file__).resolve().parents[1]
SCORERS = category_scorers()


def _decorated_categories() -> list[tuple[str, str]]:
    """(category, file under wmbench/) for every ``@category_scorer(...)`` / ``@measured_category(...)``."""
    found = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for deco in node.decorator_list:
                    if (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Name)
                            and deco.func.id in {"category_scorer", "measured_category"}
                            and isinstance(deco.args[0], ast.Constant)):
                        found.append((str(deco.args[0].value), path.relative_to(PACKAGE_DIR).as_posix()))
    return found


def test_every_taxonomy_category_is_registered_exactly_once_in_the_source() -> None:
    decorated = _decorated_categories()
    assert sorted(category for category, _ in decorated) == sorted(CATEGORIES)
    assert list(SCORERS) == list(CATEGORIES)
    # each category is registered by its own module: scoring/<id>.py, or a module of the package scoring/<id>/
    assert all(file == f"scoring/{category.lower()}.py" or file.startswith(f"scoring/{category.lower()}/")
               for category, file in decorated), decorated


def test_the_registry_agrees_with_the_taxonomy_on_how_each_category_is_scored() -> None:
    assert tuple(c for c, s in SCORERS.items() if s.from_traces) == TRACE_SCORED_CATEGORIES
    assert tuple(c for c, s in SCORERS.items() if s.measured_by is not None) == HARNESS_MEASURED_CATEGORIES
    assert {c: s.measured_by for c, s in SCORERS.items() if not s.from_traces} == {"C09": "live",
                                                                                 "C10": "transfer"}


def test_a_second_registration_of_a_category_is_a_clear_error() -> None:
    def another_c03_rule(trace, banks):  # pragma: no cover - never called
        raise AssertionError

    with pytest.raises(CategoryRegistrationError,
                       match=r"category C03 is registered twice: by wmbench\.scoring\.c03 and by tests\.scoring"):
        category_scorer("c03")(another_c03_rule)
    with pytest.raises(CategoryRegistrationError, match="C10 is registered twice"):
        measured_category("C10", mode="transfer")(another_c03_rule)
    assert category_scorers()["C03"].module == "wmbench.scoring.c03"   # the first registration stands


def test_a_category_the_taxonomy_does_not_know_is_refused_with_a_suggestion() -> None:
    with pytest.raises(CategoryRegistrationError, match=r"registers category 'C11'; expected one of"):
        category_scorer("C11")(lambda trace, banks: None)  # type: ignore[arg-type,return-value]
    with pytest.raises(CategoryRegistrationError, match="did you mean 'C03'"):
        category_scorer("C3")(lambda trace, banks: None)  # type: ignore[arg-type,return-value]
    assert "C11" not in category_scorers()


def test_a_category_module_that_does_not_register_itself_is_a_clear_error(monkeypatch) -> None:
    # a fresh registry: wmbench.scoring.c01 is already imported, so importing it again registers nothing
    monkeypatch.setattr(registry, "_SCORERS", Registry("category scorer", normalise=str.upper))
    monkeypatch.setattr(registry, "_loaded", [])
    monkeypatch.setattr(registry, "CATEGORIES", ("C01",))
    with pytest.raises(CategoryRegistrationError,
                       match=r"category C01 \(core/taxonomy.py\) has no scorer: expected wmbench.scoring.c01"):
        category_scorers()


def test_a_taxonomy_category_without_a_scorer_module_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.setattr(registry, "_loaded", [])
    monkeypatch.setattr(registry, "CATEGORIES", (*CATEGORIES, "C11"))
    with pytest.raises(CategoryRegistrationError, match=r"C11 .* expected a module wmbench\.scoring\.c11"):
        category_scorers()


# ---------------------------------------------------------------- generated from the registry


@pytest.mark.parametrize("category", list(SCORERS))
def test_each_registered_category_has_its_five_scenarios_in_the_matching_mode(category: str) -> None:
    scorer = SCORERS[category]
    ids = category_scenario_ids(category)
    assert len(ids) == 5
    for sid in ids:
        record = get_scenario(sid)
        assert record.category == category
        assert record.mode == (scorer.measured_by or "bench"), sid


@pytest.mark.parametrize("category", [c for c, s in SCORERS.items() if s.from_traces])
def test_each_trace_category_has_a_rule_for_every_official_scenario_and_a_generic_rule(category: str) -> None:
    scorer = SCORERS[category]
    rules = scorer.scenario_rules()
    assert sorted(rules) == list(category_scenario_ids(category))
    assert all(SCENARIO_RULES[sid] == rule for sid, rule in rules.items())
    assert all(rule.statement is sys.modules[scorer.module].RULE_TEXT[sid] for sid, rule in rules.items())
    # the generic rule scores a user scenario's trace (one the official rules do not name) as this category
    builder = TraceBuilder(category_scenario_ids(category)[0])
    builder.step(truth(npcs=[npc("beast", "approach", 5.0, "fwd")]), move="back", speed="run",
                 motion="a person runs back in fear")
    builder.step(truth(), motion="a person walks on warily", move="fwd")
    assert scorer.generic_rule is not None
    result = scorer.generic_rule(builder.build(), load_banks())
    assert isinstance(result, ScenarioScore) and result.category == category
    assert 0.0 <= result.score <= 20.0


@pytest.mark.parametrize("category", [c for c, s in SCORERS.items() if not s.from_traces])
def test_a_measured_category_has_no_trace_rules(category: str) -> None:
    with pytest.raises(CategoryRegistrationError, match="measured by the"):
        SCORERS[category].scenario_rules()
