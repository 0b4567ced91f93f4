"""Forecasts scored against the simulator's future (issue 27 item 2), on real episodes."""

from __future__ import annotations

from wmbench.brain.registry import get_brain
from wmbench.harness.cli.main import main
from wmbench.harness.run.episode import run_episode
from wmbench.harness.suite import run_suite
from wmbench.protocol.trace import Trace
from wmbench.scoring import score_trace
from wmbench.scoring.forecast import check_forecasts, forecast_summary


def _trace(brain: str, scenario: str = "S15", seed: int = 0) -> Trace:
    result = run_episode(scenario, get_brain(brain), "smpl", seed)
    assert result.trace is not None
    return Trace.from_dict(result.trace)


def test_anticipating_the_crossing_beats_persistence_on_s15_and_leaves_the_score_alone():
    forecaster, reference = _trace("forecaster"), _trace("reference")
    assert score_trace(forecaster).score == score_trace(reference).score  # forecasts never change the WM Score
    checks = check_forecasts(forecaster)
    assert checks and all(c.horizon_s == 1.0 for c in checks)
    anticipated = forecast_summary([("C03", forecaster)]).overall
    persistence = forecast_summary([("C03", forecaster)], persistence_s=1.0).overall
    assert anticipated.checked > 0 and persistence.checked > 0
    assert anticipated.accuracy is not None and persistence.accuracy is not None
    assert anticipated.accuracy >= persistence.accuracy


def test_a_forecast_is_checked_against_the_moment_it_names():
    trace = _trace("forecaster", "S01")
    for check in check_forecasts(trace):
        later = next(d for d in trace.decisions[check.decision + 1:]
                     if d.t >= trace.decisions[check.decision].t + check.horizon_s - 1e-6)
        assert check.safe_then == later.truth.directions[check.direction].safe
    assert forecast_summary([("C01", _trace("reference", "S01"))]).overall.checked == 0  # no forecasts given


def test_forecast_command_on_runs_with_and_without_forecasts(tmp_path, capsys):
    for brain in ("forecaster", "reference"):
        run_suite(brain, "smpl", "S15", [0], 1, tmp_path / brain, progress=False, live=False, reports=False)
    assert main(["forecast", str(tmp_path / "forecaster")]) == 0
    printed = capsys.readouterr().out
    assert "forecast accuracy" in printed and "persistence baseline" in printed
    assert (tmp_path / "forecaster" / "forecast.json").is_file()
    assert main(["forecast", str(tmp_path / "reference")]) == 0
    assert "no verifiable FORECAST items" in capsys.readouterr().out
