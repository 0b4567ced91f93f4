"""A fixture for tests that select a Track-A file: the physical worlds it registers are dropped after each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wmbench.scenarios.registry import SCENARIOS
from wmbench.scenarios.track_a import PHYSICAL_PREFIX


@pytest.fixture(autouse=True)
def forget_track_a_worlds() -> Iterator[None]:
    """Selecting a Track-A file registers its worlds in this process: drop them after each test, so tests that
    count the registry (50 scenarios) see wmbench's own."""
    yield
    for sid in SCENARIOS.registered():
        if sid.startswith(PHYSICAL_PREFIX):
            SCENARIOS.unregister(sid)
