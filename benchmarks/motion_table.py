"""The generator table of issue 26: procedural, keyframe, diffusion before (a weights folder) and after.

Per generator: intent fidelity, foot skating (m/s) of ``clip`` and of the streamed frames on the body's root
(``quality.loop_metrics``: loop skating and loop jerk, mean over :data:`LOOP_SEEDS`; one seed's streams
differ from the next by 0.01-0.02 m/s), jerk (m/s^3) of ``clip``, the FID-like distance to
the DeepMimic walk and run cycles (``quality.measure_generator``), the distance per held-out kind (turn,
dance: ``quality.held_out_distances``) and single-stream ``next_frame`` frames/s on this CPU (median of 3).

``--breakdown``: what the "dist run" column is made of, per generator — the gait numbers
(``quality.gait_statistics``) of its "a person jogs forward" clip (the one the column scores) beside the real
run's, and the distance split into its mean and covariance terms and per feature group
(``quality.distance_breakdown``); then the loop skating and loop jerk per fidelity text, mean of seeds 0-2,
at 30 and 60 fps (procedural and diffusion rows).

Run: ``.venv/bin/python -m benchmarks.motion_table [--before WEIGHTS_DIR] [--breakdown] [--candidates N]``
(``--before``: the previous model's folder, e.g. one checked out from git history; ``--candidates``: chunks
the diffusion live stream samples per chunk, default the generator's 8; 1 for one sample per chunk).
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


#: Seeds of the loop columns and of the per-text loop table (``--breakdown``).
LOOP_SEEDS = (0, 1, 2)


def _loop_per_text(rows: list, fps: int) -> None:
    """Loop skating and loop jerk per fidelity text (``quality.stream_clip`` after the first second, as
    ``quality.loop_metrics``), mean over :data:`LOOP_SEEDS`, for the procedural and diffusion rows at ``fps``."""
    import numpy as np

    from wmbench.body.motion.diffusion.generator import DiffusionGenerator
    from wmbench.body.motion.quality import CLIP_SECONDS, FIDELITY_TEXTS, foot_skating, jerk, stream_clip
    from wmbench.body.motion.registry import get_generator

    names = [name for name, _ in rows if name != "keyframe"]
    gens = {name: (get_generator("procedural", fps) if name == "procedural"
                   else DiffusionGenerator(fps, model=generator.model))
            for name, generator in rows if name in names}
    skip, n = fps, int((1.0 + CLIP_SECONDS) * fps)
    table = {name: np.array([[[foot_skating(c, fps), jerk(c, fps)] for c in
                              (stream_clip(gen, text, n, seed)[skip:] for seed in LOOP_SEEDS)]
                             for text in FIDELITY_TEXTS]) for name, gen in gens.items()}
    print(f"\nLoop skating m/s (loop jerk m/s^3) per text at {fps} fps, mean of seeds "
          f"{', '.join(map(str, LOOP_SEEDS))}:\n")
    print("| text | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for i, text in enumerate(FIDELITY_TEXTS):
        print(f"| {text} | " + " | ".join(f"{table[m][i, :, 0].mean():.2f} ({table[m][i, :, 1].mean():.0f})"
                                          for m in names) + " |")
    print("| **mean** | " + " | ".join(f"**{table[m][..., 0].mean():.3f}** ({table[m][..., 1].mean():.0f})"
                                      for m in names) + " |")


def main(argv: list[str] | None = None) -> int:
    import numpy as np

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
    parser.add_argument("--candidates", type=int, default=None,
                        help="chunks the diffusion live stream samples per chunk (default: the generator's, 8; "
                             "1: one sample per chunk, no selection)")
    args = parser.parse_args(argv)
    if args.candidates is not None:   # the live default, so every diffusion stream here (also the frames/s
        # column's, built by name from the registry) samples that many
        from wmbench.body.motion.diffusion import generator as diffusion_generator

        diffusion_generator.LIVE_CANDIDATES = args.candidates
    reference = mocap_reference(30)
    rows = [("procedural", get_generator("procedural", 30)), ("keyframe", get_generator("keyframe", 30))]
    if args.before is not None:
        rows.append(("diffusion-before", DiffusionGenerator(30, model=MotionModel(args.before))))
    rows.append(("diffusion", DiffusionGenerator(30)))
    print("| generator | fidelity | skating m/s | loop skating m/s (3 seeds) | jerk m/s^3 | "
          "loop jerk m/s^3 (3 seeds) | dist walk | dist run | dist turn (held out) | dist dance (held out) | "
          "frames/s CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, generator in rows:
        q = measure_generator(generator, reference)
        held = held_out_distances(generator)
        loop_skating, loop_jerk = np.mean([loop_metrics(generator, seed) for seed in LOOP_SEEDS], axis=0)
        if name == "diffusion-before":
            os.environ[WEIGHTS_ENV] = str(args.before)
        fps, _ = streaming_fps("diffusion" if name.startswith("diffusion") else name, 10.0, 3)
        os.environ.pop(WEIGHTS_ENV, None)
        print(f"| {name} | {q.intent_fidelity:.2f} | {q.foot_skating:.2f} | {loop_skating:.2f} | {q.jerk:.0f} | "
              f"{loop_jerk:.0f} | {q.distance_walk:.1f} | {q.distance_run:.1f} | {held['turn']:.1f} | "
              f"{held['dance']:.1f} | {fps:.0f} |")
    if args.breakdown:
        _breakdown(rows)
        for fps in (30, 60):
            _loop_per_text(rows, fps)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
