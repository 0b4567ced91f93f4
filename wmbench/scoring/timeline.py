"""Where the beast is over an episode: despawn point, recovery stretch, (re)appearances, first sight."""

from __future__ import annotations

from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scoring.evidence import beast_nearby, beast_present


def despawn_index(trace: Trace) -> int | None:
    """Position of the first decision with no beast present right after one with a beast (None if none)."""
    present = [beast_present(d) for d in trace.decisions]
    return next((i for i in range(1, len(present)) if present[i - 1] and not present[i]), None)


def recovery(trace: Trace) -> list[DecisionRecord] | None:
    """Decisions after the despawn point until a beast is present again. An episode that starts with no beast
    present recovers from its first decision. None when there is no beast-free stretch after a beast."""
    start = despawn_index(trace)
    if start is None:
        if trace.decisions and not beast_present(trace.decisions[0]):
            start = 0
        else:
            return None
    out = []
    for d in trace.decisions[start:]:
        if beast_present(d):
            break
        out.append(d)
    return out


def reappearance_index(trace: Trace) -> int | None:
    """Position of the last decision where a beast is present after a decision without one (None if none)."""
    present = [beast_present(d) for d in trace.decisions]
    starts = [i for i in range(1, len(present)) if present[i] and not present[i - 1]]
    return starts[-1] if starts else None


def first_sight(trace: Trace, window: int) -> list[DecisionRecord]:
    """The ``window`` decisions from the first one with a beast nearby (else present); empty if never."""
    flags = [beast_nearby(d) for d in trace.decisions]
    if not any(flags):
        flags = [beast_present(d) for d in trace.decisions]
    start = next((i for i, f in enumerate(flags) if f), None)
    return [] if start is None else trace.decisions[start:start + window]
