"""Perception gap and `wmbench video` on real run directories (the vision brain, scene vs image)."""

from __future__ import annotations

import importlib.util
import json

import pytest

from wmbench.brain.reference.vision import VisionBrain
from wmbench.harness.cli.main import main
from wmbench.harness.report.perception_gap import GapError, perception_gap
from wmbench.harness.suite import run_suite
from wmbench.harness.video.replay import ReplayError, pose_samples

HAVE_VIDEO = all(importlib.util.find_spec(m) is not None for m in ("imageio", "imageio_ffmpeg", "PIL"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("gap")
    for mode in ("scene", "image"):
        run_suite("vision", scenarios="S07,S11", out=base / mode, progress=False, live=False,
                  env_kwargs=None if mode == "scene" else {"observation": mode})
    return base


def test_gap_is_scene_minus_image_per_category_and_lands_in_the_report(runs, capsys):
    gap = perception_gap(runs / "scene", runs / "image")
    assert (gap.reference_mode, gap.pixel_mode) == ("scene", "image")
    assert [c.category for c in gap.categories] == ["C02", "C03"]
    scores = {m: json.loads((runs / m / "scores.json").read_text())["categories"] for m in ("scene", "image")}
    for c in gap.categories:
        assert c.gap == pytest.approx(scores["scene"][c.category]["score"] - scores["image"][c.category]["score"],
                                      abs=1e-3)
    assert main(["gap", str(runs / "scene"), str(runs / "image")]) == 0
    assert "perception gap of vision" in capsys.readouterr().out
    assert "## Perception gap" in (runs / "image" / "report.md").read_text()


def test_gap_refuses_runs_that_do_not_compare(runs):
    with pytest.raises(GapError, match="both runs used observation 'scene'"):
        perception_gap(runs / "scene", runs / "scene")
    with pytest.raises(GapError, match="not a finished run directory"):
        perception_gap(runs / "scene", runs / "nothing")


def test_trace_without_pose_log_says_why_it_cannot_be_replayed():
    with pytest.raises(ReplayError, match="has no pose log"):
        pose_samples({"scenario_id": "S01", "meta": {}})


@pytest.mark.skipif(not HAVE_VIDEO, reason="needs the 'video' extra")
def test_video_command_renders_a_finished_episode(runs, capsys):
    import imageio

    out = runs / "s11.mp4"
    assert main(["video", str(runs / "image"), "s11", "--out", str(out)]) == 0
    assert f"video: {out}" in capsys.readouterr().out
    reader = imageio.get_reader(str(out))
    frames = list(iter(reader))
    reader.close()
    trace = json.loads(next(line for line in (runs / "image" / "episodes.jsonl").read_text().splitlines()
                            if '"S11"' in line))["trace"]
    assert len(frames) == len(trace["meta"]["poses"]["frames"])
    assert main(["video", str(runs / "image"), "S01"]) == 2  # not in that run: a usage error, not a crash


def test_replay_builds_the_walls_the_run_logged_not_the_records():
    """A drawn scenario instance may move its walls: the replay must show what the run had."""
    from wmbench.harness.run.episode import run_episode
    from wmbench.harness.video.replay import _Stage
    from wmbench.scenarios import get_scenario

    trace = run_episode("S02", VisionBrain()).trace
    logged = trace["meta"]["poses"]["walls"]
    assert [w[0] for w in logged["0"]] == [w.name for w in get_scenario("S02").phases[0].walls]
    moved = {"0": [[name, cx + 5.0, cy, sx, sy, h] for name, cx, cy, sx, sy, h in logged["0"]]}
    stage = _Stage(get_scenario("S02"), moved)
    try:
        stage.pose(pose_samples(trace)[1][0])
        assert [round(b.xmin - w.xmin, 6) for b, w in zip(stage.world.walls, _record_boxes())] == [5.0] * len(
            logged["0"])
    finally:
        stage.close()


def _record_boxes():
    from wmbench.envs.world import World
    from wmbench.scenarios import get_scenario

    world = World(1 / 30, 1 / 240)
    try:
        world.set_walls(get_scenario("S02").phases[0].walls)
        return world.walls
    finally:
        world.close()
