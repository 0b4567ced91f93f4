"""Beast presence over an episode: despawn point, recovery, reappearance, first sight."""

from __future__ import annotations

from tests.scoring.trace_factory import TraceBuilder, npc, truth
from wmbench.scoring.timeline import despawn_index, first_sight, reappearance_index, recovery

NEAR = truth(npcs=[npc("beast", "approach", 5.0, "fwd")])
FAR = truth(npcs=[npc("beast", "approach", 9.0, "fwd")])
GONE = truth()


def trace_of(*plan):
    b = TraceBuilder("S31")
    for t, n in plan:
        b.repeat(n, t)
    return b.build()


def test_despawn_and_recovery() -> None:
    trace = trace_of((NEAR, 2), (GONE, 3), (NEAR, 1), (GONE, 1))
    assert despawn_index(trace) == 2
    assert [d.index for d in recovery(trace)] == [2, 3, 4]
    assert reappearance_index(trace) == 5


def test_episode_starting_without_a_beast_recovers_from_the_start() -> None:
    trace = trace_of((GONE, 2), (NEAR, 2))
    assert despawn_index(trace) is None
    assert [d.index for d in recovery(trace)] == [0, 1]
    assert reappearance_index(trace) == 2


def test_no_recovery_while_the_beast_stays() -> None:
    trace = trace_of((NEAR, 3))
    assert recovery(trace) is None and reappearance_index(trace) is None


def test_first_sight_prefers_nearby_then_present() -> None:
    assert [d.index for d in first_sight(trace_of((GONE, 1), (FAR, 2), (NEAR, 3)), 2)] == [3, 4]
    assert [d.index for d in first_sight(trace_of((GONE, 1), (FAR, 3)), 2)] == [1, 2]
    assert first_sight(trace_of((GONE, 2)), 2) == []
