"""HOW WELL: runs episodes, times them, scores traces, writes reports, the CLI."""
