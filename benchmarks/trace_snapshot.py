"""Write full episode traces as canonical JSON, to prove a performance change kept behaviour byte for byte.

::

    .venv/bin/python -m benchmarks.trace_snapshot /tmp/before            # before the change
    .venv/bin/python -m benchmarks.trace_snapshot /tmp/after --compare /tmp/before

Each file is one episode (scenario x body x brain x seed): ``Trace.to_dict()`` dumped with sorted keys, minus
the one field that is wall-clock and never reproducible (the brain's ``latency_s``). The reference brain and
the seeded random brain (replies of every shape, parse errors included) drive every body that can be built.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from benchmarks.common import REPO_ROOT  # noqa: F401  (puts the checkout on sys.path)

#: Walls, NPC timelines, multi-phase memory, charges and catches, despawns, wandering (seeded) NPCs.
SCENARIOS: tuple[str, ...] = ("S01", "S05", "S08", "S10", "S12", "S15", "S17", "S21", "S24", "S26", "S28",
                              "S34", "S36", "S40", "S45", "S50")
BRAINS: tuple[str, ...] = ("reference", "random")
BODIES: tuple[str, ...] = ("smpl", "robot", "drone")
SEEDS: tuple[int, ...] = (0, 3)


def canonical_trace(trace: dict[str, Any]) -> str:
    """The trace as sorted-key JSON without wall-clock fields."""
    for decision in trace.get("decisions", ()):
        decision.get("brain", {}).pop("latency_s", None)
    return json.dumps(trace, sort_keys=True, indent=1)


def write_snapshot(out: Path, bodies: tuple[str, ...] = BODIES) -> list[Path]:
    from wmbench.body.registry import get_body
    from wmbench.brain.registry import get_brain
    from wmbench.harness.run.episode import run_episode

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for body in bodies:
        try:
            get_body(body)
        except Exception as exc:
            print(f"skipped body {body}: {exc}", file=sys.stderr)
            continue
        for brain_spec in BRAINS:
            brain = get_brain(brain_spec)
            for sid in SCENARIOS:
                for seed in SEEDS:
                    result = run_episode(sid, brain, body, seed)
                    path = out / f"{sid}-{body}-{brain_spec}-{seed}.json"
                    text = canonical_trace(result.trace or {}) + f"\nerror: {result.error}\n"
                    path.write_text(text, encoding="utf-8")
                    written.append(path)
            brain.close()
    return written


def compare(after: Path, before: Path) -> list[str]:
    """Names of files that differ or are missing on either side."""
    names = sorted({p.name for p in before.glob("*.json")} | {p.name for p in after.glob("*.json")})
    differ = []
    for name in names:
        a, b = after / name, before / name
        if not (a.is_file() and b.is_file()) or a.read_bytes() != b.read_bytes():
            differ.append(name)
    return differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--compare", type=Path, default=None, help="an earlier snapshot folder")
    parser.add_argument("--bodies", default=",".join(BODIES))
    args = parser.parse_args()
    written = write_snapshot(args.out, tuple(b for b in args.bodies.split(",") if b))
    print(f"wrote {len(written)} traces to {args.out}")
    if args.compare is None:
        return 0
    differ = compare(args.out, args.compare)
    print(f"{len(differ)} of {len(written)} differ from {args.compare}" + (": " + ", ".join(differ[:20])
                                                                         if differ else " (byte identical)"))
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
