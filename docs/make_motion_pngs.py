"""Render the diffusion generator's character for the docs: every motion kind it was trained on (walk, sprint,
crouch, back-step, sidestep, crawl, jump, kick, punch, spinning kick, roll, cartwheel, backflip, get-up) and the
two held-out kinds (spin, dance: what it does for a caption it never trained on).

Each PNG is a strip of four snapshots 0.2 s apart, taken after the motion has run for 1 s, by the env's own
``rgb_array`` renderer (``wmbench.envs.render.capture``: TinyRenderer, headless) aimed at the character
from its left side. Run: ``.venv/bin/python docs/make_motion_pngs.py [--generator diffusion] [--out docs]``.
"""

from __future__ import annotations

import argparse
import math
import zlib
from pathlib import Path

import numpy as np

MOTIONS = {
    "walk": "a person walks forward calmly",
    "sprint": "a person sprints forward in terror",
    "crouch": "a person crouches low and creeps forward cautiously",
    "backstep": "a person steps back defensively, arms raised",
    "crawl": "a person crawls on all fours",
    "jump": "a person jumps forward",
    "kick": "a person kicks forward",
    "punch": "a person punches forward",
    "spinkick": "a person does a spinning kick",
    "sidestep": "a person sidesteps to the left",
    "roll": "a person does a forward roll",
    "cartwheel": "a person does a cartwheel",
    "backflip": "a person does a backflip",
    "getup": "a person gets up from lying face down",
    "spin (held out)": "a person spins around in place",
    "dance (held out)": "a person dances",
}
#: Camera distance (m) from the character's side.
SIDE_DISTANCE = 5.0
PREDICT = "PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)"


def write_png(path: Path, rgb: np.ndarray) -> None:
    """A minimal PNG writer (8-bit RGB), so the docs need no imaging library."""
    height, width, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(height))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (len(data).to_bytes(4, "big") + tag + data
                + zlib.crc32(tag + data).to_bytes(4, "big"))

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
                     + chunk(b"IEND", b""))


def strip(generator: str, text: str, snapshots: int = 4) -> np.ndarray:
    from wmbench.body.character.smpl import SmplCharacter
    from wmbench.envs import cameras
    from wmbench.envs.wmbench_env import WMBenchEnv

    env = WMBenchEnv("S04", body=SmplCharacter(generator=generator), render_mode="rgb_array", decision_dt=0.2)
    env.reset(seed=0)
    reply = f"{PREDICT}\nMOTION: {text}"
    for _ in range(5):
        env.step(reply)
    images = []
    for _ in range(snapshots):
        env.step(reply)
        env.body.sync_visuals()
        state = env.body.state()
        side = state.heading - math.pi / 2          # look at the character's left side
        x, y = state.position[0], state.position[1]
        eye = (x - SIDE_DISTANCE * math.cos(side), y - SIDE_DISTANCE * math.sin(side), 0.9)
        images.append(cameras._render(env.world.client, 320, 400, eye, (x, y, 0.8), (0, 0, 1), 22.0))
    env.close()
    return np.concatenate(images, axis=1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--generator", default="diffusion")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent)
    args = parser.parse_args()
    for name, text in MOTIONS.items():
        path = args.out / f"motion_{args.generator}_{name.split()[0]}.png"
        write_png(path, strip(args.generator, text))
        print(path)


if __name__ == "__main__":
    main()
