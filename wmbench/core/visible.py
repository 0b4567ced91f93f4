"""Text shown to people, made safe to show: control and bidi characters become visible escapes.

Card
----
:func:`visible` replaces every character that would act instead of print — C0 controls (ESC, NUL, BEL, CR,
...) except newline and tab, DEL, the C1 controls, the bidi overrides/embeddings/isolates and marks
(U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C), zero-width and invisible format characters and the
Unicode line/paragraph separators — with the Python escape that names it (``\\x1b``, ``\\u202e``). Everything
else is returned unchanged, so ordinary text (accents, CJK, emoji) reads as written.

It is applied to every human-facing output whose text can come from outside wmbench (model replies, API
error messages, run files): ``report.md`` and ``report.html`` as whole documents, and the command line's
error and summary lines. Escaping *as text* (not as HTML entities) means the result is also safe in a
terminal (``cat report.html``) and in Markdown.
"""

from __future__ import annotations

import re

#: The characters :func:`visible` escapes (newline and tab are kept).
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"          # C0 (but \t \n), DEL, C1
    "\u061c\u180e\u200b-\u200f"              # Arabic letter mark, Mongolian vowel sep., zero-width, LRM/RLM
    "\u2028-\u202e\u2060-\u2069"             # line/paragraph separators, bidi embeddings/overrides, isolates
    "\ufeff\ufff9-\ufffb]"                   # BOM / zero-width no-break space, interlinear annotation
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control and bidi character written as its escape (see the module card)."""
    return UNSAFE.sub(_escape, text)
