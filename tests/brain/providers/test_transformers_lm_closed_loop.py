"""hf/<path> closed loop: a tiny random GPT-2 drives a whole S01 episode; its gibberish is recorded as parse
errors (scored as misses) and the episode still runs to its end."""

from __future__ import annotations

import pytest

from tests.brain.tiny_models import tiny_gpt2_dir  # noqa: F401 — pytest fixture
from tests.extras import needs_extra
from wmbench.brain.registry import get_brain
from wmbench.harness.run.episode import EpisodeResult, run_episode
from wmbench.protocol.grammar import ParseErrorCode
from wmbench.protocol.trace import Trace
from wmbench.scenarios.registry import get_scenario
from wmbench.scoring import score_trace

pytestmark = needs_extra("hf")

MAX_NEW = 12
SCENARIO = "S01"
SEED = 0
DECISION_DT = 0.5  # the env's default decision period
PARSE_ERROR_CODES = {code.value for code in ParseErrorCode}


@pytest.fixture(scope="module")
def episode(tiny_gpt2_dir) -> EpisodeResult:  # noqa: F811
    brain = get_brain(f"hf/{tiny_gpt2_dir}", max_new_tokens=MAX_NEW, device="cpu")
    try:
        return run_episode(SCENARIO, brain, seed=SEED)
    finally:
        brain.close()


def expected_decisions(scenario_id: str) -> int:
    return sum(round(phase.duration / DECISION_DT) for phase in get_scenario(scenario_id).phases)


def test_the_episode_runs_to_its_end(episode):
    assert episode.ok, episode.error
    assert episode.n_decisions == expected_decisions(SCENARIO), episode.summary()
    assert episode.failed_decisions == 0, "the model answered every time; gibberish is not a brain failure"
    assert episode.trace is not None and len(episode.trace["decisions"]) == episode.n_decisions


def test_gibberish_is_recorded_as_typed_parse_errors(episode, tiny_gpt2_dir):  # noqa: F811
    decisions = episode.trace["decisions"]
    codes = [d["parse"]["code"] for d in decisions]
    print(f"\nhf tiny GPT-2 on {SCENARIO}: {episode.n_decisions} decisions, parse codes {codes}, "
          f"replies {[d['reply'] for d in decisions]}")
    assert episode.parse_errors == episode.n_decisions, codes
    for d in decisions:
        assert d["parse"]["ok"] is False, f"decision {d['index']} parsed: {d['reply']!r}"
        assert d["parse"]["code"] in PARSE_ERROR_CODES, d["parse"]
        assert d["parse"]["message"], d["parse"]
        assert d["reply"], "the raw reply is kept in the trace"
        assert d["brain"]["provider"] == "hf" and d["brain"]["model"] == str(tiny_gpt2_dir)
        assert d["brain"]["error"] is None
        assert 1 <= d["brain"]["completion_tokens"] <= MAX_NEW, d["brain"]


def test_parse_errors_score_as_misses(episode):
    score = score_trace(Trace.from_dict(episode.trace))
    assert score.measured, score.explanation
    assert score.score == 0.0, score.explanation
