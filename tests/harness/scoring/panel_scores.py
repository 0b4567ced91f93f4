"""WM Score per category for the validity panel (:mod:`tests.harness.scoring.panel_brains`) — a measurement
script, not a unit test (~45 episodes per brain, body and seed)::

    .venv/bin/python -m tests.harness.scoring.panel_scores --brains reference null random const_step_back \
        --body smpl --json panel.json

C01–C08 run on ``--body``; C10 (S46–S50) runs each brain's own transfer measurement (only with ``--c10``).
Prints one row per brain: the C01–C08 + C10 total (of 900) and each category (of 100).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from tests.harness.scoring.panel_brains import make_panel_brain
from wmbench.envs.trace import Trace
from wmbench.harness.episode import run_episode
from wmbench.harness.scoring import score_trace, summarize
from wmbench.harness.scoring.report_types import ScenarioScore

C01_C08 = tuple(f"S{i:02d}" for i in range(1, 41))
C10 = tuple(f"S{i:02d}" for i in range(46, 51))
CATEGORIES = ("C01", "C02", "C03", "C04", "C05", "C06", "C07", "C08", "C10")


def score_brain(name: str, body: str, seeds: Sequence[int], with_c10: bool,
                scenarios: Sequence[str] = C01_C08) -> dict[str, list[ScenarioScore]]:
    per: dict[str, list[ScenarioScore]] = {}
    traces = []
    for sid in scenarios:
        for seed in seeds:
            result = run_episode(sid, make_panel_brain(name), body=body, seed=seed)
            if result.trace is None:
                raise RuntimeError(f"{name} {sid} seed {seed}: no trace ({result.error})")
            traces.append(Trace.from_dict(result.trace))
            per.setdefault(sid, []).append(score_trace(traces[-1]))
    try:
        from wmbench.harness.scoring.pairs import rescore_pairs
    except ImportError:    # the code before paired rules (kept to measure "before")
        pass
    else:
        rescore_pairs(traces, per)
    if with_c10:
        from wmbench.harness import c10

        if hasattr(c10, "measure_c10_brain"):
            for sid, scores in c10.measure_c10_brain(lambda: make_panel_brain(name), seeds, C10).items():
                per.setdefault(sid, []).extend(scores)
        else:   # the code before the closed-loop C10 (kept to measure "before")
            for sid in C10:
                for seed in seeds:
                    runs = c10.run_transfer(sid, make_panel_brain(name), seed)
                    per.setdefault(sid, []).append(c10.score_transfer(runs))
    return per


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--brains", nargs="+", required=True)
    parser.add_argument("--body", default="smpl")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0])
    parser.add_argument("--c10", action="store_true", help="also measure C10 (S46-S50)")
    parser.add_argument("--scenarios", nargs="+", default=list(C01_C08))
    parser.add_argument("--json", help="write per-scenario scores and explanations here")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {}
    print(f"{'brain':22} {'total':>7} " + " ".join(f"{c:>6}" for c in CATEGORIES), flush=True)
    for name in args.brains:
        per = score_brain(name, args.body, args.seeds, args.c10, args.scenarios)
        summary = summarize(per)
        cats = {c: summary["categories"][c]["score"] for c in CATEGORIES}
        total = sum(v for c, v in cats.items() if c != "C09")
        print(f"{name:22} {total:7.1f} " + " ".join(f"{cats[c]:6.1f}" for c in CATEGORIES), flush=True)
        out[name] = {"body": args.body, "total": total, "categories": cats,
                     "scenarios": {sid: [round(s.score, 2) for s in ss] for sid, ss in per.items()},
                     "explanations": {sid: [s.explanation for s in ss] for sid, ss in per.items()}}
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
