"""Smoke test of benchmarks/bench_render.py on a tiny workload: every row has a number or says why not."""

from __future__ import annotations

import importlib.util

import pytest

from wmbench.harness.cli import bench

from .test_bench_smoke import assert_rows_measured


@pytest.mark.skipif(not all(importlib.util.find_spec(m) for m in ("imageio", "imageio_ffmpeg", "PIL")),
                    reason="the live --record rows need the 'video' extra")
def test_render_quick_rows_are_measured():
    rows = bench.load_bench_module("bench_render").measure(True, repeats=1, live_runs=1, live_duration=0.5)
    assert_rows_measured(rows, "render", min_rows=9)
    names = [r.name for r in rows]
    assert any(n.startswith("egocentric panorama 4x") for n in names)
    assert "live FPS ratio with/without --record" in names
