"""The Ray executor against a REAL local Ray instance (no mocks): the same sweep gives the same traces and
scores as the local executor, byte for byte, and Ray leaves no process behind."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from wmbench.harness.executors.ray_executor import RayExecutor
from wmbench.harness.executors.registry import make_executor
from wmbench.harness.run.results import EPISODES_FILE, SCORES_FILE, EpisodeLog
from wmbench.harness.sweep.model import BrainEntry, SweepSpec
from wmbench.harness.sweep.runner import run_sweep

ray = pytest.importorskip("ray")
psutil = pytest.importorskip("psutil")

RAY_PROCESS_NAMES = ("raylet", "gcs_server", "ray::", "default_worker", "dashboard")


def canonical_traces(cell_dir: Path) -> dict[tuple[str, int], str]:
    """Each episode's trace as sorted-key JSON without the brain's wall-clock ``latency_s``."""
    traces: dict[tuple[str, int], str] = {}
    for line in EpisodeLog(cell_dir / EPISODES_FILE).iter_lines():
        trace: Any = json.loads(json.dumps(line["trace"]))
        for decision in trace["decisions"]:
            decision["brain"].pop("latency_s", None)
        traces[(line["scenario"], line["seed"])] = json.dumps(trace, sort_keys=True)
    return traces


def ray_processes() -> list[str]:
    found = []
    for proc in psutil.Process().children(recursive=True):
        try:
            name = " ".join(proc.cmdline()) or proc.name()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        if any(key in name for key in RAY_PROCESS_NAMES):
            found.append(name[:80])
    return found


def test_ray_sweep_matches_local_byte_for_byte_and_leaves_no_process(tmp_path: Path) -> None:
    spec = SweepSpec(brains=(BrainEntry("reference"), BrainEntry("random", {"seed": 1})), bodies=("smpl",),
                     scenarios="S01,S06,S12", seeds=(0, 1), live=False, workers=2)
    local = run_sweep(SweepSpec(**{**spec.__dict__, "out": tmp_path / "local"}), progress=False,
                      say=lambda _: None, executor=make_executor("local"))
    executor = RayExecutor(num_cpus=2)
    try:
        remote = run_sweep(SweepSpec(**{**spec.__dict__, "out": tmp_path / "ray"}), progress=False,
                           say=lambda _: None, executor=executor)
        assert ray.is_initialized()  # the episodes really went through Ray
    finally:
        executor.close()
    assert not ray.is_initialized()
    assert local.ran == remote.ran == ("reference__smpl", "random__smpl")
    for cell in local.ran:
        a, b = tmp_path / "local" / cell, tmp_path / "ray" / cell
        assert (a / SCORES_FILE).read_bytes() == (b / SCORES_FILE).read_bytes()
        traces = canonical_traces(a)
        assert len(traces) == 6
        assert traces == canonical_traces(b)
    assert [r["wm_score"] for r in local.rows] == [r["wm_score"] for r in remote.rows]
    deadline = time.monotonic() + 20
    while ray_processes() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert ray_processes() == []
