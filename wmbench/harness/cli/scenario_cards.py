"""A scenario's card with its rule: the record's card (title, setup, expectations, family) plus the
``Rule:`` paragraph generated from the one statement of the rule its scorer applies.

Card
----
- :data:`RULE_STATEMENTS`: every official scenario's rule statement, from where it is stated once — the C01–C08
  scorers' rule table (:data:`wmbench.scoring.dispatch.SCENARIO_RULES`), the C09 live rules
  (:data:`wmbench.scoring.c09.RULE_TEXT`) and the C10 transfer rule
  (:data:`wmbench.scoring.c10.diagnostics.RULE_TEXT`).
- :func:`scenario_card`: ``record.card`` followed by the rule paragraph
  (:func:`~wmbench.scoring.rules.rule_paragraph`). The scenario records never carry the official
  rules themselves (``scenarios`` does not import the scorers); a user scenario with no registered rule keeps
  its card as written (its own ``Rule:`` paragraph, if its docstring has one).
"""

from __future__ import annotations

from collections.abc import Mapping

from wmbench.scenarios import Scenario
from wmbench.scoring import c09
from wmbench.scoring.c10 import diagnostics
from wmbench.scoring.dispatch import RULE_TEXT as TRACE_RULE_TEXT
from wmbench.scoring.rules import rule_paragraph, rule_table

#: checked like the C01–C08 tables (:func:`~wmbench.scoring.rules.rule_table`): an id outside C09/C10 fails
RULE_STATEMENTS: Mapping[str, str] = {
    **TRACE_RULE_TEXT,
    **{sid: rule.statement for sid, rule in rule_table("C09", c09.RULE_TEXT).items()},
    **{sid: rule.statement for sid, rule in rule_table("C10", diagnostics.RULE_TEXT).items()},
}


def scenario_card(record: Scenario, statements: Mapping[str, str] = RULE_STATEMENTS) -> str:
    """The card ``wmbench show`` prints: the record's card and, for a scenario with a rule in
    ``statements``, its generated ``Rule:`` paragraph."""
    statement = statements.get(record.id)
    if statement is None:
        return record.card
    return f"{record.card}\n{rule_paragraph(statement)}"
