"""Shared fixtures of the command-line tests.

- ``null_run``: a finished run folder (the null brain, S01, seed 0, no live, no reports), made once per session;
  tests read it or copy it before damaging it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wmbench.harness.suite import run_suite


@pytest.fixture(scope="session")
def null_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("null-run") / "run"
    run_suite("null", "smpl", "S01", [0], 1, out, progress=False, live=False, reports=False)
    return out
