"""run_suite: parallel == sequential, resume == uninterrupted, failures recorded (no crash), measurers."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from wmbench.brain.base import BrainReply
from wmbench.brain.registry import get_brain
from wmbench.harness import suite as runner
from wmbench.harness.live.c09 import measure_live, skip_live
from wmbench.harness.run import episode as episode_module
from wmbench.harness.run.measure import MeasureContext
from wmbench.harness.run.scores import score_line
from wmbench.harness.suite import (
    RunConfigError,
    RunInterrupted,
    default_measurers,
    executor_kind,
    run_suite,
)
from wmbench.harness.transfer.measure import measure_transfer
from wmbench.scoring import ScenarioScore

SMALL = "S01,S06"


def _run(out: Path, **kwargs: Any) -> dict[str, Any]:
    options = {"brain": "null", "scenarios": SMALL, "seeds": 1, "workers": 1, "progress": False,
               "reports": False, **kwargs}
    return run_suite(out=out, **options)


def _lines(out: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (out / "episodes.jsonl").read_text().splitlines()]


def _episode_counts(out: Path) -> Counter:
    return Counter((line["scenario"], line["seed"]) for line in _lines(out))


def test_workers_1_and_2_write_identical_scores(tmp_path):
    one = _run(tmp_path / "one", workers=1)
    two = _run(tmp_path / "two", workers=2)
    assert (tmp_path / "one" / "scores.json").read_bytes() == (tmp_path / "two" / "scores.json").read_bytes()
    assert one == two
    assert one["scenarios"]["S01"]["measured"] and one["scenarios"]["S06"]["measured"]
    assert one["run"]["episodes"] == 2 and one["run"]["error_episodes"] == 0
    assert _episode_counts(tmp_path / "two") == {("S01", 0): 1, ("S06", 0): 1}


def test_resume_after_a_kill_scores_like_an_uninterrupted_run(tmp_path):
    full = _run(tmp_path / "full", seeds=[0, 1])
    killed = tmp_path / "killed"
    shutil.copytree(tmp_path / "full", killed)
    (killed / "scores.json").unlink()
    raw = (killed / "episodes.jsonl").read_text().splitlines(keepends=True)
    # lose one finished episode entirely and leave the last one half written, as a kill -9 would
    (killed / "episodes.jsonl").write_text(raw[0] + raw[2] + raw[3][: len(raw[3]) // 3])
    resumed = _run(killed, seeds=[0, 1])
    assert resumed == full
    assert _episode_counts(killed) == {(s, seed): 1 for s in ("S01", "S06") for seed in (0, 1)}
    assert len(json.loads((killed / "run.json").read_text())["resumed"]) == 1


def test_rerun_of_a_finished_run_runs_nothing(tmp_path, monkeypatch):
    first = _run(tmp_path)
    before = (tmp_path / "episodes.jsonl").read_bytes()
    monkeypatch.setattr(runner, "run_episode", lambda *a, **k: pytest.fail("nothing should run"))
    assert _run(tmp_path) == first
    assert (tmp_path / "episodes.jsonl").read_bytes() == before


class FlakyBrain:
    """A real null brain whose every second decision fails (error reply) and every fifth raises."""

    name = "flaky"

    def __init__(self) -> None:
        self.inner = get_brain("null")
        self.calls = 0

    def reset(self, seed=None):
        self.inner.reset(seed)

    def decide(self, scene):
        self.calls += 1
        if self.calls % 5 == 0:
            raise TimeoutError("read timed out")
        if self.calls % 2 == 0:
            return BrainReply(text="", latency_s=0.0, provider="flaky", error="HTTP 503")
        return self.inner.decide(scene)

    def close(self):
        self.inner.close()


def test_brain_errors_mid_episode_are_recorded_failed_decisions(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "_build_brain", lambda spec, options: FlakyBrain())
    scores = _run(tmp_path)
    lines = _lines(tmp_path)
    assert all(line["error"] is None for line in lines)
    failed = sum(line["summary"]["failed_decisions"] for line in lines)
    assert failed > 0 and scores["run"]["failed_decisions"] == failed
    decisions = [d for line in lines for d in line["trace"]["decisions"]]
    errors = [d["brain"]["error"] for d in decisions if d["brain"]["error"]]
    assert len(errors) == failed and any("TimeoutError" in e for e in errors) and "HTTP 503" in errors


def test_env_exception_becomes_a_zero_scored_error_episode(tmp_path, monkeypatch):
    real = episode_module.make_env

    def env_failing_on_s06(scenario_id, body, **kwargs):
        if scenario_id == "S06":
            raise RuntimeError("pybullet lost its connection")
        return real(scenario_id, body, **kwargs)

    monkeypatch.setattr(episode_module, "make_env", env_failing_on_s06)
    monkeypatch.setenv("WMBENCH_REUSE_ENVS", "0")  # a fresh env per episode, so the failing factory is used
    scores = _run(tmp_path)
    assert scores["run"]["error_episodes"] == 1
    s06 = scores["scenarios"]["S06"]
    assert s06["measured"] and s06["score"] == 0.0 and "pybullet lost its connection" in s06["explanation"]
    assert scores["scenarios"]["S01"]["measured"] and "error" not in scores["scenarios"]["S01"]["explanation"]


def test_unscorable_trace_scores_zero_with_the_reason():
    score = score_line({"scenario": "S01", "seed": 3, "error": None, "trace": {"nonsense": True}})
    assert isinstance(score, ScenarioScore) and score.score == 0.0 and score.seed == 3
    assert "scoring failed" in score.explanation


class InterruptingBrain(FlakyBrain):
    """Well-behaved until its ``stop_at``-th decision, where the user presses Ctrl-C."""

    def __init__(self, stop_at: int) -> None:
        super().__init__()
        self.stop_at = stop_at

    def decide(self, scene):
        self.calls += 1
        if self.calls == self.stop_at:
            raise KeyboardInterrupt
        return self.inner.decide(scene)


def test_ctrl_c_keeps_finished_episodes_and_a_rerun_completes(tmp_path, monkeypatch):
    reference = _run(tmp_path / "reference")
    out = tmp_path / "interrupted"
    with monkeypatch.context() as patch:
        # S01 takes 6 decisions with the null brain: Ctrl-C lands in S06
        patch.setattr(runner, "_build_brain", lambda spec, options: InterruptingBrain(stop_at=8))
        with pytest.raises(RunInterrupted) as stop:
            _run(out)
    assert (stop.value.done, stop.value.total) == (1, 2) and "rerun" in str(stop.value)
    assert _episode_counts(out) == {("S01", 0): 1} and not (out / "scores.json").exists()
    assert _run(out) == reference


def test_remote_brains_run_in_threads_one_brain_per_concurrent_episode(tmp_path, monkeypatch):
    assert executor_kind("openai/gpt-x", 4) == "thread"
    assert executor_kind("reference", 4) == "process" and executor_kind("openai/gpt-x", 1) == "inline"
    assert executor_kind("hf/./model", 4) == "inline" == executor_kind("onnx/./model", 4)
    built: list[Any] = []

    def build(spec, options):
        built.append(get_brain("null"))
        return built[-1]

    monkeypatch.setattr(runner, "_build_brain", build)
    # remote brains: --max-connections sets the concurrency, whatever --workers says
    threaded = _run(tmp_path / "threads", brain="openai/fake", workers=1, max_connections=2, seeds=2)
    assert 1 <= len(built) <= 4  # two episodes (so brains) per connection, their requests within the budget
    built.clear()
    sequential = _run(tmp_path / "inline", brain="openai/fake", workers=4, max_connections=1, seeds=2)
    assert len(built) == 1
    assert threaded == sequential
    assert {line["brain"] for line in _lines(tmp_path / "threads")} == {"openai/fake"}


def test_non_bench_scenarios_are_not_measured_without_a_measurer(tmp_path):
    scores = _run(tmp_path, scenarios="S01,S41", measurers={})
    s41 = scores["scenarios"]["S41"]
    assert not s41["measured"] and "no live measurer" in s41["explanation"]
    assert scores["run"]["not_measured_notes"][0]["scenarios"] == "S41"
    assert _episode_counts(tmp_path) == {("S01", 0): 1}  # no bench episode for a live scenario


def test_measurers_plug_in_by_mode(tmp_path):
    seen: list[tuple[list[str], MeasureContext]] = []

    def live(scenarios, context):
        seen.append(([s.id for s in scenarios], context))
        return {s.id: [ScenarioScore(s.id, s.category, 15.0, explanation="fps", seed=0)] for s in scenarios}

    scores = _run(tmp_path, scenarios="S01,S41", measurers={"live": live})
    assert seen[0][0] == ["S41"] and seen[0][1].brain == "null" and seen[0][1].out == tmp_path
    assert scores["scenarios"]["S41"]["score"] == 15.0 and scores["scenarios"]["S41"]["measured"]
    assert scores["run"]["not_measured_notes"] == []


def test_a_failing_measurer_is_a_note_not_a_crash(tmp_path):
    def broken(scenarios, context):
        raise OSError("no display")

    scores = _run(tmp_path, scenarios="S01,S41", measurers={"live": broken})
    assert not scores["scenarios"]["S41"]["measured"] and "OSError: no display" in scores["scenarios"]["S41"][
        "explanation"]


def test_default_measurers_are_the_registered_ones():
    assert default_measurers() == {"transfer": measure_transfer, "live": measure_live}
    assert default_measurers(live=False) == {"transfer": measure_transfer, "live": skip_live}
    assert runner._with_live(None, True) == default_measurers()
    assert runner._with_live({"transfer": measure_transfer}, False) == {"transfer": measure_transfer,
                                                                        "live": skip_live}


def test_a_bench_measurer_is_refused_before_anything_runs(tmp_path):
    with pytest.raises(RunConfigError, match="bench"):
        _run(tmp_path / "run", scenarios="S01", measurers={"bench": lambda s, c: {}})
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("kwargs, needle", [
    ({"brain": "nope"}, "nope"), ({"scenarios": "S77"}, "S77"), ({"body": "hexapod"}, "hexapod"),
    ({"seeds": 0}, "seed"), ({"env_kwargs": {"pace": "slow"}}, "pace must be one of"),
])
def test_bad_configuration_fails_before_anything_is_written(tmp_path, kwargs, needle):
    with pytest.raises(RunConfigError, match=needle):
        _run(tmp_path / "out", **kwargs)
    assert not (tmp_path / "out" / "episodes.jsonl").exists()


def test_out_dir_of_another_brain_is_refused(tmp_path):
    _run(tmp_path)
    with pytest.raises(RunConfigError, match="brain"):
        _run(tmp_path, brain="random")


@pytest.mark.parametrize("body, env_kwargs, pace", [
    ("drone", None, 3.0 / 6.5), ("drone", {"pace": "scene"}, 1.0), ("smpl", None, None),
])
def test_the_pace_of_the_bench_scenes_is_recorded_in_run_json_scores_and_traces(tmp_path, body, env_kwargs, pace):
    """A run on a slow body records the pace its bench scenes were played at (the body's, or 1.0 with the
    diagnostic opt-out) in run.json, the scores' run block and each paced trace; a run on the character has no
    pace anywhere (its files are as before pacing)."""
    scores = _run(tmp_path, scenarios="S01", body=body, env_kwargs=env_kwargs, live=False)
    config = json.loads((tmp_path / "run.json").read_text())
    (line,) = _lines(tmp_path)
    instance = line["trace"]["meta"]["instance"]
    if pace is None:
        assert "pace" not in config and "pace" not in scores["run"] and "pace" not in instance
        return
    assert config["pace"] == pytest.approx(pace) and scores["run"]["pace"] == pytest.approx(pace)
    assert instance.get("pace", 1.0) == pytest.approx(pace)
