"""Faults from issue 15's battery, reproduced for real: a bad byte in episodes.jsonl, a full disk while the
report is written, a read-only / full / file ``--out``, a bad ``serve --port``, a reader that leaves a pipe.

The disk tests mount a small private tmpfs with ``unshare -m`` (root, or a user namespace, needed; skipped
with the reason otherwise): the mount exists only inside that one subprocess.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wmbench.harness.cli.main import main
from wmbench.harness.run.results import EPISODES_FILE, UNREADABLE_FILE
from wmbench.harness.suite import run_suite

WMBENCH = [sys.executable, "-m", "wmbench.harness.cli.main"]


def _can_mount_private_tmpfs() -> str | None:
    """None when ``unshare -m`` + ``mount -t tmpfs`` work here, else why not."""
    if shutil.which("unshare") is None:
        return "unshare(1) is not installed"
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt"],
                           capture_output=True, text=True)
    return None if probe.returncode == 0 else f"cannot mount a private tmpfs: {probe.stderr.strip()}"


needs_tmpfs = pytest.mark.skipif(_can_mount_private_tmpfs() is not None,
                                 reason=str(_can_mount_private_tmpfs()))


def _in_private_tmpfs(mount: Path, options: str, script: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (sh) with a fresh tmpfs (mount ``options``) on ``mount``, private to that process."""
    mount.mkdir(parents=True, exist_ok=True)
    full = f"mount -t tmpfs -o {options} tmpfs {mount} && {script}"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(["unshare", "-m", "sh", "-c", full], capture_output=True, text=True, env=env,
                          timeout=300)


# --------------------------------------------------------------------------------- episodes.jsonl damage


def test_undecodable_episode_line_is_skipped_kept_aside_and_the_run_resumes(tmp_path, capsys):
    """A non-UTF-8 byte used to crash both ``run`` and ``report``; the run could not resume."""
    out = tmp_path / "run"
    first = run_suite("null", "smpl", "S01,S02", 1, 1, out, progress=False, live=False, reports=False)
    log = out / EPISODES_FILE
    lines = log.read_bytes().splitlines(keepends=True)
    s01 = next(i for i, raw in enumerate(lines) if b'"scenario":"S01"' in raw)
    damaged = lines[s01].replace(b'"scenario":"S01"', b'"scenario":"S01\xff"', 1)
    lines[s01] = damaged
    log.write_bytes(b"".join(lines))

    with pytest.warns(UserWarning, match=f"skipping unreadable episode line .*kept in {UNREADABLE_FILE}"):
        again = run_suite("null", "smpl", "S01,S02", 1, 1, out, progress=False, live=False, reports=False)
    assert (out / UNREADABLE_FILE).read_bytes() == damaged  # kept byte for byte, not lost
    assert again["scenarios"]["S01"] == first["scenarios"]["S01"]  # S01 ran again, same score
    assert again["run"]["episodes"] == 2

    with pytest.warns(UserWarning, match="unreadable episode line"):
        assert main(["report", str(out)]) == 0
    assert (out / "report.html").exists()


# ------------------------------------------------------------------------------------------ full disks


@needs_tmpfs
def test_full_disk_while_writing_the_report_leaves_no_half_report_and_fails(tmp_path):
    """A full disk used to leave report.html truncated while ``run`` exited 0 and printed its path."""
    mount = tmp_path / "small"
    # 200 KiB: episodes, scores and plots (~140 KiB) fit, the ~140 KiB report.html does not
    script = (f"{' '.join(WMBENCH)} run --brain null --scenarios S01 --no-live --no-progress --out {mount}/run; "
              f"echo rc=$?; ls -a {mount}/run; cat {mount}/run/scores.json | head -c 1")
    done = _in_private_tmpfs(mount, "size=200k", script)
    assert "rc=1" in done.stdout, done.stdout + done.stderr
    listing = done.stdout.split("rc=1", 1)[1].split()
    assert "scores.json" in listing and "episodes.jsonl" in listing
    assert "report.html" not in listing and not any(name.endswith(".tmp") for name in listing)
    assert done.stdout.rstrip().endswith("{")  # scores.json is whole JSON, written before the report
    assert "the report could not be written" in done.stderr and "scores.json is complete" in done.stderr
    assert "report: " not in done.stdout


@needs_tmpfs
def test_full_output_disk_is_one_line_and_exit_2(tmp_path):
    mount = tmp_path / "full"
    script = (f"dd if=/dev/zero of={mount}/filler bs=4k 2>/dev/null; "
              f"{' '.join(WMBENCH)} run --brain null --scenarios S01 --no-live --out {mount}/run")
    done = _in_private_tmpfs(mount, "size=64k", script)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"wmbench run: error: cannot write in the output directory {mount}/run: no space left on device"]


@needs_tmpfs
def test_read_only_output_disk_is_one_line_and_exit_2(tmp_path):
    mount = tmp_path / "ro"
    done = _in_private_tmpfs(mount, "ro,size=64k",
                             f"{' '.join(WMBENCH)} run --brain null --scenarios S01 --no-live --out {mount}/run")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot create the output directory" in lines[0]
    assert "read-only file system" in lines[0]


# ----------------------------------------------------------------------------------------- bad inputs


def test_existing_file_as_out_is_one_line_and_exit_2(tmp_path, capsys):
    target = tmp_path / "a-file"
    target.write_text("not a directory")
    assert main(["run", "--brain", "null", "--scenarios", "S01", "--no-live", "--out", str(target)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"wmbench run: error: --out {target} is an existing file; expected a directory "
                   f"(new or from an earlier run)"]
    assert target.read_text() == "not a directory"


def test_serve_port_out_of_range_is_a_usage_error_not_a_traceback():
    done = subprocess.run([*WMBENCH, "serve", "--port", "99999"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "wmbench serve: error: argument --port: expected a port from 0 to 65535, got 99999")


def test_list_into_a_closed_pipe_is_quiet():
    """``wmbench list | head`` used to end in a BrokenPipeError traceback."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before anything is written
    try:
        done = subprocess.run([*WMBENCH, "list"], stdout=write_end, stderr=subprocess.PIPE, text=True,
                              timeout=300)
    finally:
        os.close(write_end)
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.parametrize("args", [["--seeds", str(10**12)], ["--seed-list", "0-99999999"]])
def test_huge_seed_requests_are_one_line_and_exit_2(args, tmp_path, capsys):
    assert main(["run", "--brain", "null", "--scenarios", "S01", "--out", str(tmp_path / "r"), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "100,000" in err[0]


def test_scores_json_from_the_report_test_is_plain_json(tmp_path):
    """The atomic writer leaves exactly the file: no temporary siblings after a normal run."""
    out = tmp_path / "run"
    run_suite("null", "smpl", "S01", 1, 1, out, progress=False, live=False, reports=True)
    assert json.loads((out / "scores.json").read_text())["run"]["episodes"] == 1
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
