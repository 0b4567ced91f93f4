"""Rendering: cost per frame of every camera on this CPU, and live FPS / late frames with and without --record.

Rows (medians over repeats, TinyRenderer on the CPU, one process):

- **egocentric panorama** (the ``image`` observation: four 128x128 views, grid pass included), **chase view**
  (320x240), **top-down view** (240x240), **replay frame** (chase + top-down + trails + captions, what
  ``wmbench video`` writes per frame) — milliseconds per frame, on S07 (walls, a beast, a woman).
- **raw render, TinyRenderer vs EGL**: the chase view without the grid pass, through PyBullet's
  ``eglRenderer`` plugin where it loads (here: Mesa llvmpipe, itself a CPU rasteriser; the lent GPU
  machine has no PyBullet, so there is no GPU number).
- **report plots**: the six plots a report can hold (radar, category bars, two intensity panels, latency
  histogram, horizon and frontier curves, on fixed synthetic data), CPU ms for all six, drawn with the fixed
  margins (``plots.Margins``) and with ``tight_layout`` (what the plots did before round 14: one extra draw to
  measure the text), alternately in one process; their ratio.
- **live, 60 FPS, with vs without --record**: S42 with the reference brain, runs interleaved (without, with,
  without, with); sustained FPS and late-frame rate of each, and their same-run ratio. Recording renders
  from the trace after the run, so the two should be equal within noise.

Run: ``.venv/bin/python -m benchmarks.bench_render [--quick]``.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from benchmarks.common import BenchRow, lap, run_script, time_repeats
from wmbench.protocol.camera_layout import PanoramaSpec

GROUP = "render"
SCENARIO = "S07"
LIVE_SCENARIO = "S42"
PANEL = PanoramaSpec().panel


def _camera_rows(repeats: int) -> list[BenchRow]:
    from wmbench.brain.reference.brain import ReferenceBrain
    from wmbench.envs import cameras
    from wmbench.envs.wmbench_env import WMBenchEnv
    from wmbench.harness.run.episode import run_episode
    from wmbench.harness.video.replay import render_frames

    env = WMBenchEnv(SCENARIO)
    try:
        env.reset(seed=0)
        assert env.crowd is not None and env.world is not None  # reset builds both
        s = env.body.state()
        x, y, h = s.position[0], s.position[1], s.heading
        threat = (env.crowd.present()[0].x, env.crowd.present()[0].y)
        cid = env.world.client
        views = {
            f"egocentric panorama 4x{PANEL}x{PANEL}": lambda: cameras.panorama(cid, x, y, h),
            "chase view 320x240": lambda: cameras.chase(cid, x, y, h, threat),
            "top-down view 240x240": lambda: cameras.top_down(cid, (x, y)),
        }
        timings = {name: time_repeats(fn, repeats) for name, fn in views.items()}
    finally:
        env.close()
    rows = [BenchRow(GROUP, name, 1000 * t.median, "ms", None,
                     f"TinyRenderer (CPU), {SCENARIO}, median of {len(t)} (range {1000 * t.low:.1f}-"
                     f"{1000 * t.high:.1f} ms)") for name, t in timings.items()]
    episode = run_episode(SCENARIO, ReferenceBrain())
    if episode.trace is None:
        raise RuntimeError(f"expected a trace of {SCENARIO} from the reference brain, got the error {episode.error}")
    frames = render_frames(episode.trace)
    next(frames)  # world built, first frame
    t = time_repeats(lambda: next(frames), repeats, warmup=0)
    frames.close()
    rows.append(BenchRow(GROUP, "replay frame (chase + top-down + captions)", 1000 * t.median, "ms", None,
                         f"what `wmbench video` renders per frame, median of {len(t)}"))
    return rows


def _egl_rows(repeats: int) -> list[BenchRow]:
    """The chase view's raw render (no grid pass) on TinyRenderer and, where the plugin loads, on EGL."""
    import importlib.util

    import pybullet as p

    from wmbench.envs import cameras
    from wmbench.envs.wmbench_env import WMBenchEnv

    name = "chase 320x240 raw render, EGL"
    plugin = importlib.util.find_spec("eglRenderer")
    if plugin is None or plugin.origin is None:
        return [BenchRow.skip(GROUP, name, "ms", "PyBullet's eglRenderer plugin is not installed")]
    env = WMBenchEnv(SCENARIO)
    try:
        env.reset(seed=0)
        assert env.world is not None  # reset builds it
        cid = env.world.client
        s = env.body.state()
        x, y = s.position[0], s.position[1]
        view = p.computeViewMatrix((x - 4, y, 3.5), (x + 1, y, 0.6), (0, 0, 1), physicsClientId=cid)
        proj = p.computeProjectionMatrixFOV(cameras.CHASE_FOV_DEG, 320 / 240, 0.05, 80, physicsClientId=cid)

        def render(renderer: int) -> None:
            p.getCameraImage(320, 240, view, proj, renderer=renderer, flags=p.ER_NO_SEGMENTATION_MASK,
                             physicsClientId=cid, **cameras.LIGHT)

        tiny = time_repeats(lambda: render(p.ER_TINY_RENDERER), repeats)
        if p.loadPlugin(plugin.origin, "_eglRendererPlugin", physicsClientId=cid) < 0:
            return [BenchRow.skip(GROUP, name, "ms", "eglRenderer did not load (no EGL driver)")]
        egl = time_repeats(lambda: render(p.ER_BULLET_HARDWARE_OPENGL), repeats)
    finally:
        env.close()
    return [
        BenchRow(GROUP, "chase 320x240 raw render, TinyRenderer", 1000 * tiny.median, "ms", None,
                 f"no grid pass, median of {len(tiny)}"),
        BenchRow(GROUP, name, 1000 * egl.median, "ms", None,
                 f"median of {len(egl)}; here EGL is Mesa llvmpipe, a CPU rasteriser. The lent GPU machine has "
                 "no PyBullet (Python 3.12), so there is no GPU number"),
    ]


def _live_rows(repeats: int, duration: float) -> list[BenchRow]:
    from wmbench.harness.live.loop import run_live

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
        each_fps = ", ".join(f"{r.fps:.1f}" for r in results[label])
        each_late = ", ".join(f"{r.late_frames}/{len(r.frames)}" for r in results[label])
        rows.append(BenchRow(GROUP, f"live 60 FPS {label} --record: FPS", fps[label], "FPS", None,
                             f"{LIVE_SCENARIO}, reference, {duration:g} s, median of {repeats} interleaved runs "
                             f"({each_fps})"))
        rows.append(BenchRow(GROUP, f"live 60 FPS {label} --record: late frames", late[label], "%", None,
                             f"median of {repeats} (late/frames per run: {each_late})"))
    rows.append(BenchRow(GROUP, "live FPS ratio with/without --record", fps["with"] / fps["without"], "x", None,
                         "same-run ratio of medians; the video is rendered from the trace after the run"))
    return rows


def _plot_arguments() -> dict[str, tuple[object, ...]]:
    """Fixed inputs for every report plot (the shapes the report writer passes)."""
    cats = [f"C{i:02d}" for i in range(1, 11)]
    pillars = {"P1": cats[:3], "P2": cats[3:7], "P3": cats[7:]}
    categories = {c: {"score": 10.0 * i, "max": 100.0, "measured": i != 8, "ci95": [8.0 * i, 10.0 * i + 5]}
                  for i, c in enumerate(cats)}
    return {
        "pillar_radar": (categories, pillars, {p: {"rescaled": 200.0, "rescaled_max": 300.0} for p in pillars},
                         "WM Score 500/1000"),
        "category_bars": (categories, pillars),
        "intensity_over_time": ({c: {f"S{5 * k + j:02d}": [(0.5 * t, (t % 5) / 5) for t in range(20)]
                                     for j in range(1, 6)} for k, c in enumerate(cats[4:6])},),
        "latency_histogram": ({"S41": [15.0 + (i % 7) for i in range(40)],
                               "S42": [16.0 + (i % 3) for i in range(40)]},),
        "horizon_curve": ({0.5: 0.9, 1.0: 0.8, 2.0: 0.6}, {0.5: 0.85, 1.0: 0.7, 2.0: 0.5}),
        "frontier_curves": ([{"think_time_s": t, "token_budget": None,
                              "categories": {c: 50.0 + 10 * t for c in cats[:5]}} for t in (0.0, 0.5, 1.0)],
                            "reference"),
    }


def _plot_rows(repeats: int) -> list[BenchRow]:
    from wmbench.harness.report import plots

    arguments = _plot_arguments()
    fixed_margins = plots.Margins.apply

    def tight_layout(_margins: object, fig: object) -> None:
        fig.tight_layout()  # type: ignore[attr-defined]

    def draw_all() -> None:
        for name, args in arguments.items():
            getattr(plots, name)(*args)

    samples: dict[str, list[float]] = {"fixed margins": [], "tight_layout": []}
    plots.horizon_curve({0.5: 0.9}, {0.5: 0.8})  # matplotlib's imports and font cache (the cheapest plot)
    try:
        for _ in range(repeats):
            for label, apply in (("fixed margins", fixed_margins), ("tight_layout", tight_layout)):
                plots.Margins.apply = apply  # type: ignore[method-assign, assignment]
                samples[label].append(lap(draw_all)[0].cpu_s)
    finally:
        plots.Margins.apply = fixed_margins  # type: ignore[method-assign]
    ms = {label: 1000 * statistics.median(values) for label, values in samples.items()}
    rows = [BenchRow(GROUP, f"report plots (6), {label}", ms[label], "ms CPU", None,
                     f"median of {repeats}, alternately" + (" (before round 14)" if label == "tight_layout" else ""))
            for label in samples]
    rows.append(BenchRow(GROUP, "report plots: tight_layout / fixed margins", ms["tight_layout"] / ms["fixed margins"],
                         "x", None, "same-run ratio of the medians above"))
    return rows


def measure(quick: bool, repeats: int | None = None, live_runs: int | None = None,
            live_duration: float | None = None) -> list[BenchRow]:
    repeats = repeats or (3 if quick else 15)
    rows = _camera_rows(repeats)
    rows += _plot_rows(repeats)
    rows += _egl_rows(repeats)
    rows += _live_rows(live_runs or (1 if quick else 3), live_duration or (2.0 if quick else 8.0))
    return rows


if __name__ == "__main__":
    raise SystemExit(run_script(measure, __doc__.splitlines()[0]))
