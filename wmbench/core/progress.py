"""Progress for long commands: a tqdm bar on a terminal, a plain line every N % when stderr is a file or pipe.

Card
----
:func:`progress_bar` returns an object with tqdm's ``update(n)``, ``write(text)``, ``set_postfix_str(text)`` and
``close()``. On a terminal it is a ``tqdm`` bar; otherwise (CI logs, ``2> log``, a pipe) a :class:`PercentLines`
that prints ``desc: 40 % (20/50 ep, 12 s)`` each time another ``every_percent`` of the total is done, and at the
end — as pip does — so a log shows that long work is moving without a carriage-return mess. ``enabled=False``
gives a silent object with the same methods (``--no-progress``). Everything goes to ``stream`` (stderr by
default), never stdout, so a command's output stays parseable.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Protocol, TextIO


class Progress(Protocol):
    """What the commands call on a progress object (a subset of tqdm's API)."""

    def update(self, n: int = 1) -> Any: ...

    def write(self, text: str) -> Any: ...

    def set_postfix_str(self, text: str) -> Any: ...

    def close(self) -> Any: ...


class PercentLines:
    """A line per ``every_percent`` of progress (see module card)."""

    def __init__(self, total: int, desc: str, unit: str, stream: TextIO, every_percent: int = 10,
                 initial: int = 0, enabled: bool = True) -> None:
        self.total = max(0, int(total))
        self.desc = desc
        self.unit = unit
        self.stream = stream
        self.step = max(1, int(every_percent))
        self.n = int(initial)
        self.enabled = enabled
        self.postfix = ""
        self._start = time.monotonic()
        self._printed = self._percent() // self.step * self.step  # what the starting point already shows
        self._closed = False

    def _percent(self) -> int:
        return 100 if self.total == 0 else int(100 * self.n / self.total)

    def _line(self) -> str:
        extra = f", {self.postfix}" if self.postfix else ""
        return (f"{self.desc}: {self._percent()} % ({self.n}/{self.total} {self.unit}, "
                f"{time.monotonic() - self._start:.0f} s{extra})")

    def update(self, n: int = 1) -> None:
        self.n += n
        reached = self._percent() // self.step * self.step
        if self.enabled and reached > self._printed:
            self._printed = reached
            print(self._line(), file=self.stream, flush=True)

    def write(self, text: str) -> None:
        if self.enabled:
            print(text, file=self.stream, flush=True)

    def set_postfix_str(self, text: str) -> None:
        self.postfix = text

    def close(self) -> None:
        if self.enabled and not self._closed and self._printed < self._percent():
            print(self._line(), file=self.stream, flush=True)
        self._closed = True


def progress_bar(total: int, desc: str, unit: str = "it", *, enabled: bool = True, initial: int = 0,
                 stream: TextIO | None = None, every_percent: int = 10) -> Progress:
    """A progress object for ``total`` steps of ``unit`` (see module card)."""
    out = stream if stream is not None else sys.stderr
    try:
        terminal = out.isatty()
    except (AttributeError, ValueError):
        terminal = False
    if enabled and terminal:
        from tqdm import tqdm

        bar: Progress = tqdm(total=total, initial=initial, desc=desc, unit=unit, file=out, dynamic_ncols=True)
        return bar
    return PercentLines(total, desc, unit, out, every_percent, initial=initial, enabled=enabled)
