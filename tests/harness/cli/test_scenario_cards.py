"""`wmbench show` cards: the record's card plus the Rule paragraph generated from the one rule statement."""

from __future__ import annotations

import importlib.util

import pytest

from wmbench.core.registry import Registry
from wmbench.harness.cli.scenario_cards import RULE_STATEMENTS, scenario_card
from wmbench.scenarios import all_scenarios, get_scenario
from wmbench.scoring import c09
from wmbench.scoring.bands import band_text
from wmbench.scoring.c10 import diagnostics
from wmbench.scoring.dispatch import SCENARIO_RULES, official_category
from wmbench.scoring.rules import rule_paragraph

#: every registered scenario with an official id (a new category's scenarios join as they are registered)
OFFICIAL = [s for s in all_scenarios() if official_category(s.id) is not None]


def test_every_official_scenario_has_exactly_one_rule_statement() -> None:
    assert sorted(RULE_STATEMENTS) == sorted(s.id for s in OFFICIAL)
    for sid in RULE_STATEMENTS:
        sources = [sid in SCENARIO_RULES, sid in c09.RULE_TEXT, sid in diagnostics.RULE_TEXT]
        assert sources.count(True) == 1, f"{sid} has its rule stated {sources.count(True)} times"


@pytest.mark.parametrize("record", OFFICIAL, ids=lambda s: s.id)
def test_the_card_shown_ends_with_the_rule_generated_from_its_statement(record) -> None:
    card = scenario_card(record)
    assert card.startswith(record.card) and "Rule:" not in record.card
    assert card.endswith("\n" + rule_paragraph(RULE_STATEMENTS[record.id]))


def test_changing_the_statement_changes_the_card() -> None:
    record = get_scenario("S12")
    changed = scenario_card(record, {**RULE_STATEMENTS, "S12": "Escape to the right: 20, else 0."})
    assert changed.endswith("\nRule: Escape to the right: 20, else 0.") and changed != scenario_card(record)


def test_a_scenario_without_a_rule_statement_keeps_its_own_card() -> None:
    record = get_scenario("S12")
    assert scenario_card(record, {}) == record.card


def test_c09_rules_are_written_from_the_scorers_bands(monkeypatch: pytest.MonkeyPatch) -> None:
    assert band_text(c09.THINK_POINTS_S, "<=", " s") in c09.RULE_TEXT["S41"]
    assert band_text(c09.MEMORY_GROWTH_POINTS, "<=", " %", 100) in c09.RULE_TEXT["S45"]
    # the statement is built from the bands: a second copy of the module, built with another band writer,
    # states other bands (the imported module is left as it is)
    monkeypatch.setattr("wmbench.scoring.bands.band_text",
                        lambda bands, op, unit="", scale=1.0: f"BANDS{len(bands)}")
    # the copy registers its category again: into a fresh registry (a second one is an error)
    monkeypatch.setattr("wmbench.scoring.registry._SCORERS", Registry("category scorer", normalise=str.upper))
    spec = importlib.util.find_spec("wmbench.scoring.c09")
    assert spec is not None and spec.loader is not None
    copy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    assert "p95 over the run: BANDS3, slower = 0" in copy.RULE_TEXT["S41"] and copy.RULE_TEXT != c09.RULE_TEXT


def test_c10_pipeline_checks_are_written_from_their_bands() -> None:
    assert band_text(diagnostics.AGREEMENT_POINTS, ">=") in diagnostics.PIPELINE_RULE_TEXT["S50"]
    assert f"caps at {diagnostics.SERVO_VIOLATION_CAP:g}" in diagnostics.PIPELINE_RULE_TEXT["S48"]
