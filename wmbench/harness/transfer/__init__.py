"""Cross-body transfer (C10) runs: the brain on every body and scene variant, decision replays on other bodies
(judged by :mod:`wmbench.scoring.c10.rule`)."""
