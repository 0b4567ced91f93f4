"""Memory of the report step at scale: peak RSS of ``wmbench report DIR`` over 1,000 and 20,000 episodes.

The episodes are synthetic *lines* written from real ones: a real run of every bench scenario (reference brain,
smpl, 1 seed) is made once, then :func:`write_synthetic_run` writes N lines cycling over its lines with seed
``i // len(real)`` (so every (scenario, seed) is distinct; the trace's own seed field is set to match), plus a
``run.json`` naming those seeds. Each
measurement runs ``write_reports(DIR, rebuild=True)`` — what ``wmbench report DIR`` does: rescore every line,
plots, Markdown, HTML with transcripts, leaderboard entry — in a fresh Python process and reads its peak RSS
(``ru_maxrss``, imports included). Target: <= 150 MB at both sizes (flat: scoring and reports stream over
``episodes.jsonl``).

Run: ``.venv/bin/python -m benchmarks.bench_report_memory [--quick]`` (quick: 200 and 1,000 episodes).
Extra: ``--sizes 1000,20000 --keep DIR`` to choose sizes and keep the synthetic runs.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.common import REPO_ROOT, BenchRow, Target, format_rows

GROUP = "memory"
TARGET_MB = 150.0
CHILD = ("import json, resource, sys; from wmbench.harness.report.writer import write_reports; "
         "import time; t = time.perf_counter(); write_reports(sys.argv[1], rebuild=True); "
         "print(json.dumps({'peak_kb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "
         "'wall_s': time.perf_counter() - t}))")


def make_source_run(out: Path) -> Path:
    """A real run of every bench scenario (reference brain, smpl, seed 0) in ``out``."""
    from wmbench.harness.suite import run_suite

    if not (out / "episodes.jsonl").exists():
        run_suite("reference", "smpl", "all", 1, 2, out, progress=False, measurers={}, live=False, reports=False)
    return out


def write_synthetic_run(source: Path, out: Path, n: int) -> Path:
    """``n`` episode lines in ``out/episodes.jsonl`` cycling over ``source``'s lines (see the module card)."""
    real = [json.loads(raw) for raw in (source / "episodes.jsonl").read_text(encoding="utf-8").splitlines()]
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "episodes.jsonl", "w", encoding="utf-8") as f:
        for i in range(n):
            line = dict(real[i % len(real)])
            line["seed"] = i // len(real)
            if line.get("trace"):  # the trace names its seed too (paired rules match on it)
                line["trace"] = {**line["trace"], "seed": line["seed"]}
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
    config = json.loads((source / "run.json").read_text(encoding="utf-8"))
    config["seeds"] = list(range(math.ceil(n / len(real))))
    (out / "run.json").write_text(json.dumps(config), encoding="utf-8")
    return out


def report_peak_mb(run_dir: Path) -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of ``write_reports(run_dir, rebuild=True)`` in a fresh process."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(run_dir)], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=3600, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"report child failed ({done.returncode}): {done.stderr[-800:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return data["peak_kb"] / 1024, data["wall_s"]


def measure(quick: bool, sizes: tuple[int, ...] | None = None, keep: Path | None = None) -> list[BenchRow]:
    sizes = sizes or ((200, 1000) if quick else (1000, 20000))
    rows = []
    with tempfile.TemporaryDirectory(prefix="wmbench-report-mem-") as tmp:
        base = keep or Path(tmp)
        source = make_source_run(base / "source")
        for n in sizes:
            run_dir = write_synthetic_run(source, base / f"synthetic-{n}", n)
            size_mb = (run_dir / "episodes.jsonl").stat().st_size / 2**20
            peak, wall = report_peak_mb(run_dir)
            rows.append(BenchRow(GROUP, f"report step peak RSS, {n:,} episodes", peak, "MB",
                                 Target("<=", TARGET_MB),
                                 f"write_reports(rebuild=True) in a fresh process; episodes.jsonl {size_mb:,.0f} MB; "
                                 f"{wall:.0f} s"))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sizes", default=None, help="episode counts, e.g. 1000,20000")
    parser.add_argument("--keep", type=Path, default=None, help="keep the runs in this folder")
    args = parser.parse_args()
    sizes = tuple(int(s) for s in args.sizes.split(",")) if args.sizes else None
    rows = measure(args.quick, sizes, args.keep)
    print(format_rows(rows))
    return 1 if any(r.status == "error" for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
