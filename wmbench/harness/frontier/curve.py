"""``wmbench frontier``: a brain's category scores at several think times (and token budgets), and the area.

Card
----
- For every point of the grid (think time ``d`` × token budget ``n``; no budget = the brain's own length) the
  brain plays the selected bench scenarios and seeds with its answers delayed and cut
  (:mod:`wmbench.harness.frontier.budgets`), and each category is scored as in a run.
- A category's score is the sum of its selected scenarios' scores (mean over seeds), as in a run: out of 100
  when all five run, out of 20 per scenario otherwise.
- **Area** of a category's curve over think time: the trapezoid area under score/100 between the smallest and the
  largest think time, divided by that span (1.0 = full marks at every think time; one think time: its score/100).
  A brain's C09 is then a point on a curve rather than a property of the machine.
- Output: ``frontier.json`` (every point, per category), ``frontier.md`` (tables) and ``frontier.png`` (curves per
  category, one line per budget) in the output folder.
- **Live** (``live=True``, ``wmbench frontier --live``): the selection's live scenarios (C09, S41–S45) run as
  in a run (:func:`wmbench.harness.live.c09.measure_c09`, first seed) with the brain's every answer ``d`` seconds
  later in wall time (:class:`~wmbench.harness.frontier.budgets.WallClockThinkingBrain`), so C09 — which scores
  the brain's own think time — becomes a point on the curve too. Unlike the bench points, these depend on the
  wall clock (a few seconds per scenario; a loaded machine adds its own delay to every point alike).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from wmbench.brain.base import Brain
from wmbench.harness.frontier.budgets import ThinkingBrain, TokenBudgetBrain, WallClockThinkingBrain, delay_decisions
from wmbench.harness.live.c09 import measure_c09
from wmbench.harness.report.plots import frontier_curves
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.results import FRONTIER_FILE, episode_line
from wmbench.harness.run.scores import score_lines
from wmbench.scenarios import select

#: The tables and the plot ``write_frontier`` writes beside ``frontier.json`` (a run's report plots the latter when
#: it lies in the run folder: ``wmbench frontier --out RUN``).
FRONTIER_MD, FRONTIER_PNG = "frontier.md", "frontier.png"


@dataclass(frozen=True)
class FrontierPoint:
    """Scores at one think time and token budget (None: unbudgeted)."""

    think_time_s: float
    delay_decisions: int
    token_budget: int | None
    categories: dict[str, float]
    total: float


@dataclass(frozen=True)
class Frontier:
    """Every point, and per budget and category the area under the curve over think time."""

    brain: str
    scenarios: list[str]
    seeds: list[int]
    points: list[FrontierPoint]
    area: dict[str, dict[str, float]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def measure_frontier(brain_factory: Callable[[], Brain], brain_label: str, selection: str,
                     seeds: Sequence[int], think_times: Sequence[float],
                     token_budgets: Sequence[int | None] = (None,), body: str = "smpl",
                     progress: Callable[[str], None] | None = None, live: bool = False,
                     live_durations: Mapping[str, float] | None = None) -> Frontier:
    """Run the grid (see the module card) and return the curve; ``live_durations`` cuts live runs short (sim
    seconds per scenario id; for tests)."""
    chosen = select(selection)
    bench = [s.id for s in chosen if s.mode == "bench"]
    live_ids = [s.id for s in chosen if s.mode == "live"] if live else []
    if not bench and not live_ids:
        raise ValueError(f"the selection {selection!r} holds no bench-mode scenario"
                         + ("" if live else " (add --live for its live C09 scenarios)"))
    points = []
    for budget in token_budgets:
        for think in sorted(think_times):
            delay = delay_decisions(think)
            if progress:
                progress(f"frontier: think {think:g} s (delay {delay}), budget {budget or 'none'}")
            lines = []
            for sid in bench:
                for seed in seeds:
                    brain: Brain = ThinkingBrain(brain_factory(), delay)
                    if budget is not None:
                        brain = TokenBudgetBrain(brain, budget)
                    try:
                        lines.append(episode_line(run_episode(sid, brain, body, seed, brain_label=brain_label)))
                    finally:
                        brain.close()
            categories: dict[str, float] = {}
            scenario_scores = score_lines(lines)["scenarios"]
            for sid in bench:  # a category = the sum of its run scenarios
                entry = scenario_scores[sid]
                category = str(entry["category"])
                categories[category] = categories.get(category, 0.0) + float(entry["score"] or 0.0)
            if live_ids:
                categories["C09"] = _live_points(brain_factory, brain_label, live_ids, think, budget, body,
                                                 seeds[0], progress, live_durations)
            points.append(FrontierPoint(think, delay, budget, categories, round(sum(categories.values()), 3)))
    return Frontier(brain_label, bench, list(seeds), points, area_under(points))


def _live_points(brain_factory: Callable[[], Brain], brain_label: str, live_ids: Sequence[str], think: float,
                 budget: int | None, body: str, seed: int, progress: Callable[[str], None] | None,
                 durations: Mapping[str, float] | None) -> float:
    """C09 at one think time: the live scenarios' points (mean over each scenario's scores), summed."""
    def make() -> Brain:
        brain: Brain = brain_factory()
        if budget is not None:
            brain = TokenBudgetBrain(brain, budget)
        return WallClockThinkingBrain(brain, think)

    scores = measure_c09(brain_label, body, seed, scenarios=live_ids, make_brain=make, progress=progress,
                         durations=durations)
    return round(sum(sum(float(x.score or 0.0) for x in runs) / len(runs) for runs in scores.values() if runs), 3)


def area_under(points: Sequence[FrontierPoint]) -> dict[str, dict[str, float]]:
    """Per budget label and category: the normalised area under score/100 over think time (see the card)."""
    out: dict[str, dict[str, float]] = {}
    budgets = sorted({p.token_budget for p in points}, key=lambda b: (b is not None, b or 0))
    for budget in budgets:
        curve = sorted((p for p in points if p.token_budget == budget), key=lambda p: p.think_time_s)
        label = "none" if budget is None else str(budget)
        categories = sorted({c for p in curve for c in p.categories})
        out[label] = {c: round(_area([p.think_time_s for p in curve],
                                     [p.categories.get(c, 0.0) / 100.0 for p in curve]), 4) for c in categories}
    return out


def _area(xs: Sequence[float], ys: Sequence[float]) -> float:
    if len(xs) == 1:
        return ys[0]
    span = xs[-1] - xs[0]
    total = sum((x1 - x0) * (y0 + y1) / 2 for x0, x1, y0, y1 in zip(xs, xs[1:], ys, ys[1:]))
    return total / span if span > 0 else ys[0]


def write_frontier(frontier: Frontier, out: Path) -> list[Path]:
    """``frontier.json``, ``frontier.md`` and (with matplotlib) ``frontier.png`` in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / FRONTIER_FILE, out / FRONTIER_MD]
    written[0].write_text(json.dumps(frontier.to_dict(), indent=1), encoding="utf-8")
    written[1].write_text(frontier_markdown(frontier), encoding="utf-8")
    try:
        png = frontier_curves([asdict(p) for p in frontier.points], frontier.brain)
    except ImportError:  # the report extra (matplotlib) is optional: the tables are written anyway
        return written
    if png is None:
        return written
    (out / FRONTIER_PNG).write_bytes(png)
    return [*written, out / FRONTIER_PNG]


def frontier_markdown(frontier: Frontier) -> str:
    categories = sorted({c for p in frontier.points for c in p.categories})
    lines = [f"# Latency–accuracy frontier: {frontier.brain}", "",
             f"{len(frontier.scenarios)} bench scenarios x seeds {frontier.seeds}; think time delays the answer "
             "by whole decisions (0.5 s each); C09, when measured (--live), adds it to the brain's wall time.", "",
             "| think time (s) | delay | budget | " + " | ".join(categories) + " | total |",
             "|---|---|---|" + "---|" * len(categories) + "---|"]
    for p in frontier.points:
        cells = " | ".join(f"{p.categories.get(c, 0.0):.1f}" for c in categories)
        lines.append(f"| {p.think_time_s:g} | {p.delay_decisions} | {p.token_budget or '-'} | {cells} | "
                     f"{p.total:.1f} |")
    lines += ["", "Area under each category's curve (score/100 averaged over think time):", "",
              "| budget | " + " | ".join(categories) + " |", "|---|" + "---|" * len(categories)]
    for budget, areas in frontier.area.items():
        lines.append(f"| {budget} | " + " | ".join(f"{areas.get(c, 0.0):.3f}" for c in categories) + " |")
    return "\n".join(lines) + "\n"
