"""Live mode: the frame loop with a concurrently thinking brain, its clock and memory samples, live.json, C09
measuring (the C09 rules: :mod:`wmbench.scoring.c09`)."""
