"""Failure labels (issue 20 item 9): one label per decision that lost points, counted in scores.json."""

from __future__ import annotations

import pytest

from tests.scoring.trace_factory import TraceBuilder, all_safe, npc, truth
from wmbench.harness.report.failure_table import failure_label_html, failure_label_lines
from wmbench.scoring import score_trace
from wmbench.scoring.aggregate import summarize
from wmbench.scoring.failure_labels import FAILURE_LABELS, FailureLabel, count_labels, perception_label

BEAST_FWD = truth(npcs=[npc("beast", "approach", 5.0, "fwd")])
WOMAN_FWD = truth(npcs=[npc("woman", "approach", 1.5, "fwd")])
WALL_LEFT = truth(walls={"left": 1.0})


def one(t, **kwargs):
    return TraceBuilder("S11").step(t, **kwargs)


@pytest.mark.parametrize(("t", "predict", "label"), [
    (BEAST_FWD, {**all_safe(), "fwd": "danger(human)"}, FailureLabel.WRONG_ENTITY),
    (WOMAN_FWD, {**all_safe(), "fwd": "danger(beast)"}, FailureLabel.WRONG_ENTITY),
    (truth(npcs=[npc("woman", "stop", 5.0, "fwd")]), {**all_safe(), "fwd": "danger(beast)"},
     FailureLabel.WRONG_ENTITY),                       # a woman far off (safe) called a beast
    (BEAST_FWD, {**all_safe(), "left": "danger(beast)"}, FailureLabel.WRONG_DIRECTION),
    (BEAST_FWD, all_safe(), FailureLabel.WRONG_DIRECTION),
    (WALL_LEFT, all_safe(), FailureLabel.MISSED_WALL),
    (truth(), {**all_safe(), "back": "danger(beast)"}, FailureLabel.PHANTOM),
    (truth(), {**all_safe(), "back": "danger(wall)"}, FailureLabel.PHANTOM),
])
def test_perception_labels(t, predict, label) -> None:
    assert perception_label(one(t, predict=predict)) == label


def test_an_exact_prediction_has_no_perception_label() -> None:
    assert perception_label(one(BEAST_FWD)) is None


def labels_of(trace) -> list[str | None]:
    return [d.get("label") for d in score_trace(trace).evidence["decisions"]]


def test_c03_decisions_are_labelled_by_what_went_wrong_and_full_points_carry_none() -> None:
    b = TraceBuilder("S11")
    b.step(BEAST_FWD, move="left", speed="run")                                  # optimal: no label
    b.step(BEAST_FWD, move="fwd", speed="run", face_travel=False)                # into the beast
    b.step(BEAST_FWD, move="left", predict={**all_safe(), "fwd": "danger(beast)", "left": "danger(wall)"},
           face_travel=False)                                                    # into its own danger
    b.step(BEAST_FWD, move="left", predict=all_safe(), face_travel=False)        # escaped, PREDICT wrong
    b.step(BEAST_FWD)                                                            # stood while a way was open
    b.step(BEAST_FWD, predict=None)                                              # unreadable
    assert labels_of(b.build()) == [None, "decision.into_danger", "decision.into_danger",
                                    "perception.wrong_direction", "decision.no_escape", "reply.unreadable"]


def test_c06_labels_say_memory_was_ignored() -> None:
    blocked = {"recent_decisions": [{"t": -2.0, "motion": "a person sprints right", "direction": "right",
                                     "outcome": "blocked by wall on right"}]}
    b = TraceBuilder("S26").repeat(1, BEAST_FWD, move="right", speed="run", scene=blocked)
    assert labels_of(b.build()) == ["memory.ignored_blocked_route"]


def test_every_label_is_in_the_taxonomy_and_counts_reach_scores_json_and_the_report() -> None:
    b = TraceBuilder("S11")
    b.step(BEAST_FWD, move="fwd", speed="run")
    b.step(BEAST_FWD)
    s11 = score_trace(b.build())
    s26 = score_trace(TraceBuilder("S26").repeat(1, BEAST_FWD, move="left", speed="run").build())  # full points
    counts = count_labels({"S11": [s11], "S26": [s26]})
    assert counts["overall"] == {"decision.into_danger": 1, "decision.no_escape": 1}
    assert counts["categories"] == {"C03": counts["overall"]} and set(counts["scenarios"]) == {"S11"}
    assert set(counts["overall"]) <= {str(label) for label in FAILURE_LABELS}
    scores = summarize({"S11": [s11], "S26": [s26]})
    assert scores["failure_labels"] == counts
    table = "\n".join(failure_label_lines(scores))
    assert "| decision.into_danger | 1 | 1 |" in table and "| label | C03 | total |" in table
    assert "<tr><td>decision.into_danger</td><td>1</td><td>1</td></tr>" in failure_label_html(scores)


def test_a_pattern_rule_that_lost_points_labels_the_episode() -> None:
    # S28 scores the three phases as a whole: a different direction each time
    b = TraceBuilder("S28")
    for n, move in enumerate(("left", "right", "back")):
        if n:
            b.new_phase()
        b.repeat(2, BEAST_FWD, move=move, motion="a person runs away in fear", speed="run")
    scored = score_trace(b.build())
    assert scored.score < 20 and scored.evidence["failure_label"] == "decision.not_open_side"


def test_labels_never_change_a_score() -> None:
    from wmbench.scoring import c03
    from wmbench.scoring.keywords import load_banks

    trace = TraceBuilder("S11").repeat(1, BEAST_FWD, move="fwd", speed="run").build()
    assert score_trace(trace).score == c03.score_prediction_decision(trace, load_banks()).score
