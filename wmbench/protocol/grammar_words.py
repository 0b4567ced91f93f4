"""The words of the two-line grammar: what a PREDICT item's key and value say (rules: :mod:`wmbench.protocol.grammar`).

Card
----
- Vocabulary: :data:`DIRECTION_SYNONYMS` (direction keys), :data:`GENERIC_KEYS` (``all``/``others``/...),
  :data:`SAFE_WORDS`, :data:`DANGER_WORDS`, :data:`AMBIGUOUS_WORDS`, :data:`NEGATORS` and
  :data:`NEGATION_BREAKS` (how far a negation reaches), :data:`CONTINUATION_WORDS` (a keyless item that
  continues the previous one), :data:`CLAUSE_BREAKS` (a clause from one of these that names another
  direction is cut from the item), :data:`REASON_SYNONYMS` (words -> canonical reasons).
- :func:`parse_verdict`: the ``verdict(reason)`` part of one item -> (verdict, canonical reason), read word by
  word with negation; the words outside parentheses decide.
- :func:`keyed_items`: a PREDICT block split into :class:`KeyedItem` s (the directions a key names, or ``*``
  for a generic key, and its value text), never splitting inside parentheses; :func:`is_item_line` tells a
  line that starts with a key (a bulleted PREDICT list goes on).

Everything here works on plain strings and never raises; :mod:`wmbench.protocol.grammar` builds the typed
results from these words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from wmbench.core.directions import DIRECTION_READINGS, Direction

#: What a PREDICT item says about its direction.
Verdict = Literal["safe", "danger", "ambiguous"]

# ------------------------------------------------------------------------------------------------- words
#: Direction keys a PREDICT line may use: the shared readings plus the plurals models write.
DIRECTION_SYNONYMS: dict[str, Direction] = {**DIRECTION_READINGS, "forwards": "fwd", "backwards": "back"}
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
#: Words that start a new clause; one that names another direction is not part of the item ("fwd=safe but
#: danger to the left").
CLAUSE_BREAKS: frozenset[str] = NEGATION_BREAKS | CONTINUATION_WORDS | frozenset({"while", "whereas"})
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
_MID_KEY_RE = re.compile(rf"\b(?:{_DIR}|{_GEN})\b[ \t]*{_SEP}", re.I)
_KEY_GROUP_RE = re.compile(
    rf"(?:(?:on|to)[ \t]+)?(?:the[ \t]+)?(?P<first>{_DIR}|{_GEN})\b(?:[ \t]+(?:side|directions?|way))?"
    rf"(?:[ \t]*(?:and|&|/|\+)[ \t]*(?:the[ \t]+)?{_DIR}\b(?:[ \t]+side)?)*", re.I)
_JOINER_RE = re.compile(r"[ \t]*(?:and|&|/|\+)?[ \t]*", re.I)
_DIR_WORD_RE = re.compile(rf"\b{_DIR}\b", re.I)
_WORD_RE = re.compile(r"[a-z]+(?:'[a-z]+)?")
_WORD_SPAN_RE = re.compile(r"[A-Za-z]+")
_SEGMENT_PREFIX = " \t-•>#*+0123456789.)([\"'{"


# ------------------------------------------------------------------------------------------------ values
#: a verdict a word asserts by itself ("ambiguous" comes from a clash of assertions or an ambiguity word)
_Assertion = Literal["safe", "danger"]


def _flip(verdict: _Assertion) -> _Assertion:
    return "danger" if verdict == "safe" else "safe"


@dataclass
class _Evidence:
    """What the words of one stretch of text assert."""

    asserted: set[_Assertion] = field(default_factory=set)
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
            verdict: _Assertion = "safe" if token in SAFE_WORDS else "danger"
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
    outside: list[str] = []
    inside: list[str] = []
    depth = 0
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
        return next(iter(ev.asserted)), reason
    if ev.ambiguous_word:
        return "ambiguous", reason
    if reason is not None:
        verdict: Verdict = "safe" if reason == "open" else "danger" if reason in _DANGER_REASONS else "ambiguous"
        return verdict, reason
    negated_danger_reason = outside.negated_danger_reason or inside.negated_danger_reason
    return ("safe", None) if negated_danger_reason else (None, None)


# ------------------------------------------------------------------------------------------------- items
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
class KeyedItem:
    """One PREDICT item as text: the directions its key names, its value (``verdict(reason)``), its raw text."""

    keys: tuple[str, ...]          # grammar directions, or ("*",) for all/others
    value: str
    raw: str


def keyed_items(content: str) -> list[KeyedItem]:
    """The items of one PREDICT block; keyless text is dropped unless it continues the previous item."""
    items: list[KeyedItem] = []
    for chunk in _split_top_level(content):
        for segment in _split_at_keys(chunk):
            text = segment.strip().lstrip(_SEGMENT_PREFIX)
            m = _KEY_GROUP_RE.match(text)
            if m is not None:
                first = m.group("first").lower()
                keys = ("*",) if first in GENERIC_KEYS else tuple(
                    DIRECTION_SYNONYMS[w.lower()] for w in _DIR_WORD_RE.findall(m.group(0)))
                items.append(KeyedItem(keys, text[m.end():], segment.strip()))
            elif items and text[:12].lower().split(" ")[0] in CONTINUATION_WORDS:
                last = items[-1]
                items[-1] = KeyedItem(last.keys, f"{last.value} {text}", f"{last.raw}, {segment.strip()}")
    return [KeyedItem(item.keys, _own_clauses(item.value, item.keys), item.raw) for item in items]


def _own_clauses(value: str, keys: tuple[str, ...]) -> str:
    """``value`` without the clause, from a :data:`CLAUSE_BREAKS` word on, that names another direction:
    in ``fwd=safe, but danger to the left`` the danger is the left's, not fwd's. A clause that names the
    item's own direction (or none) stays; so does text inside parentheses. Generic keys (``*``) keep all."""
    if "*" in keys:
        return value
    depth, pos, cut = 0, 0, None
    for m in _WORD_SPAN_RE.finditer(value):
        for ch in value[pos:m.start()]:
            depth = depth + 1 if ch in "([" else max(depth - 1, 0) if ch in ")]" else depth
        pos = m.start()
        word = m.group(0).lower()
        if depth:
            continue
        if word in CLAUSE_BREAKS:
            cut = m.start()
        elif word in DIRECTION_SYNONYMS:
            if DIRECTION_SYNONYMS[word] in keys:
                cut = None           # this clause is about the item's own direction
            elif cut is not None:
                return value[:cut]
    return value


def is_item_line(line: str) -> bool:
    """The line starts (after bullets and markup) with a direction or generic key."""
    return _KEY_GROUP_RE.match(line.strip().lstrip(_SEGMENT_PREFIX)) is not None
