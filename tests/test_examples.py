"""The examples in ``examples/`` run as documented and show what they claim."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run_example(name: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_custom_scenario_is_solved_by_the_reference_brain_and_not_by_null():
    out = run_example("custom_scenario.py")
    scores = {m.group(1): float(m.group(2)) for m in re.finditer(r"^\s*(\w+): +([\d.]+) / 20", out, re.M)}
    assert scores["reference"] >= 15.0 and scores["null"] < 10.0, out
    assert "caught" in out.split("null:")[1], "the standing null brain should be caught by the charge"


def test_custom_brain_runs_and_is_scored():
    out = run_example("custom_brain.py")
    scores = dict(re.findall(r"^(S\d\d): +([\d.]+) / 20", out, re.M))
    assert set(scores) == {"S01", "S03", "S12", "S16"}, out
    assert float(scores["S01"]) == 20.0, out  # it reads walls right
    assert float(scores["S16"]) < 15.0, out   # but does not tell a beast from a woman


def test_vector_env_reports_score_returns_through_episode_statistics():
    done = subprocess.run([sys.executable, str(EXAMPLES / "vector_env.py"), "8"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "every return == points / 20: True" in out, out
    returns = [float(r) for r in re.findall(r"return ([\d.]+)", out)]
    assert len(returns) >= 8 and any(r > 0 for r in returns), out
    assert all(float(r) >= 0.9 for r in re.findall(r"reference .*return ([\d.]+)", out)), out
