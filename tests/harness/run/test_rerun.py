"""A rerun into a run folder reads the earlier selection from its run.json; a run.json that is not a run's is
refused in one line (round 11's battery: a list was an ``AttributeError`` traceback, a string of scenarios a
``ValueError`` traceback from the selection parser)."""

from __future__ import annotations

import json

import pytest

from wmbench.harness.cli.main import main
from wmbench.harness.run.rerun import previous_selection
from wmbench.harness.run.results import LOCK_FILE, JsonFileError

RUN = ["run", "--brain", "null", "--scenarios", "S01", "--no-live", "--no-progress", "--workers", "1"]


def test_the_earlier_selection_is_read_from_run_json(tmp_path):
    assert previous_selection(tmp_path) is None
    (tmp_path / "run.json").write_text(json.dumps({"scenarios": ["S01", "S12"], "seeds": [0, 7]}))
    assert previous_selection(tmp_path) == (("S01", "S12"), (0, 7))


@pytest.mark.parametrize("content, got", [("[1]", "got a list"),
                                          ('{"scenarios": "x", "seeds": [0]}', "got other values"),
                                          ('{"scenarios": ["S01"], "seeds": ["0"]}', "got other values")])
def test_a_run_json_that_is_not_a_runs_is_one_line(tmp_path, capsys, content, got):
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_text(content)
    with pytest.raises(JsonFileError, match=got):
        previous_selection(out)
    assert main([*RUN, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"wmbench run: error: {out / 'run.json'}: expected a run's run.json (an object whose 'scenarios' "
                   f"is a list of ids and 'seeds' a list of integers), {got}"]
    assert {p.name for p in out.iterdir()} - {LOCK_FILE} == {"run.json"}  # nothing was run into it
