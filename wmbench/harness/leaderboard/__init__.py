"""The ranked leaderboard over run directories (with baselines) and the paired comparison of two runs."""
