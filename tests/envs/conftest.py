"""Shared helpers for the env tests: envs that close themselves, replies, small custom scenarios."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.scenarios import Phase, Scenario

OPEN_PREDICT = "PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)"


def reply(motion: str, predict: str = OPEN_PREDICT) -> str:
    """A well-formed two-line reply with ``motion`` as its MOTION line."""
    return f"{predict}\nMOTION: {motion}"


def one_phase(scenario_id: str = "T01", duration: float = 3.0, **phase_fields) -> Scenario:
    """A one-phase test scenario (category C03) built from ``Phase`` fields."""
    return Scenario(id=scenario_id, category="C03", name="test", setup="test",
                    phases=(Phase(name="test", duration=duration, **phase_fields),))


@pytest.fixture
def make_env() -> Iterator[Callable[..., WMBenchEnv]]:
    """Factory of ``WMBenchEnv`` instances that are all closed at the end of the test."""
    envs: list[WMBenchEnv] = []

    def factory(scenario, **kwargs) -> WMBenchEnv:
        env = WMBenchEnv(scenario, **kwargs)
        envs.append(env)
        return env

    yield factory
    for env in envs:
        env.close()
