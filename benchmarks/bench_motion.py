"""Motion generators compared: quality metrics and streaming frame rate (procedural, keyframe, diffusion).

What is measured, per generator (the selected ``--motion-model`` is added when it is a plugin):

- the quality metrics of :mod:`wmbench.body.motion.quality` — intent fidelity (realised travel sector and
  speed class vs the intent), foot skating (planted-foot speed, m/s), jerk (m/s^3) and the FID-like Fréchet
  distance of pose features to the DeepMimic walk cycle (trained on by the diffusion model) and run cycle
  (held out from it);
- **streaming frames/s**: ``next_frame`` at 30 fps with the intent switching every second through walk, run,
  sprint, back-step and stand (as the character's stream sees it in live mode), median over repeats of wall
  time, one process. Target for the diffusion generator: >= 60 frames/s (twice real time at 30 FPS, so live
  mode holds 30 FPS with the physics and the brain beside it).

Run: ``.venv/bin/python -m benchmarks.bench_motion [--quick]``.
"""

from __future__ import annotations

import time

from benchmarks.common import BenchRow, Target, median_of, run_script

GROUP = "motion"
GENERATORS: tuple[str, ...] = ("procedural", "keyframe", "diffusion")
#: Streaming target (frames/s) of every generator.
TARGET_FPS = 60.0
_SWITCH_TEXTS = ("a person walks forward", "a person runs to the left", "a person sprints forward in terror",
                 "a person steps back defensively, arms raised", "a person stands still")


def streaming_fps(name: str, seconds: float, repeats: int) -> tuple[float, list[float]]:
    """Median frames/s of ``next_frame`` (30 fps, intent switching every second) over ``repeats``."""
    from wmbench.body.intent.reader import parse_motion
    from wmbench.body.motion.registry import get_generator
    from wmbench.core.speed import SPEED_CLASS_SPEEDS

    intents = [parse_motion(t) for t in _SWITCH_TEXTS]
    n = int(seconds * 30)
    rates = []
    generator = get_generator(name, 30)
    for r in range(repeats):
        generator.reset(r)
        start = time.perf_counter()
        for i in range(n):
            if i % 30 == 0:
                intent = intents[(i // 30) % len(intents)]
                generator.set_intent(intent)
            generator.next_frame(SPEED_CLASS_SPEEDS[intent.speed_class.value] if intent.moving else 0.0)
        rates.append(n / (time.perf_counter() - start))
    return median_of(rates), rates


def measure(quick: bool, generators: tuple[str, ...] | None = None, stream_seconds: float | None = None,
            repeats: int | None = None) -> list[BenchRow]:
    from wmbench.body.motion.quality import measure_generator, mocap_reference
    from wmbench.body.motion.registry import get_generator, selected_generator_name

    names = list(generators or GENERATORS)
    if generators is None and selected_generator_name() not in names:
        names.append(selected_generator_name())
    reference = mocap_reference()
    rows: list[BenchRow] = []
    for name in names:
        try:
            q = measure_generator(get_generator(name, 30), reference)
            fps, rates = streaming_fps(name, stream_seconds or (4.0 if quick else 10.0),
                                       repeats or (3 if quick else 5))
        except Exception as exc:  # one generator failing must not hide the others
            rows.append(BenchRow(GROUP, f"{name}: quality", None, "", error=f"{type(exc).__name__}: {exc}"))
            continue
        prescribed = name in ("procedural", "keyframe")
        rows += [
            BenchRow(GROUP, f"{name}: intent fidelity", q.intent_fidelity, "frac", None,
                     f"direction {q.direction_accuracy:.2f}, speed class {q.speed_accuracy:.2f}"
                     + ("; root path prescribed by the generator" if prescribed else "; model's own root motion")),
            BenchRow(GROUP, f"{name}: foot skating", q.foot_skating, "m/s", None, "planted foot joints"),
            BenchRow(GROUP, f"{name}: jerk", q.jerk, "m/s^3", None, "all joints"),
            BenchRow(GROUP, f"{name}: distance to mocap walk", q.distance_walk, "", None,
                     "FID-like Fréchet distance, 8 PCA dims" + (" (in diffusion's training data)"
                                                                  if name == "diffusion" else "")),
            BenchRow(GROUP, f"{name}: distance to mocap run", q.distance_run, "", None,
                     "FID-like, jog intent vs the DeepMimic run cycle (held out from diffusion's training)"),
            BenchRow(GROUP, f"{name}: streaming frames/s", fps, "frames/s", Target(">=", TARGET_FPS),
                     f"wall clock, median of {len(rates)} (min {min(rates):.0f}, max {max(rates):.0f}); "
                     "intent switching every 1 s"),
        ]
    return rows


if __name__ == "__main__":
    raise SystemExit(run_script(measure, __doc__.splitlines()[0]))
