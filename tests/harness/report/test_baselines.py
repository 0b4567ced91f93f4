"""The report places a run among the baselines: PROMETHEUS (self-reported) and the shipped measured rows."""

from __future__ import annotations

from wmbench.harness.report.baselines import all_entries, baselines_markdown, measured_entries, prometheus_entry
from wmbench.harness.report.leaderboard import leaderboard_entry
from wmbench.scoring import ScenarioScore, summarize


def test_a_partial_run_is_placed_on_the_categories_it_measured():
    scores = summarize({f"S{n:02d}": [ScenarioScore(f"S{n:02d}", "C01", 12.0, seed=0)] for n in range(1, 6)})
    section = baselines_markdown(leaderboard_entry(scores, brain="x", body="smpl"))
    assert "fully measured categories (C01)" in section
    # PROMETHEUS's C01 is 65 (self-reported); this run's C01 is 60
    assert "| VIDRAFT PROMETHEUS v1.0 | self-reported | 730 | 65 | 60 |" in section
    kinds = {b.kind for b in all_entries()}
    assert kinds == {"self-reported", "measured baseline"} and len(measured_entries()) >= 3
    assert prometheus_entry().entry["rescaled_total"] == 726
