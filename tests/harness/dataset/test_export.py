"""Episode datasets: written per body from real runs, read back with numpy alone, checked against the traces."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from wmbench.harness.cli.main import main
from wmbench.harness.dataset.export import DatasetError, export_episodes, panel_intrinsics
from wmbench.harness.dataset.reader import check_dataset, iter_episodes, load_episode
from wmbench.harness.dataset.resimulate import ResimulationError
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


def test_motion_rate_articulation_per_body(sweep_dir: Path, tmp_path: Path) -> None:
    """Joints (character), servos (robot), rotors (drone) at the motion frame rate, re-simulated; a second
    re-simulation in the reader gives the same arrays exactly."""
    export_episodes(sweep_dir, tmp_path / "data")
    assert check_dataset(tmp_path / "data", resimulate=True) == 6
    seen: dict[str, str] = {}
    for body, entry, episode in iter_episodes(tmp_path / "data"):
        a, meta = episode.arrays, episode.meta
        frames = len(a["motion_t"])
        assert entry["resimulated"] and float(a["motion_hz"]) == meta["motion_hz"] == 30.0
        assert frames == 15 * len(meta["captions"])  # 15 motion frames per 0.5 s decision (none caught here)
        assert np.all(np.diff(a["motion_t"]) > 0) and a["motion_root"].shape == (frames, 5)
        kind = meta["articulation"]["kind"]
        seen[body] = kind
        if kind == "joints":
            assert a["joints"].shape == (frames, 22, 3)
            assert np.ptp(a["joints"][:, :, 2]) > 0.5  # head above feet: a real skeleton, not zeros
        elif kind == "servos":
            names = meta["articulation"]["names"]
            assert a["servo_angles"].shape == a["servo_command"].shape == (frames, len(names)) and names
            assert np.abs(a["servo_angles"]).max() > 0.01  # the joints moved
        else:
            assert a["rotor_rpm"].shape == (frames, 4) and a["attitude_xyzw"].shape == (frames, 4)
            assert np.all(a["rotor_rpm"] > 0)
            assert np.allclose(np.linalg.norm(a["attitude_xyzw"], axis=1), 1.0)
    assert seen == {"smpl": "joints", "robot": "servos", "drone": "rotors"}


def test_a_trace_that_re_simulation_does_not_reproduce_is_refused(sweep_dir: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(sweep_dir / "reference__smpl", run)
    lines = (run / "episodes.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["trace"]["decisions"][1]["body_after"]["position"][0] += 0.5  # the recorded world, edited
    (run / "episodes.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    with pytest.raises(ResimulationError, match=r"did not reproduce the trace \(first difference: decision 1\)"):
        export_episodes(run, tmp_path / "data")
    assert export_episodes(run, tmp_path / "plain", resimulate=False).episodes == {"smpl": 2}


def test_motion_arrays_are_tied_to_the_pose_log(sweep_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "data"
    export_episodes(sweep_dir / "reference__robot", out)
    manifest_path = out / "robot" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    entry = manifest["episodes"][0]
    npz_path = out / "robot" / "episodes" / f"{entry['stem']}.npz"
    with np.load(npz_path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["motion_root"][29, 0] += 0.25  # frame 30 (t = 1 s, a pose-log sample) moved: consistent files, wrong data
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    npz_path.write_bytes(buffer.getvalue())
    entry["npz_sha256"] = hashlib.sha256(buffer.getvalue()).hexdigest()
    manifest_path.write_text(json.dumps(manifest))
    with pytest.raises(DatasetError, match=r"motion root at t=1\.0 "):
        check_dataset(out)


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
    assert main(["export", "--episodes", str(sweep_dir), str(tmp_path / "d")]) == 0
    captured = capsys.readouterr()
    assert "checked 6 episode(s)" in captured.out and "deprecated" not in captured.err
    assert main(["export", "--episodes", str(tmp_path / "nothing"), str(tmp_path / "e")]) == 2
    assert main(["export", "--episodes", str(sweep_dir), str(tmp_path / "f"), "--out", "x"]) == 2
    assert main(["export", str(sweep_dir / "reference__smpl"), "--video"]) == 2
    assert main(["export", str(sweep_dir / "reference__smpl"), "--episodes", str(sweep_dir), "g"]) == 2
    capsys.readouterr()


def test_the_old_spelling_still_works_with_one_deprecation_line(sweep_dir: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export-episodes", str(sweep_dir / "reference__drone"), str(tmp_path / "d"),
                 "--pose-log-only"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("deprecated") == 1 and "wmbench export --episodes" in captured.err
    assert "checked 2 episode(s)" in captured.out
    entry = json.loads((tmp_path / "d" / "drone" / "manifest.json").read_text())["episodes"][0]
    assert entry["resimulated"] is False


def test_video_per_episode(sweep_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("imageio_ffmpeg")
    run = tmp_path / "run"
    shutil.copytree(sweep_dir / "reference__smpl", run)  # the character: its scenes are not slowed to a body's pace
    lines = (run / "episodes.jsonl").read_text().splitlines()
    shortest = min(lines, key=lambda line: json.loads(line)["summary"]["decisions"])
    (run / "episodes.jsonl").write_text(shortest + "\n")  # one short episode: rendering is the slow part
    from wmbench.harness.video.replay import render_episode

    export_episodes(run, tmp_path / "data", resimulate=False,
                    video=lambda trace, path: render_episode(trace, path, progress=False))
    entry = json.loads((tmp_path / "data" / "smpl" / "manifest.json").read_text())["episodes"][0]
    mp4 = tmp_path / "data" / "smpl" / "episodes" / f"{entry['stem']}.mp4"
    assert mp4.stat().st_size > 1000 and hashlib.sha256(mp4.read_bytes()).hexdigest() == entry["mp4_sha256"]
