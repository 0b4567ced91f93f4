"""score_trace dispatch: rules by id and category, unmeasured and caught-before-scoring, rule texts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.scoring.trace_factory import TraceBuilder, npc, truth
from wmbench.protocol.trace import Trace
from wmbench.scoring import RULE_TEXT, score_trace
from wmbench.scoring.dispatch import RULES, TRACE_SCORERS, category_of, official_category
from wmbench.scoring.rules import category_scenario_ids

#: every scenario of every trace-scored category (generated: a new category's scenarios join as it is added)
TRACE_SCORED = sorted(sid for category in TRACE_SCORERS for sid in category_scenario_ids(category))


def test_every_trace_scored_scenario_has_a_rule_and_a_rule_text() -> None:
    assert TRACE_SCORED[:40] == [f"S{i:02d}" for i in range(1, 41)]  # C01-C08 today
    assert sorted(RULES) == TRACE_SCORED and sorted(RULE_TEXT) == TRACE_SCORED
    assert all(len(text) > 40 for text in RULE_TEXT.values())


@pytest.mark.parametrize("sid", TRACE_SCORED)
def test_every_rule_scores_a_plain_trace_without_crashing(sid) -> None:
    b = TraceBuilder(sid)
    b.step(truth(npcs=[npc("beast", "approach", 5.0, "fwd")]), move="back", speed="run",
           motion="a person runs back in fear")
    b.step(truth(), motion="a person walks on warily", move="fwd")
    b.new_phase().step(truth(npcs=[npc("woman", "stop", 3.0, "fwd")]), motion="a person stands")
    result = score_trace(b.build())
    assert result.category == official_category(sid) and result.scenario_id == sid
    assert 0.0 <= result.score <= 20.0 and result.explanation


@pytest.mark.parametrize("sid", ["S41", "S50"])
def test_c09_c10_are_not_scored_here(sid) -> None:
    result = score_trace(TraceBuilder(sid).repeat(1, truth()).build())
    assert not result.measured and "C09/C10" in result.explanation


def test_empty_trace_is_unmeasured() -> None:
    result = score_trace(Trace("S11", 0, "smpl"))
    assert not result.measured and "no decisions" in result.explanation


def test_a_malformed_trace_object_is_a_bug_that_raises() -> None:
    """A decision without its ground truth cannot come from the env or ``Trace.from_dict``: the rule's
    AttributeError is a programming error and surfaces, it is not reported as "not measured"."""
    trace = TraceBuilder("S11").repeat(1, truth(npcs=[npc()])).build()
    trace.decisions[0] = replace(trace.decisions[0], truth=None)
    with pytest.raises(AttributeError):
        score_trace(trace)


@pytest.mark.parametrize("bug", [KeyError("npc_distance"), TypeError("unsupported operand")])
def test_a_rule_that_raises_propagates(monkeypatch, bug) -> None:
    def buggy_rule(trace, banks):
        raise bug

    monkeypatch.setitem(RULES, "S11", buggy_rule)
    with pytest.raises(type(bug), match=str(bug).strip("'")):
        score_trace(TraceBuilder("S11").repeat(1, truth(npcs=[npc()])).build())


def test_caught_before_the_scored_part_is_a_measured_zero() -> None:
    close = truth(npcs=[npc("beast", "charge", 1.0, "fwd")])
    b = TraceBuilder("S31").repeat(2, close, motion="a person stands")
    b.step(truth(npcs=[npc("beast", "charge", 0.5, "fwd")]), motion="a person stands", events=["caught"])
    result = score_trace(b.build())
    assert result.measured and result.score == 0.0 and "caught" in result.explanation


def test_ids_are_normalised_and_user_scenarios_use_the_category_rule() -> None:
    b = TraceBuilder("s1").repeat(1, truth(walls={"fwd": 3.0}))
    assert score_trace(b.build()).scenario_id == "S01"
    user = TraceBuilder("MY01").repeat(1, truth(walls={"fwd": 3.0}))
    user.trace.meta["category"] = "C01"
    assert category_of(user.build()) == "C01" and score_trace(user.build()).score == 20.0
    unknown = score_trace(TraceBuilder("ZZ9").repeat(1, truth()).build())
    assert not unknown.measured


def test_seed_is_carried() -> None:
    assert score_trace(TraceBuilder("S04", seed=7).repeat(1, truth()).build()).seed == 7


def test_trace_round_trips_through_json_and_scores_the_same() -> None:
    b = TraceBuilder("S11").repeat(3, truth(npcs=[npc("beast", "charge", 5.0, "fwd")]), move="left",
                                   speed="sprint", motion="a person sprints left in terror")
    trace = b.build()
    again = Trace.from_dict(trace.to_dict())
    assert score_trace(again) == score_trace(trace)
