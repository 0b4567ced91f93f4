"""An output path no file can be made in is one line and exit 2, found before the work, for every command that
writes one (round 11's battery: ``fork --json``, ``frontier --out``, ``leaderboard --out``, ``live --out``,
``sweep --out``, ``validity --docs``, ``train-motion --out`` and ``--save-windows`` were raw
``FileNotFoundError`` tracebacks, found only when the work was done)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from wmbench.harness.cli.main import main

pytestmark = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc: no file can be made in it")

#: a directory that exists (so ``mkdir(exist_ok=True)`` passes) and in which no file can be created
NOWHERE = "/proc/wmbench-nowhere"
_NO_MOTION_EXTRA = importlib.util.find_spec("diffusers") is None or importlib.util.find_spec("torch") is None


@pytest.mark.parametrize("command", [
    ["frontier", "--brain", "null", "--scenarios", "S01", "--think-times", "0", "--out", NOWHERE],
    ["live", "S01", "--brain", "null", "--duration", "1", "--out", NOWHERE],
    ["export", "--dataset", NOWHERE],
    pytest.param(["train-motion", "--steps", "1", "--out", NOWHERE],
                 marks=pytest.mark.skipif(_NO_MOTION_EXTRA, reason="the motion extra is not installed")),
    pytest.param(["train-motion", "--steps", "1", "--save-windows", NOWHERE + ".npz"],
                 marks=pytest.mark.skipif(_NO_MOTION_EXTRA, reason="the motion extra is not installed")),
], ids=lambda command: " ".join(command[:1] + [a for a in command if a.startswith("--")][-1:]))
def test_an_output_that_cannot_be_written_is_one_line_before_the_work(command, capsys):
    assert main(command) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"wmbench {command[0]}: error: cannot "), captured.err
    assert NOWHERE in err[0] and "No such file or directory" in err[0] and "[Errno" not in err[0]
    assert "trained" not in captured.out and "wrote" not in captured.out and "brains x seeds" not in captured.out


def test_validity_docs_from_a_brain_subset_is_one_line_and_keeps_the_panels_result(tmp_path, capsys):
    # the page compares the reference with other brains: a --brains subset was a KeyError traceback after the run
    out, page = tmp_path / "panel", tmp_path / "validity.md"
    assert main(["validity", "--brains", "null", "--seeds", "1", "--no-c10", "--workers", "1", "--out", str(out),
                 "--docs", str(page)]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]  # after the panel's progress lines
    assert err.startswith(f"wmbench validity: error: --docs {page}: the page needs a brain this panel did not run "
                          "(no panel brain 'reference'"), err
    assert (out / "validity.json").is_file() and not page.exists()


def test_validity_docs_that_cannot_be_written_is_one_line_before_the_panel(tmp_path, capsys):
    out = tmp_path / "panel"
    assert main(["validity", "--brains", "null", "--seeds", "1", "--no-c10", "--out", str(out),
                 "--docs", NOWHERE + ".md"]) == 2
    assert capsys.readouterr().err.strip() == (f"wmbench validity: error: cannot write --docs {NOWHERE}.md: No such "
                                               f"file or directory ({NOWHERE}.md)")
    assert not (out / "validity.json").exists()


def test_leaderboard_out_that_cannot_be_written_is_one_line_before_the_board(null_run, capsys):
    assert main(["leaderboard", str(null_run), "--out", NOWHERE]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == (f"wmbench leaderboard: error: cannot create the output directory {NOWHERE}: "
                                    f"No such file or directory ({NOWHERE})")
    assert captured.out == ""  # the board was not printed


def test_fork_json_that_cannot_be_written_is_one_line_before_the_fork(null_run, capsys):
    assert main(["fork", str(null_run), "S01", "--at", "0", "--json", NOWHERE + ".json"]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == (f"wmbench fork: error: cannot write --json {NOWHERE}.json: No such file or "
                                    f"directory ({NOWHERE}.json)")
    assert captured.out == ""  # the fork was not played


def test_a_sweep_out_that_cannot_be_written_is_one_line_before_any_cell(tmp_path, capsys):
    sweep = tmp_path / "sweep.toml"
    sweep.write_text('brains = ["null"]\nscenarios = "S01"\ninstances = 1\nlive = false\n')
    assert main(["sweep", str(sweep), "--out", NOWHERE, "--no-progress"]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines()[-1] == (f"wmbench sweep: error: cannot create the output directory "
                                                     f"{NOWHERE}: No such file or directory ({NOWHERE})")
    assert "ran " not in captured.out


@pytest.mark.parametrize("command", [
    ["live", "S01", "--brain", "null", "--fps", "7", "--out", "{out}"],
    ["live", "S01", "--brain", "null", "--duration", "-1", "--out", "{out}"],
    ["frontier", "--brain", "null", "--scenarios", "S99", "--think-times", "0", "--out", "{out}"],
    ["leaderboard", "{empty}", "--out", "{out}"],
], ids=["live --fps", "live --duration", "frontier --scenarios", "leaderboard no run"])
def test_a_command_refused_after_its_out_was_tried_leaves_no_empty_folder(tmp_path, capsys, command):
    # trying --out first made the folder; a refusal found later (inside the work) left it behind, empty
    (tmp_path / "empty").mkdir()
    out = tmp_path / "new" / "out"
    assert main([a.format(out=out, empty=tmp_path / "empty") for a in command]) == 2
    assert capsys.readouterr().err.startswith(f"wmbench {command[0]}: error: ")
    assert not out.exists()
