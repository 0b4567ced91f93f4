"""The report's plots as PNG bytes (matplotlib's Agg canvas; no pyplot, no global backend switch).

Each function takes plain data (prepared by :mod:`wmbench.harness.report.writer`) and returns PNG bytes, or None
when there is nothing to draw:

- :func:`pillar_radar` — the ten categories around a circle (fraction of 100), shaded by pillar;
- :func:`category_bars` — category points with 95 % bootstrap CI error bars (unmeasured categories greyed);
- :func:`intensity_over_time` — per scenario, the scorers' combined intensity of each decision over sim time;
- :func:`latency_histogram` — the live runs' decision latencies (median and p95 marked);
- :func:`horizon_curve` — forecast accuracy against the horizon, beside the persistence baseline at each horizon;
- :func:`frontier_curves` — the latency–accuracy frontier: each category's score against think time.
Needs matplotlib (the ``report`` extra).
"""

from __future__ import annotations

import importlib
import io
import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from wmbench.scoring.live_run import median, percentile

#: The matplotlib modules the plots use (imported lazily: matplotlib is the optional extra ``report``).
MATPLOTLIB_MODULES = ("matplotlib.figure", "matplotlib.backends.backend_agg", "matplotlib.patches")


def prewarm_in_background() -> threading.Thread:
    """Import matplotlib's modules in a daemon thread (seconds on a busy machine), so that a run whose
    episodes wait on a remote brain has them loaded when its report is written; a missing matplotlib is
    left for :func:`~wmbench.harness.report.writer.make_plots` to report."""
    def load() -> None:
        for name in MATPLOTLIB_MODULES:
            try:
                importlib.import_module(name)
            except ImportError:
                return

    thread = threading.Thread(target=load, name="wmbench-report-prewarm", daemon=True)
    thread.start()
    return thread

PILLAR_COLORS = {"P1": "#3b7dd8", "P2": "#d8833b", "P3": "#3bab6a"}
UNMEASURED_COLOR = "#bbbbbb"
DPI = 100


def _figure(width: float, height: float, polar: bool = False) -> tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(111, projection="polar" if polar else None)
    return fig, ax


@dataclass(frozen=True)
class Margins:
    """A figure's margins and the gap between stacked panels, in inches: fixed, instead of ``tight_layout``,
    which draws the whole figure once more only to measure its text (a third of a plot's CPU). Sized for the
    widest labels these plots carry (tick labels up to "100", one line of title, an x label; what
    ``tight_layout`` chose for them, rounded up)."""

    left: float = 0.75
    right: float = 0.2
    top: float = 0.38
    bottom: float = 0.62
    gap: float = 0.62

    def apply(self, fig: Any) -> None:
        """Set ``fig``'s subplot parameters to these margins (a grid of panels stacked in one column)."""
        width, height = fig.get_size_inches()
        rows = max(1, len(fig.axes))
        panel = (height - self.top - self.bottom - (rows - 1) * self.gap) / rows
        fig.subplots_adjust(left=self.left / width, right=1.0 - self.right / width, top=1.0 - self.top / height,
                            bottom=self.bottom / height, hspace=self.gap / panel if rows > 1 else 0.0)


#: The plots' margins (inches): a plot with no x label, and the radar, whose title and legend sit outside it.
PLAIN = Margins()
NO_X_LABEL = Margins(bottom=0.42)
RADAR = Margins(left=0.4, right=0.4, top=0.8, bottom=0.78)


def _png(fig: Any, margins: Margins = PLAIN) -> bytes:
    buffer = io.BytesIO()
    margins.apply(fig)
    fig.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def pillar_of(category: str, pillars: Mapping[str, Sequence[str]]) -> str:
    return next((p for p, cats in pillars.items() if category in cats), "P?")


def pillar_radar(categories: Mapping[str, Mapping[str, Any]], pillars: Mapping[str, Sequence[str]],
                 pillar_totals: Mapping[str, Mapping[str, Any]], title: str) -> bytes:
    """Radar of the category scores (fraction of their max), the background shaded by pillar."""
    fig, ax = _figure(5.6, 5.2, polar=True)
    names = list(categories)
    n = len(names)
    angles = [2 * math.pi * i / n for i in range(n)]
    width = 2 * math.pi / n
    for i, cat in enumerate(names):
        ax.bar(angles[i], 1.0, width=width, color=PILLAR_COLORS.get(pillar_of(cat, pillars), "#999"),
               alpha=0.12, edgecolor="none")
    values = [(c.get("score") or 0.0) / (c.get("max") or 100.0) for c in categories.values()]
    closed_a, closed_v = [*angles, angles[0]], [*values, values[0]]
    ax.plot(closed_a, closed_v, color="#222", linewidth=1.8)
    ax.fill(closed_a, closed_v, color="#222", alpha=0.18)
    for angle, value, entry in zip(angles, values, categories.values()):
        color = "#222" if entry.get("measured") else UNMEASURED_COLOR
        ax.plot([angle], [value], "o", color=color, markersize=5)
    labels = [f"{cat}" + ("" if categories[cat].get("measured") else "\n(n/m)") for cat in names]
    ax.set_xticks(angles)
    ax.set_xticklabels(labels, fontsize=9)
    ax.set_ylim(0, 1)
    ax.set_yticks([0.25, 0.5, 0.75, 1.0])
    ax.set_yticklabels(["25", "50", "75", "100"], fontsize=7, color="#666")
    legend = [f"{p}: {t.get('rescaled', 0):.0f}/{t.get('rescaled_max', 0):.0f}"
              for p, t in pillar_totals.items()]
    from matplotlib.patches import Patch

    ax.legend(handles=[Patch(color=PILLAR_COLORS.get(p, "#999"), alpha=0.5, label=text)
                       for p, text in zip(pillar_totals, legend)],
              loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=3, fontsize=8, frameon=False)
    ax.set_title(title, fontsize=11, pad=18)
    return _png(fig, RADAR)


def category_bars(categories: Mapping[str, Mapping[str, Any]], pillars: Mapping[str, Sequence[str]]) -> bytes:
    """Bars of the category points (0–100) with their 95 % CI; unmeasured categories in grey."""
    fig, ax = _figure(7.2, 3.6)
    names = list(categories)
    scores = [categories[c].get("score") or 0.0 for c in names]
    colors = [PILLAR_COLORS.get(pillar_of(c, pillars), "#999") if categories[c].get("measured")
              else UNMEASURED_COLOR for c in names]
    lower, upper = [], []
    for c, s in zip(names, scores):
        ci = categories[c].get("ci95")
        lo, hi = (ci if ci else (s, s))
        lower.append(max(0.0, s - lo))
        upper.append(max(0.0, hi - s))
    ax.bar(names, scores, color=colors, yerr=[lower, upper], capsize=4, ecolor="#333")
    for i, c in enumerate(names):
        entry = categories[c]
        if not entry.get("measured"):
            note = "n/m" if not entry.get("measured_max") else f"{scores[i]:.0f}/{entry['measured_max']:.0f}"
            ax.text(i, scores[i] + 2, note, ha="center", fontsize=7, color="#555")
    ax.set_ylim(0, 105)
    ax.set_ylabel("points (of 100)")
    ax.set_title("Categories with 95 % CI (bootstrap over seeds)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    return _png(fig, NO_X_LABEL)


def intensity_over_time(series: Mapping[str, Mapping[str, Sequence[tuple[float, float]]]]) -> bytes | None:
    """One panel per category: each scenario's decision intensities (0–1) against sim time."""
    panels = {cat: by_sid for cat, by_sid in series.items() if any(by_sid.values())}
    if not panels:
        return None
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.2, 2.8 * len(panels)), dpi=DPI)
    FigureCanvasAgg(fig)
    for row, (cat, by_sid) in enumerate(sorted(panels.items()), start=1):
        ax = fig.add_subplot(len(panels), 1, row)
        for sid, points in sorted(by_sid.items()):
            if points:
                ts, values = zip(*points)
                ax.plot(ts, values, marker="o", markersize=3, linewidth=1.4, label=sid)
        ax.set_ylim(0, 1.05)
        ax.set_ylabel("intensity")
        ax.set_title(f"{cat}: intensity over time (scorers' combined words + body reading)", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=5, loc="upper right")
    fig.axes[-1].set_xlabel("sim time (s)")
    return _png(fig)


def latency_histogram(latencies_ms: Mapping[str, Sequence[float]]) -> bytes | None:
    """Histogram of the live decisions' latencies (ms), stacked by scenario, median and p95 marked."""
    data = {sid: list(v) for sid, v in latencies_ms.items() if v}
    values = [x for v in data.values() for x in v]
    if not values:
        return None

    fig, ax = _figure(7.2, 3.4)
    lo, hi = max(min(values), 1e-3), max(values)
    logarithmic = hi / lo > 50
    bins: int | list[float]
    if logarithmic:
        bins = [lo * (hi / lo) ** (i / 30) for i in range(31)]
        ax.set_xscale("log")
    else:
        bins = 30
    ax.hist(list(data.values()), bins=bins, stacked=True, label=list(data), alpha=0.85)
    p50, p95 = median(values), percentile(values, 95.0)
    ax.axvline(p50, color="#222", linestyle="--", linewidth=1.2, label=f"median {p50:.1f} ms")
    ax.axvline(p95, color="#b22", linestyle=":", linewidth=1.4, label=f"p95 {p95:.1f} ms")
    ax.set_xlabel("latency: scene snapshot -> first frame moving with the new MOTION (ms)")
    ax.set_ylabel("decisions")
    ax.set_title(f"Live decision latency ({len(values)} decisions)", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return _png(fig)


def horizon_curve(forecasts: Mapping[float, float | None], persistence: Mapping[float, float | None]
                  ) -> bytes | None:
    """Forecast accuracy per horizon (s) and the persistence baseline's at the same horizons."""
    horizons = sorted(h for h, a in forecasts.items() if a is not None)
    if not horizons:
        return None
    fig, ax = _figure(6.0, 3.2)
    ax.plot(horizons, [forecasts[h] for h in horizons], marker="o", label="forecasts")
    kept = [h for h in horizons if persistence.get(h) is not None]
    if kept:
        ax.plot(kept, [persistence[h] for h in kept], marker="s", linestyle="--", color="#888",
                label="persistence (PREDICT as a forecast)")
    ax.set_xlabel("horizon (s of sim time)")
    ax.set_ylabel("accuracy")
    ax.set_ylim(0.0, 1.05)
    ax.set_title("Forecasts against the simulator's future", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return _png(fig)


def frontier_curves(points: Sequence[Mapping[str, Any]], brain: str) -> bytes | None:
    """Each category's score (of 100) against think time, one line per category and token budget; ``points``
    are ``frontier.json``'s (think_time_s, token_budget, categories)."""
    if not points:
        return None
    fig, ax = _figure(7.0, 4.0)
    budgets = sorted({p.get("token_budget") for p in points}, key=lambda b: (b is not None, b or 0))
    for budget in budgets:
        curve = sorted((p for p in points if p.get("token_budget") == budget), key=lambda p: p["think_time_s"])
        for category in sorted({c for p in curve for c in p["categories"]}):
            ax.plot([p["think_time_s"] for p in curve], [p["categories"].get(category, 0.0) for p in curve],
                    marker="o", label=category + ("" if budget is None else f" ({budget} tok)"))
    ax.set_xlabel("think time (s)")
    ax.set_ylabel("category score (of 100)")
    ax.set_title(f"Latency–accuracy frontier: {brain}", fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    return _png(fig)
