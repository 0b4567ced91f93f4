"""Calibration run: every C01–C08 scenario in the real env for a few reference brains, scored and tabulated.

Not a unit test (it runs ~40 episodes per brain and seed). Use it after changing a threshold::

    .venv/bin/python -m tests.scoring.calibrate --seeds 0 1 --brains reference null random stuffed

Targets from the scoring brief (C01–C08, out of 800): stuffed <= 300, null <= 150, random <= 250,
reference >= 760 with every scenario >= 15.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from wmbench.brain.base import BrainReply
from wmbench.harness.run.episode import run_episode
from wmbench.protocol.trace import Trace
from wmbench.scoring import score_trace, summarize
from wmbench.scoring.pairs import rescore_pairs
from wmbench.scoring.report_types import ScenarioScore

SCENARIOS = tuple(f"S{i:02d}" for i in range(1, 41))
STUFFED_PREDICT = "PREDICT: left=danger(beast), right=danger(wall), fwd=danger(beast), back=safe(open)"
STUFFED_WORDS = (
    "desperately in frantic terror, panicking, fleeing in fear, scared, terrified, cautious, wary, alert, "
    "frozen, relieved, calm, defensive, arms raised, glancing back, wide-eyed, heart pounding"
)
STUFFED_MOTIONS = {
    "stuffed_back": f"a person turns around and sprints back {STUFFED_WORDS}",
    "stuffed_right": f"a person sprints to the right {STUFFED_WORDS}",
    "stuffed": "a person sprints and runs desperately in frantic terror, panicking, fleeing in fear, scared, "
               "terrified, cautious, wary, alert, frozen, relieved, calm, defensive, arms raised, glancing "
               "back, wide-eyed, heart pounding",
    "stuffed_left": "a person sprints to the left desperately in frantic terror, panicking, fleeing in fear, "
                    "scared, terrified, cautious, wary, alert, frozen, relieved, calm, defensive, arms "
                    "raised, glancing back, wide-eyed, heart pounding",
}


class ConstantBrain:
    """The same reply every decision (a keyword-stuffed reply that ignores the scene)."""

    def __init__(self, name: str, text: str) -> None:
        self.name, self.text = name, text

    def reset(self, seed: int | None = None) -> None:
        return None

    def decide(self, scene: dict[str, Any]) -> BrainReply:
        return BrainReply(text=self.text, latency_s=0.0, provider=self.name)

    def close(self) -> None:
        return None


def make_brain(name: str) -> Any:
    if name in STUFFED_MOTIONS:
        return ConstantBrain(name, f"{STUFFED_PREDICT}\nMOTION: {STUFFED_MOTIONS[name]}")
    from wmbench.brain.registry import get_brain

    return get_brain(name)


def run(brains: Sequence[str], seeds: Sequence[int], scenarios: Sequence[str] = SCENARIOS, body: str = "smpl",
        ) -> dict[str, Any]:
    table: dict[str, dict[str, list[ScenarioScore]]] = {}
    for name in brains:
        per: dict[str, list[ScenarioScore]] = {}
        traces = []
        for sid in scenarios:
            for seed in seeds:
                result = run_episode(sid, make_brain(name), body=body, seed=seed)
                if result.trace is None:
                    raise RuntimeError(f"{name} {sid} seed {seed}: no trace ({result.error})")
                traces.append(Trace.from_dict(result.trace))
                per.setdefault(sid, []).append(score_trace(traces[-1]))
        rescore_pairs(traces, per)   # S29 against the same brain's S30 (paired rule)
        table[name] = per
    return table


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--brains", nargs="+",
                        default=["reference", "null", "random", "stuffed", "stuffed_left"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0])
    parser.add_argument("--scenarios", nargs="+", default=list(SCENARIOS))
    parser.add_argument("--body", default="smpl", help="body to run (smpl, robot, drone, ...)")
    parser.add_argument("--json", help="write every explanation to this file")
    args = parser.parse_args(argv)
    table = run(args.brains, args.seeds, args.scenarios, args.body)
    print("scenario " + " ".join(f"{b[:12]:>12}" for b in args.brains))
    for sid in args.scenarios:
        cells = []
        for b in args.brains:
            seeds = table[b][sid]
            measured = [s.score for s in seeds if s.measured]
            cells.append(f"{sum(measured) / len(measured):12.1f}" if measured else f"{'n/m':>12}")
        print(f"{sid:8} " + " ".join(cells))
    totals = {b: summarize(table[b]) for b in args.brains}
    print("C01-C08  " + " ".join(f"{t['wm_score']:12.1f}" for t in totals.values()))
    for c in ("C01", "C02", "C03", "C04", "C05", "C06", "C07", "C08"):
        print(f"{c:8} " + " ".join(f"{t['categories'][c]['score']:12.1f}" for t in totals.values()))
    if args.json:
        out = {b: {sid: [s.explanation for s in seeds] for sid, seeds in per.items()}
               for b, per in table.items()}
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
