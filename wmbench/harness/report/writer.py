"""A run directory's report: ``report.md``, a self-contained ``report.html`` and ``leaderboard_entry.json``.

::

    write_reports(Path("runs/x"))            # from the files in runs/x (what `wmbench report runs/x` does)
    write_reports(out, scores)               # run_suite: with the scores it just computed

Card
----
- **Inputs.** ``scores.json`` (or the scores given), ``run.json`` (brain, body, seeds), ``episodes.jsonl``
  (traces, for the intensity plots) and ``live.json`` (C09 live runs, for FPS/latency and the histogram).
  :func:`rebuild_scores` recomputes the scores from ``episodes.jsonl`` (bench scenarios, the scorers) and
  ``live.json`` (C09, :func:`wmbench.scoring.c09.score_c09`); scenarios of other modes (C10) are carried over
  from the existing ``scores.json``. ``wmbench report DIR`` uses it, so a report always matches the raw data.
- **Plots** (:mod:`report_plots`): pillar radar, category bars with 95 % CI, intensity over time for C05 and
  C07 (the scorers' own :func:`~wmbench.scoring.evidence.decision_intensity`, first seed of each
  scenario), latency histogram of the live decisions. In the HTML they are inline base64 PNGs; the Markdown
  links the same PNGs written to ``plots/``. Without matplotlib the reports are written without plots, and so
  is the report of a run that stopped early (a broken endpoint: the report comes at once).
- **Drill-down** (:mod:`report_transcript`): every episode's decisions as a transcript in the HTML, the
  token/cache/retry totals, the run status, the hidden-inconsistency rate; a one-seed CI is "not measured".
- **Leaderboard entry**: :func:`wmbench.harness.report.leaderboard.leaderboard_entry`, redacted like ``run.json``
  (:class:`~wmbench.core.redaction.Redactor`) before it is written or shown.
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wmbench.core.redaction import Redactor
from wmbench.core.taxonomy import CATEGORY_TITLES, PILLARS
from wmbench.core.visible import visible
from wmbench.harness.live.store import LiveStore
from wmbench.harness.report import plots as rp
from wmbench.harness.report.baselines import baselines_markdown
from wmbench.harness.report.episode_stream import EpisodeStream
from wmbench.harness.report.failure_table import failure_label_lines
from wmbench.harness.report.html import live_headline, render_html, scenario_name
from wmbench.harness.report.leaderboard import leaderboard_entry
from wmbench.harness.report.motion import motion_model_section
from wmbench.harness.report.perception_gap import gap_markdown
from wmbench.harness.report.plot_workers import PlotWorkers, collect
from wmbench.harness.report.transcript import (
    category_seeds,
    confidence_text,
    hidden_inconsistency_line,
    shown_episodes,
    split_text,
)
from wmbench.harness.run.accounting import format_usage
from wmbench.harness.run.results import (
    EPISODES_FILE,
    FRONTIER_FILE,
    RUN_FILE,
    SCORES_FILE,
    EpisodeLine,
    read_json,
    read_scores,
    write_bytes_atomic,
    write_json,
    write_text_atomic,
)
from wmbench.harness.run.scores import score_line_stream
from wmbench.protocol.trace import Trace
from wmbench.scenarios import get_scenario
from wmbench.scoring.c09 import C09_IDS, score_c09
from wmbench.scoring.expression import decision_intensity
from wmbench.scoring.forecast import check_forecasts, check_persistence
from wmbench.scoring.keywords import load_banks
from wmbench.scoring.scores_file import Scores, ScoresFileError, per_seed_scores

REPORT_MD = "report.md"
REPORT_HTML = "report.html"
LEADERBOARD_FILE = "leaderboard_entry.json"
PLOTS_DIR = "plots"
INTENSITY_CATEGORIES: tuple[str, ...] = ("C05", "C07")


@dataclass(frozen=True)
class RunData:
    """Everything a report is built from (see the module card)."""

    out: Path
    scores: Scores | None  # None: no (readable) scores.json and none given
    config: dict[str, Any]
    #: re-read from episodes.jsonl on each pass (:class:`EpisodeStream`): never the whole run in memory
    lines: Iterable[EpisodeLine]
    live: dict[str, Any]
    live_results: dict[str, Any] = field(default_factory=dict)

    @property
    def brain(self) -> str:
        """The brain spec (redacted: scores.json's copy, the fallback, is not; a ``wmbench live`` folder has
        only its live runs to say it)."""
        return Redactor().text(str(self.config.get("brain") or self._run_field("brain")
                                   or self._live_field("brain") or "unknown"))

    @property
    def body(self) -> str:
        return str(self.config.get("body") or self._run_field("body") or self._live_field("body") or "smpl")

    @property
    def pace(self) -> float | None:
        """The pace the bench scenes were played at on a body slower than the character (run.json, else the
        scores' ``run`` block); None on the character or in a run written before pacing."""
        value = self.config.get("pace", self._run_field("pace"))
        return float(value) if isinstance(value, (int, float)) else None

    @property
    def live_only(self) -> bool:
        """A ``wmbench live`` folder: live runs and no suite (no run.json, no episodes) — not a WM Score."""
        return bool(self.live_results) and not self.config and next(iter(self.lines), None) is None

    def _live_field(self, name: str) -> Any:
        """A field shared by the live runs (their first one's), None when there are none."""
        first = next(iter(self.live_results.values()), None)
        return getattr(first, name, None)

    def _run_field(self, name: str) -> Any:
        """A field of the scores' ``run`` block (None when there is none)."""
        block = self.scores.get("run") if self.scores else None
        return block.get(name) if block else None


@dataclass(frozen=True)
class ReportFiles:
    markdown: Path
    html: Path
    leaderboard: Path
    plots: tuple[Path, ...]


@dataclass(frozen=True)
class Plot:
    """One plot: file stem, caption and PNG bytes."""

    name: str
    caption: str
    png: bytes


# ------------------------------------------------------------------------------------------------ loading


def _read_optional(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = read_json(path)
    except (OSError, ValueError) as err:
        warnings.warn(f"{path}: unreadable ({err}); the report goes on without it", stacklevel=3)
        return {}
    return data if isinstance(data, dict) else {}


def _read_optional_scores(out: Path) -> Scores | None:
    """``out/scores.json`` as read by :func:`read_scores`; None (with a one-line warning) when it is missing,
    unreadable or not this version's model — the report then rebuilds the scores from the episodes."""
    if not (out / SCORES_FILE).exists():
        return None
    try:
        return read_scores(out)
    except (OSError, ScoresFileError) as err:
        warnings.warn(f"{err}; the report goes on without it", stacklevel=3)
        return None


def load_run(out: Path | str, scores: Scores | None = None) -> RunData:
    """Read a run directory (``scores`` given: used instead of ``scores.json``)."""
    out = Path(out)
    if not out.is_dir():
        raise FileNotFoundError(f"{out} is not a run directory (expected episodes.jsonl/scores.json in it)")
    store = LiveStore(out)
    lines = EpisodeStream(out / EPISODES_FILE)
    return RunData(out, scores.copy() if scores is not None else _read_optional_scores(out),
                   _read_optional(out / RUN_FILE), lines, store.data, store.results())


def rebuild_scores(run: RunData, keep_evidence: Callable[[str, int], bool] | None = None) -> Scores:
    """The scores.json dict recomputed from episodes.jsonl and live.json (others carried over), streaming over
    the lines (each scored as it is read, its trace dropped). ``keep_evidence(scenario, seed)`` False: that
    episode keeps only the evidence the aggregates read (every number is the same; the report passes the
    episodes it shows transcripts of)."""
    wanted_ids = set(run.config.get("scenarios") or [])
    seeds = set(run.config.get("seeds") or [])
    scored = score_line_stream((line for line in run.lines if (not wanted_ids or line["scenario"] in wanted_ids)
                                and (not seeds or line["seed"] in seeds)), keep_evidence)
    bench_ids = set(scored.scenarios)
    live_ids = [sid for sid in C09_IDS if sid in wanted_ids or (not wanted_ids and sid in run.live_results)]
    extra: dict[str, list[Any]] = dict(score_c09(run.live_results, live_ids)) if live_ids else {}
    for sid, entry in (run.scores["scenarios"] if run.scores else {}).items():
        if sid in bench_ids or sid in extra or not entry.get("per_seed"):
            continue
        if wanted_ids and sid not in wanted_ids:
            continue
        try:
            if get_scenario(sid).mode == "bench":
                continue  # a bench scenario with no episode line stays unmeasured
        except KeyError:
            pass
        extra[sid] = per_seed_scores(sid, entry)
    scores = scored.summarize(extra)
    recorded: Any = (run.scores.get("split") if run.scores else None) or run.config.get("instances")
    if isinstance(recorded, dict) and recorded.get("nonce") is not None:  # the run's nonce survives a rebuild
        scores["split"]["nonce"] = int(recorded["nonce"])
    if run.scores and run.scores.get("run"):
        scores["run"] = run.scores["run"]
    return scores


# ------------------------------------------------------------------------------------------------ views


def category_titles() -> dict[str, str]:
    return dict(CATEGORY_TITLES)


def intensity_series(lines: Iterable[Mapping[str, Any]], categories: Sequence[str] = INTENSITY_CATEGORIES
                     ) -> dict[str, dict[str, list[tuple[float, float]]]]:
    """{category: {scenario: [(t, intensity), ...]}} from the first seed's trace of each scenario (streaming:
    only the lowest seed's line of each plotted scenario is kept while reading)."""
    banks = load_banks()
    series: dict[str, dict[str, list[tuple[float, float]]]] = {c: {} for c in categories}
    first: dict[str, Mapping[str, Any]] = {}
    for line in lines:
        sid = line["scenario"]
        try:
            category = get_scenario(sid).category
        except KeyError:
            continue
        if category not in series or not line.get("trace"):
            continue
        if sid not in first or line["seed"] < first[sid]["seed"]:
            first[sid] = line
    for sid, line in sorted(first.items()):
        try:
            trace = Trace.from_dict(line["trace"])
        except Exception as err:  # one damaged trace in the run's file must not stop the report
            warnings.warn(f"intensity plot: skipping {sid} seed {line['seed']} ({err})", stacklevel=2)
            continue
        category = get_scenario(sid).category
        series[category][sid] = [(d.t, round(decision_intensity(d, banks).combined, 4)) for d in trace.decisions]
    return series


def horizon_accuracy(lines: Iterable[Mapping[str, Any]]) -> tuple[dict[float, float | None], dict[float, float | None]]:
    """Forecast accuracy per horizon over every trace that holds a ``FORECAST`` line, and the persistence
    baseline's at the same horizons (:mod:`wmbench.scoring.forecast`); streaming, one trace at a time."""
    tallies: dict[float, list[int]] = {}
    kept: list[Trace] = []
    for line in lines:
        decisions = (line.get("trace") or {}).get("decisions") or []
        if not any("FORECAST" in str(d.get("reply", "")) for d in decisions):
            continue
        try:
            trace = Trace.from_dict(line["trace"])
        except Exception as err:  # one damaged trace in the run's file must not stop the report
            warnings.warn(f"horizon plot: skipping {line.get('scenario')} seed {line.get('seed')} ({err})",
                          stacklevel=2)
            continue
        for check in check_forecasts(trace):
            tally = tallies.setdefault(check.horizon_s, [0, 0])
            tally[0] += 1
            tally[1] += check.correct
        kept.append(trace)
    forecasts = {h: correct / checked for h, (checked, correct) in sorted(tallies.items())}
    persistence: dict[float, float | None] = {}
    for h in forecasts:
        checks = [c for trace in kept for c in check_persistence(trace, h)]
        persistence[h] = sum(c.correct for c in checks) / len(checks) if checks else None
    return dict(forecasts), persistence


def make_plots(run: RunData, scores: Scores, workers: PlotWorkers | None = None) -> list[Plot]:
    """The report's plots (empty when matplotlib is missing: the report says so). ``workers``: draw them in
    those helper processes, side by side (:mod:`~wmbench.harness.report.plot_workers`; the same bytes, and a
    plot a worker cannot draw is drawn here)."""
    if workers is None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            warnings.warn("matplotlib is missing (extra 'report'): the report has no plots", stacklevel=2)
            return []
    elif importlib.util.find_spec("matplotlib") is None:  # the workers import it; this process need not
        warnings.warn("matplotlib is missing (extra 'report'): the report has no plots", stacklevel=2)
        return []

    categories = scores.get("categories") or {}
    grade = scores.get("grade", "?") + (" provisional" if scores.get("grade_provisional") else "")
    title = f"WM Score {scores.get('wm_score', 0):.0f}/1000 · grade {grade}"
    latencies = {sid: [d.latency_ms for d in r.decisions] for sid, r in sorted(run.live_results.items())}
    frontier = _read_optional(run.out / FRONTIER_FILE)
    # (file stem, caption, plots.<function>, its arguments), each read when its turn comes: with workers,
    # each plot is submitted as soon as its data is ready and all are collected at the end (side by side)
    wanted: list[tuple[str, str, str, Callable[[], tuple[Any, ...]]]] = [
        ("pillar_radar", "Categories by pillar (fraction of 100; n/m = not measured)", "pillar_radar",
         lambda: (categories, dict(PILLARS), scores.get("pillars") or {}, title)),
        ("category_bars", "Category points with 95 % CI", "category_bars", lambda: (categories, dict(PILLARS))),
        ("intensity", "Intensity over time, C05 escalation and C07 resolution", "intensity_over_time",
         lambda: (intensity_series(run.lines),)),
        ("latency", "Live decision latency (C09 runs)", "latency_histogram", lambda: (latencies,)),
        ("horizon", "Forecast accuracy against the horizon (FORECAST lines)", "horizon_curve",
         lambda: horizon_accuracy(run.lines)),
        ("frontier", "Latency–accuracy frontier (wmbench frontier)", "frontier_curves",
         lambda: (frontier.get("points") or [], str(frontier.get("brain", run.brain)))),
    ]
    if workers is None:
        drawn = [getattr(rp, function)(*data()) for _, _, function, data in wanted]
    else:
        submitted = [(function, args, workers.submit(function, *args))
                     for _, _, function, data in wanted for args in [data()]]
        drawn = [collect(future, function, *args) for function, args, future in submitted]
    return [Plot(name, caption, png) for (name, caption, _, _), png in zip(wanted, drawn) if png is not None]


# ------------------------------------------------------------------------------------------------ writing


def write_reports(
    out: Path | str,
    scores: Scores | None = None,
    *,
    rebuild: bool = False,
    model_name: str | None = None,
    organization: str = "",
    paper_url: str = "",
    demo_url: str = "",
    plot_workers: PlotWorkers | None = None,
) -> ReportFiles:
    """Write report.md, report.html, leaderboard_entry.json and plots/*.png into ``out``.

    ``scores`` given: report those; else ``rebuild`` recomputes them from the raw files
    (:func:`rebuild_scores`), otherwise ``scores.json`` is read. ``plot_workers``: draw the plots in these
    helper processes (:func:`make_plots`; the same report).
    """
    run = load_run(out, scores)
    if scores is None and (rebuild or not run.scores):
        # per-decision evidence only for the episodes the HTML shows (a flat report at any size)
        shown = shown_episodes((line["scenario"], line["seed"]) for line in run.lines)
        run = RunData(run.out, rebuild_scores(run, lambda sid, seed: (sid, seed) in shown), run.config,
                      run.lines, run.live, run.live_results)
    if not run.scores:
        raise FileNotFoundError(f"{run.out}: no scores.json and nothing to rebuild scores from")
    scores = run.scores
    entry = leaderboard_entry(scores, brain=run.brain, body=run.body, live=run.live,
                              motion_model=run.config.get("motion_model"),
                              model_name=model_name, organization=organization, paper_url=paper_url,
                              demo_url=demo_url)
    # the entry is meant to be published: scores.json's brain spec is not redacted, so redact here too
    entry = Redactor().data(entry)
    # a run that stopped early (broken endpoint) gets its report at once, without plots of its zeros
    stopped = run._run_field("stopped")
    plots = [] if stopped else make_plots(run, scores, plot_workers)
    plot_paths = []
    if plots:
        (run.out / PLOTS_DIR).mkdir(parents=True, exist_ok=True)
        for plot in plots:
            path = run.out / PLOTS_DIR / f"{plot.name}.png"
            write_bytes_atomic(path, plot.png)
            plot_paths.append(path)
    leaderboard = write_json(run.out / LEADERBOARD_FILE, entry)
    markdown = run.out / REPORT_MD
    # atomic: a full disk leaves no half file; + the perception gap when `wmbench gap` has compared this run
    # with its scene-mode twin
    # visible(): model replies and run files may hold ESC/NUL/BEL/bidi characters (core/visible.py)
    write_text_atomic(markdown, visible(render_markdown(run, entry, plots) + gap_markdown(run.out)
                                        + baselines_markdown(entry)))
    html = run.out / REPORT_HTML
    write_text_atomic(html, visible(render_html(run, entry, plots, category_titles())))
    return ReportFiles(markdown, html, leaderboard, tuple(plot_paths))


def _fmt(value: object, digits: int = 1) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def pace_text(body: str, pace: float | None) -> str:
    """The report card's line for the body's pace (:mod:`wmbench.envs.pacing`); "" on the character."""
    if pace is None:
        return ""
    if pace < 1.0:
        return (f"{body}, pace {pace:.2f} — bench scenes played at the body's pace (NPC speeds x {pace:.2f}, "
                f"durations and event times / {pace:.2f}), so the score measures the brain, not the body's top speed")
    return (f"{body}, unpaced — bench scenes at their own speeds (a diagnostic of the body's raw physical limits; "
            f"not comparable with paced runs)")


def render_markdown(run: RunData, entry: Mapping[str, Any], plots: Sequence[Plot]) -> str:
    """The Markdown report (plots linked from ``plots/``)."""
    s = run.scores
    if s is None:
        raise ValueError(f"{run.out}: expected scores to report, got none")
    titles = category_titles()
    grade = s.get("grade", "?") + (" (provisional)" if s.get("grade_provisional") else "")
    out = [f"# wmbench report: {run.brain} on {run.body}", "",
           f"**{live_headline(run)}**" if run.live_only else
           f"**WM Score {_fmt(s.get('wm_score'))} / {s.get('wm_score_max', 1000):g}**, grade **{grade}**", ""]
    if not s.get("complete", True) and not run.live_only:
        out += [f"> {s.get('wm_score_note', '')}", ""]

    run_info = s.get("run")
    if entry.get("run_status", "complete") != "complete":
        out += [f"> Run status: {entry['run_status']}", ""]
    usage = format_usage(run_info) if run_info else ""
    if usage:
        out += [f"Brain: {usage}", ""]
    pace = pace_text(run.body, run.pace)
    if pace:
        out += [f"Body: {pace}", ""]
    out += [hidden_inconsistency_line(s), ""]
    split = split_text(s)
    if split:
        out += ["## Test split and spec fidelity", "", *[f"- {line}" for line in split], ""]
    out += ["## Pillars", "", "| pillar | sum | of | rescaled (spec) | of |", "|---|---|---|---|---|"]
    for p, pillar in s["pillars"].items():
        out.append(f"| {p} | {_fmt(pillar['sum'])} | {pillar['max']:g} | {_fmt(pillar['rescaled'])} | "
                   f"{pillar['rescaled_max']:g} |")
    out += ["", "## Categories", "", "| category | points | of | measured | 95 % CI |",
            "|---|---|---|---|---|"]
    for c, category in s["categories"].items():
        ci = confidence_text(category["ci95"], category_seeds(s, c))
        out.append(f"| {c} {titles.get(c, '')} | {_fmt(category['score'])} | {category['max']:g} | "
                   f"{'yes' if category['measured'] else 'no'} | {ci} |")
    out += ["", *failure_label_lines(s)]
    for plot in plots:
        out += ["", f"![{plot.caption}]({PLOTS_DIR}/{plot.name}.png)"]
    if run.live_results:
        out += ["", "## Live measurements (C09)", "", "Pipeline numbers on this machine (FPS, frames, dropped) are "
                "harness properties, reported and not scored; C09 scores the brain's think time and decisions.", "",
                "| scenario | FPS | late frames | dropped | latency median ms | p95 ms | decisions |",
                "|---|---|---|---|---|---|---|"]
        for sid, r in sorted(run.live_results.items()):
            out.append(f"| {sid} | {r.fps:.2f} | {100 * r.late_frame_rate:.2f} % | "
                       f"{100 * r.dropped_frame_rate:.2f} % | {_fmt(r.cognitive_latency_ms)} | "
                       f"{_fmt(r.cognitive_latency_p95_ms)} | {len(r.decisions)} |")

    out += motion_model_section(run.config, run.body)
    out += ["", "## Scenarios", "", "| scenario | name | category | points | explanation |",
            "|---|---|---|---|---|"]
    for sid, scenario in s["scenarios"].items():
        points = f"{_fmt(scenario['score'])} / {scenario['max']:g}" if scenario["measured"] else "not measured"
        out.append(f"| {sid} | {_cell(scenario_name(sid))} | {scenario['category']} | {points} | "
                   f"{_cell(scenario['explanation'])} |")
    out += ["", "Per-decision transcripts (scene, reply, parsed lines, intent, events, points and why) are in "
            "report.html."]
    out += ["", "## Leaderboard entry", "", "```json"]
    import json

    out += [json.dumps(entry, indent=2), "```", ""]
    return "\n".join(out)
