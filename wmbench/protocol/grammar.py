"""The two-line grammar: ``PREDICT: ...`` and ``MOTION: ...`` — the brain's output and the env's action.

::

    PREDICT: left=safe(open), right=danger(wall), fwd=danger(beast), back=safe(open)
    MOTION: a person sprints to the right in terror, glancing back over the shoulder

This module is the only place that parses or formats those lines. It is strict where the meaning is clear and
tolerant where models are sloppy, and it never raises: anything unreadable becomes a typed :class:`ParseError`
(recorded and scored as a miss by the harness).

How a reply is read (:func:`parse_reply`):

* **Input.** A ``str`` is parsed. ``bytes``/``bytearray``/``memoryview`` are decoded as UTF-8 (bad bytes
  replaced) and parsed *for salvage only*: the result is always ``ParseError(NOT_TEXT)`` carrying whatever
  prediction and motion were readable, because the action contract is text. Anything else -> ``NOT_TEXT``.
* **Size.** At most :data:`MAX_REPLY_CHARS` are kept (head + tail) before ``<think>`` removal and
  :data:`MAX_SCAN_CHARS` after it (first quarter + last three quarters: answers come last). All patterns are
  linear; a PREDICT block is read up to :data:`MAX_PREDICT_CHARS`, a MOTION up to :data:`MAX_MOTION_CHARS`.
* **Thinking.** ``<think>...</think>`` (also ``<thinking>``, ``<reasoning>``) blocks are dropped with their
  content. A stray ``</think>`` drops everything before it (the opening tag was in the chat template). An
  unclosed ``<think>`` drops everything after it: the model never finished thinking, so its drafts are not
  read.
* **Labels.** ``PREDICT``/``PREDICTION`` and ``MOTION`` in any case, with markdown (``**PREDICT:**``, bullets,
  headings, quotes, code fences) removed. At the start of a line the label is followed by ``:``, ``=``,
  ``-``, ``→``, ``>`` or just a space; inside a line (prose such as "Here is my answer: PREDICT: ...") only
  ``:`` or ``=`` make a label, so "the motion - fast" is not one. Both labels may share one line. **When
  several appear, the last PREDICT with a readable item wins** (models draft first and answer last) **and the
  MOTION is the one that belongs to it**: of the non-empty MOTION labels after the winning PREDICT, the last
  one that opens its line (else, when all sit inside prose as on a one-line reply, the first; else, for a
  reply that writes MOTION first, the last one before it). A trailing remark such as ``*Note on the motion:
  ...*`` or ``Explanation of the motion: ...`` sits inside its line, so it never replaces the answer's
  ``MOTION:`` line; a reply with several non-empty MOTION labels carries a ``warnings`` entry saying which
  was used (recorded in the trace).
* **PREDICT items** sit on the label's line and on following lines that start with a direction (bulleted
  lists). Items are separated by ``,`` ``;`` ``|``, newlines, sentence ends, or simply by the next
  ``dir=``/``dir:`` key (commas inside parentheses do not split). Keys: ``left``, ``right``, ``fwd``
  (``front``/``forward``/``ahead``), ``back`` (``behind``/``rear``/``backward``); ``left and right=...`` and
  ``left/right=...`` set both; ``all``/``others``/``rest=...`` fill the directions not named explicitly.
* **Verdicts** are read word by word with negation: ``safe clear open free ok passable`` vs
  ``danger dangerous unsafe blocked threat risky hazard impassable``; a negator (``not no never non without
  isn't`` ...) flips the next verdict word within three words ("not dangerous" is safe, "no danger" is safe,
  "not safe" is danger); ``danger-free`` is safe. An item asserting both (``safe/danger``,
  ``safe but danger``) or a direction given twice with different verdicts is ``ambiguous``; so is
  ``ambiguous``/``unclear``/``unknown`` alone. Verdict words inside the parentheses count only when there
  are none outside (``danger(open)`` is danger). A clause that starts with ``but``/``maybe``/``while`` ... and
  names another direction belongs to no item: ``fwd=safe, but danger to the left`` is fwd=safe (the left gets
  nothing). With no verdict word the reason decides (``left=wall`` is
  danger(wall), ``left=open`` is safe(open), ``left=no wall`` is safe). An item with neither is dropped.
* **Reasons** map onto :data:`REASONS`: open/exit/clear/free/empty -> ``open`` (the sim's truth only knows
  ``open``), wall/obstacle/barrier -> ``wall``, beast/lion/tiger/wolf/bear/animal/predator -> ``beast``,
  human/woman/man/person/people -> ``human``, unknown -> ``unknown``; the first one mentioned wins.
* **Errors**, first that applies: not text -> ``NOT_TEXT``; blank -> ``EMPTY``; no PREDICT label ->
  ``NO_PREDICT`` (motion salvaged); PREDICT with no readable item -> ``UNREADABLE_PREDICT`` (motion salvaged);
  no MOTION or an empty one -> ``NO_MOTION`` (prediction salvaged).

Simplified: only English words are understood; a model answering in another language gets a typed error.

Where the rules live: the vocabulary, verdict reading and item splitting in :mod:`wmbench.protocol.grammar_words`,
the limits, ``<think>`` removal and label finding in :mod:`wmbench.protocol.grammar_layout`; this module holds the
reply types and puts the parts together. Import each name from the module that defines it.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from wmbench.core.directions import GRAMMAR_ORDER, Direction
from wmbench.protocol.grammar_layout import (
    MAX_PREDICT_CHARS,
    MAX_REPLY_CHARS,
    MAX_SCAN_CHARS,
    Label,
    clean_line,
    find_labels,
    head_tail,
    motion_text,
    predict_block,
    strip_thinking,
)
from wmbench.protocol.grammar_words import (
    DIRECTION_SYNONYMS,
    Verdict,
    keyed_items,
    parse_verdict,
)

__all__ = [
    "REASONS", "Decision", "DirectionPrediction", "ParseError", "ParseErrorCode",
    "ParseResult", "Prediction", "format_prediction", "format_reply", "parse_prediction", "parse_reply",
]

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
    #: reading notes that are not errors (e.g. several MOTION labels: which one was used)
    warnings: tuple[str, ...] = ()


class ParseErrorCode(str, enum.Enum):
    EMPTY = "empty"                       # nothing but whitespace / control characters
    NO_PREDICT = "no_predict"             # no PREDICT line found
    NO_MOTION = "no_motion"               # no MOTION line found (or it is empty)
    UNREADABLE_PREDICT = "unreadable_predict"  # a PREDICT line with no readable dir=verdict item
    NOT_TEXT = "not_text"                 # the action was not a string


@dataclass(frozen=True)
class ParseError:
    """A reply that could not be read fully. Whatever could be salvaged is kept:
    ``prediction`` (possibly None) and ``motion`` (possibly None) — the body still acts on a salvaged
    MOTION."""

    code: ParseErrorCode
    message: str
    prediction: Prediction | None = None
    motion: str | None = None

    ok: bool = field(default=False, init=False)
    #: reading notes that are not errors (e.g. several MOTION labels: which one was used)
    warnings: tuple[str, ...] = ()


ParseResult = Decision | ParseError

_BLANK_RE = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u200b-\u200d\u2060\ufeff]*")


# ----------------------------------------------------------------------------------------------- PREDICT
def parse_prediction(content: str, raw: str = "") -> Prediction:
    """One PREDICT block (the text after its label) -> :class:`Prediction` (its items may be empty)."""
    content = content[:MAX_PREDICT_CHARS]
    named: dict[str, list[tuple[Verdict, str | None, str]]] = {}
    generic: list[tuple[Verdict, str | None, str]] = []
    for item in keyed_items(content):
        verdict, reason = parse_verdict(item.value)
        if verdict is None:
            continue
        for key in item.keys:
            (generic if key == "*" else named.setdefault(key, [])).append((verdict, reason, item.raw))
    out = []
    for direction in GRAMMAR_ORDER:
        said = named.get(direction) or generic
        if not said:
            continue
        verdicts = {v for v, _, _ in said}
        reasons = [r for _, r, _ in said if r is not None]
        verdict = verdicts.pop() if len(verdicts) == 1 else "ambiguous"
        reason = reasons[0] if reasons and (verdict != "ambiguous" or len(set(reasons)) == 1) else None
        raws = "; ".join(dict.fromkeys(r for _, _, r in said))
        out.append(DirectionPrediction(direction, verdict, reason, raws))
    return Prediction(tuple(out), raw or content.strip())


# ------------------------------------------------------------------------------------------------- reply
def _parse_text(text: str) -> ParseResult:
    text = head_tail(text, MAX_REPLY_CHARS)
    if _BLANK_RE.fullmatch(text):
        return ParseError(ParseErrorCode.EMPTY, "the reply is empty (only whitespace or control characters)")
    visible, unclosed = strip_thinking(text)
    visible = head_tail(visible, MAX_SCAN_CHARS)
    lines = [clean_line(line) for line in visible.splitlines()]
    labels = find_labels(lines)
    label_lines = {lab.line for lab in labels}
    motions = [(n, text, _starts_line(lab, lines)) for n, lab in enumerate(labels) if lab.kind == "motion"
               for text in [motion_text(lab, lines, label_lines)] if text]
    predict_at = [n for n, lab in enumerate(labels) if lab.kind == "predict"]
    if not predict_at:
        why = ("the reply ended inside an unclosed <think> block" if unclosed and not visible.strip() else
               "the reply held only a <think> block" if not visible.strip() else "no PREDICT line was found")
        motion = _motion_of_block(motions, -1, [])
        return ParseError(ParseErrorCode.NO_PREDICT, f"expected a 'PREDICT: ...' line; {why}", None, motion,
                          warnings=_motion_warnings(motions, motion))
    prediction, winner = None, predict_at[-1]
    for n in reversed(predict_at):
        candidate = parse_prediction(*predict_block(labels[n], lines, label_lines))
        prediction = prediction or candidate
        if candidate.items:
            prediction, winner = candidate, n
            break
    assert prediction is not None
    motion = _motion_of_block(motions, winner, predict_at)
    warnings = _motion_warnings(motions, motion)
    if not prediction.items:
        return ParseError(ParseErrorCode.UNREADABLE_PREDICT,
                          f"expected items like 'left=safe(open)' after PREDICT; got {prediction.raw[:80]!r}",
                          prediction, motion, warnings=warnings)
    if motion is None:
        return ParseError(ParseErrorCode.NO_MOTION, "expected a non-empty 'MOTION: ...' line; none was found",
                          prediction, None, warnings=warnings)
    return Decision(prediction, motion, warnings=warnings)


def _starts_line(label: Label, lines: list[str]) -> bool:
    """The label opens its line (``MOTION: ...``), rather than sitting inside prose ("Note on the motion: ")."""
    return lines[label.line].lstrip(" \t-•>#+0123456789.)\"'").lower().startswith(label.label.lower()[:6])


def _motion_of_block(motions: list[tuple[int, str, bool]], winner: int, predict_at: list[int]) -> str | None:
    """The MOTION that belongs to the winning PREDICT (label index ``winner``; the last readable one, so no
    later PREDICT starts another answer): of the MOTION labels after it, the last one that opens its line
    (models draft, then answer), else — when all sit inside prose, as on a one-line reply — the first one;
    with none after it (a reply that puts MOTION first) the last one before it. A trailing remark such as
    "*Note on the motion: ...*" or "Explanation of the motion: ..." sits inside its line, so it never
    replaces the answer's own ``MOTION:`` line."""
    after = [(text, opens) for n, text, opens in motions if n > winner]
    line_starts = [text for text, opens in after if opens]
    if line_starts:
        return line_starts[-1]
    if after:
        return after[0][0]
    before = [text for n, text, _ in motions if n < winner]
    return before[-1] if before else None


def _motion_warnings(motions: list[tuple[int, str, bool]], used: str | None) -> tuple[str, ...]:
    """A warning when the reply held several non-empty MOTION labels (which one was used, how many)."""
    if len(motions) < 2:
        return ()
    shown = (used or "")[:60]
    return (f"{len(motions)} MOTION labels in the reply; used the one of the answer's PREDICT block: "
            f"{shown!r}",)


def parse_reply(text: object) -> ParseResult:
    """Parse a brain reply (rules in the module card). Never raises, whatever ``text`` is."""
    if isinstance(text, str):
        return _parse_text(str.__str__(text))
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            decoded = bytes(text)[:MAX_REPLY_CHARS].decode("utf-8", errors="replace")
        except (TypeError, ValueError, BufferError, NotImplementedError):   # exotic buffers
            decoded = ""
        salvaged = _parse_text(decoded)
        prediction = salvaged.prediction
        return ParseError(ParseErrorCode.NOT_TEXT,
                          f"expected str, got {type(text).__name__} (decoded as UTF-8 only to salvage parts)",
                          prediction, salvaged.motion)
    return ParseError(ParseErrorCode.NOT_TEXT, f"expected str, got {type(text).__name__}")


# ---------------------------------------------------------------------------------------------- format
def _format_item(direction: str, spec: object) -> str:
    if isinstance(spec, str):
        spec = (spec, None)
    if not isinstance(spec, (tuple, list)) or not 1 <= len(spec) <= 2:
        raise ValueError(f"expected (verdict, reason) for {direction!r}, got {spec!r}")
    verdict, reason = (spec[0], spec[1] if len(spec) == 2 else None)
    if verdict not in ("safe", "danger", "ambiguous"):
        raise ValueError(f"verdict for {direction!r} must be safe/danger/ambiguous, got {verdict!r}")
    if reason is not None and reason not in REASONS:
        raise ValueError(f"reason for {direction!r} must be one of {REASONS} or None, got {reason!r}")
    return f"{direction}={verdict}" + (f"({reason})" if reason else "")


#: the key type of the verdict maps :func:`format_prediction` takes: a :data:`Direction` or any synonym string
_DirectionKey = TypeVar("_DirectionKey", bound=str)


def format_prediction(verdicts: Mapping[_DirectionKey, tuple[str, str | None]]) -> str:
    """``{"left": ("safe", "open"), ...}`` -> ``"PREDICT: left=safe(open), right=..."``.

    Order left, right, fwd, back. Keys may use any direction synonym (``front`` -> ``fwd``); directions not
    given are not written. Raises ValueError on an unknown direction, verdict or reason."""
    specs: dict[str, object] = {}
    for key, spec in verdicts.items():
        direction = DIRECTION_SYNONYMS.get(str(key).lower())
        if direction is None:
            raise ValueError(f"unknown direction {key!r}; expected one of {GRAMMAR_ORDER}")
        if direction in specs:
            raise ValueError(f"direction {direction!r} given twice (as {key!r})")
        specs[direction] = spec
    if not specs:
        raise ValueError("format_prediction needs at least one direction")
    return "PREDICT: " + ", ".join(_format_item(d, specs[d]) for d in GRAMMAR_ORDER if d in specs)


def format_reply(verdicts: Mapping[_DirectionKey, tuple[str, str | None]], motion: str) -> str:
    """The two lines, PREDICT then MOTION, joined by a newline (the motion's whitespace is collapsed).

    The parser trims quotes, brackets and commas at the ends of a MOTION, so such a motion reads back without
    them."""
    motion_line = " ".join(str(motion).split())
    if not motion_line:
        raise ValueError("format_reply needs a non-empty motion")
    return f"{format_prediction(verdicts)}\nMOTION: {motion_line}"
