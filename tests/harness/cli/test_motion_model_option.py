"""``--motion-model`` on run / live / bench: the chosen generator animates the character, run.json and the
leaderboard entry name it, C10's generator comparison uses it, and a bad name is a one-line usage error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wmbench.body.motion import registry as generators
from wmbench.harness.cli.main import main
from wmbench.scoring.c10.diagnostics import generator_pair


@pytest.fixture(autouse=True)
def restore_selection(monkeypatch):
    monkeypatch.setenv(generators.MOTION_MODEL_ENV, "procedural")  # whatever a test selects is undone after it


def _pelvis_heights(out) -> list[float]:
    line = json.loads((out / "episodes.jsonl").read_text().splitlines()[0])
    return [round(d["body_after"]["position"][2], 4) for d in line["trace"]["decisions"]]


@pytest.fixture(scope="module")
def diffusion_run(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """One ``wmbench run --motion-model diffusion`` (S37, reference) in a fresh Python process, which also
    reports whether torch or diffusers were imported; the two tests below read it (one diffusion run, not two)."""
    out = tmp_path_factory.mktemp("diffusion") / "run"
    code = ("import sys\n"
            "from wmbench.harness.cli.main import main\n"
            f"code = main(['run', '--scenarios', 'S37', '--brain', 'reference', '--out', {str(out)!r},\n"
            "             '--workers', '1', '--no-progress', '--no-live', '--motion-model', 'diffusion'])\n"
            "heavy = [m for m in ('torch', 'diffusers') if m in sys.modules]\n"
            "assert code == 0 and not heavy, (code, heavy)\n")
    return out, subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_run_with_the_diffusion_model_end_to_end(diffusion_run, tmp_path, capsys):
    diffusion, done = diffusion_run
    assert done.returncode == 0, done.stderr[-2000:]
    runs = {"procedural": tmp_path / "procedural", "diffusion": diffusion}
    assert main(["run", "--scenarios", "S37", "--brain", "reference", "--out", str(runs["procedural"]),
                 "--workers", "1", "--no-progress", "--no-live", "--motion-model", "procedural"]) == 0
    capsys.readouterr()
    config = json.loads((runs["diffusion"] / "run.json").read_text())
    assert config["motion_model"] == "diffusion"
    entry = json.loads((runs["diffusion"] / "leaderboard_entry.json").read_text())
    assert entry["motion_model"].startswith("diffusion: wmbench diffusion text-to-motion model")
    procedural_entry = json.loads((runs["procedural"] / "leaderboard_entry.json").read_text())
    assert "procedural" in procedural_entry["motion_model"]
    # the character's pelvis height comes from the generator's frames: the two runs really animated differently
    assert _pelvis_heights(runs["diffusion"]) != _pelvis_heights(runs["procedural"])
    report = (runs["diffusion"] / "report.md").read_text()
    assert "## Motion model" in report and "| diffusion |" in report and "| procedural |" in report
    html = (runs["diffusion"] / "report.html").read_text()
    assert "<h2>Motion model</h2>" in html and "<td>diffusion</td>" in html and "<td>procedural</td>" in html
    scores = json.loads((runs["diffusion"] / "scores.json").read_text())
    assert scores["run"]["episodes"] >= 1 and scores["run"]["error_episodes"] == 0


def test_resuming_a_run_with_another_motion_model_is_refused(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "--scenarios", "S01", "--brain", "null", "--out", str(out), "--workers", "1",
                 "--no-progress", "--no-live"]) == 0
    assert main(["run", "--scenarios", "S01", "--brain", "null", "--out", str(out), "--workers", "1",
                 "--no-progress", "--no-live", "--motion-model", "keyframe"]) != 0
    assert "motion_model" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["run", "--scenarios", "S01"], ["live", "S41"], ["bench", "--quick"]])
def test_unknown_motion_model_is_a_usage_error(command, capsys):
    assert main([*command, "--motion-model", "nope"]) == 2
    err = capsys.readouterr().err
    assert "--motion-model 'nope'" in err and "expected one of: diffusion, humanml3d, keyframe, procedural" in err
    assert "Traceback" not in err


def test_report_section_for_default_runs_and_unanimated_bodies():
    from wmbench.harness.report.motion import motion_model_section

    default = "\n".join(motion_model_section({}, "smpl"))
    assert "procedural" in default and "wmbench bench --only motion" in default
    assert "not animated by a motion generator" in "\n".join(motion_model_section({"motion_model": "diffusion"},
                                                                                  "drone"))


def test_c10_compares_the_selected_generator_with_an_independent_one():
    assert generator_pair() == ("procedural", "keyframe")
    generators.select_generator("diffusion")
    assert generator_pair() == ("diffusion", "keyframe")
    generators.select_generator("keyframe")
    assert generator_pair() == ("keyframe", "procedural")


def test_a_diffusion_run_imports_neither_torch_nor_diffusers(diffusion_run):
    _, done = diffusion_run  # the run's own process checks sys.modules after main() returns
    assert done.returncode == 0, done.stderr[-2000:]
