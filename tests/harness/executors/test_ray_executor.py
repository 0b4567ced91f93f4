"""The Ray executor against a REAL local Ray instance (no mocks): the same sweep gives the same traces and
scores as the local executor, byte for byte, and Ray leaves no process behind."""

from __future__ import annotations

import json
import threading
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


@pytest.fixture(scope="module")
def ray_executor() -> Any:
    """One local Ray instance for this module (starting one costs ~8 s of CPU in Ray's own processes): the
    retry test runs its tasks on it, and the sweep test, last in the file, closes it and checks that Ray
    leaves no process. Either test also works alone (the executor starts Ray on first use, again after a
    close)."""
    executor = RayExecutor(num_cpus=2)
    try:
        yield executor
    finally:
        executor.close()


PAUSE_S = 2.0
#: A reply that keeps S42's character waiting: the episode asks all its 24 decisions.
STAND_STILL = ("PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)\n"
               "MOTION: a person stands still, waiting calmly")


def test_retry_after_to_one_ray_task_pauses_the_other_tasks_requests(ray_executor: RayExecutor) -> None:
    """Two API episodes in two Ray worker processes against one real endpoint: once both are talking to it,
    the endpoint answers one request ``429`` with ``Retry-After: 2``. The OTHER episode's requests stop too:
    none reaches the server during the pause (after a generous 0.5 s for the news to travel), and both go
    on after it. Without the run's shared pause board the other task keeps sending (~0.1 s a reply)."""
    from tests.brain.fault_servers import FaultServer, completion
    from wmbench.brain.providers.openai_chat import SESSION_HEADER
    from wmbench.harness.executors.base import EpisodeJob
    from wmbench.harness.run.selection import EpisodeSpec

    seen: list[tuple[float, str, int]] = []  # (server wall time, episode session, status answered)
    refused_at: list[float] = []  # when the one 429 was answered
    both = threading.Condition()

    def behave(h: Any, body: dict[str, Any]) -> None:
        session = h.headers.get(SESSION_HEADER, "?")
        arrived = time.time()
        with both:  # no answer until both episodes are talking: they surely overlap (worker start-ups differ)
            seen.append((arrived, session, 0))
            index = len(seen) - 1
            both.notify_all()
            both.wait_for(lambda: len({s for _, s, _ in seen}) >= 2, timeout=120)
            refuse = not refused_at
            if refuse:
                refused_at.append(time.time())
            seen[index] = (arrived, session, 429 if refuse else 200)
        if refuse:
            h.send_json(429, {"error": {"message": "rate limited", "type": "rate_limit"}},
                        {"Retry-After": f"{PAUSE_S:g}"})
            return
        time.sleep(0.1)  # a reply takes a while: the other episode would send ~10 requests during the pause
        h.send_json(200, completion(STAND_STILL, body.get("model", "stub")))

    with FaultServer(behave) as server:
        job = EpisodeJob(brain="openai/stub", body="smpl", max_connections=2,
                         brain_options={"base_url": server.url, "cache": False, "debug_session_labels": True})
        # the module's Ray instance, left running for the sweep test (which closes it)
        results = list(ray_executor.results([EpisodeSpec("S42", 0), EpisodeSpec("S42", 1)], job))
    assert len(results) == 2
    assert len({s for _, s, _ in seen}) == 2
    refused = [s for _, s, code in seen if code == 429]
    assert len(refused) == 1
    t429, first = refused_at[0], refused[0]
    others = [t - t429 for t, s, _ in seen if s != first]
    assert any(dt < 0 for dt in others)  # the other episode was talking to the endpoint before the 429
    during = [round(dt, 2) for dt in others if 0.5 < dt < PAUSE_S - 0.05]
    assert during == [], f"the other episode's requests reached the server during the pause: {during}"
    assert any(dt >= PAUSE_S for dt in others)  # ... and it went on after the pause


def test_ray_sweep_matches_local_byte_for_byte_and_leaves_no_process(tmp_path: Path,
                                                                    ray_executor: RayExecutor) -> None:
    spec = SweepSpec(brains=(BrainEntry("reference"), BrainEntry("random", {"seed": 1})), bodies=("smpl",),
                     scenarios="S01,S06,S12", seeds=(0, 1), live=False, workers=2)
    local = run_sweep(SweepSpec(**{**spec.__dict__, "out": tmp_path / "local"}), progress=False,
                      say=lambda _: None, executor=make_executor("local"))
    executor = ray_executor  # the module's Ray instance (started here if this test runs alone); closed here
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
