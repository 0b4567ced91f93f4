"""Scoring a run's episode lines: a brain that raises is a recorded, scored failure; a scorer that raises is a
bug that propagates (issue 10 item 8). Real PyBullet episode, real trace dict as written to episodes.jsonl."""

from __future__ import annotations

from typing import Any

import pytest

from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.scores import score_line
from wmbench.scoring.dispatch import RULES


class AlwaysRaisingBrain:
    """A user's brain whose every decision raises, as a broken plugin or a dead endpoint would."""

    name = "always-raising"

    def reset(self, seed: int | None = None) -> None:
        pass

    def decide(self, scene: dict[str, Any]) -> Any:
        raise ConnectionError("endpoint went away")

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def raising_brain_line() -> dict[str, Any]:
    result = run_episode("S01", AlwaysRaisingBrain(), "smpl", seed=0)
    return {"scenario": "S01", "seed": 0, "error": result.error, "trace": result.trace,
            "n_decisions": result.n_decisions, "failed_decisions": result.failed_decisions}


def test_a_brain_that_raises_is_a_recorded_scored_failure(raising_brain_line) -> None:
    line = raising_brain_line
    assert line["error"] is None and line["n_decisions"] > 0
    assert line["failed_decisions"] == line["n_decisions"]
    errors = [d["brain"]["error"] for d in line["trace"]["decisions"]]
    assert all("ConnectionError: endpoint went away" in e for e in errors)
    score = score_line(line)
    assert score.measured and score.score < 20.0 and "scoring failed" not in score.explanation


def test_a_scorer_bug_on_a_real_trace_propagates(raising_brain_line, monkeypatch) -> None:
    def buggy_rule(trace, banks):
        return trace.meta["no_such_field"]  # the KeyError a scorer bug raises

    monkeypatch.setitem(RULES, "S01", buggy_rule)
    with pytest.raises(KeyError, match="no_such_field"):
        score_line(raising_brain_line)


def test_a_damaged_stored_trace_still_scores_zero_with_the_reason() -> None:
    score = score_line({"scenario": "S01", "seed": 1, "error": None, "trace": {"decisions": "garbled"}})
    assert score.measured and score.score == 0.0 and "scoring failed" in score.explanation
