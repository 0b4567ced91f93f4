"""Ctrl-C and SIGTERM acted on between executor calls, never inside them.

::

    with interrupts_after():        # a signal in here is noted ...
        pending.add(pool.submit(fn, spec))
    # ... and handed to its handler here (KeyboardInterrupt by default)

Card
----
- **The fault.** A signal handler that raises (``KeyboardInterrupt`` for Ctrl-C, the CLI's SIGTERM handler,
  :mod:`wmbench.harness.cli.signals`) raises wherever the main thread is: also between a lock's ``acquire`` and
  the ``with`` block that would release it, inside ``concurrent.futures``' ``submit``, ``wait`` or
  ``as_completed`` (their queue and future locks). A lock left held there blocks the executor's manager thread
  for ever, and the run then waits for results that never come (seen: SIGTERM of ``wmbench run --workers 2``
  right after its first episode hung with the manager thread stuck in ``Queue.get``).
- :func:`interrupts_after`: within the block, SIGINT and SIGTERM are only noted; on leaving it, the handlers that
  were installed before are back and a noted signal is raised again (:func:`resend`, :func:`signal.raise_signal`),
  so it means what it meant — ``KeyboardInterrupt``, the CLI's exit 143, or the default action — one step later,
  where no executor lock is held. ``resend=False`` leaves the resending to the caller (``resend(noted)``), for a
  block whose result must be handed on first. Off the main thread (where handlers cannot be set) the block runs
  as it is.
- :func:`completed`: the futures as they finish, waiting in slices of :data:`POLL_S` inside
  :func:`interrupts_after`, so a signal stops the caller within one slice, never inside ``wait``, and only after
  the futures that had finished were handed on.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import contextmanager
from types import FrameType
from typing import TypeVar

__all__ = ["POLL_S", "completed", "interrupts_after", "resend"]

#: Longest wait for a future before a noted signal is acted on (s).
POLL_S = 0.2
#: The signals that stop a command (Ctrl-C, and SIGTERM, which the CLI turns into Ctrl-C).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

T = TypeVar("T")


@contextmanager
def interrupts_after(resend_on_exit: bool = True) -> Iterator[list[int]]:
    """Within the block, SIGINT/SIGTERM are only noted (in the list it yields); on leaving it, the first one noted
    is raised again to the handler installed before, unless ``resend_on_exit`` is False (see the card)."""
    noted: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return

    def note(signum: int, frame: FrameType | None) -> None:
        noted.append(signum)

    previous = {signum: signal.signal(signum, note) for signum in STOP_SIGNALS}
    try:
        yield noted
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        if resend_on_exit:
            resend(noted)


def resend(noted: list[int]) -> None:
    """Raise the first signal of ``noted`` again, to the handler installed now (it may raise)."""
    if noted:
        signal.raise_signal(noted[0])


def completed(futures: Iterable[Future[T]]) -> Iterator[Future[T]]:
    """``futures`` as they finish (like ``as_completed``), a signal acted on between waits (see the card)."""
    pending = set(futures)
    while pending:
        with interrupts_after(resend_on_exit=False) as noted:
            done, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
        yield from done
        resend(noted)
