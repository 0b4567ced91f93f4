"""The two-line grammar: ``PREDICT: ...`` and ``MOTION: ...`` — the brain's output and the env's action.

::

    PREDICT: left=safe(open), right=danger(wall), fwd=danger(beast), back=safe(open)
    MOTION: a person sprints to the right in terror, glancing back over the shoulder

This module is the only place that parses or formats those lines. It is strict where the meaning is clear and
tolerant where models are sloppy, and it never raises: anything unreadable becomes a typed :class:`ParseError`
(recorded and scored as a miss by the harness).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal

Direction = Literal["fwd", "left", "right", "back"]
Verdict = Literal["safe", "danger", "ambiguous"]
GRAMMAR_DIRECTIONS: tuple[Direction, ...] = ("left", "right", "fwd", "back")
#: Canonical reasons. Parsers map synonyms onto these (e.g. "lion" -> "beast", "woman" -> "human").
REASONS: tuple[str, ...] = ("open", "wall", "beast", "human", "exit", "unknown")


@dataclass(frozen=True)
class DirectionPrediction:
    """One ``dir=verdict(reason)`` item. ``reason`` is canonical (see :data:`REASONS`) or None if absent."""

    direction: Direction
    verdict: Verdict
    reason: str | None = None
    raw: str = ""


@dataclass(frozen=True)
class Prediction:
    """The parsed PREDICT line: at most one item per direction (directions not mentioned are absent)."""

    items: tuple[DirectionPrediction, ...] = ()
    raw: str = ""

    def get(self, direction: Direction) -> DirectionPrediction | None:
        for item in self.items:
            if item.direction == direction:
                return item
        return None

    def verdicts(self) -> dict[str, Verdict]:
        return {i.direction: i.verdict for i in self.items}


@dataclass(frozen=True)
class Decision:
    """A fully parsed reply: a PREDICT with at least one direction and a non-empty MOTION."""

    prediction: Prediction
    motion: str

    ok: bool = field(default=True, init=False)


class ParseErrorCode(str, enum.Enum):
    EMPTY = "empty"                       # nothing but whitespace / control characters
    NO_PREDICT = "no_predict"             # no PREDICT line found
    NO_MOTION = "no_motion"               # no MOTION line found (or it is empty)
    UNREADABLE_PREDICT = "unreadable_predict"  # a PREDICT line with no readable dir=verdict item
    NOT_TEXT = "not_text"                 # the action was not a string


@dataclass(frozen=True)
class ParseError:
    """A reply that could not be read fully. Whatever could be salvaged is kept:
    ``prediction`` (possibly None) and ``motion`` (possibly None) — the body still acts on a salvaged MOTION."""

    code: ParseErrorCode
    message: str
    prediction: Prediction | None = None
    motion: str | None = None

    ok: bool = field(default=False, init=False)


ParseResult = Decision | ParseError


def parse_reply(text: object) -> ParseResult:
    """Parse a brain reply. Never raises, whatever ``text`` is."""
    raise NotImplementedError  # implemented by the grammar work


def format_prediction(verdicts: dict[str, tuple[str, str | None]]) -> str:
    """``{"left": ("safe", "open"), ...}`` -> ``"PREDICT: left=safe(open), right=..."`` (order left, right, fwd, back)."""
    raise NotImplementedError


def format_reply(verdicts: dict[str, tuple[str, str | None]], motion: str) -> str:
    """The two lines, PREDICT then MOTION, joined by a newline."""
    raise NotImplementedError
