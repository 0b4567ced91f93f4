"""Packaging (issue 15): the sdist holds every tracked file, and the ``all`` extra means every extra."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_all_extra_is_every_extra():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    (spec,) = extras["all"]
    inside = set(spec.removeprefix("wmbench[").removesuffix("]").split(","))
    assert inside == set(extras) - {"all", "dev"}, "the 'all' extra must list every extra except dev"
    assert project["license"] == "Apache-2.0" and (ROOT / "LICENSE").is_file()
    assert (ROOT / "wmbench" / "py.typed").is_file()


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_sdist_holds_every_tracked_file(tmp_path):
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    wanted = {line for line in tracked.splitlines() if line and (ROOT / line).is_file()}
    code = ("import sys; from setuptools import build_meta; "
            "print(build_meta.build_sdist(sys.argv[1]))")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    name = done.stdout.strip().splitlines()[-1]
    with tarfile.open(tmp_path / name) as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if m.isfile() and "/" in m.name}
    missing = sorted(wanted - members)
    assert not missing, f"tracked files missing from the sdist: {missing[:20]}"


def test_main_job_install_has_no_torch_or_transformers():
    """scripts/run_suite.sh sets up the 'run' profile: core dependencies + the 'report' extra only."""
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    setup = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    assert 'run) EXTRAS="report";' in setup and "bash scripts/setup.sh " in (
        ROOT / "scripts" / "run_suite.sh").read_text(encoding="utf-8")
    needed = [*project["dependencies"], *project["optional-dependencies"]["report"]]
    heavy = [req for req in needed if req.split("[")[0].split("=")[0].split(">")[0].strip().lower()
             in {"torch", "transformers", "onnxruntime", "onnxruntime-gpu", "diffusers"}]
    assert not heavy, f"the main job would install {heavy}"
