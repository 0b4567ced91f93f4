"""HOW IT RUNS: episodes and suites, live and transfer measuring, reports, the CLI (map: docs/architecture.md)."""
