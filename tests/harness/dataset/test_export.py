"""Episode datasets: written per body from real runs, read back with numpy alone, checked against the traces."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from wmbench.harness.cli.main import main
from wmbench.harness.dataset.export import DatasetError, export_episodes, panel_intrinsics
from wmbench.harness.dataset.reader import check_dataset, iter_episodes, load_episode
from wmbench.harness.suite import run_suite


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ds") / "sweep"
    for body in ("smpl", "robot", "drone"):  # a sweep folder: one run per body
        run_suite("reference", body, "S01,S06", 1, 1, root / f"reference__{body}", progress=False, measurers={},
                  live=False, reports=False)
    return root


def test_three_bodies_round_trip(sweep_dir: Path, tmp_path: Path) -> None:
    summary = export_episodes(sweep_dir, tmp_path / "data")
    assert summary.episodes == {"drone": 2, "robot": 2, "smpl": 2} and summary.skipped == 0
    assert check_dataset(tmp_path / "data") == 6
    manifest = json.loads((tmp_path / "data" / "robot" / "manifest.json").read_text())
    assert {e["scenario"] for e in manifest["episodes"]} == {"S01", "S06"}
    assert all(e["motion_model"] == "procedural" and e["instance"] for e in manifest["episodes"])
    _body, _entry, episode = next(iter_episodes(tmp_path / "data"))
    root, ext = episode.arrays["root"], episode.arrays["camera_extrinsics"]
    assert root.shape[1] == 4 and ext.shape == (len(root), 4, 4, 4)
    assert np.allclose(ext[:, :, 3, :3], 0) and np.allclose(ext[:, :, :3, 3][:, 0, :2], root[:, 1:3])
    k = episode.arrays["camera_intrinsics"]
    assert k[0, 0] == pytest.approx(64.0) and np.array_equal(k, panel_intrinsics(128))  # 90° over 128 px
    assert episode.meta["captions"] and all(c["reply"] for c in episode.meta["captions"])


def test_a_changed_file_and_an_existing_dataset_are_refused(sweep_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "data"
    export_episodes(sweep_dir / "reference__smpl", out)
    with pytest.raises(DatasetError, match="already holds a dataset"):
        export_episodes(sweep_dir / "reference__smpl", out)
    stem = json.loads((out / "smpl" / "manifest.json").read_text())["episodes"][0]["stem"]
    path = out / "smpl" / "episodes" / f"{stem}.json"
    meta = json.loads(path.read_text())
    meta["captions"][0]["reply"] = "edited"
    path.write_text(json.dumps(meta))
    with pytest.raises(DatasetError, match="SHA-256 differs"):
        load_episode(out, "smpl", stem)


def test_cli_exports_and_checks(sweep_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export-episodes", str(sweep_dir), str(tmp_path / "d")]) == 0
    assert "checked 6 episode(s)" in capsys.readouterr().out
    assert main(["export-episodes", str(tmp_path / "nothing"), str(tmp_path / "e")]) == 2
