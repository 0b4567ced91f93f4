"""Scenario rules, each stated once: the statement a scorer is registered with is the text every card shows.

Card
----
- :class:`ScenarioRule`: an official scenario's id, category, its rule in words (``statement``, the one source
  of the card's ``Rule:`` paragraph) and the scorer that applies it (None for the categories the harness
  measures, C09 live and C10 transfer).
- :func:`rule_table` builds a category's rules from its ``RULE_TEXT`` (statements) and ``RULES`` (scorers)
  and refuses, with one :class:`RuleTableError` line, a rule for an id that is not one of the category's
  official scenarios (``S51``, ``X01``, another category's ``S12``) or a scorer without a statement (and the
  reverse) — nothing is silently ignored.
- :func:`rule_paragraph` renders a statement as the card's ``Rule:`` paragraph (wrapped like the cards).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from wmbench.core.errors import WMBenchError
from wmbench.core.taxonomy import CATEGORY_SCENARIOS

#: the width the scenario cards are wrapped at
CARD_WIDTH = 110


class RuleTableError(WMBenchError):
    """A category's rule table names a scenario it cannot score, or pairs statements and scorers unevenly."""


@dataclass(frozen=True)
class ScenarioRule:
    """One official scenario's rule: what it says (``statement``) and what applies it (``score``)."""

    scenario_id: str
    category: str
    statement: str
    score: Callable[..., Any] | None = None


def category_scenario_ids(category: str) -> tuple[str, ...]:
    """The five official scenario ids of ``category`` (``C03`` -> S11..S15); () for an unknown category."""
    text = category.strip().upper()
    if not (text.startswith("C") and text[1:].isdigit()):
        return ()
    return CATEGORY_SCENARIOS.get(f"C{int(text[1:]):02d}", ())


def rule_table(category: str, statements: Mapping[str, str],
               scorers: Mapping[str, Callable[..., Any]] | None = None) -> dict[str, ScenarioRule]:
    """The rules of ``category`` by scenario id; :class:`RuleTableError` for an id outside the category's
    official scenarios, an empty statement, or (``scorers`` given) ids that do not match the statements."""
    allowed = category_scenario_ids(category)
    unknown = sorted(set(statements) - set(allowed))
    if scorers is not None:
        unknown = sorted(set(unknown) | (set(scorers) - set(allowed)))
    if unknown:
        raise RuleTableError(f"{category} rules: expected scenario ids among {', '.join(allowed) or 'none'}, "
                             f"got {', '.join(unknown)}")
    if scorers is not None and set(scorers) != set(statements):
        uneven = sorted(set(scorers) ^ set(statements))
        raise RuleTableError(f"{category} rules: expected a statement for every scorer and a scorer for every "
                             f"statement, got {', '.join(uneven)} with only one of them")
    empty = sorted(sid for sid, text in statements.items() if not text.strip())
    if empty:
        raise RuleTableError(f"{category} rules: expected a statement for every rule, got an empty one for "
                             f"{', '.join(empty)}")
    return {sid: ScenarioRule(sid, category, statements[sid], scorers[sid] if scorers is not None else None)
            for sid in sorted(statements)}


def rule_paragraph(statement: str, width: int = CARD_WIDTH) -> str:
    """``Rule: <statement>`` wrapped at ``width`` as the cards are."""
    return textwrap.fill(f"Rule: {' '.join(statement.split())}", width=width, break_long_words=False,
                         break_on_hyphens=False)
