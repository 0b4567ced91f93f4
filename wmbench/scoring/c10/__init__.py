"""C10 · Cross-body Transferability, judged: every rule and measure C10 reads from finished transfer runs.

- :mod:`~wmbench.scoring.c10.rule`: the scored rule — how much of the brain's outcome on the character carries over
  to the robot and the drone.
- :mod:`~wmbench.scoring.c10.diagnostics`: the pipeline diagnostics of S46-S50 (reported, never in the WM Score).
- :mod:`~wmbench.scoring.c10.metrics` and :mod:`~wmbench.scoring.c10.agreement`: the plain numbers both read.

Running the bodies is the harness's part (:mod:`wmbench.harness.transfer`), as the env is for C01-C08.
"""

from wmbench.scoring.c10 import rule  # noqa: F401  (importing the package registers C10's scorer)
