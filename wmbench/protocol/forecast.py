"""An optional third line: ``FORECAST:`` — what the brain expects each direction to be some seconds from now.

::

    PREDICT: left=danger(beast), right=safe(open), fwd=safe(open), back=safe(open)
    MOTION: a person backs away to the right, watching the crossing beast
    FORECAST: fwd=danger(beast)@+1s, left=safe(open)@+2s

Card
----
- ``FORECAST`` (any case, markdown removed, at the start of a line, followed by ``:`` or ``=``) holds items
  ``dir=verdict(reason)@+H`` where ``H`` is a horizon in seconds (``@+1``, ``@+1.5s``, ``@ +2 s``). Directions,
  verdicts and reasons are read exactly as in PREDICT (:mod:`wmbench.protocol.grammar_words`); the horizon is
  required (an item without one is not a forecast and is dropped), and directions are in the brain's frame at
  that future moment (relative to its heading then).
- The line is separate from the two required ones: :func:`~wmbench.protocol.grammar.parse_reply` never reads it,
  so a brain that gives no forecast is unaffected, and a forecast never changes the PREDICT that is scored.
  :func:`parse_forecast` reads it from the reply text; the scorer checks each item against the world at
  ``t + H`` (:mod:`wmbench.scoring.forecast`).
- Several FORECAST lines: the last one with a readable item wins (as PREDICT). At most :data:`MAX_HORIZON_S`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wmbench.core.directions import GRAMMAR_ORDER
from wmbench.protocol.grammar_layout import clean_line
from wmbench.protocol.grammar_words import keyed_items, parse_verdict

#: The longest horizon read (s); a later one is dropped (no scenario lasts that long).
MAX_HORIZON_S = 60.0
_LABEL_RE = re.compile(r"^[ \t\-•>#+0-9.)]*forecasts?[ \t]*[:=]", re.I)
_HORIZON_RE = re.compile(r"@[ \t]*\+?[ \t]*(\d+(?:\.\d+)?)[ \t]*(?:s|sec|secs|seconds?)?\b", re.I)


@dataclass(frozen=True)
class ForecastItem:
    """One forecast: ``direction`` will be ``verdict`` (for ``reason``) ``horizon_s`` seconds from now."""

    direction: str
    verdict: str
    reason: str | None
    horizon_s: float


def parse_forecast(reply: object) -> tuple[ForecastItem, ...]:
    """Every forecast item of the reply's last readable FORECAST line (none: an empty tuple; never raises)."""
    if not isinstance(reply, str):
        return ()
    found: tuple[ForecastItem, ...] = ()
    for raw in reply.splitlines():
        line = clean_line(raw)
        label = _LABEL_RE.match(line)
        if label:
            items = _items(line[label.end():])
            found = items or found
    return found


def _items(content: str) -> tuple[ForecastItem, ...]:
    out: list[ForecastItem] = []
    # each item carries its own horizon: cut the content after every "@+H" so the horizons split the items
    pieces, start = [], 0
    for match in _HORIZON_RE.finditer(content):
        pieces.append((content[start:match.start()], float(match.group(1))))
        start = match.end()
    for text, horizon in pieces:
        if not 0 < horizon <= MAX_HORIZON_S:
            continue
        for item in keyed_items(text.strip(" ,;|")):
            verdict, reason = parse_verdict(item.value)
            if verdict is None:
                continue
            keys = GRAMMAR_ORDER if "*" in item.keys else item.keys
            out.extend(ForecastItem(str(key), verdict, reason, horizon) for key in keys)
    return tuple(out)
