"""Counterfactual replay (issue 27 item 1): forks restore the world exactly; a different reply changes the outcome."""

from __future__ import annotations

import pytest

from wmbench.brain.registry import get_brain
from wmbench.harness.counterfactual.fork import EpisodeSetup, comparable, fork_episode
from wmbench.harness.run.episode import run_episode
from wmbench.scenarios import all_scenarios

SCENARIO_IDS = [record.id for record in all_scenarios()]
ESCAPE_RIGHT = ("PREDICT: left=danger(wall), right=safe(open), fwd=danger(beast), back=danger(wall)\n"
                "MOTION: a person sprints to the right in terror, glancing back")


def _recorded(scenario: str, brain: str, seed: int):
    result = run_episode(scenario, get_brain(brain), "smpl", seed)
    assert result.ok and result.trace is not None, result.error
    return EpisodeSetup(scenario, seed, "smpl"), result.trace


@pytest.mark.parametrize("scenario", SCENARIO_IDS)
def test_forking_with_the_original_reply_and_the_same_brain_reproduces_the_trace_byte_for_byte(scenario):
    """Every registered scenario: the world at the fork (prefix re-simulated) and the onward brain's state (shown
    the prefix's scenes) are exactly what they were, so the branch is the recorded episode again."""
    setup, trace = _recorded(scenario, "reference", 1)
    at = len(trace["decisions"]) // 2
    fork = fork_episode(setup, trace, at, None, get_brain("reference"))
    assert comparable(fork.branch) == comparable(trace)
    assert fork.branch_score.score == fork.original_score.score and fork.gain == 0.0


@pytest.mark.parametrize("scenario", ["S08", "S24", "S28"])  # a charge, appear/vanish, a repeated multi-phase trial
def test_replaying_the_recorded_replies_alone_reproduces_the_trace(scenario):
    setup, trace = _recorded(scenario, "random", 3)
    fork = fork_episode(setup, trace, 0, None, None)
    assert comparable(fork.branch) == comparable(trace)


def test_a_different_reply_at_the_fork_changes_the_outcome_and_both_branches_are_scored():
    """The null brain stands still in S12 (0 points); one escape at decision 0, then the reference brain, earns
    the points back — and the prefix before the fork is untouched."""
    setup, trace = _recorded("S12", "null", 0)
    fork = fork_episode(setup, trace, 0, ESCAPE_RIGHT, get_brain("reference"))
    assert fork.original_score.score == 0.0
    assert fork.branch_score.score >= 15.0 and fork.gain >= 15.0
    assert fork.branch["decisions"][0]["reply"] == ESCAPE_RIGHT
    assert fork.branch["decisions"][0]["scene"] == trace["decisions"][0]["scene"]


def test_a_fork_outside_the_episode_is_refused_with_the_valid_range():
    from wmbench.core.errors import ConfigError

    setup, trace = _recorded("S01", "null", 0)
    with pytest.raises(ConfigError, match=r"0\.\.\d+"):
        fork_episode(setup, trace, len(trace["decisions"]), ESCAPE_RIGHT)
