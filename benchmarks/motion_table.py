"""The generator table of issue 26: procedural, keyframe, diffusion before (a weights folder) and after.

Per generator: intent fidelity, foot skating (m/s) of ``clip`` and of the streamed frames on the body's root
(``quality.loop_metrics``: loop skating and loop jerk), jerk (m/s^3) of ``clip``, the FID-like distance to
the DeepMimic walk and run cycles (``quality.measure_generator``), the distance per held-out kind (turn,
dance: ``quality.held_out_distances``) and single-stream ``next_frame`` frames/s on this CPU (median of 3).

``--breakdown``: what the "dist run" column is made of, per generator — the gait numbers
(``quality.gait_statistics``) of its "a person jogs forward" clip (the one the column scores) beside the real
run's, and the distance split into its mean and covariance terms and per feature group
(``quality.distance_breakdown``).

Run: ``.venv/bin/python -m benchmarks.motion_table [--before WEIGHTS_DIR] [--breakdown]`` (``--before``: the
previous model's folder, e.g. one checked out from git history).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def _breakdown(rows: list) -> None:
    from wmbench.body.intent.reader import parse_motion
    from wmbench.body.motion.diffusion.deepmimic import load_clip
    from wmbench.body.motion.quality import (
        _basis,
        distance_breakdown,
        gait_statistics,
        mocap_reference,
        pose_features,
    )

    reference = mocap_reference(30)
    basis, centre = _basis(reference)
    stats = {"real run (DeepMimic)": gait_statistics(load_clip("run", 30, cycles=5).joints, 30)}
    parts = {}
    for name, generator in rows:
        generator.reset(0)
        clip = generator.clip(parse_motion("a person jogs forward"), 4 * 30)
        stats[name] = gait_statistics(clip, 30)
        parts[name] = distance_breakdown(pose_features(clip, 30), reference["run"], basis, centre)
    fields = list(next(iter(stats.values())).to_dict())
    print("\nGait of the clip 'dist run' scores ('a person jogs forward', 4 s) against the real run:\n")
    print("| clip | " + " | ".join(fields) + " |")
    print("|---|" + "---|" * len(fields))
    for name, s in stats.items():
        print(f"| {name} | " + " | ".join(f"{v:.2f}" for v in s.to_dict().values()) + " |")
    groups = list(next(iter(parts.values())).per_group)
    print("\n'dist run' split: mean and covariance terms, and the distance per feature group alone:\n")
    print("| generator | total | mean term | covariance term | " + " | ".join(groups) + " |")
    print("|---|---|---|---|" + "---|" * len(groups))
    for name, b in parts.items():
        print(f"| {name} | {b.total:.1f} | {b.mean_term:.1f} | {b.covariance_term:.1f} | "
              + " | ".join(f"{b.per_group[g]:.2f}" for g in groups) + " |")


def main(argv: list[str] | None = None) -> int:
    from benchmarks.bench_motion import streaming_fps
    from wmbench.body.motion.diffusion.generator import WEIGHTS_ENV, DiffusionGenerator, MotionModel
    from wmbench.body.motion.quality import (
        held_out_distances,
        loop_metrics,
        measure_generator,
        mocap_reference,
    )
    from wmbench.body.motion.registry import get_generator

    parser = argparse.ArgumentParser(prog="motion_table")
    parser.add_argument("--before", type=Path, default=None, help="weights folder of the previous model")
    parser.add_argument("--breakdown", action="store_true", help="also break the run distance down")
    args = parser.parse_args(argv)
    reference = mocap_reference(30)
    rows = [("procedural", get_generator("procedural", 30)), ("keyframe", get_generator("keyframe", 30))]
    if args.before is not None:
        rows.append(("diffusion-before", DiffusionGenerator(30, model=MotionModel(args.before))))
    rows.append(("diffusion", DiffusionGenerator(30)))
    print("| generator | fidelity | skating m/s | loop skating m/s | jerk m/s^3 | loop jerk m/s^3 | dist walk | "
          "dist run | dist turn (held out) | dist dance (held out) | frames/s CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, generator in rows:
        q = measure_generator(generator, reference)
        held = held_out_distances(generator)
        loop_skating, loop_jerk = loop_metrics(generator)
        if name == "diffusion-before":
            os.environ[WEIGHTS_ENV] = str(args.before)
        fps, _ = streaming_fps("diffusion" if name.startswith("diffusion") else name, 10.0, 3)
        os.environ.pop(WEIGHTS_ENV, None)
        print(f"| {name} | {q.intent_fidelity:.2f} | {q.foot_skating:.2f} | {loop_skating:.2f} | {q.jerk:.0f} | "
              f"{loop_jerk:.0f} | {q.distance_walk:.1f} | {q.distance_run:.1f} | {held['turn']:.1f} | "
              f"{held['dance']:.1f} | {fps:.0f} |")
    if args.breakdown:
        _breakdown(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
