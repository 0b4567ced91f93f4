"""Smoke tests of the benchmarks: each runs its quick variant on a tiny workload and yields rows with numbers.

No test asserts a speed target (timings on a shared machine are noise); they assert that every row is
either a finite number with its unit, or a skip / error that says why.
"""

from __future__ import annotations

import importlib.util
import itertools
import math
from dataclasses import replace

import pytest

from tests.extras import needs_extra
from wmbench.harness.cli import bench
from wmbench.harness.cli.bench import BENCH_MODULES, BenchRow, Target, format_markdown, format_rows, run_benchmarks


def assert_rows_measured(rows: list[BenchRow], group: str, min_rows: int = 1) -> None:
    """Every row belongs to ``group`` and has a finite value (or a skip reason); none errored."""
    assert len(rows) >= min_rows
    for row in rows:
        assert row.group == group, row
        assert row.error is None, row.error
        if row.skipped is None:
            assert row.value is not None and math.isfinite(row.value), row
            assert row.unit, row
            assert row.status in ("ok", "MISS", "info"), row
        else:
            assert row.value is None and row.skipped, row


def load(name: str):
    return bench.load_bench_module(name)


# ------------------------------------------------------------------------------------------- rows & targets


@pytest.mark.parametrize(("op", "bound", "value", "met"), [
    (">=", 3000, 3000, True), (">=", 3000, 2999.9, False), ("<=", 30, 12.5, True), ("<", 0.5, 0.5, False),
])
def test_target_decides_met_and_status(op, bound, value, met):
    row = BenchRow("g", "m", value, "u", Target(op, bound))
    assert row.met is met
    assert row.status == ("ok" if met else "MISS")


def test_missed_row_says_by_how_much():
    row = BenchRow("bodies", "smpl", 2400.0, "frames/s", Target(">=", 3000))
    assert row.status == "MISS"
    assert Target(">=", 3000).shortfall(2400.0) == pytest.approx(0.2)
    assert "misses by 20%" in format_rows([row])


def test_skipped_and_error_rows_print_their_reason():
    rows = [BenchRow.skip("live", "fps", "FPS", "live runner not there"), BenchRow("x", "y", None, "", error="Boom")]
    assert [r.status for r in rows] == ["skipped", "error"]
    text = format_rows(rows)
    assert "skipped: live runner not there" in text and "error: Boom" in text
    markdown = format_markdown(rows)
    assert markdown.count("\n") == 3 and markdown.startswith("| group |")


def test_bad_target_op_is_rejected():
    with pytest.raises(ValueError, match="op must be one of"):
        Target("=>", 1.0)


def test_run_benchmarks_turns_a_crash_into_an_error_row(monkeypatch):
    def broken(name):
        raise RuntimeError(f"{name} exploded")

    monkeypatch.setattr(bench, "load_bench_module", broken)
    seen = []
    rows = run_benchmarks(True, only=["memory", "bench_live"], on_rows=seen.append)
    assert [(r.group, r.status) for r in rows] == [("live", "error"), ("memory", "error")]  # suite order
    assert "bench_memory exploded" in rows[1].error
    assert len(seen) == 2


def test_run_benchmarks_rejects_unknown_names():
    with pytest.raises(ValueError, match="unknown benchmark"):
        run_benchmarks(True, only=["bench_nothing"])


def test_every_benchmark_module_has_measure():
    for name in BENCH_MODULES:
        assert callable(load(name).measure), name


# ------------------------------------------------------------------------------------------- each benchmark


def test_bodies_quick_on_one_scenario():
    rows = load("bench_bodies").measure(True, bodies=("smpl", "no-such-body"), workload="S01", repeats=1)
    assert_rows_measured(rows, "bodies", min_rows=4)
    smpl = [r for r in rows if r.name.startswith("smpl")]
    assert [r.unit for r in smpl] == ["frames/s", "x", "ms CPU"] and all(r.value > 0 for r in smpl)
    assert "a new PyBullet client per env" in smpl[2].note
    missing = [r for r in rows if r.name.startswith("no-such-body")]
    assert all(r.status == "skipped" and "not available" in r.skipped for r in missing)


def test_suite_quick_on_two_scenarios():
    rows = load("bench_suite").measure(True, selection="S01,S02", with_c10=False, repeats=1)
    assert_rows_measured(rows, "suite", min_rows=2)
    assert rows[0].unit == "s wall" and rows[0].value > 0


def test_suite_measurer_runs_transfer_scenarios_as_bench_episodes():
    from wmbench.harness.run.measure import MeasureContext

    measurer = load("bench_suite").TransferAsBench()
    from wmbench.scenarios import select

    context = MeasureContext("reference", {}, "smpl", (0,), 1, None, False)
    scores = measurer(select("S46"), context)
    assert list(scores) == ["S46"] and measurer.episodes == 1 and measurer.errors == []


def test_memory_quick_on_a_few_episodes():
    rows = load("bench_memory").measure(True, episodes=4, s45_episodes=2, parent_seeds=3)
    assert_rows_measured(rows, "memory", min_rows=3)
    assert all(r.unit == "MB" for r in rows)


def test_memory_series_slope_and_growth():
    series = load("bench_memory").RssSeries("S01", (0, 10, 20), (100 * 2**20, 101 * 2**20, 102 * 2**20), 0)
    assert series.growth_mb == pytest.approx(2.0)
    assert series.slope_mb_per_1000() == pytest.approx(100.0)


@needs_extra("openai")
def test_brain_plumbing_quick_serve_rows():
    module = load("bench_brain_plumbing")
    rows = module.measure_serve(5, module.sample_scenes(("S01",)))
    assert_rows_measured(rows, "brain", min_rows=3)


@pytest.mark.skipif(any(importlib.util.find_spec(m) is None for m in ("torch", "transformers", "onnxruntime")),
                    reason="needs the hf and onnx extras")
def test_brain_plumbing_token_rows_on_the_tiny_model():
    module = load("bench_brain_plumbing")
    rows = module.measure_tokens(1, module.sample_scenes(("S01",))[0])
    assert_rows_measured(rows, "brain", min_rows=6)


def test_floor_quick_tiny_workload(monkeypatch):
    monkeypatch.delenv("WMBENCH_ANCHOR_PYTHON", raising=False)
    rows = load("bench_floor").measure(True, rounds=1, seconds=0.5, episodes=1)
    anchor = rows[0]
    assert anchor.status == "skipped" and "stand-in" in (anchor.skipped or "")
    assert_rows_measured(rows[1:], "floor", min_rows=10)
    names = [r.name for r in rows]
    assert any("robot raw floor" in n for n in names) and any("aero on / off" in n for n in names)


def test_live_quick_short_run():
    rows = load("bench_live").measure(True, rates=(60,), duration=1.0)
    assert_rows_measured(rows, "live", min_rows=4)
    if rows[0].skipped is None:
        assert rows[0].unit == "FPS" and rows[0].value > 0


# ------------------------------------------------------------------------------------------- the command


def test_cli_bench_prints_the_table_and_exits_by_errors(monkeypatch, capsys):
    from wmbench.harness.cli import main as cli

    def fake(quick, only=None, on_rows=None):
        assert quick is True and only == ["memory", "live"]
        rows = [BenchRow("memory", "RSS growth", 0.5, "MB", Target("<=", 10.0)),
                BenchRow.skip("live", "fps", "FPS", "not built")]
        on_rows(rows)
        return rows

    monkeypatch.setattr(bench, "run_benchmarks", fake)
    assert cli.main(["bench", "--quick", "--only", "memory,live", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "RSS growth" in out and "skipped: not built" in out and "| memory | RSS growth |" in out


def test_cli_bench_rejects_an_unknown_benchmark(capsys):
    from wmbench.harness.cli import main as cli

    assert cli.main(["bench", "--only", "nothing"]) == 2
    assert "unknown benchmark(s) nothing" in capsys.readouterr().err


def test_cli_bench_exits_nonzero_on_a_missed_target(monkeypatch, capsys):
    """Issue 15: ``bench`` used to exit 0 with missed targets; now 1, unless --allow-miss."""
    from wmbench.harness.cli import main as cli

    def missing(quick, only=None, on_rows=None):
        rows = [BenchRow("memory", "RSS growth", 25.0, "MB", Target("<=", 10.0))]
        on_rows(rows)
        return rows

    monkeypatch.setattr(bench, "run_benchmarks", missing)
    assert cli.main(["bench", "--quick"]) == 1
    assert "1 missed" in capsys.readouterr().out
    assert cli.main(["bench", "--quick", "--allow-miss"]) == 0


def test_the_robot_floor_runs_in_the_closed_loops_own_world():
    """The robot's raw floor steps the loop's S04 world (issue 23: same URDF, sub-steps, solver settings and
    world contents), far wall included; before round 4 it built a world of its own without the wall."""
    import pybullet as p

    bench = load("bench_floor")
    env = bench.robot_floor_env(2)
    try:
        world, cid = env.world, env.world.client
        assert len(world.wall_body_ids) == 1                      # S04's far boundary (seeds 2 and up)
        names = {p.getBodyInfo(p.getBodyUniqueId(i, physicsClientId=cid), physicsClientId=cid)[1]
                 for i in range(p.getNumBodies(physicsClientId=cid))}
        assert b"wmbench_servo_robot" in names
        assert p.getPhysicsEngineParameters(physicsClientId=cid)["fixedTimeStep"] == 1 / bench.PHYSICS_HZ
    finally:
        env.close()
    assert bench.raw_robot_fps(3) > 0


def test_the_replayed_robot_floor_does_the_loops_own_physics():
    """The replayed floor repeats the loop's PyBullet calls of an S04 episode (18 a frame: 8 root placements,
    8 steps, the motor command and the joint read) and ends in the loop's joint states; a replay that drops
    one motor command does not, and is refused (the check that makes the floor the loop's physics can fail)."""
    bench = load("bench_floor")
    workload = bench.record_robot_workload((2,))
    (calls,) = workload.calls
    assert workload.frames == (240,) and len(calls) == 18 * 240
    assert [name for name, _, _ in calls[:18]].count("stepSimulation") == bench.SUBSTEPS
    assert bench.replayed_robot_fps(workload) > 0
    commands = [i for i, (name, _, _) in enumerate(calls) if name == "setJointMotorControlArray"]
    moving = [i for a, i in itertools.pairwise(commands)
              if calls[a][2]["targetPositions"] != calls[i][2]["targetPositions"]][-1]
    # the previous frame's targets held one frame longer, late in the episode (servo tracking forgets an early
    # slip exactly: the joints settle back onto the same floats)
    dropped = calls[:moving] + calls[moving + 1:]
    with pytest.raises(RuntimeError, match="did not reproduce the loop's physics"):
        bench.replayed_robot_fps(replace(workload, calls=(dropped,)))
