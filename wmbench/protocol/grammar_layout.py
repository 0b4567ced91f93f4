"""Where the parts of a reply are (rules: :mod:`wmbench.protocol.grammar`): size caps, ``<think>`` blocks, labels.

Card
----
- Limits: :data:`MAX_REPLY_CHARS` before ``<think>`` removal, :data:`MAX_SCAN_CHARS` after it
  (:func:`head_tail` keeps the first quarter and the last three quarters), :data:`MAX_PREDICT_CHARS` of a
  PREDICT block, :data:`MAX_MOTION_CHARS` of a MOTION, :data:`MAX_PREDICT_CONTINUATION_LINES` of a bulleted
  PREDICT list.
- :func:`strip_thinking` drops ``<think>``/``<thinking>``/``<reasoning>`` blocks (and everything before a
  stray closing tag, or after an unclosed opening one).
- :func:`clean_line` removes markdown emphasis; :func:`find_labels` finds each ``PREDICT``/``MOTION`` label
  (:class:`Label`) and the rest of its line; :func:`predict_block` and :func:`motion_text` read the text a
  label stands for.

Plain strings in and out; :mod:`wmbench.protocol.grammar` turns them into typed results.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wmbench.protocol.grammar_words import is_item_line

# ------------------------------------------------------------------------------------------------ limits
#: Hard cap on the characters looked at before ``<think>`` removal (head + tail kept).
MAX_REPLY_CHARS = 1_000_000
#: Cap on the characters scanned for labels after ``<think>`` removal (head quarter + tail three quarters).
MAX_SCAN_CHARS = 65_536
MAX_PREDICT_CHARS = 4_000
MAX_MOTION_CHARS = 1_000
#: Bulleted PREDICT lists: at most this many lines after the label line are read.
MAX_PREDICT_CONTINUATION_LINES = 8

# ---------------------------------------------------------------------------------------------- patterns
_THINK_TAG_RE = re.compile(r"<[ \t]*(/?)[ \t]*(?:think|thinking|reasoning)[ \t]*>", re.I)
_LABEL_RE = re.compile(r"\b(predict(?:ions?|s)?|motion)\b[ \t\"']*(=>|->|[:=\-–—→⇒>])?", re.I)
_FENCE_RE = re.compile(r"[ \t]*(?:```|~~~)")
_LINE_MARKUP = str.maketrans({"*": None, "`": None, "\x00": None})
_LINE_PREFIX = " \t-•>#+0123456789.)"
_MOTION_EDGES = " \t\"'“”‘’{}[],;|"


# ------------------------------------------------------------------------------------------------ layout
def strip_thinking(text: str) -> tuple[str, bool]:
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


def head_tail(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters: its first quarter and its last three quarters."""
    if len(text) <= limit:
        return text
    head = limit // 4
    return text[:head] + "\n" + text[len(text) - (limit - head):]


@dataclass(frozen=True)
class Label:
    """A ``PREDICT``/``MOTION`` label found on line ``line``, with the rest of that line (``content``)."""

    kind: str          # "predict" | "motion"
    line: int
    label: str
    content: str


def clean_line(line: str) -> str:
    """The line without markdown emphasis and code marks."""
    return line.translate(_LINE_MARKUP).replace("__", "")


def find_labels(lines: list[str]) -> list[Label]:
    """Every label of ``lines`` in order; several may share a line (each takes the text up to the next)."""
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
            labels.append(Label(kind, n, line[m.start():m.end()].strip(), line[m.end():end]))
    return labels


def predict_block(label: Label, lines: list[str], label_lines: set[int]) -> tuple[str, str]:
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
        if not is_item_line(line):
            break
        parts.append(line)
        size += len(line)
    content = "\n".join(parts)[:MAX_PREDICT_CHARS]
    raw = " ".join([label.label, *(p.strip() for p in parts if p.strip())])
    return content, raw[:MAX_PREDICT_CHARS]


def motion_text(label: Label, lines: list[str], label_lines: set[int]) -> str:
    """The MOTION a label stands for (its line, else the next non-empty line), whitespace collapsed."""
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
