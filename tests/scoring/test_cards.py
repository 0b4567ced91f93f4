"""Every C01–C08 scenario card states exactly the rule its scorer implements."""

import re

import pytest

from wmbench.scenarios import all_scenarios
from wmbench.scoring import RULE_TEXT

BENCH = [s for s in all_scenarios() if s.mode == "bench"]


def _rule_paragraph(card: str) -> str:
    match = re.search(r"Rule:\s*(.*)\Z", card, flags=re.S)
    assert match, "card has no Rule: paragraph"
    return " ".join(match.group(1).split())


@pytest.mark.parametrize("record", BENCH, ids=lambda s: s.id)
def test_card_rule_matches_scorer(record):
    assert record.id in RULE_TEXT, f"{record.id} has no scorer rule text"
    assert _rule_paragraph(record.card) == " ".join(RULE_TEXT[record.id].split())
