"""The self-contained HTML report: one file, inline CSS, plots as base64 PNG, a few lines of JS to sort the
scenario table. Every text from the run is HTML-escaped."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from wmbench.harness.report.failure_table import failure_label_html
from wmbench.harness.report.motion import motion_model_html
from wmbench.harness.report.transcript import (
    MAX_TRANSCRIPTS,
    TRANSCRIPT_CSS,
    category_seeds,
    confidence_text,
    episode_transcripts,
    hidden_inconsistency_line,
    render_transcripts_html,
    split_text,
)
from wmbench.harness.run.accounting import format_usage
from wmbench.scenarios import get_scenario
from wmbench.scoring.scores_file import Scores

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:1180px;
color:#222;padding:0 16px}
h1{font-size:1.5em;margin-bottom:4px}h2{font-size:1.15em;margin-top:28px;border-bottom:1px solid #ddd}
.score{font-size:2.4em;font-weight:700}
.grade{font-size:1.6em;margin-left:12px;padding:2px 10px;border-radius:6px;background:#222;color:#fff}
.note{background:#fff6dd;border-left:4px solid #e0b000;padding:6px 10px;margin:10px 0}
table{border-collapse:collapse;width:100%;font-size:.88em}th,td{border:1px solid #ddd;padding:4px 6px;
text-align:left;vertical-align:top}th{background:#f3f3f3;cursor:pointer;user-select:none}
td.num{text-align:right;white-space:nowrap}tr.nm td{color:#888}
.plots{display:flex;flex-wrap:wrap;gap:16px}.plots figure{margin:0}figcaption{font-size:.8em;color:#555}
img{max-width:100%}pre{background:#f6f6f6;padding:10px;overflow:auto;font-size:.82em}
.meta{color:#555;font-size:.9em}
"""

SORT_JS = """
document.querySelectorAll("table.sortable th").forEach(function (th, col) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var asc = th.getAttribute("data-dir") !== "asc";
    rows.sort(function (a, b) {
      var x = a.cells[col].getAttribute("data-v") || a.cells[col].textContent;
      var y = b.cells[col].getAttribute("data-v") || b.cells[col].textContent;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return asc ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    th.setAttribute("data-dir", asc ? "asc" : "desc");
  });
});
"""


def scenario_name(sid: str) -> str:
    try:
        return get_scenario(sid).name
    except KeyError:
        return ""


def _num(value: object, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"{value:.{digits}f}" if isinstance(value, float) else escape(str(value))


def _img(plot: Any) -> str:
    data = base64.b64encode(plot.png).decode("ascii")
    return (f'<figure><img alt="{escape(plot.caption)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{escape(plot.caption)}</figcaption></figure>")


def _table(headers: Sequence[str], rows: Sequence[str], sortable: bool = False) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    cls = ' class="sortable"' if sortable else ""
    return f"<table{cls}><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _pillars(scores: Scores) -> str:
    rows = [f"<tr><td>{escape(p)}</td><td class=num>{_num(e.get('sum'))} / {e.get('max', 0):g}</td>"
            f"<td class=num>{_num(e.get('rescaled'))} / {e.get('rescaled_max', 0):g}</td>"
            f"<td>{'yes' if e.get('measured') else 'no'}</td></tr>"
            for p, e in (scores.get("pillars") or {}).items()]
    return _table(["pillar", "sum", "rescaled (spec 250/450/300)", "fully measured"], rows)


def _points(e: Mapping[str, Any]) -> str:
    """A category's points: of its max, of its measured part, or "not measured"."""
    if e.get("measured"):
        return f"{_num(e.get('score'))} / {e.get('max', 100):g}"
    if e.get("measured_max"):
        return f"{_num(e.get('score'))} / {e.get('measured_max'):g} measured"
    return "not measured"


def _categories(scores: Scores, titles: Mapping[str, str]) -> str:
    rows = []
    for c, e in (scores.get("categories") or {}).items():
        ci_text = confidence_text(e.get("ci95"), category_seeds(scores, c))
        missing = ", ".join(e.get("missing_scenarios") or [])
        rows.append(f"<tr class='{'' if e.get('measured') else 'nm'}'><td>{escape(c)}</td>"
                    f"<td>{escape(titles.get(c, ''))}</td>"
                    f"<td class=num>{_points(e)}</td>"
                    f"<td class=num>{escape(ci_text)}</td><td>{escape(missing) or '–'}</td></tr>")
    return _table(["category", "name", "points", "95 % CI", "not measured"], rows)


def _live(run: Any) -> str:
    if not run.live_results:
        return "<p>No live (C09) measurements in this run.</p>"
    rows = []
    for sid, r in sorted(run.live_results.items()):
        rows.append(
            f"<tr><td>{escape(sid)}</td><td class=num>{r.fps:.2f} / {r.fps_target}</td>"
            f"<td class=num>{_num(r.work_fps)}</td><td class=num>{100 * r.late_frame_rate:.2f} %</td>"
            f"<td class=num>{100 * r.dropped_frame_rate:.2f} %</td>"
            f"<td class=num>{_num(r.cognitive_latency_ms)}</td>"
            f"<td class=num>{_num(r.cognitive_latency_p95_ms)}</td><td class=num>{len(r.decisions)}</td>"
            f"<td>{escape(r.error or '')}</td></tr>")
    headers = ["scenario", "FPS / target", "capacity FPS", "late", "dropped", "latency median (ms)",
               "latency p95 (ms)", "decisions", "error"]
    live = run.live
    summary = (f"<p class=meta>Over all live runs: {_num(live.get('fps'), 2)} FPS, "
               f"{_num(live.get('cognitive_latency_ms'))} ms median latency, "
               f"{_num(live.get('cognitive_latency_p95_ms'))} ms p95; hardware: "
               f"{escape(json.dumps(live.get('hardware') or {}))}</p>")
    return summary + _table(headers, rows)


def _scenarios(scores: Scores, names: Mapping[str, str]) -> str:
    rows = []
    for sid, e in (scores.get("scenarios") or {}).items():
        measured = bool(e.get("measured"))
        score = e.get("score") if measured else None
        value = "-1" if score is None else f"{score:g}"
        shown = f"{score:g} / {e.get('max', 20):g}" if score is not None else "not measured"
        rows.append(f"<tr class='{'' if measured else 'nm'}'><td>{escape(sid)}</td>"
                    f"<td>{escape(names.get(sid, ''))}</td><td>{escape(str(e.get('category', '')))}</td>"
                    f"<td class=num data-v='{value}'>{escape(shown)}</td>"
                    f"<td>{escape(str(e.get('explanation', '')))}</td></tr>")
    return _table(["scenario", "name", "category", "points", "explanation"], rows, sortable=True)


def _motion_model_html(config: Mapping[str, Any], body: str) -> str:
    return motion_model_html(config, body)


def _forecast_and_frontier(by_name: Mapping[str, Any]) -> str:
    """The horizon curve (when the brain gave forecasts) and the frontier (when ``frontier.json`` is in the run)."""
    shown = [k for k in ("horizon", "frontier") if k in by_name]
    if not shown:
        return ""
    return ("<h2>Forecasts and the latency–accuracy frontier</h2><div class=plots>"
            + "".join(_img(by_name[k]) for k in shown) + "</div>")


def live_headline(run: Any) -> str:
    """The headline of a ``wmbench live`` folder (a :class:`~wmbench.harness.report.writer.RunData` whose
    ``live_only`` is true): each live scenario's points, and that this is no WM Score (plain text)."""
    scenarios = (run.scores or {}).get("scenarios") or {}
    parts = []
    for sid in sorted(run.live_results):
        entry = scenarios.get(sid)
        if entry is None:
            parts.append(f"{sid} not scored live (a bench scenario: `wmbench run --scenarios {sid}` scores it)")
        elif not entry.get("measured", True):
            parts.append(f"{sid} not measured")
        else:
            parts.append(f"{sid} {_live_points(entry.get('score'))} / {entry.get('max', 20):g}")
    return f"Live run: {'; '.join(parts)} (a live run alone is not a WM Score: no grade)"


def _live_points(value: object) -> str:
    return "–" if value is None else f"{value:.1f}" if isinstance(value, float) else str(value)


def render_html(run: Any, entry: Mapping[str, Any], plots: Sequence[Any], titles: Mapping[str, str]) -> str:
    """The whole report page for ``run`` (a :class:`~wmbench.harness.report.writer.RunData`)."""
    s = run.scores
    grade = str(s.get("grade", "?")) + (" (provisional)" if s.get("grade_provisional") else "")
    note = ("" if s.get("complete", True)
            else f"<div class=note>{escape(str(s.get('wm_score_note', '')))}</div>")
    config = run.config
    pace = getattr(run, "pace", None)
    paced = "" if pace is None else (f" (pace {pace:.2f})" if pace < 1.0 else " (unpaced, a diagnostic)")
    meta = (f"brain <b>{escape(run.brain)}</b> · body <b>{escape(run.body)}</b>{paced} · selection "
            f"{escape(str(config.get('selection', '')))} · seeds {escape(str(config.get('seeds', '')))} · "
            f"wmbench {escape(str(config.get('version', entry.get('wmbench_version', ''))))} · started "
            f"{escape(str(config.get('started', '')))}")

    run_info = s.get("run") or {}
    transcripts = episode_transcripts(run.lines, s)
    usage = format_usage(run_info)
    status = entry.get("run_status", "complete")
    status_html = "" if status == "complete" else f"<div class=note>{escape(str(status))}</div>"
    usage_html = (f"<p class=meta>Brain: {escape(usage)}</p>" if usage else "") + \
        f"<p class=meta>{escape(hidden_inconsistency_line(s))}</p>" + \
        "".join(f"<p class=meta>{escape(line)}</p>" for line in split_text(s))
    notes = run_info.get("not_measured_notes") or []
    notes_html = "".join(
        f"<div class=note>{escape(n.get('scenarios', ''))}: {escape(n.get('note', ''))}</div>" for n in notes)
    by_name = {p.name: p for p in plots}
    overview = "".join(_img(by_name[k]) for k in ("pillar_radar", "category_bars") if k in by_name)
    names = {sid: scenario_name(sid) for sid in (s.get("scenarios") or {})}
    parts = [
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>",
        f"<title>wmbench report: {escape(run.brain)} on {escape(run.body)}</title>",
        f"<style>{CSS}{TRANSCRIPT_CSS}</style></head><body>",
        f"<h1>wmbench report: {escape(run.brain)} on {escape(run.body)}</h1><p class=meta>{meta}</p>",
        (f"<p><span class=score>{escape(live_headline(run))}</span></p>" if run.live_only else
         f"<p><span class=score>{_num(s.get('wm_score'))} / {s.get('wm_score_max', 1000):g}</span>"
         f"<span class=grade>{escape(grade)}</span></p>{note}{status_html}")
        + f"{notes_html}{usage_html}",
        "<h2>Pillars</h2>", _pillars(s), f"<div class=plots>{overview}</div>",
        "<h2>Categories</h2>", _categories(s, titles), failure_label_html(s),
        "<h2>Live measurements (C09)</h2>", _live(run),
        f"<div class=plots>{_img(by_name['latency']) if 'latency' in by_name else ''}</div>",
        "<h2>Intensity over time (C05, C07)</h2>",
        _img(by_name["intensity"]) if "intensity" in by_name else "<p>No C05/C07 episodes in this run.</p>",
        _forecast_and_frontier(by_name),
        _motion_model_html(run.config, run.body),
        "<h2>Scenarios</h2><p class=meta>Click a column header to sort.</p>", _scenarios(s, names),
        "<section id=transcripts><h2>Transcripts</h2><p class=meta>Every episode's decisions: what the brain "
        "saw, said and did, and the points it earned (click an episode to open it).</p>",
        f"<p class=meta>{len(transcripts)} episode(s) shown; a run of more than {MAX_TRANSCRIPTS} episodes shows "
        "the lowest seeds of each scenario (every trace is in episodes.jsonl).</p>",
        render_transcripts_html(transcripts), "</section>",
        "<h2>Leaderboard entry</h2>", f"<pre>{escape(json.dumps(entry, indent=2))}</pre>",
        f"<script>{SORT_JS}</script></body></html>",
    ]
    return "\n".join(parts)
