"""Regenerate the example pictures of docs/vision.md: ``.venv/bin/python docs/images/make_examples.py``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from wmbench.brain.reference.brain import ReferenceBrain
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.run.episode import run_episode
from wmbench.harness.video.replay import TOP_VIEW, pose_samples, render_frames

HERE = Path(__file__).resolve().parent


def main() -> None:
    env = WMBenchEnv("S07", render_mode="rgb_array", observation="image")
    try:
        obs, _ = env.reset(seed=0)
        strip = obs["image"]
        Image.fromarray(strip).resize((strip.shape[1] * 2, strip.shape[0] * 2), Image.NEAREST).save(
            HERE / "egocentric_S07.png")
        Image.fromarray(env.render()).save(HERE / "chase_S07.png")
    finally:
        env.close()
    env = WMBenchEnv("S02", observation="image", image_map=True)  # a corner: walls front and left
    try:
        obs, _ = env.reset(seed=0)
        Image.fromarray(obs["map"]).resize((192, 192), Image.NEAREST).save(HERE / "map_S02.png")
        strip = obs["image"]
        Image.fromarray(strip).resize((strip.shape[1] * 2, strip.shape[0] * 2), Image.NEAREST).save(
            HERE / "egocentric_S02.png")
    finally:
        env.close()
    trace = run_episode("S15", ReferenceBrain()).trace
    _hz, samples = pose_samples(trace)
    wanted = len(samples) * 2 // 3
    for i, frame in enumerate(render_frames(trace)):
        if i == wanted:
            Image.fromarray(frame).save(HERE / "replay_S15.png")
            top = frame[:TOP_VIEW.height, -TOP_VIEW.width:]
            Image.fromarray(np.ascontiguousarray(top)).save(HERE / "topdown_S15.png")
            break


if __name__ == "__main__":
    main()
