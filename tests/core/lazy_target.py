"""A module the registry tests import lazily (and check that it was not imported before)."""

WAVE = "~~~"
