"""Issue 24 item 4: control and bidi characters in model replies never reach a report raw (a real run with a
replay brain whose replies carry ESC sequences, NUL, BEL and U+202E), nor the terminal."""

from __future__ import annotations

import json

from wmbench.core.visible import UNSAFE
from wmbench.harness.cli.main import main

HOSTILE = ("PREDICT: left=safe(open), right=danger(wall), fwd=safe(open), back=safe(open) \x1b[2J\x1b]0;pwned\x07\n"
           "MOTION: a person walks \u202eevil\u202c forward\x00 calmly")


def test_report_files_hold_no_raw_control_or_bidi_character(tmp_path, capsys):
    replies = tmp_path / "replies.jsonl"
    replies.write_text(json.dumps({"text": HOSTILE}) + "\n", encoding="utf-8")
    out = tmp_path / "run"
    code = main(["run", "--brain", f"replay:{replies}", "--option", "on_exhausted=cycle", "--scenarios", "S01",
                 "--no-live", "--no-progress", "--workers", "1", "--out", str(out)])  # in-process: no pool to import
    printed = capsys.readouterr()
    assert code == 0, printed.err
    episodes = (out / "episodes.jsonl").read_text(encoding="utf-8")
    assert "\\u001b[2J" in episodes  # the raw reply is kept in the data (JSON-escaped) ...
    for name in ("report.html", "report.md"):
        text = (out / name).read_text(encoding="utf-8")
        assert UNSAFE.search(text) is None, (name, UNSAFE.search(text))  # ... never in what people read
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "\\x1b[2J" in html and "\\u202eevil" in html  # shown as visible escapes
    assert UNSAFE.search(printed.out + printed.err) is None
