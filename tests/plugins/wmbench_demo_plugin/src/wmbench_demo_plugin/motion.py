"""A third-party motion generator: the procedural gait with every stride shortened (test fixture)."""

from __future__ import annotations

from wmbench.body.motion.contract import MotionFrame
from wmbench.body.motion.procedural.generator import ProceduralGenerator


class DemoMotion(ProceduralGenerator):
    """The procedural generator under another name, with its frames scaled down to a child's height."""

    name = "demo-motion"
    SCALE = 0.8

    def next_frame(self, speed: float) -> MotionFrame:
        frame = super().next_frame(speed)
        joints = frame.joints * self.SCALE
        joints.setflags(write=False)
        return MotionFrame(joints, frame.gait_phase, frame.posture)
