"""Pieces of a suite run: episodes, selection, worker processes, run directory files, scores.json."""
