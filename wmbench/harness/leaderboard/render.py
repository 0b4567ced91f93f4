"""``leaderboard.json`` / ``.md`` / ``.html``: a :class:`~wmbench.harness.leaderboard.board.Leaderboard` written out.

Columns follow the spec's ``columns_display_order`` (rank, model_name, wm_score, grade, p1_perception,
p2_cognition, p3_embodiment, fps, cognitive_latency_ms) plus the WM Score's 95 % CI, the track and the kind
(measured / measured baseline / self-reported). One table per embodiment, then one overall table (every row,
embodiment named) that places a run among the baselines; notes (mixed instance sets) come first.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from wmbench.harness.leaderboard.board import Leaderboard, RankedRow, rank_rows
from wmbench.harness.run.results import write_json, write_text_atomic

SPEC_COLUMNS: tuple[str, ...] = ("rank", "model_name", "wm_score", "grade", "p1_perception", "p2_cognition",
                                 "p3_embodiment", "fps", "cognitive_latency_ms")
HEADER: tuple[str, ...] = (*SPEC_COLUMNS, "ci95", "track", "kind")


def _cells(ranked: RankedRow) -> list[str]:
    entry, row = ranked.row.entry, ranked.row
    values: dict[str, Any] = {**entry, "rank": ranked.rank, "model_name": row.name,
                              "ci95": f"[{row.ci95[0]:.0f}, {row.ci95[1]:.0f}]" if row.ci95 else "—",
                              "kind": row.kind}
    return ["—" if values.get(col) is None else str(values.get(col)) for col in HEADER]


def overall(board: Leaderboard) -> tuple[RankedRow, ...]:
    return rank_rows([r.row for r in board.rows])


def leaderboard_json(board: Leaderboard) -> dict[str, Any]:
    def rows(table: tuple[RankedRow, ...]) -> list[dict[str, Any]]:
        return [{"rank": r.rank, "name": r.row.name, "kind": r.row.kind, "source": r.row.source,
                 "embodiment": r.row.embodiment, "ci95": list(r.row.ci95) if r.row.ci95 else None,
                 "note": r.row.note, "entry": dict(r.row.entry)} for r in table]
    return {"format": "wmbench-leaderboard/1", "columns": list(HEADER), "notes": list(board.notes),
            "tables": {emb: rows(table) for emb, table in board.tables.items()}, "overall": rows(overall(board))}


def leaderboard_markdown(board: Leaderboard) -> str:
    out = ["# Leaderboard", ""]
    out += [f"> {note}" for note in board.notes] + ([""] if board.notes else [])
    for title, table in [*((f"## {emb}", t) for emb, t in board.tables.items()), ("## Overall (all embodiments)",
                                                                                   overall(board))]:
        out += [title, "", "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
        out += ["| " + " | ".join(_cells(r)) + " |" for r in table]
        out.append("")
    notes = [f"- **{r.row.name}**: {r.row.note}" for r in overall(board) if r.row.note]
    return "\n".join(out + (["Notes:", *notes, ""] if notes else []))


def leaderboard_html(board: Leaderboard) -> str:
    parts = ["<!doctype html><meta charset='utf-8'><title>wmbench leaderboard</title>",
             "<style>table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px}</style>",
             "<h1>Leaderboard</h1>"]
    parts += [f"<p><b>{html.escape(n)}</b></p>" for n in board.notes]
    for title, table in [*board.tables.items(), ("Overall (all embodiments)", overall(board))]:
        parts.append(f"<h2>{html.escape(title)}</h2><table><tr>"
                     + "".join(f"<th>{html.escape(h)}</th>" for h in HEADER) + "</tr>")
        parts += ["<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in _cells(r)) + "</tr>" for r in table]
        parts.append("</table>")
    parts += [f"<p>{html.escape(r.row.name)}: {html.escape(r.row.note)}</p>" for r in overall(board) if r.row.note]
    return "\n".join(parts) + "\n"


def write_leaderboard(board: Leaderboard, out: Path | str) -> list[Path]:
    """``leaderboard.json``, ``leaderboard.md`` and ``leaderboard.html`` in ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    return [write_json(out / "leaderboard.json", leaderboard_json(board)),
            write_text_atomic(out / "leaderboard.md", leaderboard_markdown(board)),
            write_text_atomic(out / "leaderboard.html", leaderboard_html(board))]
