"""Issue 24 item 18: pybullet's own URDF warnings do not reach the terminal (a real process loading the
DeepMimic humanoid from pybullet_data, as `wmbench train-motion` does)."""

from __future__ import annotations

import subprocess
import sys

from wmbench.body.native_output import quiet_native_output


def test_loading_the_deepmimic_rig_prints_no_pybullet_warnings():
    code = ("from wmbench.body.motion.diffusion.deepmimic import load_clip\n"
            "clip = load_clip('walk', 30.0, cycles=1)\n"
            "print('frames', type(clip).__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "b3Warning" not in done.stdout + done.stderr and "urdfdom" not in done.stdout + done.stderr
    assert done.stdout.startswith("frames ")  # our own output still arrives


def test_python_output_around_the_block_is_kept(capfd):
    print("before", flush=True)
    with quiet_native_output():
        import os
        os.write(1, b"native noise\n")
        os.write(2, b"native noise\n")
    print("after", flush=True)
    captured = capfd.readouterr()
    assert captured.out == "before\nafter\n" and "native noise" not in captured.err
