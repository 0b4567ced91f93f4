"""Issue 24 item 12: ``wmbench report`` refuses a folder that holds no run, and a read-only run dir is one line.

The read-only case bind-mounts a real run directory read-only in a private mount namespace (``unshare -m``;
skipped with the reason where that is not allowed)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wmbench.harness.cli.main import main

WMBENCH = [sys.executable, "-m", "wmbench.harness.cli.main"]
REPO_ROOT = Path(__file__).resolve().parents[3]


def _can_bind_read_only() -> str | None:
    if shutil.which("unshare") is None:
        return "unshare(1) is not installed"
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind /tmp /mnt && mount -o remount,ro,bind /mnt"],
                           capture_output=True, text=True)
    return None if probe.returncode == 0 else f"cannot bind-mount read-only: {probe.stderr.strip()}"


@pytest.mark.parametrize("content", ["{not json", "[]", "{}"])
def test_a_folder_whose_only_run_file_is_unreadable_is_refused(tmp_path, capsys, content):
    # round 11's battery: a live.json that is not a live run made a report of nothing, "0.0 / 1000", exit 0
    (tmp_path / "live.json").write_text(content)
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == (f"wmbench report: error: {tmp_path} holds no readable wmbench run (live.json: unreadable); "
                   "expected a directory written by `wmbench run` or `wmbench live`")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["live.json"]


@pytest.mark.parametrize("folder", ["empty", "docs"])
def test_a_folder_without_a_run_is_refused_and_nothing_is_written(tmp_path, capsys, folder):
    target = tmp_path / "empty"
    target.mkdir()
    if folder == "docs":  # what a new user types by mistake: a folder of Markdown
        target = tmp_path / "docs"
        shutil.copytree(REPO_ROOT / "docs", target, ignore=shutil.ignore_patterns("*.png"))
    before = sorted(p.name for p in target.iterdir())
    assert main(["report", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds no wmbench run" in err
    assert sorted(p.name for p in target.iterdir()) == before  # no fake "unknown on smpl" report


@pytest.mark.skipif(_can_bind_read_only() is not None, reason=str(_can_bind_read_only()))
def test_a_read_only_run_dir_is_one_line_and_exit_2(tmp_path):
    run = tmp_path / "run"
    assert main(["run", "--brain", "null", "--scenarios", "S01", "--no-live", "--no-progress", "--workers", "1",
                 "--out", str(run)]) == 0  # one worker: a pool would only add two spawn processes' imports
    (run / "report.md").unlink()  # so the rebuild must write
    script = (f"mount --bind {run} {run} && mount -o remount,ro,bind {run} && "
              f"{' '.join(WMBENCH)} report {run}")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"wmbench report: error: cannot write the reports in {run}: read-only file system")
