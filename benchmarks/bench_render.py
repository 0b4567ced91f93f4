"""Rendering: cost per frame of every camera on this CPU, and live FPS / late frames with and without --record.

Rows (medians over repeats, TinyRenderer on the CPU, one process):

- **egocentric panorama** (the ``image`` observation: four 96x96 views, grid pass included), **chase view**
  (320x240), **top-down view** (240x240), **replay frame** (chase + top-down + trails + captions, what
  ``wmbench video`` writes per frame) — milliseconds per frame, on S07 (walls, a beast, a woman).
- **EGL / GPU**: tried through PyBullet's ``eglRenderer`` plugin; skipped with the reason when it does not
  load (no EGL driver here; the lent GPU machine has no PyBullet).
- **live, 60 FPS, with vs without --record**: S42 with the reference brain, runs interleaved (without, with,
  without, with); sustained FPS and late-frame rate of each, and their same-run ratio. Recording renders
  from the trace after the run, so the two should be equal within noise.

Run: ``.venv/bin/python -m benchmarks.bench_render [--quick]``.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from benchmarks.common import BenchRow, run_script, time_repeats

GROUP = "render"
SCENARIO = "S07"
LIVE_SCENARIO = "S42"


def _camera_rows(repeats: int) -> list[BenchRow]:
    from wmbench.brain.reference import ReferenceBrain
    from wmbench.envs import cameras
    from wmbench.envs.wmbench_env import WMBenchEnv
    from wmbench.harness.episode import run_episode
    from wmbench.harness.replay import render_frames

    env = WMBenchEnv(SCENARIO)
    try:
        env.reset(seed=0)
        s = env.body.state()
        x, y, h = s.position[0], s.position[1], s.heading
        threat = (env.crowd.present()[0].x, env.crowd.present()[0].y)
        cid = env.world.client
        views = {
            "egocentric panorama 4x96x96": lambda: cameras.panorama(cid, x, y, h),
            "chase view 320x240": lambda: cameras.chase(cid, x, y, h, threat),
            "top-down view 240x240": lambda: cameras.top_down(cid, (x, y)),
        }
        timings = {name: time_repeats(fn, repeats) for name, fn in views.items()}
    finally:
        env.close()
    rows = [BenchRow(GROUP, name, 1000 * t.median, "ms", None,
                     f"TinyRenderer (CPU), {SCENARIO}, median of {len(t)} (range {1000 * t.low:.1f}-"
                     f"{1000 * t.high:.1f} ms)") for name, t in timings.items()]
    trace = run_episode(SCENARIO, ReferenceBrain()).trace
    frames = render_frames(trace)
    next(frames)  # world built, first frame
    t = time_repeats(lambda: next(frames), repeats, warmup=0)
    frames.close()
    rows.append(BenchRow(GROUP, "replay frame (chase + top-down + captions)", 1000 * t.median, "ms", None,
                         f"what `wmbench video` renders per frame, median of {len(t)}"))
    return rows


def _egl_row() -> BenchRow:
    import pkgutil

    import pybullet as p

    name = "egocentric panorama on EGL (GPU)"
    loader = pkgutil.get_loader("eglRenderer")
    if loader is None:
        return BenchRow.skip(GROUP, name, "ms", "PyBullet's eglRenderer plugin is not installed")
    cid = p.connect(p.DIRECT)
    try:
        plugin = p.loadPlugin(loader.get_filename(), "_eglRendererPlugin", physicsClientId=cid)
    finally:
        p.disconnect(cid)
    if plugin < 0:
        return BenchRow.skip(GROUP, name, "ms", "eglRenderer did not load (no EGL driver on this machine); the "
                             "lent GPU machine has no PyBullet, so no GPU number")
    return BenchRow.skip(GROUP, name, "ms", "eglRenderer loaded but is not measured: TinyRenderer is what "
                         "the observation and the video use")


def _live_rows(repeats: int, duration: float) -> list[BenchRow]:
    from wmbench.harness.live import run_live

    results: dict[str, list] = {"without": [], "with": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeats):
            for label in ("without", "with"):
                record = Path(tmp) / f"{i}.mp4" if label == "with" else None
                result = run_live(LIVE_SCENARIO, "reference", fps=60, duration=duration, record=record)
                if result.error:
                    return [BenchRow(GROUP, "live with --record", None, "FPS", error=result.error)]
                results[label].append(result)
    rows = []
    fps = {k: statistics.median(r.fps for r in v) for k, v in results.items()}
    late = {k: statistics.median(100 * r.late_frame_rate for r in v) for k, v in results.items()}
    for label in ("without", "with"):
        rows.append(BenchRow(GROUP, f"live 60 FPS {label} --record: FPS", fps[label], "FPS", None,
                             f"{LIVE_SCENARIO}, reference, {duration:g} s, median of {repeats} interleaved runs"))
        rows.append(BenchRow(GROUP, f"live 60 FPS {label} --record: late frames", late[label], "%", None,
                             f"median of {repeats}"))
    rows.append(BenchRow(GROUP, "live FPS ratio with/without --record", fps["with"] / fps["without"], "x", None,
                         "same-run ratio of medians; the video is rendered from the trace after the run"))
    return rows


def measure(quick: bool) -> list[BenchRow]:
    repeats = 3 if quick else 15
    rows = _camera_rows(repeats)
    rows.append(_egl_row())
    rows += _live_rows(1 if quick else 3, 2.0 if quick else 8.0)
    return rows


if __name__ == "__main__":
    raise SystemExit(run_script(measure, __doc__.splitlines()[0]))
