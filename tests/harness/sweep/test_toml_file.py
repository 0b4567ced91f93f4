"""Sweep and run files: the grid they describe, one-line errors, and run.json turned back into a run file."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmbench.harness.sweep.toml_file import SweepFileError, load_run_config, read_sweep, run_config_from_run_json

GRID = """
name = "g"
scenarios = "C01"
instances = 2
bodies = ["smpl", "robot", "drone"]
observations = ["scene", "rays"]
[[brains]]
spec = "reference"
[[brains]]
spec = "random"
options = { seed = 3 }
label = "rnd"
"""


def test_grid_expands_brains_outermost_with_options_and_labels() -> None:
    spec = read_sweep("g.toml", text=GRID)
    cells = spec.cells()
    assert len(cells) == 2 * 3 * 2
    assert cells[0].name == "reference__smpl"
    assert cells[1].name == "reference__smpl__rays" and cells[1].env_kwargs == {"observation": "rays"}
    assert cells[-1].name == "rnd__drone__rays" and dict(cells[-1].brain.options) == {"seed": 3}
    assert spec.seed_arg() == 2


@pytest.mark.parametrize(("text", "message"), [
    ('brains = ["reference"]\nbodys = ["smpl"]', "unknown key 'bodys'; did you mean"),
    ('brains = ["reference"]\ninstances = 0', "'instances' must be a count"),
    ('brains = ["reference"]\ninstances = 1\nseeds = [0]', "both 'instances' and 'seeds'"),
    ('brains = ["reference"]\nseeds = [0, -1]', "'seeds' must be a list of integer seeds"),
    ('bodies = ["smpl"]', "no brain"),
    ('brains = [{options = {}}]', "brains[0] needs 'spec'"),
    ('brains = ["reference", "reference"]', "share the directory 'reference__smpl'"),
    ('brains = ["reference"\n', "not valid TOML"),
    ('brain = "reference"\nbrains = ["null"]', "both 'brain' and 'brains'"),
])
def test_mistakes_are_one_line_errors_naming_the_file(text: str, message: str) -> None:
    with pytest.raises(SweepFileError) as err:
        read_sweep("bad.toml", text=text)
    assert message in str(err.value)
    assert str(err.value).startswith("bad.toml: ") and "\n" not in str(err.value)


def test_run_json_becomes_a_run_file_that_reads_back(tmp_path: Path) -> None:
    run_json = {"brain": "openai/m", "body": "robot", "motion_model": "keyframe", "scenarios": ["S01", "S12"],
                "seeds": [3, 7], "workers": 2, "brain_options": {"temperature": 0, "api_key": "<redacted>"},
                "env_kwargs": {"observation": "image"}, "version": "0.3.0"}
    (tmp_path / "run.json").write_text(__import__("json").dumps(run_json))
    text = run_config_from_run_json(run_json)
    assert "openai/m" in text
    for source in (tmp_path, tmp_path / "run.json"):
        spec = load_run_config(source)
        (cell,) = spec.cells()
        assert (cell.brain.spec, cell.body, cell.observation, cell.motion_model) == (
            "openai/m", "robot", "image", "keyframe")
        assert dict(cell.brain.options) == {"temperature": 0, "api_key": "<redacted>"}
        assert spec.scenarios == "S01,S12" and spec.seeds == (3, 7) and spec.workers == 2


def test_an_unpaced_run_replays_unpaced_and_a_sweep_file_can_say_so(tmp_path: Path) -> None:
    """`wmbench run --unpaced` records ``pace="scene"`` in run.json; its run file carries ``unpaced = true`` (before,
    `run --config RUN_DIR` replayed an unpaced run paced), and a sweep file's ``unpaced`` reaches every cell's env."""
    run_json = {"brain": "reference", "body": "drone", "scenarios": ["S17"], "seeds": [0],
                "env_kwargs": {"pace": "scene"}}
    text = run_config_from_run_json(run_json)
    assert "unpaced = true" in text
    (cell,) = read_sweep(tmp_path / "run.toml", text=text).cells()
    assert cell.env_kwargs == {"pace": "scene"} and cell.name == "reference__drone__unpaced"
    paced = run_config_from_run_json({**run_json, "env_kwargs": {}})
    assert "unpaced" not in paced and read_sweep(tmp_path / "p.toml", text=paced).cells()[0].env_kwargs == {}
    with pytest.raises(SweepFileError, match="'unpaced' must be true or false, got 'yes'"):
        read_sweep(tmp_path / "bad.toml", text='brain = "reference"\nunpaced = "yes"\n')


def test_a_missing_file_is_named_without_calling_a_run_file_a_sweep_file(tmp_path):
    # `wmbench run --config` reads the same format: "cannot read the sweep file" misnamed a run file
    with pytest.raises(SweepFileError, match=r": cannot read it \(No such file or directory\)$"):
        read_sweep(tmp_path / "run.toml")
