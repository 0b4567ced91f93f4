"""The generator table of issue 26: procedural, keyframe, diffusion before (a weights folder) and after.

Per generator: intent fidelity, foot skating (m/s) of ``clip`` and of the streamed frames on the body's root
(``quality.loop_foot_skating``), jerk (m/s^3), the FID-like distance to the DeepMimic
walk and run cycles (``quality.measure_generator``), the distance per held-out kind (turn, dance:
``quality.held_out_distances``) and single-stream ``next_frame`` frames/s on this CPU (median of 3).

Run: ``.venv/bin/python -m benchmarks.motion_table [--before WEIGHTS_DIR]`` (``--before``: the previous
model's folder, e.g. one checked out from git history).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    from benchmarks.bench_motion import streaming_fps
    from wmbench.body.motion.diffusion.generator import WEIGHTS_ENV, DiffusionGenerator, MotionModel
    from wmbench.body.motion.quality import (
        held_out_distances,
        loop_foot_skating,
        measure_generator,
        mocap_reference,
    )
    from wmbench.body.motion.registry import get_generator

    parser = argparse.ArgumentParser(prog="motion_table")
    parser.add_argument("--before", type=Path, default=None, help="weights folder of the previous model")
    args = parser.parse_args(argv)
    reference = mocap_reference(30)
    rows = [("procedural", get_generator("procedural", 30)), ("keyframe", get_generator("keyframe", 30))]
    if args.before is not None:
        rows.append(("diffusion-before", DiffusionGenerator(30, model=MotionModel(args.before))))
    rows.append(("diffusion", DiffusionGenerator(30)))
    print("| generator | fidelity | skating m/s | loop skating m/s | jerk m/s^3 | dist walk | dist run | "
          "dist turn (held out) | dist dance (held out) | frames/s CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    import os

    for name, generator in rows:
        q = measure_generator(generator, reference)
        held = held_out_distances(generator)
        loop = loop_foot_skating(generator)
        if name == "diffusion-before":
            os.environ[WEIGHTS_ENV] = str(args.before)
        fps, _ = streaming_fps("diffusion" if name.startswith("diffusion") else name, 10.0, 3)
        os.environ.pop(WEIGHTS_ENV, None)
        print(f"| {name} | {q.intent_fidelity:.2f} | {q.foot_skating:.2f} | {loop:.2f} | {q.jerk:.0f} | "
              f"{q.distance_walk:.1f} | "
              f"{q.distance_run:.1f} | {held['turn']:.1f} | {held['dance']:.1f} | {fps:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
