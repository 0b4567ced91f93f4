"""The latency–accuracy frontier (issue 27 item 3): late answers cost points in bench mode, deterministically."""

from __future__ import annotations

import json

import pytest

from wmbench.brain.registry import get_brain
from wmbench.harness.cli.main import main
from wmbench.harness.frontier.budgets import (
    ThinkingBrain,
    TokenBudgetBrain,
    WallClockThinkingBrain,
    cut_to_tokens,
    delay_decisions,
)
from wmbench.harness.frontier.curve import area_under, measure_frontier
from wmbench.harness.run.episode import run_episode


def test_think_time_becomes_whole_decisions_of_delay():
    assert [delay_decisions(t) for t in (0, 0.5, 1, 2, 4, 0.6)] == [0, 1, 2, 4, 8, 2]
    with pytest.raises(ValueError, match="finite number"):
        delay_decisions(-1)


def test_a_thinking_brain_acts_on_its_answer_late_and_on_nothing_at_first():
    prompt = run_episode("S12", get_brain("reference"), "smpl", 1).trace
    late = run_episode("S12", ThinkingBrain(get_brain("reference"), 2), "smpl", 1).trace
    assert prompt is not None and late is not None
    assert [d["reply"] for d in late["decisions"][:2]] == ["", ""]
    # the third decision acts on the answer to the first scene (the same scene: nothing moved yet)
    assert late["decisions"][2]["reply"] == prompt["decisions"][0]["reply"]


def test_token_budget_cuts_replies_keeping_lines():
    text = "PREDICT: left=safe(open), right=danger(wall)\nMOTION: a person walks left calmly"
    assert cut_to_tokens(text, 3) == "PREDICT: left=safe(open), right=danger(wall)"
    assert cut_to_tokens(text, 5) == "PREDICT: left=safe(open), right=danger(wall)\nMOTION: a"
    reply = TokenBudgetBrain(get_brain("reference"), 4).decide({"walls": {}, "npc_nearby": False})
    assert len(reply.text.split()) <= 4


def test_the_reference_brain_loses_points_as_its_answers_come_later():
    frontier = measure_frontier(lambda: get_brain("reference"), "reference", "S12,S21", [1], [0, 1, 4])
    totals = [p.total for p in frontier.points]
    assert totals[0] > totals[-1], totals  # an answer 8 decisions late misses the escape
    assert set(frontier.area["none"]) == {"C03", "C05"}
    assert all(0.0 <= a <= 1.0 for a in frontier.area["none"].values())


def test_area_is_the_normalised_trapezoid():
    from wmbench.harness.frontier.curve import FrontierPoint

    points = [FrontierPoint(0.0, 0, None, {"C03": 100.0}, 100.0), FrontierPoint(2.0, 4, None, {"C03": 0.0}, 0.0)]
    assert area_under(points) == {"none": {"C03": 0.5}}


def test_frontier_command_writes_the_curve(tmp_path, capsys):
    out = tmp_path / "frontier"
    assert main(["frontier", "--brain", "reference", "--think-times", "0,2", "--scenarios", "S11",
                 "--out", str(out)]) == 0
    data = json.loads((out / "frontier.json").read_text())
    assert [p["think_time_s"] for p in data["points"]] == [0.0, 2.0]
    assert (out / "frontier.md").read_text().startswith("# Latency")
    assert "area under the curve" in capsys.readouterr().out
    assert main(["frontier", "--think-times", "zero", "--out", str(out)]) == 2
    assert "--think-times: expected comma-separated numbers" in capsys.readouterr().err


def test_a_wall_clock_thinking_brain_answers_that_much_later_with_the_same_reply():
    scene = {"walls": {}, "npc_nearby": False}
    slow = WallClockThinkingBrain(get_brain("reference"), 0.2)
    reply = slow.decide(scene)
    assert reply.latency_s >= 0.2  # sleep() never returns early: a lower bound, not a timing
    assert reply.text == get_brain("reference").decide(scene).text
    with pytest.raises(ValueError, match="finite number"):
        WallClockThinkingBrain(get_brain("reference"), -1.0)


def test_live_c09_becomes_a_point_on_the_curve():
    """--live: S42 (scene-change latency) run live at two think times; C09 falls as the answers come later."""
    frontier = measure_frontier(lambda: get_brain("reference"), "reference", "S42", [1], [0, 1.5], live=True,
                                live_durations={"S42": 4.0})
    quick, slow = (p.categories["C09"] for p in frontier.points)
    assert frontier.scenarios == [] and quick > slow, (quick, slow)
    with pytest.raises(ValueError, match="add --live"):
        measure_frontier(lambda: get_brain("reference"), "reference", "S42", [1], [0])
