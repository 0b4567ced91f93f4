"""Issue 24 item 16: scripts/setup.sh checks the interpreter before pip and remakes a wrong-Python .venv.
Stop 34: a first set-up checks the free disk space before pip (CI had failed on pip's "No space left on device").

Each test runs the real script in a scratch copy of the repository's layout (scripts/setup.sh beside a tiny
pyproject.toml) with pip pointed at no index, so nothing is downloaded: what is checked is what the script does
before and around pip, in a real shell with real interpreters.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _old_python() -> str | None:
    """A real Python older than 3.10 on this machine (pyenv's or on PATH), or None."""
    for name in ("python3.9", "python3.8", "python3.7"):
        found = shutil.which(name)
        if found and subprocess.run([found, "-c", "pass"], capture_output=True).returncode == 0:
            return found
    candidates = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.[6-9]*/bin/python3")))
    return candidates[-1] if candidates else None


def _scratch(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    (tmp_path / "pyproject.toml").write_text("this is not a buildable project: pip must fail here\n")
    return tmp_path


def _run(repo: Path, python: str, *profile: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path or os.environ["PATH"], "PYTHON": python, "PIP_NO_INDEX": "1",
           "PIP_FIND_LINKS": str(repo / "no-wheels"), "PIP_CONSTRAINT": ""}
    env.pop("WMBENCH_SETUP_SKIP_SPACE_CHECK", None)
    return subprocess.run(["bash", "scripts/setup.sh", *profile], cwd=repo, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def small_disk(tmp_path):
    """A real 64 MB filesystem (tmpfs) mounted under tmp_path; skipped where mounting is not allowed."""
    mount_point = tmp_path / "small"
    mount_point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mount_point)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], capture_output=True)


def _venv_version(repo: Path) -> str:
    return subprocess.run([str(repo / ".venv" / "bin" / "python"), "-c",
                           "import sys; print('%d.%d' % sys.version_info[:2])"],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_an_old_interpreter_fails_at_once_with_one_line_and_no_venv(tmp_path):
    old = _old_python()
    if old is None:
        pytest.skip("no Python older than 3.10 on this machine")
    repo = _scratch(tmp_path)
    done = _run(repo, old)
    assert done.returncode == 2
    assert "expected Python 3.10 or newer" in done.stderr and "PYTHON=python3.11" in done.stderr
    assert "setting up .venv" not in done.stderr and not (repo / ".venv").exists()


def test_a_missing_interpreter_is_named(tmp_path):
    done = _run(_scratch(tmp_path), "python-nonexistent-3.77")
    assert done.returncode == 2 and "PYTHON='python-nonexistent-3.77', which is not on PATH" in done.stderr


def test_a_venv_of_the_wrong_python_is_made_again_and_first_setup_is_announced(tmp_path):
    old = _old_python()
    if old is None:
        pytest.skip("no Python older than 3.10 on this machine")
    repo = _scratch(tmp_path)
    subprocess.run([old, "-m", "venv", "--without-pip", str(repo / ".venv")], check=True, timeout=120)
    done = _run(repo, sys.executable)
    want = f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert "making .venv again" in done.stderr, done.stderr
    assert _venv_version(repo) == want
    # the announcement comes before pip (which fails here: no index, not a project)
    announce = done.stderr.index("setting up .venv (first run only)")
    assert done.returncode != 0
    assert done.stderr.index("making .venv again") < announce


def test_a_first_setup_on_a_disk_too_small_fails_at_once_with_one_line_and_no_venv(small_disk):
    repo = _scratch(small_disk)
    done = _run(repo, sys.executable, "test")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "expected at least 4608 MB free for the 'test' set-up of .venv, found" in lines[0]
    free_mb = int(lines[0].split("found ")[1].split(" MB")[0])
    assert 0 < free_mb <= 64
    assert str(small_disk) in lines[0] and not (repo / ".venv").exists()


def test_a_df_that_cannot_tell_skips_the_space_check_without_a_bash_error(tmp_path):
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    (fake_bin / "df").write_text("#!/bin/sh\necho 'df: cannot read table of mounted file systems' >&2\nexit 1\n")
    (fake_bin / "df").chmod(0o755)
    (tmp_path / "repo").mkdir()
    repo = _scratch(tmp_path / "repo")
    # a .venv of the right Python without pip (made in a blink; the script keeps it): what is checked here is the
    # space check, not the venv, which the wrong-Python test above makes for real
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(repo / ".venv")], check=True, timeout=120)
    done = _run(repo, sys.executable, "test", path=f"{fake_bin}{os.pathsep}{os.environ['PATH']}")
    assert "expected at least" not in done.stderr and "setup.sh: line" not in done.stderr, done.stderr  # no bash error
    assert "setting up .venv (first run only)" in done.stderr, done.stderr  # it went on to pip (which fails here)
