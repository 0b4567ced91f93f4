"""Memory: RSS growth over many short episodes in one process, and over S45's spawn/despawn cycles.

Each measurement runs in a fresh child process (so earlier benchmarks — torch, servers — do not colour it):
``WARMUP`` episodes first (imports, caches, allocator pools settle), then a baseline RSS (after
``gc.collect()``), then N episodes through :func:`wmbench.harness.episode.run_episode` with the reference
brain and the smpl body, RSS sampled every N/10 episodes. Rows:

- **RSS growth over N S01 episodes** (N = 1000, quick 100): last sample - baseline; target <= 10 MB.
  The note gives the least-squares slope per 1000 episodes and the peak.
- **RSS growth over S45 spawn/despawn cycles**: S45 (three beasts built and removed per episode) run as
  bench episodes, 3 cycles each; growth and KB per cycle.

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
    from wmbench.harness.episode import run_episode

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


def rss_series_in_child(scenario: str, episodes: int) -> RssSeries:
    """:func:`rss_series` in a fresh Python process (same interpreter, the checkout on its path)."""
    code = ("import json, dataclasses, benchmarks.bench_memory as m; "
            f"print(json.dumps(dataclasses.asdict(m.rss_series({scenario!r}, {int(episodes)}))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=1800, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"memory child for {scenario} failed ({done.returncode}): {done.stderr[-500:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return RssSeries(data["scenario"], tuple(data["episodes"]), tuple(data["rss"]), data["errors"])


def measure(quick: bool, episodes: int | None = None, s45_episodes: int | None = None) -> list[BenchRow]:
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
    return rows


if __name__ == "__main__":
    raise SystemExit(run_script(measure, __doc__.splitlines()[0]))

