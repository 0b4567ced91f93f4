"""Issue 24 item 2: one writer per run directory, with real processes holding the lock."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wmbench.harness.cli.main import main
from wmbench.harness.run.lock import RunLockedError, acquire_run_lock, read_holder
from wmbench.harness.run.results import EPISODES_FILE, LOCK_FILE

HOLDER = """
import sys, time
from wmbench.harness.run.lock import acquire_run_lock
lock = acquire_run_lock(sys.argv[1])
print("held", flush=True)
time.sleep(120)
"""


def _holder(out: Path) -> subprocess.Popen[str]:
    """A real process that locks ``out`` and sleeps; returns once it holds the lock."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(out)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "held"
    return proc


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


def test_a_second_run_on_a_locked_dir_refuses_naming_the_holder_and_runs_nothing(tmp_path, capsys):
    out = tmp_path / "run"
    holder = _holder(out)
    try:
        code = main(["run", "--brain", "null", "--scenarios", "S01", "--seeds", "1", "--no-live",
                     "--no-progress", "--out", str(out)])
    finally:
        _stop(holder)
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1, err
    assert f"pid {holder.pid} on host {socket.gethostname()}" in err
    assert "started 20" in err
    assert not (out / EPISODES_FILE).exists()  # nothing ran, so nothing is paid for twice


def test_the_lock_dies_with_its_process_even_on_kill_9(tmp_path):
    out = tmp_path / "run"
    holder = _holder(out)
    with pytest.raises(RunLockedError, match=f"pid {holder.pid}"):
        acquire_run_lock(out)
    _stop(holder)  # SIGKILL: no cleanup code of the holder runs
    assert (out / LOCK_FILE).exists()  # the stale file stays; the kernel's lock does not
    with acquire_run_lock(out) as lock:
        assert read_holder(lock.out).pid == os.getpid()


def test_a_run_holds_the_lock_and_leaves_a_resumable_dir(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["run", "--brain", "null", "--scenarios", "S01", "--seeds", "1", "--no-live", "--no-progress",
            "--out", str(out)]
    assert main(args) == 0
    holder = json.loads((out / LOCK_FILE).read_text())
    assert holder["pid"] == os.getpid() and holder["host"] == socket.gethostname()
    lines = (out / EPISODES_FILE).read_text().splitlines()
    assert main(args) == 0  # released when the run returned: a rerun resumes (the lock file is no obstacle)
    assert (out / EPISODES_FILE).read_text().splitlines() == lines


def test_two_concurrent_real_runs_never_write_an_episode_twice(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "wmbench.harness.cli.main", "run", "--brain", "null", "--scenarios", "S01,S02",
           "--seeds", "1", "--no-live", "--no-progress", "--out", str(out)]
    first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    second = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results = [p.communicate(timeout=600) for p in (first, second)]
    codes = {first.returncode, second.returncode}
    assert codes <= {0, 2}, results
    if 2 in codes:  # the usual case: they overlapped, one refused in one line
        refused = results[[first.returncode, second.returncode].index(2)][1]
        assert "in use by another wmbench run" in refused
    keys = [(json.loads(line)["scenario"], json.loads(line)["seed"])
            for line in (out / EPISODES_FILE).read_text().splitlines()]
    assert sorted(keys) == [("S01", 0), ("S02", 0)]
