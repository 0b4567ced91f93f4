"""Behaviours are rows (issue 25 item 3): every behaviour has a complete row, and nothing keeps a second table.

The rows are read, not copied: perception's noise and threat level, the NPC's stepping and the reference
wording all come from :data:`~wmbench.core.entities.BEHAVIOR_ROWS` (``tests/envs/test_npc.py`` steps every
behaviour by its row; ``tests/core/test_single_source.py`` fails on a copied behaviour table).
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import get_args

import pytest

from wmbench.core.entities import (
    BEHAVIOR_ROWS,
    BEHAVIOR_SPEEDS,
    BEHAVIOR_THREAT_RANK,
    BEHAVIORS,
    STEERINGS,
    THREAT_BEAST_CHARGE,
    THREAT_BEAST_IDLE,
    Behavior,
    Steering,
)


def test_the_closed_word_sets_and_the_rows_name_the_same_behaviours():
    assert set(get_args(Behavior)) == set(BEHAVIORS) == set(BEHAVIOR_ROWS)
    assert tuple(BEHAVIOR_ROWS) == BEHAVIORS  # record order
    assert set(get_args(Steering)) == set(STEERINGS)


@pytest.mark.parametrize("behavior", BEHAVIORS)
def test_every_behaviour_row_is_complete(behavior):
    row = BEHAVIOR_ROWS[behavior]
    for field in dataclasses.fields(row):
        value = getattr(row, field.name)
        assert value is not None and value != "", f"{behavior}: {field.name} is empty"
    assert row.speed >= 0.0
    assert row.steering in STEERINGS
    assert THREAT_BEAST_IDLE <= row.beast_threat_level <= THREAT_BEAST_CHARGE
    assert row.beast_noise.strip() == row.beast_noise and row.adjective.isalpha()
    # the views agree with the rows
    assert BEHAVIOR_SPEEDS[behavior] == row.speed and BEHAVIOR_THREAT_RANK[behavior] == row.threat_rank


def test_a_more_threatening_behaviour_is_never_quieter_or_a_lower_threat_level():
    ranked = sorted(BEHAVIOR_ROWS.values(), key=lambda r: r.threat_rank)
    for lower, higher in itertools.pairwise(ranked):
        assert higher.beast_threat_level >= lower.beast_threat_level
        assert higher.beast_loudness <= lower.beast_loudness


def test_a_behaviour_adjective_is_not_read_as_the_bodys_own_motion():
    """The words that name a behaviour next to an NPC ("the charging beast") must not move the body."""
    from wmbench.body.intent.reader import parse_motion

    calm = parse_motion("a person stands still, watching the beast")
    for behavior, row in BEHAVIOR_ROWS.items():
        intent = parse_motion(f"a person stands still, watching the {row.adjective} beast")
        assert (intent.direction, intent.speed_class) == (calm.direction, calm.speed_class), behavior
