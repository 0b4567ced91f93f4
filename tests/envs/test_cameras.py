"""Cameras: the egocentric strip puts things in the right panel; chase frames the threat; no white frames."""

from __future__ import annotations

import numpy as np

from wmbench.brain.reference.vision import segment
from wmbench.envs import cameras
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.protocol.camera_layout import PanoramaSpec

PANEL = 48


def test_panorama_puts_the_front_wall_in_the_front_panel_only():
    env = WMBenchEnv("S01")  # a wall 3 m ahead, nothing else
    try:
        env.reset(seed=0)
        s = env.body.state()
        strip = cameras.panorama(env.world.client, s.position[0], s.position[1], s.heading,
                                 PanoramaSpec(PANEL))
    finally:
        env.close()
    wall = segment(strip)["wall"]
    per_panel = [wall[:, i * PANEL:(i + 1) * PANEL].sum() for i in range(4)]  # left, front, right, back
    assert per_panel[1] > 100 and per_panel[0] + per_panel[2] + per_panel[3] < per_panel[1] // 4
    ground = strip[-4:, :, :].reshape(-1, 3)
    assert (ground.std(axis=0) > 3).any()  # the grid shades the floor: not one flat colour


def test_chase_view_frames_a_beast_behind_the_protagonist():
    env = WMBenchEnv("S14", render_mode="rgb_array")  # S14: the beast starts 7 m behind
    try:
        env.reset(seed=0)
        frame = env.render()
        s = env.body.state()
        along_heading = cameras.chase(env.world.client, s.position[0], s.position[1], s.heading, None)
    finally:
        env.close()
    assert segment(frame)["beast"].sum() > 20           # framed with the threat ...
    assert segment(along_heading)["beast"].sum() == 0   # ... which the old heading-only view never showed


def test_a_body_far_from_the_start_still_stands_on_ground():
    """S21's sprint ends ~65 m out; the ground used to end at 60 m and the chase frame went white."""
    env = WMBenchEnv("S21", render_mode="rgb_array")
    try:
        env.reset(seed=0)
        env.body.reset_pose((75.0, 0.0, 0.0), 0.0)
        frame = env.render()
    finally:
        env.close()
    lower = frame[frame.shape[0] // 2:].astype(int)
    white = (lower.min(axis=2) > 245).mean()
    assert white < 0.05


def test_top_down_maps_world_points_to_pixels():
    env = WMBenchEnv("S11")
    try:
        env.reset(seed=0)
        beast = env.crowd.present()[0]
        top = cameras.top_down(env.world.client, (0.0, 0.0), cameras.ViewSpec(120, 120))
    finally:
        env.close()
    col, row = top.to_px(beast.x, beast.y)
    beast_px = np.argwhere(segment(top.image)["beast"])
    assert beast_px.size
    assert abs(beast_px[:, 1].mean() - col) < 4 and abs(beast_px[:, 0].mean() - row) < 4
