"""Reports: report.md/html, plots, transcripts, leaderboard entry, perception gap, motion report."""
