"""C01 spatial accuracy: exact / partial / miss per decision, mean, collision cap."""

from __future__ import annotations

import pytest

from tests.scoring.trace_factory import TraceBuilder, all_safe, truth
from wmbench.scoring import score_trace
from wmbench.scoring.thresholds import C01_COLLISION_CAP

CORRIDOR = truth(walls={"left": 1.0, "right": 1.0})


@pytest.mark.parametrize("sid", ["S01", "S02", "S03", "S04", "S05"])
def test_exact_every_decision_is_full_marks(sid) -> None:
    b = TraceBuilder(sid).repeat(4, CORRIDOR, move="fwd")
    s = score_trace(b.build())
    assert s.measured and s.score == 20.0 and s.category == "C01"
    assert [d["points"] for d in s.evidence["decisions"]] == [20.0] * 4


def test_partial_and_miss_average() -> None:
    b = TraceBuilder("S03")
    b.step(CORRIDOR)                                                         # exact 20
    b.step(CORRIDOR, predict={**all_safe(), "left": "danger(wall)"})         # 3 right, a danger found: 10
    b.step(CORRIDOR, predict=all_safe())                                      # 2 right: miss 0
    b.step(CORRIDOR, predict=None, motion="a person walks")                   # parse error: miss 0
    s = score_trace(b.build())
    assert s.score == pytest.approx(7.5)
    assert [d["why"].split(":")[0] for d in s.evidence["decisions"]] == ["exact", "partial", "miss", "miss"]


def test_collision_caps_the_scenario() -> None:
    b = TraceBuilder("S01")
    wall = truth(walls={"fwd": 0.5})
    b.repeat(3, wall)
    b.step(wall, move="fwd", events=["collision:wall"])
    s = score_trace(b.build())
    assert s.evidence["raw"] == 20.0 and s.score == C01_COLLISION_CAP
    assert s.evidence["sim"]["collisions"] == [3]


def test_null_brain_gets_nothing_where_there_are_walls() -> None:
    b = TraceBuilder("S02").repeat(4, truth(walls={"fwd": 2.0, "left": 1.5}), predict=all_safe())
    assert score_trace(b.build()).score == 0.0
    b = TraceBuilder("S04").repeat(4, truth(), predict=all_safe())
    assert score_trace(b.build()).score == 20.0
