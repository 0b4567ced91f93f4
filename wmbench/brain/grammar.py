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
  several appear, the last PREDICT with a readable item wins and the last non-empty MOTION wins** (models
  draft first and answer last).
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
  are none outside (``danger(open)`` is danger). With no verdict word the reason decides (``left=wall`` is
  danger(wall), ``left=open`` is safe(open), ``left=no wall`` is safe). An item with neither is dropped.
* **Reasons** map onto :data:`REASONS`: open/exit/clear/free/empty -> ``open`` (the sim's truth only knows
  ``open``), wall/obstacle/barrier -> ``wall``, beast/lion/tiger/wolf/bear/animal/predator -> ``beast``,
  human/woman/man/person/people -> ``human``, unknown -> ``unknown``; the first one mentioned wins.
* **Errors**, first that applies: not text -> ``NOT_TEXT``; blank -> ``EMPTY``; no PREDICT label ->
  ``NO_PREDICT`` (motion salvaged); PREDICT with no readable item -> ``UNREADABLE_PREDICT`` (motion salvaged);
  no MOTION or an empty one -> ``NO_MOTION`` (prediction salvaged).

Simplified: only English words are understood; a model answering in another language gets a typed error.
"""

from __future__ import annotations

import enum
import re
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
    ``prediction`` (possibly None) and ``motion`` (possibly None) — the body still acts on a salvaged
    MOTION."""

    code: ParseErrorCode
    message: str
    prediction: Prediction | None = None
    motion: str | None = None

    ok: bool = field(default=False, init=False)



ParseResult = Decision | ParseError

# ------------------------------------------------------------------------------------------------ limits
#: Hard cap on the characters looked at before ``<think>`` removal (head + tail kept).
MAX_REPLY_CHARS = 1_000_000
#: Cap on the characters scanned for labels after ``<think>`` removal (head quarter + tail three quarters).
MAX_SCAN_CHARS = 65_536
MAX_PREDICT_CHARS = 4_000
MAX_MOTION_CHARS = 1_000
#: Bulleted PREDICT lists: at most this many lines after the label line are read.
MAX_PREDICT_CONTINUATION_LINES = 8

# ------------------------------------------------------------------------------------------------- words
DIRECTION_SYNONYMS: dict[str, Direction] = {
    "left": "left", "right": "right", "fwd": "fwd", "forward": "fwd", "forwards": "fwd", "front": "fwd",
    "ahead": "fwd", "back": "back", "backward": "back", "backwards": "back", "behind": "back", "rear": "back",
}
#: Keys that stand for every direction not named explicitly (``all=safe(open)``, ``others=safe``).
GENERIC_KEYS: frozenset[str] = frozenset({
    "all", "others", "other", "rest", "remaining", "everything", "elsewhere",
})
SAFE_WORDS: frozenset[str] = frozenset({
    "safe", "safely", "safer", "safest", "clear", "open", "free", "ok", "okay", "fine", "passable",
    "accessible", "unblocked", "navigable", "available",
})
DANGER_WORDS: frozenset[str] = frozenset({
    "danger", "dangerous", "unsafe", "blocked", "threat", "threatening", "threatened", "risky", "risk",
    "hazard", "hazardous", "deadly", "perilous", "peril", "impassable", "obstructed", "closed", "trapped",
})
AMBIGUOUS_WORDS: frozenset[str] = frozenset({"ambiguous", "uncertain", "unclear", "unsure", "unknown"})
NEGATORS: frozenset[str] = frozenset({
    "not", "no", "never", "non", "without", "nothing", "neither", "nor", "hardly", "isnt", "arent", "wasnt",
})
#: Words that end a negation's reach ("not safe but clear").
NEGATION_BREAKS: frozenset[str] = frozenset({"but", "yet", "though", "although", "however", "except", "or"})
#: A keyless item that starts with one of these continues the previous item ("left=safe, but danger").
CONTINUATION_WORDS: frozenset[str] = frozenset({"but", "or", "yet", "though", "although", "however", "maybe",
                                               "possibly", "perhaps"})
REASON_SYNONYMS: dict[str, str] = {
    **dict.fromkeys(("open", "opening", "exit", "exits", "clear", "free", "empty"), "open"),
    **dict.fromkeys(("wall", "walls", "obstacle", "obstacles", "barrier", "barriers"), "wall"),
    **dict.fromkeys(("beast", "beasts", "lion", "lions", "tiger", "tigers", "wolf", "wolves", "bear", "bears",
                     "animal", "animals", "predator", "predators"), "beast"),
    **dict.fromkeys(("human", "humans", "woman", "women", "man", "men", "person", "persons", "people",
                     "stranger"), "human"),
    "unknown": "unknown",
}
_DANGER_REASONS = frozenset({"wall", "beast", "human"})

# ---------------------------------------------------------------------------------------------- patterns
_DIR = r"(?:fwd|forwards?|front|ahead|left|right|backwards?|back|behind|rear)"
_GEN = r"(?:all|others?|rest|remaining|everything|elsewhere)"
_SEP = r"(?:=>|->|[=:→⇒–—]|-(?![a-z]))"
_THINK_TAG_RE = re.compile(r"<[ \t]*(/?)[ \t]*(?:think|thinking|reasoning)[ \t]*>", re.I)
_LABEL_RE = re.compile(r"\b(predict(?:ions?|s)?|motion)\b[ \t\"']*(=>|->|[:=\-–—→⇒>])?", re.I)
_FENCE_RE = re.compile(r"[ \t]*(?:```|~~~)")
_BLANK_RE = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u200b-\u200d\u2060\ufeff]*")
_MID_KEY_RE = re.compile(rf"\b(?:{_DIR}|{_GEN})\b[ \t]*{_SEP}", re.I)
_KEY_GROUP_RE = re.compile(
    rf"(?:(?:on|to)[ \t]+)?(?:the[ \t]+)?(?P<first>{_DIR}|{_GEN})\b(?:[ \t]+(?:side|directions?|way))?"
    rf"(?:[ \t]*(?:and|&|/|\+)[ \t]*(?:the[ \t]+)?{_DIR}\b(?:[ \t]+side)?)*", re.I)
_JOINER_RE = re.compile(r"[ \t]*(?:and|&|/|\+)?[ \t]*", re.I)
_DIR_WORD_RE = re.compile(rf"\b{_DIR}\b", re.I)
_WORD_RE = re.compile(r"[a-z]+(?:'[a-z]+)?")
_LINE_MARKUP = str.maketrans({"*": None, "`": None, "\x00": None})
_LINE_PREFIX = " \t-•>#+0123456789.)"
_SEGMENT_PREFIX = " \t-•>#*+0123456789.)([\"'{"
_MOTION_EDGES = " \t\"'“”‘’{}[],;|"


# ------------------------------------------------------------------------------------------------ values
def _flip(verdict: str) -> str:
    return "danger" if verdict == "safe" else "safe"


@dataclass
class _Evidence:
    """What the words of one stretch of text assert."""

    asserted: set[str] = field(default_factory=set)
    reasons: list[str] = field(default_factory=list)
    negated_danger_reason: bool = False
    ambiguous_word: bool = False


def _evidence(text: str) -> _Evidence:
    tokens = _WORD_RE.findall(text.lower().replace("’", "'").replace("n't", " not"))
    ev = _Evidence()
    reach, i = 0, 0
    while i < len(tokens):
        token, nxt = tokens[i], tokens[i + 1] if i + 1 < len(tokens) else ""
        if token in NEGATORS or token in NEGATION_BREAKS:
            reach, i = (3 if token in NEGATORS else 0), i + 1
            continue
        negated, reason = reach > 0, REASON_SYNONYMS.get(token)
        if nxt == "free" and (token in DANGER_WORDS or reason in _DANGER_REASONS):   # "danger-free"
            ev.asserted.add("danger" if negated else "safe")
            reach, i = 0, i + 2
            continue
        if token in SAFE_WORDS or token in DANGER_WORDS:
            verdict = "safe" if token in SAFE_WORDS else "danger"
            ev.asserted.add(_flip(verdict) if negated else verdict)
        if reason is not None and not negated:
            ev.reasons.append(reason)
        ev.negated_danger_reason |= negated and reason in _DANGER_REASONS
        ev.ambiguous_word |= token in AMBIGUOUS_WORDS
        matched = token in SAFE_WORDS or token in DANGER_WORDS or reason is not None
        reach, i = (0 if matched else max(reach - 1, 0)), i + 1
    return ev


def _outside_inside(value: str) -> tuple[str, str]:
    """Split ``value`` into the text outside parentheses/brackets and the text inside them."""
    outside, inside, depth = [], [], 0
    for ch in value:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(depth - 1, 0)
        (inside if depth else outside).append(ch if ch not in "()[]" else " ")
    return "".join(outside), "".join(inside)


def parse_verdict(value: str) -> tuple[Verdict | None, str | None]:
    """The ``verdict(reason)`` part of one item -> (verdict or None if unreadable, canonical reason or None).

    Verdict words outside parentheses decide; the words inside (the reason slot) decide only when there are
    none outside, so ``danger(open)`` stays danger. The reason is the first one inside, else the first one
    outside.
    """
    outside, inside = (_evidence(part) for part in _outside_inside(value))
    ev = outside if (outside.asserted or outside.ambiguous_word) else inside
    reasons = inside.reasons or outside.reasons
    reason = reasons[0] if reasons else None
    if len(ev.asserted) == 2:
        return "ambiguous", reason
    if ev.asserted:
        return next(iter(ev.asserted)), reason   # type: ignore[return-value]
    if ev.ambiguous_word:
        return "ambiguous", reason
    if reason is not None:
        verdict = "safe" if reason == "open" else "danger" if reason in _DANGER_REASONS else "ambiguous"
        return verdict, reason
    negated_danger_reason = outside.negated_danger_reason or inside.negated_danger_reason
    return ("safe", None) if negated_danger_reason else (None, None)


# ----------------------------------------------------------------------------------------------- PREDICT
def _split_top_level(text: str) -> list[str]:
    """Split on , ; | newlines and sentence ends, but never inside ( ) or [ ]."""
    chunks, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(depth - 1, 0)
        elif depth == 0 and (ch in ",;|\n" or (ch in ".!?" and text[i + 1:i + 2] in ("", " ", "\t", "\r"))):
            chunks.append(text[start:i])
            start = i + 1
    chunks.append(text[start:])
    return chunks


def _split_at_keys(chunk: str) -> list[str]:
    """"left=safe right=danger" -> two segments: split before each top-level ``dir=`` after the first."""
    depth, depths = 0, []
    for ch in chunk:
        depths.append(depth)
        depth = depth + 1 if ch in "([" else max(depth - 1, 0) if ch in ")]" else depth
    cuts: list[int] = []
    for m in _MID_KEY_RE.finditer(chunk):
        if m.start() == 0 or depths[m.start()] != 0:
            continue
        before = chunk[cuts[-1] if cuts else 0:m.start()].strip().lstrip(_SEGMENT_PREFIX)
        keys_only = _KEY_GROUP_RE.match(before)
        if keys_only and _JOINER_RE.fullmatch(before[keys_only.end():]):   # "left and right=...": one item
            continue
        cuts.append(m.start())
    return [chunk[a:b] for a, b in zip([0, *cuts], [*cuts, len(chunk)])]


@dataclass(frozen=True)
class _Item:
    keys: tuple[str, ...]          # grammar directions, or ("*",) for all/others
    value: str
    raw: str


def _items(content: str) -> list[_Item]:
    items: list[_Item] = []
    for chunk in _split_top_level(content):
        for segment in _split_at_keys(chunk):
            text = segment.strip().lstrip(_SEGMENT_PREFIX)
            m = _KEY_GROUP_RE.match(text)
            if m is not None:
                first = m.group("first").lower()
                keys = ("*",) if first in GENERIC_KEYS else tuple(
                    DIRECTION_SYNONYMS[w.lower()] for w in _DIR_WORD_RE.findall(m.group(0)))
                items.append(_Item(keys, text[m.end():], segment.strip()))
            elif items and text[:12].lower().split(" ")[0] in CONTINUATION_WORDS:
                last = items[-1]
                items[-1] = _Item(last.keys, f"{last.value} {text}", f"{last.raw}, {segment.strip()}")
    return items


def parse_prediction(content: str, raw: str = "") -> Prediction:
    """One PREDICT block (the text after its label) -> :class:`Prediction` (its items may be empty)."""
    content = content[:MAX_PREDICT_CHARS]
    named: dict[str, list[tuple[str, str | None, str]]] = {}
    generic: list[tuple[str, str | None, str]] = []
    for item in _items(content):
        verdict, reason = parse_verdict(item.value)
        if verdict is None:
            continue
        for key in item.keys:
            (generic if key == "*" else named.setdefault(key, [])).append((verdict, reason, item.raw))
    out = []
    for direction in GRAMMAR_DIRECTIONS:
        said = named.get(direction) or generic
        if not said:
            continue
        verdicts = {v for v, _, _ in said}
        reasons = [r for _, r, _ in said if r is not None]
        verdict = verdicts.pop() if len(verdicts) == 1 else "ambiguous"
        reason = reasons[0] if reasons and (verdict != "ambiguous" or len(set(reasons)) == 1) else None
        raws = "; ".join(dict.fromkeys(r for _, _, r in said))
        out.append(DirectionPrediction(direction, verdict, reason, raws))   # type: ignore[arg-type]
    return Prediction(tuple(out), raw or content.strip())


# ------------------------------------------------------------------------------------------------- reply
def _strip_thinking(text: str) -> tuple[str, bool]:
    """Drop ``<think>`` blocks. Returns (text outside them, whether a block was left unclosed)."""
    kept: list[str] = []
    pos = depth = 0
    for m in _THINK_TAG_RE.finditer(text):
        if not m.group(1):
            if depth == 0:
                kept.append(text[pos:m.start()])
            depth += 1
        elif depth > 0:
            depth -= 1
            pos = m.end() if depth == 0 else pos
        else:                            # a stray closing tag: what came before was thinking
            kept, pos = [], m.end()
    if depth == 0:
        kept.append(text[pos:])
    return "".join(kept), depth > 0


def _head_tail(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = limit // 4
    return text[:head] + "\n" + text[len(text) - (limit - head):]


@dataclass(frozen=True)
class _Label:
    kind: str          # "predict" | "motion"
    line: int
    label: str
    content: str


def _clean_line(line: str) -> str:
    return line.translate(_LINE_MARKUP).replace("__", "")


def _find_labels(lines: list[str]) -> list[_Label]:
    labels = []
    for n, line in enumerate(lines):
        hits = []
        first_word = len(line) - len(line.lstrip(_LINE_PREFIX))   # where the line's text starts
        for m in _LABEL_RE.finditer(line):
            sep = m.group(2)
            spaced = m.end() == len(line) or line[m.end() - 1].isspace() or line[m.end()].isspace()
            # at the start of a line any separator (or none) will do; inside a line only ":" or "="
            if (m.start() == first_word and (sep or spaced)) or sep in (":", "="):
                hits.append(m)
        for k, m in enumerate(hits):
            end = hits[k + 1].start() if k + 1 < len(hits) else len(line)
            kind = "motion" if m.group(1).lower() == "motion" else "predict"
            labels.append(_Label(kind, n, line[m.start():m.end()].strip(), line[m.end():end]))
    return labels


def _is_item_line(line: str) -> bool:
    return _KEY_GROUP_RE.match(line.strip().lstrip(_SEGMENT_PREFIX)) is not None


def _predict_block(label: _Label, lines: list[str], label_lines: set[int]) -> tuple[str, str]:
    """(content, raw) of a PREDICT block: the label's line plus following item lines (bulleted lists)."""
    parts = [label.content]
    size = len(label.content)
    for n in range(label.line + 1, min(label.line + 1 + MAX_PREDICT_CONTINUATION_LINES, len(lines))):
        line = lines[n]
        if n in label_lines or size > MAX_PREDICT_CHARS or _FENCE_RE.match(line):
            break
        if not line.strip():
            if any(p.strip() for p in parts):
                break
            continue
        if not _is_item_line(line):
            break
        parts.append(line)
        size += len(line)
    content = "\n".join(parts)[:MAX_PREDICT_CHARS]
    raw = " ".join([label.label, *(p.strip() for p in parts if p.strip())])
    return content, raw[:MAX_PREDICT_CHARS]


def _motion_text(label: _Label, lines: list[str], label_lines: set[int]) -> str:
    text = label.content
    if not text.strip():
        for n in range(label.line + 1, min(label.line + 4, len(lines))):
            if n in label_lines:
                break
            if lines[n].strip() and not _FENCE_RE.match(lines[n]):
                text = lines[n]
                break
    text = " ".join(text[:MAX_MOTION_CHARS * 2].split())
    return text.strip(_MOTION_EDGES)[:MAX_MOTION_CHARS].strip()


def _parse_text(text: str) -> ParseResult:
    text = _head_tail(text, MAX_REPLY_CHARS)
    if _BLANK_RE.fullmatch(text):
        return ParseError(ParseErrorCode.EMPTY, "the reply is empty (only whitespace or control characters)")
    visible, unclosed = _strip_thinking(text)
    visible = _head_tail(visible, MAX_SCAN_CHARS)
    lines = [_clean_line(line) for line in visible.splitlines()]
    labels = _find_labels(lines)
    label_lines = {lab.line for lab in labels}
    motions = (_motion_text(lab, lines, label_lines) for lab in reversed(labels) if lab.kind == "motion")
    motion = next((m for m in motions if m), None)
    predict_labels = [lab for lab in labels if lab.kind == "predict"]
    if not predict_labels:
        why = ("the reply ended inside an unclosed <think> block" if unclosed and not visible.strip() else
               "the reply held only a <think> block" if not visible.strip() else "no PREDICT line was found")
        return ParseError(ParseErrorCode.NO_PREDICT, f"expected a 'PREDICT: ...' line; {why}", None, motion)
    prediction = None
    for lab in reversed(predict_labels):
        candidate = parse_prediction(*_predict_block(lab, lines, label_lines))
        prediction = prediction or candidate
        if candidate.items:
            prediction = candidate
            break
    assert prediction is not None
    if not prediction.items:
        return ParseError(ParseErrorCode.UNREADABLE_PREDICT,
                          f"expected items like 'left=safe(open)' after PREDICT; got {prediction.raw[:80]!r}",
                          prediction, motion)
    if motion is None:
        return ParseError(ParseErrorCode.NO_MOTION, "expected a non-empty 'MOTION: ...' line; none was found",
                          prediction, None)
    return Decision(prediction, motion)


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


def format_prediction(verdicts: dict[str, tuple[str, str | None]]) -> str:
    """``{"left": ("safe", "open"), ...}`` -> ``"PREDICT: left=safe(open), right=..."``.

    Order left, right, fwd, back. Keys may use any direction synonym (``front`` -> ``fwd``); directions not
    given are not written. Raises ValueError on an unknown direction, verdict or reason."""
    specs: dict[str, object] = {}
    for key, spec in verdicts.items():
        direction = DIRECTION_SYNONYMS.get(str(key).lower())
        if direction is None:
            raise ValueError(f"unknown direction {key!r}; expected one of {GRAMMAR_DIRECTIONS}")
        if direction in specs:
            raise ValueError(f"direction {direction!r} given twice (as {key!r})")
        specs[direction] = spec
    if not specs:
        raise ValueError("format_prediction needs at least one direction")
    return "PREDICT: " + ", ".join(_format_item(d, specs[d]) for d in GRAMMAR_DIRECTIONS if d in specs)


def format_reply(verdicts: dict[str, tuple[str, str | None]], motion: str) -> str:
    """The two lines, PREDICT then MOTION, joined by a newline (the motion's whitespace is collapsed).

    The parser trims quotes, brackets and commas at the ends of a MOTION, so such a motion reads back without
    them."""
    motion_line = " ".join(str(motion).split())
    if not motion_line:
        raise ValueError("format_reply needs a non-empty motion")
    return f"{format_prediction(verdicts)}\nMOTION: {motion_line}"
