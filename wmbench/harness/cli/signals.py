"""SIGTERM handled like Ctrl-C: every long command keeps what finished and says so in one line.

Card
----
:func:`terminate_as_interrupt` (a context manager around one command) makes SIGTERM raise
``KeyboardInterrupt`` (and records that it did), so the command's Ctrl-C path runs: nothing new starts, finished
work is kept (``run`` and ``validity`` resume on a rerun), one clean line is printed. The exit code is then
:data:`EXIT_TERMINATED` (143 = 128 + SIGTERM, what shells report for a process ended by SIGTERM) instead of
Ctrl-C's 130. Outside the main thread (where signal handlers cannot be set) it does nothing.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

#: Exit code of a command stopped by SIGTERM (after keeping what finished).
EXIT_TERMINATED = 128 + signal.SIGTERM


@dataclass
class TerminationState:
    """Whether SIGTERM arrived during the block."""

    signalled: bool = False


@contextmanager
def terminate_as_interrupt() -> Iterator[TerminationState]:
    """Within the block, SIGTERM raises ``KeyboardInterrupt`` (once; see module card)."""
    state = TerminationState()
    if threading.current_thread() is not threading.main_thread():
        yield state
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        if not state.signalled:
            state.signalled = True
            raise KeyboardInterrupt  # the Ctrl-C path; ``state.signalled`` tells them apart

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield state
    finally:
        signal.signal(signal.SIGTERM, previous)
