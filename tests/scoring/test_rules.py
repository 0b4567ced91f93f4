"""Rule tables: each official scenario's rule is stated once, and a rule for an id no category owns fails
loudly instead of being ignored."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from wmbench.core.errors import WMBenchError
from wmbench.core.registry import Registry
from wmbench.scoring import c01, c03
from wmbench.scoring.bands import band_text
from wmbench.scoring.dispatch import SCENARIO_RULES
from wmbench.scoring.registry import trace_scorers
from wmbench.scoring.rules import (
    RuleTableError,
    category_scenario_ids,
    rule_paragraph,
    rule_table,
)


def test_the_table_holds_one_rule_per_official_c01_c08_scenario_with_its_scorer() -> None:
    # generated from the registered category modules: a new trace-scored category is covered as it is added
    scorers = trace_scorers()
    assert sorted(SCENARIO_RULES) == sorted(sid for c in scorers for sid in category_scenario_ids(c))
    assert len(SCENARIO_RULES) == 5 * len(scorers)
    for sid, rule in SCENARIO_RULES.items():
        module = sys.modules[scorers[rule.category].module]
        assert sid in category_scenario_ids(rule.category)
        assert rule.statement is module.RULE_TEXT[sid] and rule.score is module.RULES[sid]


@pytest.mark.parametrize(("category", "ids"), [
    ("C01", ("S01", "S02", "S03", "S04", "S05")), ("C10", ("S46", "S47", "S48", "S49", "S50")),
    ("C11", ()), ("X", ()),
])
def test_category_scenario_ids_follow_the_official_numbering(category: str, ids: tuple[str, ...]) -> None:
    assert category_scenario_ids(category) == ids


@pytest.mark.parametrize(("statements", "scorers", "says"), [
    ({"S51": "a rule for a scenario past S50"}, None, "got S51"),
    ({"X01": "a user id"}, None, "got X01"),
    ({"S12": "another category's scenario"}, None, "got S12"),
    ({"S01": "fine"}, {"S01": c01.score_spatial, "S02": c01.score_spatial}, "S02 with only one of them"),
    ({"S01": "  "}, None, "empty one for S01"),
], ids=["above-S50", "user-id", "other-category", "scorer-without-statement", "empty"])
def test_a_rule_no_category_owns_is_refused_loudly(statements, scorers, says) -> None:
    with pytest.raises(RuleTableError, match=says) as err:
        rule_table("C01", statements, scorers)
    assert isinstance(err.value, WMBenchError) and "\n" not in str(err.value)


def test_a_category_module_with_a_rule_above_s50_fails_at_table_build() -> None:
    with pytest.raises(RuleTableError, match="C03 rules: expected scenario ids among S11, S12, S13, S14, S15, "
                                             "got S51"):
        rule_table("C03", {**c03.RULE_TEXT, "S51": "x"}, {**c03.RULES, "S51": c03.score_prediction_decision})


def test_rule_paragraph_wraps_the_statement_it_is_given() -> None:
    paragraph = rule_paragraph("one " * 60, width=50)
    assert paragraph.startswith("Rule: one one") and max(map(len, paragraph.splitlines())) <= 50
    assert " ".join(paragraph.split()) == "Rule: " + " ".join(["one"] * 60)


def test_band_text_writes_the_bands_a_scorer_uses() -> None:
    assert band_text(((45.0, 20.0), (30.0, 15.0)), ">=") == ">= 45 = 20, >= 30 = 15"
    assert band_text(((0.01, 20.0), (0.05, 15.0)), "<=", " %", 100) == "<= 1 % = 20, <= 5 % = 15"


def test_a_rule_statement_is_written_from_the_points_its_scorer_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second copy of the C01 module, built with other spatial points, states those points (the imported
    module is left as it is)."""
    assert "Exact (all four right) 20, partial" in c01.RULE_TEXT["S01"]
    monkeypatch.setattr("wmbench.scoring.evidence.SPATIAL_POINTS", {"exact": 19.0, "partial": 7.0, "miss": 1.0})
    # the copy registers its category again: into a fresh registry (a second one is an error)
    monkeypatch.setattr("wmbench.scoring.registry._SCORERS", Registry("category scorer", normalise=str.upper))
    spec = importlib.util.find_spec("wmbench.scoring.c01")
    assert spec is not None and spec.loader is not None
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    assert "Exact (all four right) 19, partial" in copy.RULE_TEXT["S01"] and "flagged) 7, miss 1;" in \
        copy.RULE_TEXT["S01"]
