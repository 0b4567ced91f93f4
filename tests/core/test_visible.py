"""core/visible.py: control and bidi characters become visible escapes; ordinary text is untouched."""

from __future__ import annotations

from wmbench.core.visible import visible


def test_terminal_and_bidi_controls_become_escapes():
    assert visible("a\x1b[2Jb\x00c\x07d\u202eevil\x9b\r") == "a\\x1b[2Jb\\x00c\\x07d\\u202eevil\\x9b\\x0d"
    assert visible("\u2066x\u2069\u200f\ufeff") == "\\u2066x\\u2069\\u200f\\ufeff"


def test_ordinary_text_newlines_and_tabs_are_kept():
    text = "PREDICT: left=safe(open)\n\tMOTION: a person flees — vite, 日本, 🎉, Ünïcode"
    assert visible(text) == text
