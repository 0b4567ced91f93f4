"""Validity panel: run the panel brains and write docs/validity.md."""
