"""A run folder damaged by hand or by another tool is one line and exit 2 for every command that reads it (round
11's battery: a ``run.json`` that is not JSON was a ``JSONDecodeError`` traceback in ``fork``, ``blame`` and
``export --episodes``; an episode line whose trace lacks a field was a ``KeyError`` traceback in ``fork``,
``blame``, ``forecast`` and ``export --episodes``). Real run folders, real files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from wmbench.harness.cli.main import main


def _copy(run: Path, to: Path) -> Path:
    shutil.copytree(run, to)
    return to


def _one_line(capsys, command: list[str]) -> str:
    assert main(command) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"wmbench {command[0]}: error: "), err
    return err[0]


@pytest.mark.parametrize("command", [["fork", "{run}", "S01", "--at", "0"], ["blame", "{run}"],
                                     ["export", "--episodes", "{run}", "{out}"]])
def test_a_run_json_that_is_not_json_is_one_line_naming_it(null_run, tmp_path, capsys, command):
    run = _copy(null_run, tmp_path / "run")
    (run / "run.json").write_text("{not json")
    line = _one_line(capsys, [a.format(run=run, out=tmp_path / "dataset") for a in command])
    assert f"{run / 'run.json'}: expected a JSON file, got unreadable data" in line


def _damage(run: Path, field: str) -> Path:
    """``run``'s episode line with its trace's ``field`` removed (a decision's ``index``, or ``meta``)."""
    episodes = run / "episodes.jsonl"
    line = json.loads(episodes.read_text().splitlines()[0])
    trace = line["trace"]
    del (trace["decisions"][0] if field == "index" else trace)[field]
    episodes.write_text(json.dumps(line) + "\n")
    return episodes


@pytest.mark.parametrize("command", [["fork", "{run}", "S01", "--at", "0"], ["blame", "{run}"],
                                     ["forecast", "{run}"]])
def test_a_trace_missing_a_field_is_one_line_naming_the_episode(null_run, tmp_path, capsys, command):
    run = _copy(null_run, tmp_path / "run")
    episodes = _damage(run, "index")
    printed = _one_line(capsys, [a.format(run=run) for a in command])
    assert printed.endswith(f"S01 seed 0 in {episodes}: not a wmbench trace: a record has no field 'index'")


def test_an_export_of_traces_without_meta_says_nothing_was_exportable(null_run, tmp_path, capsys):
    run = _copy(null_run, tmp_path / "run")
    _damage(run, "meta")  # was KeyError: 'meta'
    printed = _one_line(capsys, ["export", "--episodes", str(run), str(tmp_path / "dataset")])
    assert printed.endswith(f"{run}: no episode to export; 1 line(s) skipped (errors, no pose log); expected "
                            "episodes of a finished `wmbench run`")
