"""Panel brains over chosen categories: the validity panel's episodes and scoring, without C10 or the others.

Not a unit test. The quick panel (``wmbench validity --quick``) runs every category for 34 brains; when only some
rules changed, this runs just their categories (docs/prompt_only.md's before/after table)::

    .venv/bin/python -m tests.scoring.panel_categories --categories C03 C05 C07 C08 \\
        --brains prompt-only oracle-random distance-only --seeds 0 1 2 3 --out panel.json

Each (brain, seed) runs every bench scenario of the categories on the SMPL body, applies the paired rules as a
run does (``rescore_pairs``), and the category points are ``summarize``'s (the sum of the scenarios' seed
means), as in :func:`wmbench.harness.validity.runner.run_validity`.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

from wmbench.brain.panel.brains import get_panel_brain
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.results import episode_line
from wmbench.harness.run.scores import paired_trace, score_line
from wmbench.scenarios import all_scenarios
from wmbench.scoring import summarize
from wmbench.scoring.pairs import rescore_pairs


def run(categories: list[str], brains: list[str], seeds: list[int]) -> dict[str, dict[str, Any]]:
    """{brain: {"categories": {C: points}, "scenarios": {S: points}}}."""
    result: dict[str, dict[str, Any]] = {}
    for name in brains:
        by_scenario: dict[str, list[Any]] = {}
        for seed in seeds:
            brain = get_panel_brain(name)
            paired, local = [], {}
            for record in all_scenarios():
                if record.mode == "bench" and record.category in categories:
                    line = episode_line(run_episode(record.id, brain, "smpl", seed, brain_label=name))
                    local[record.id] = [score_line(line)]
                    trace = paired_trace(line)
                    if trace is not None:
                        paired.append(trace)
            rescore_pairs(paired, local)
            for sid, entries in local.items():
                by_scenario.setdefault(sid, []).extend(replace(s, evidence={}, seed=seed) for s in entries)
        summary = summarize({sid: sorted(v, key=lambda s: s.seed or 0) for sid, v in by_scenario.items()})
        result[name] = {"categories": {c: summary["categories"][c]["score"] for c in categories},
                        "scenarios": {sid: e["score"] for sid, e in summary["scenarios"].items() if e["measured"]}}
        print(name, result[name]["categories"], flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--categories", nargs="+", required=True)
    parser.add_argument("--brains", nargs="+", required=True)
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    result = run(args.categories, args.brains, args.seeds)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
