"""Issue 24 item 19: one "did you mean" rule for brains, scenarios, bodies, motion models and commands."""

from __future__ import annotations

import subprocess
import sys

import pytest

from wmbench.body.registry import resolve_body_class
from wmbench.brain.registry import get_brain
from wmbench.core.errors import UnknownNameError
from wmbench.core.suggest import did_you_mean, nearest
from wmbench.harness.cli.main import main


def test_nearest_finds_typos_and_case_and_nothing_for_strangers():
    assert nearest("referense", ["reference", "random", "null"]) == "reference"
    assert nearest("SMPL", ["smpl", "robot"]) == "smpl"
    assert nearest("xyzzy", ["smpl", "robot", "drone"]) is None
    assert nearest("smpl", ["smpl", "robot"]) is None  # an exact name needs no suggestion
    assert did_you_mean("robt", ["robot"]) == "did you mean 'robot'? " and did_you_mean("zz", ["robot"]) == ""


def test_unknown_name_error_carries_the_suggestion_in_its_one_line():
    err = UnknownNameError("body", "smp", ["smpl", "robot", "drone"])
    assert str(err) == "unknown body 'smp'; did you mean 'smpl'? expected one of: drone, robot, smpl"
    assert err.suggestion == "smpl"


@pytest.mark.parametrize(("spec", "meant"), [("gpt4", "openai/gpt4"), ("openai:gpt-4o", "openai/gpt-4o"),
                                             ("referense", "reference"), ("opneai/m", "openai/m"),
                                             ("hf:./model", "hf/./model"), ("Random", "random")])
def test_brain_specs_suggest_the_form_the_user_meant(spec, meant):
    with pytest.raises(UnknownNameError, match=f"did you mean '{meant}'\\?") as err:
        get_brain(spec)
    assert err.value.suggestion == meant


def test_a_body_typo_is_suggested():
    with pytest.raises(UnknownNameError, match="did you mean 'drone'"):
        resolve_body_class("dron")


@pytest.mark.parametrize(("argv", "hint"), [
    (["run", "--brain", "referense", "--scenarios", "S01", "--no-live"], "did you mean 'reference'?"),
    (["show", "S12x"], "did you mean 'S12'?"),
    (["run", "--brain", "reference", "--scenarios", "C3x", "--no-live"], "did you mean 'C03'?"),
    (["run", "--brain", "reference", "--body", "robt", "--scenarios", "S01", "--no-live"], "did you mean 'robot'?"),
    (["run", "--brain", "reference", "--motion-model", "difusion", "--scenarios", "S01", "--no-live"],
     "did you mean 'diffusion'?"),
])
def test_the_command_line_prints_the_suggestion_and_exits_2(argv, hint, tmp_path, capsys):
    if argv[0] == "run":
        argv = [*argv, "--out", str(tmp_path / "run")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert hint in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "run" / "episodes.jsonl").exists()


def test_a_mistyped_command_is_suggested_by_the_real_script():
    done = subprocess.run([sys.executable, "-m", "wmbench.harness.cli.main", "rnu"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 2 and done.stderr.strip().splitlines()[-1] == "wmbench: did you mean 'run'?"
