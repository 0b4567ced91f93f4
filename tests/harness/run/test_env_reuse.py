"""Reusing one env per worker across episodes gives the same traces as a fresh env per episode (issue 15)."""

from __future__ import annotations

import pytest

from benchmarks.trace_snapshot import canonical_trace
from wmbench.brain.registry import get_brain
from wmbench.harness.run import env_reuse
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.selection import plan_suite

BENCH_IDS = [s.id for s in plan_suite("all", 1).bench]


@pytest.fixture
def brain():
    made = get_brain("reference")
    yield made
    made.close()
    env_reuse.close_all()


def _trace_text(result) -> str:
    """The trace as canonical JSON, without the brain's wall-clock latencies (the only field that may differ)."""
    assert result.error is None, result.error
    return canonical_trace(result.trace)


@pytest.mark.parametrize("body", ["smpl", "robot", "drone"])
def test_reused_env_traces_are_byte_identical_to_fresh_ones(brain, body):
    """Every bench scenario, run one after another on one reused env (seed 1), against a fresh env each.
    (The drone keeps its airframe between episodes of a reused env: ``reuse_on_reset``, issue 23.)"""
    ids = BENCH_IDS if body != "robot" else BENCH_IDS[::10]
    reused = [_trace_text(run_episode(sid, brain, body, 1, reuse_env=True)) for sid in ids]
    assert len(env_reuse._envs()) == 1  # one env (one PyBullet client) served them all
    fresh = [_trace_text(run_episode(sid, brain, body, 1)) for sid in ids]
    mismatched = [sid for sid, a, b in zip(ids, reused, fresh) if a != b]
    assert not mismatched


def test_a_failed_episode_discards_the_reused_env(brain):
    class Exploding:
        name = "exploding"

        def reset(self, seed):
            raise RuntimeError("boom")

        def close(self):
            pass

    run_episode("S01", brain, "smpl", 0, reuse_env=True)
    first = next(iter(env_reuse._envs().values()))
    result = run_episode("S02", Exploding(), "smpl", 0, reuse_env=True)
    assert result.error and "boom" in result.error
    assert first not in env_reuse._envs().values() and first.world is None  # closed, forgotten
