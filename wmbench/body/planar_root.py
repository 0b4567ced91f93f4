"""PlanarRoot: a body's root driven in the ground plane — the character's controller, shared by the robot.

Card
----
- **State**: position ``x, y`` (world, m), facing ``heading`` and ``travel_heading`` (rad, world), ground
  ``speed`` and the ``target_speed`` an intent asked for (m/s).
- **Intent** (:meth:`PlanarRoot.aim`): a moving intent fixes a world travel heading (the facing + the
  intent's relative heading) and a target speed; a still one sets the target speed to 0.
- **Frame** (:meth:`PlanarRoot.advance`): the speed ramps towards the target at ``accel``; with
  ``face_travel`` the facing turns towards the travel heading at ``turn_rate``; the step is swept against
  the walls with the clearance ``radius`` and stops at a wall (speed 0, a ``collided`` report).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from wmbench.body.base import FrameReport, WorldHandle
from wmbench.body.intent.record import MotionIntent
from wmbench.core.directions import wrap_angle


@dataclass
class PlanarRoot:
    """A root moved kinematically in the ground plane (see the module card)."""

    accel: float       # m/s^2 the speed ramps at
    turn_rate: float   # rad/s the facing turns towards the travel heading
    radius: float      # wall clearance radius (m) of the swept step
    x: float = 0.0
    y: float = 0.0
    heading: float = 0.0
    travel_heading: float = 0.0
    speed: float = 0.0
    target_speed: float = 0.0

    def place(self, x: float, y: float, heading: float) -> None:
        """Stand still at (x, y) facing ``heading``."""
        self.x, self.y = float(x), float(y)
        self.heading = self.travel_heading = wrap_angle(float(heading))
        self.speed = self.target_speed = 0.0

    def aim(self, intent: MotionIntent, target_speed: float) -> None:
        """Take a new intent; ``target_speed`` (m/s) is the body's speed for its class (used when moving)."""
        if intent.moving:
            self.travel_heading = wrap_angle(self.heading + intent.heading)
            self.target_speed = target_speed
        else:
            self.target_speed = 0.0

    def advance(self, world: WorldHandle, intent: MotionIntent) -> FrameReport | None:
        """One motion frame; a ``collided`` report when a wall stopped the step, else None."""
        dt = world.frame_dt
        step = self.accel * dt
        self.speed += max(-step, min(step, self.target_speed - self.speed))
        if intent.moving and intent.face_travel:
            turn = wrap_angle(self.travel_heading - self.heading)
            max_turn = self.turn_rate * dt
            self.heading = wrap_angle(self.heading + max(-max_turn, min(max_turn, turn)))
        if self.speed > 0.0:
            reach = self.speed * dt
            end = (self.x + reach * math.cos(self.travel_heading),
                   self.y + reach * math.sin(self.travel_heading), 0.0)
            result = world.sweep((self.x, self.y, 0.0), end, self.radius)
            self.x, self.y = result.end[0], result.end[1]
            if result.blocked:
                self.speed = 0.0
                return FrameReport(collided=True, wall_name=result.wall_name)
        return None
