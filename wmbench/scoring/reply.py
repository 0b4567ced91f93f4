"""What a reply said: its PREDICT items (verdict, reason, raw item text) and its MOTION text.

The env's parse dict holds ``{dir: [verdict, reason, raw]}``: the raw text of each item (``fwd=danger(beast,
charging, 4.8m)``) as the grammar read it, whatever the reply's layout (one line, a bulleted list, JSON). A
trace recorded before the parse carried ``raw`` gets it from the grammar re-reading the reply — never from a
separate pattern of the scorer's own. A decision whose reply
could not be parsed (``parse["ok"]`` false) is a *miss*: no PREDICT, no MOTION.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from wmbench.core.directions import DIRECTION_READINGS
from wmbench.protocol.grammar import parse_reply
from wmbench.protocol.trace import DecisionRecord

_DISTANCE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:m|meters?|metres?)\b", re.IGNORECASE)
_MOTION_LINE = re.compile(r"motion\s*[:=]\s*(.*)", re.IGNORECASE)


@dataclass(frozen=True)
class PredictItem:
    """One ``dir=verdict(reason)`` item as the grammar read it, with its raw text."""

    direction: str
    verdict: str
    reason: str | None
    raw: str = ""


def parse_ok(d: DecisionRecord) -> bool:
    return bool(d.parse.get("ok"))


def prediction(d: DecisionRecord) -> dict[str, PredictItem] | None:
    """The PREDICT items of a parsed reply, or None for a parse error (a miss)."""
    if not parse_ok(d):
        return None
    raw_from_reply = _raw_items(d.reply or "")
    items: dict[str, PredictItem] = {}
    for key, value in (d.parse.get("prediction") or {}).items():
        direction = DIRECTION_READINGS.get(str(key).lower())
        if direction is None:
            continue
        if isinstance(value, dict):
            verdict, reason, raw = value.get("verdict"), value.get("reason"), value.get("raw")
        else:
            seq = [*list(value), None, None, None]
            verdict, reason, raw = seq[0], seq[1], seq[2]
        items[direction] = PredictItem(
            direction, str(verdict or "").lower(), str(reason).lower() if reason else None,
            str(raw) if raw else raw_from_reply.get(direction, ""),
        )
    return items


def motion_text(d: DecisionRecord) -> str:
    """The MOTION text (from the parse, else the reply's MOTION line); empty for a parse error."""
    if not parse_ok(d):
        return ""
    motion = d.parse.get("motion")
    if isinstance(motion, str) and motion.strip():
        return motion.strip()
    for line in (d.reply or "").splitlines():
        m = _MOTION_LINE.search(line)
        if m:
            return m.group(1).strip()
    return ""


def _raw_items(reply: str) -> Mapping[str, str]:
    """Direction -> raw PREDICT item text, as the grammar reads ``reply`` (for traces recorded before the parse
    dict carried each item's raw text). Read once per reply text (read-only: it is cached)."""
    if not isinstance(reply, str):
        return MappingProxyType({})
    return _raw_items_cached(reply)


@lru_cache(maxsize=1 << 15)
def _raw_items_cached(reply: str) -> Mapping[str, str]:
    parsed = parse_reply(reply)
    items = getattr(parsed.prediction, "items", ()) if parsed.prediction is not None else ()
    return MappingProxyType({i.direction: i.raw for i in items})


def distances_in(text: str) -> list[float]:
    """Distances written in metres (``5m``, ``4.8 m``, ``3 metres``), in order."""
    return [float(m.group(1)) for m in _DISTANCE.finditer(text or "")]


def predicted_danger(d: DecisionRecord, direction: str | None) -> bool:
    items = prediction(d) or {}
    item = items.get(direction) if direction else None
    return item is not None and item.verdict == "danger"


def predicted_reason_anywhere(d: DecisionRecord, reason: str, verdict: str = "danger") -> list[str]:
    items = prediction(d) or {}
    return [k for k, item in items.items() if item.reason == reason and item.verdict == verdict]
