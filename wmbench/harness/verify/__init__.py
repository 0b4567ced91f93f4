"""Submission bundles (episodes, run config, hashes of scenarios and motion weights) and their verification."""
