"""``wmbench forecast RUN``: how well a run's FORECAST lines predicted the world (accuracy per category and horizon).

Reads ``episodes.jsonl``; checks every forecast item against the simulator's truth at ``t + H``
(:mod:`wmbench.scoring.forecast`), prints the tables beside the persistence baseline (the brain's own PREDICT
read as a forecast) and writes ``forecast.json`` into the run directory. Runs without forecasts say so.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

from wmbench.harness.cli.base import EXIT_OK, Command, UsageError
from wmbench.harness.run.results import EPISODES_FILE, EpisodeLog, line_trace
from wmbench.scenarios import get_scenario
from wmbench.scoring.forecast import Accuracy, ForecastSummary, forecast_summary


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("run", type=Path, help="a finished run directory")


def _forecast(args: argparse.Namespace) -> int:
    if not (args.run / EPISODES_FILE).is_file():
        raise UsageError(f"{args.run} holds no run: expected {EPISODES_FILE} (a `wmbench run --out` directory)")
    traces = []
    for line in EpisodeLog(args.run / EPISODES_FILE).iter_lines():
        stored = line.get("trace")
        if stored and not line.get("error"):
            trace = line_trace(line, args.run / EPISODES_FILE)
            traces.append((get_scenario(trace.scenario_id).category, trace))
    summary = forecast_summary(traces)
    if not summary.overall.checked:
        print(f"{args.run}: no verifiable FORECAST items (the brain gave none, or none fell inside its episode)")
        return EXIT_OK
    horizons = sorted(summary.by_horizon)
    baseline = {h: forecast_summary(traces, persistence_s=h) for h in horizons}
    print(f"forecast accuracy, {summary.overall.checked} items: {_pct(summary.overall)} "
          f"(persistence baseline at the same horizons: "
          + ", ".join(f"{h:g}s {_pct(baseline[h].overall)}" for h in horizons) + ")")
    print("by category: " + ", ".join(f"{c} {_pct(a)} ({a.checked})" for c, a in summary.by_category.items()))
    print("by horizon:  " + ", ".join(f"+{h:g}s {_pct(a)} ({a.checked})" for h, a in summary.by_horizon.items()))
    out = args.run / "forecast.json"
    out.write_text(json.dumps({"forecast": _plain(summary),
                               "persistence": {str(h): _plain(b) for h, b in baseline.items()}}, indent=1),
                   encoding="utf-8")
    print(f"wrote {out}")
    return EXIT_OK


def _pct(accuracy: Accuracy) -> str:
    return "n/a" if accuracy.accuracy is None else f"{100 * accuracy.accuracy:.1f} %"


def _plain(summary: ForecastSummary) -> dict[str, object]:
    def entry(a: Accuracy) -> dict[str, object]:
        return {**asdict(a), "accuracy": a.accuracy}

    return {"overall": entry(summary.overall),
            "by_category": {c: entry(a) for c, a in summary.by_category.items()},
            "by_horizon": {str(h): entry(a) for h, a in summary.by_horizon.items()}}


FORECAST_COMMAND = Command("forecast", "score a run's FORECAST lines against what the world then did",
                           _configure, _forecast)
