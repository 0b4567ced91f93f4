"""Session-wide fixtures: expensive results computed once per test session and shared by every module.

Card
----
- ``quick_validity``: the quick validity panel (``wmbench validity --quick``: 27 brains, seeds 0-3, C10 on
  seed 0), run once. ``tests/harness/validity/`` reads its bounds and its tie-breakers from it. Read-only: the
  result is a frozen dataclass.
- ``reference_episode``: ``reference_episode(scenario, body="smpl", seed=0)`` -> the reference brain's closed-
  loop :class:`~wmbench.harness.run.episode.EpisodeResult` of that episode, run on first use and then shared by
  every module that asks for the same (scenario, body, seed). Episodes are deterministic (same seed, same
  replies, same trace), so sharing changes no result; callers must not modify what they get.

Add a fixture here when two test modules would otherwise compute the same expensive thing; keep one per concept.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from wmbench.brain.registry import get_brain
from wmbench.harness.run.episode import EpisodeResult, run_episode
from wmbench.harness.validity.runner import ValidityResult, run_validity

ReferenceEpisode = Callable[..., EpisodeResult]


@pytest.fixture(scope="session")
def quick_validity() -> ValidityResult:
    """The quick validity panel, run once per session (see module card)."""
    return run_validity(quick=True)


_EPISODES: dict[tuple[str, str, int], EpisodeResult] = {}


@pytest.fixture(scope="session")
def reference_episode() -> ReferenceEpisode:
    """``reference_episode(scenario, body="smpl", seed=0)``: the reference brain's episode, run once per session."""

    def episode(scenario: str, body: str = "smpl", seed: int = 0) -> EpisodeResult:
        key = (scenario, body, seed)
        if key not in _EPISODES:
            _EPISODES[key] = run_episode(scenario, get_brain("reference"), body=body, seed=seed)
        return _EPISODES[key]

    return episode
