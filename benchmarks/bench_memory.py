"""Memory: RSS growth over many short episodes in one process, and over S45's spawn/despawn cycles.

Each measurement runs in a fresh child process (so earlier benchmarks — torch, servers — do not colour it):
``WARMUP`` episodes first (imports, caches, allocator pools settle), then a baseline RSS (after
``gc.collect()``), then N episodes through :func:`wmbench.harness.run.episode.run_episode` with the reference
brain and the smpl body, RSS sampled every N/10 episodes. Rows:

- **RSS growth over N S01 episodes** (N = 1000, quick 100): last sample - baseline; target <= 10 MB.
  The note gives the least-squares slope per 1000 episodes and the peak.
- **RSS growth over S45 spawn/despawn cycles**: S45 (three beasts built and removed per episode) run as
  bench episodes, 3 cycles each; growth and KB per cycle.
- **Parent RSS growth over a run with 2 workers** (N = 1000 episodes: C01,C02 x 100 seeds; quick 50):
  ``run_suite(..., workers=2)`` in a fresh process whose own RSS (the parent's, not the workers') is
  sampled by a thread; growth = last sample - the sample once ``WARMUP`` episodes are logged; target
  <= 10 MB (the parent streams results to episodes.jsonl and keeps none).

Run: ``.venv/bin/python -m benchmarks.bench_memory [--quick]``.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from dataclasses import dataclass

from benchmarks.common import REPO_ROOT, BenchRow, Target, rss_bytes, run_script

GROUP = "memory"
WARMUP = 20
TARGET_MB = 10.0
MB = 1024 * 1024
S45_CYCLES_PER_EPISODE = 3


@dataclass(frozen=True)
class RssSeries:
    """RSS samples (bytes) after ``episodes[i]`` episodes past the warm-up; ``[0]`` is the baseline."""

    scenario: str
    episodes: tuple[int, ...]
    rss: tuple[int, ...]
    errors: int

    @property
    def growth_mb(self) -> float:
        return (self.rss[-1] - self.rss[0]) / MB

    @property
    def peak_mb(self) -> float:
        return (max(self.rss) - self.rss[0]) / MB

    def slope_mb_per_1000(self) -> float:
        """Least-squares slope of RSS against episodes, in MB per 1000 episodes."""
        n = len(self.episodes)
        if n < 2:
            return 0.0
        mx, my = sum(self.episodes) / n, sum(self.rss) / n
        sxx = sum((x - mx) ** 2 for x in self.episodes)
        sxy = sum((x - mx) * (y - my) for x, y in zip(self.episodes, self.rss))
        return 1000 * sxy / sxx / MB if sxx else 0.0


def rss_series(scenario: str, episodes: int, samples: int = 10, warmup: int = WARMUP) -> RssSeries:
    """Run ``warmup`` + ``episodes`` episodes of ``scenario`` in this process, sampling RSS."""
    from wmbench.brain.registry import get_brain
    from wmbench.harness.run.episode import run_episode

    brain = get_brain("reference")
    errors = 0
    for i in range(warmup):
        errors += run_episode(scenario, brain, "smpl", i).error is not None
    every = max(1, episodes // samples)
    gc.collect()
    marks, rss = [0], [rss_bytes()]
    for i in range(1, episodes + 1):
        errors += run_episode(scenario, brain, "smpl", i % 7).error is not None
        if i % every == 0 or i == episodes:
            gc.collect()
            marks.append(i)
            rss.append(rss_bytes())
    brain.close()
    return RssSeries(scenario, tuple(marks), tuple(rss), errors)


def _series_in_child(call: str, what: str, timeout_s: int) -> RssSeries:
    """``m.<call>`` (an expression returning an :class:`RssSeries`) in a fresh Python process (same
    interpreter, the checkout on its path), so one measurement never inherits another's heap."""
    code = f"import json, dataclasses, benchmarks.bench_memory as m; print(json.dumps(dataclasses.asdict(m.{call})))"
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=timeout_s, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{what} child failed ({done.returncode}): {done.stderr[-500:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return RssSeries(data["scenario"], tuple(data["episodes"]), tuple(data["rss"]), data["errors"])


def rss_series_in_child(scenario: str, episodes: int) -> RssSeries:
    """:func:`rss_series` in a fresh Python process."""
    return _series_in_child(f"rss_series({scenario!r}, {int(episodes)})", f"memory ({scenario})", 1800)


def parent_rss_series(seeds: int, out: str) -> RssSeries:
    """``run_suite`` over C01,C02 x ``seeds`` with 2 workers, sampling this (parent) process's RSS."""
    import threading
    from pathlib import Path

    from wmbench.harness.suite import run_suite

    log = Path(out) / "episodes.jsonl"
    marks: list[int] = []
    rss: list[int] = []
    stop = threading.Event()

    def logged() -> int:
        if not log.exists():
            return 0
        with open(log, "rb") as f:  # counted in chunks: the sampler must not grow the RSS it measures
            return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 16), b""))

    def sample() -> None:
        while not stop.wait(0.05):
            n = logged()
            if n >= WARMUP and (not marks or n > marks[-1]):
                marks.append(n)
                rss.append(rss_bytes())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    scores = run_suite("reference", "smpl", "C01,C02", seeds, workers=2, out=out, progress=False, live=False,
                       reports=False)
    stop.set()
    sampler.join()
    # the last mark is the RSS once run_suite returned: after scoring (every ScenarioScore, with its evidence,
    # is part of scores.json, so that part grows with the run by design); the row reports both
    marks.append(logged() + 1)
    rss.append(rss_bytes())
    return RssSeries("C01,C02 (parent, 2 workers)", tuple(n - marks[0] for n in marks), tuple(rss),
                     scores["run"]["error_episodes"])


def parent_rss_in_child(seeds: int) -> RssSeries:
    """:func:`parent_rss_series` in a fresh Python process, into a temporary run directory."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="wmbench-parent-rss-") as tmp:
        return _series_in_child(f"parent_rss_series({int(seeds)}, {tmp + '/run'!r})", "parent-RSS", 3600)


def parent_row(quick: bool, seeds: int | None = None) -> BenchRow:
    n = seeds or (5 if quick else 100)
    series = parent_rss_in_child(n)
    failed = f"; {series.errors} episode errors" if series.errors else ""
    name = f"parent RSS growth over {10 * n} episodes, --workers 2"
    if len(series.rss) < 3:  # the sampler polls the log: a run that outpaces it leaves no episode samples
        return BenchRow(GROUP, name, None, "MB", Target("<=", TARGET_MB),
                        skipped=f"run too short to sample ({len(series.rss) - 1} episode samples); use more seeds")
    episodes_mb = (series.rss[-2] - series.rss[0]) / MB
    return BenchRow(GROUP, name, episodes_mb, "MB",
                    Target("<=", TARGET_MB),
                    f"C01,C02 x {n} seeds; from the {WARMUP}th logged episode to the last; after scoring "
                    f"+{series.growth_mb:.1f} MB (the scores themselves); baseline "
                    f"{series.rss[0] / MB:.0f} MB{failed}")


def measure(quick: bool, episodes: int | None = None, s45_episodes: int | None = None,
            parent_seeds: int | None = None) -> list[BenchRow]:
    n = episodes or (100 if quick else 1000)
    m = s45_episodes or (30 if quick else 300)
    target = Target("<=", TARGET_MB)
    s01 = rss_series_in_child("S01", n)
    s45 = rss_series_in_child("S45", m)
    cycles = m * S45_CYCLES_PER_EPISODE
    rows = []
    for series, name, extra in (
        (s01, f"RSS growth over {n} S01 episodes", ""),
        (s45, f"RSS growth over {cycles} S45 spawn/despawn cycles",
         f"; {1024 * s45.growth_mb / cycles:.1f} KB per cycle ({m} episodes)"),
    ):
        failed = f"; {series.errors} episode errors" if series.errors else ""
        rows.append(BenchRow(
            GROUP, name, series.growth_mb, "MB", target,
            f"fresh process, {WARMUP} warm-up episodes; slope {series.slope_mb_per_1000():.2f} MB per 1000 "
            f"episodes; peak +{series.peak_mb:.1f} MB; baseline {series.rss[0] / MB:.0f} MB{extra}{failed}"))
    rows.append(parent_row(quick, parent_seeds))
    return rows


if __name__ == "__main__":
    raise SystemExit(run_script(measure, __doc__.splitlines()[0]))

