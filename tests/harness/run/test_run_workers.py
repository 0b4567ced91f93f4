"""Worker processes (issue 15): user-registered scenarios reach spawned workers, the parent holds a bounded
number of results, and workers die with a ``kill -9``-ed parent."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import textwrap
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from wmbench.harness.cli.run_command import format_summary
from wmbench.harness.run.selection import EpisodeSpec
from wmbench.harness.run.workers import stream_results
from wmbench.harness.suite import run_suite
from wmbench.scenarios import get_scenario, register
from wmbench.scenarios.registry import SCENARIOS


@pytest.fixture
def user_scenario():
    record = register(replace(get_scenario("S01"), id="U901", name="User copy of S01"))
    yield record
    SCENARIOS.unregister(record.id)


def test_registered_scenario_runs_and_is_scored_with_two_workers(user_scenario, tmp_path):
    """With 2 workers every episode of a registered scenario used to fail with 'unknown scenario'."""
    scores = run_suite("reference", "smpl", "U901,S01", 2, workers=2, out=tmp_path / "run", progress=False,
                       live=False, reports=False)
    assert scores["run"]["error_episodes"] == 0
    entry = scores["extra_scenarios"]["U901"]
    # seeds 0 and 1 ran; seed 0 is spec fidelity (reported apart), seed 1 the test instance
    assert scores["run"]["episodes"] == 4
    assert entry["measured"] and [s["seed"] for s in entry["per_seed"]] == [1]
    # the same record in the worker: scores equal the official S01's, seed by seed
    assert [s["score"] for s in entry["per_seed"]] == [s["score"] for s in scores["scenarios"]["S01"]["per_seed"]]
    # and the summary a user reads says so, instead of a silent WM Score without it
    assert f"extra scenario U901 (C01, not part of the WM Score): {entry['score']:.1f} / 20" in format_summary(scores)


class _Payload:
    """Stands in for an episode result: something big a leaky parent would keep."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.blob = bytearray(1 << 16)


def test_stream_results_bounds_what_is_in_flight_and_keeps_nothing():
    """The parent used to submit every episode at once and keep every result (59 -> 139 MB per 1000)."""
    pool = ThreadPoolExecutor(max_workers=2)
    in_flight = peak = 0
    refs: list[weakref.ref[_Payload]] = []

    def work(n: int) -> _Payload:
        time.sleep(0.001)
        return _Payload(n)

    def start(spec: EpisodeSpec):
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        return pool.submit(work, spec.seed)

    seen = []
    for result in stream_results(pool, start, [EpisodeSpec("S01", i) for i in range(200)], window=4):
        in_flight -= 1
        seen.append(result.n)
        refs.append(weakref.ref(result))
        del result
    gc.collect()
    assert sorted(seen) == list(range(200))
    assert peak <= 4 + 1  # the window, plus the one result being handed on
    assert sum(ref() is not None for ref in refs) == 0  # no result outlives its hand-off


CHILD = textwrap.dedent("""
    import sys
    from wmbench.harness.suite import run_suite
    run_suite("reference", "smpl", "C01,C02", 400, workers=2, out=sys.argv[1], progress=False, live=False,
              reports=False)
""")


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found |= {int(t) for t in text}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"  # a zombie has exited


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc to find the workers")
def test_workers_die_when_the_parent_is_killed(tmp_path):
    parent = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path / "run")])
    try:
        deadline = time.monotonic() + 300  # a hang guard only: the loop ends as soon as it can
        workers: set[int] = set()
        while time.monotonic() < deadline and not (tmp_path / "run" / "episodes.jsonl").exists():
            time.sleep(0.2)
        workers = _children(parent.pid)
        assert len(workers) >= 2, "the run did not start its workers"
    finally:
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 60  # the kernel kills them at once (PDEATHSIG); 60 s only bounds a hang
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    survivors = [w for w in workers if _alive(w)]
    for w in survivors:  # never leave them behind, even when the test fails
        os.kill(w, signal.SIGKILL)
    assert not survivors, f"worker(s) {survivors} outlived the killed parent"
