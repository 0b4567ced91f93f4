"""Cross-body transfer (C10) measuring: the brain's runs on every body, replays, pipeline diagnostics (the rule:
:mod:`wmbench.scoring.c10`)."""
