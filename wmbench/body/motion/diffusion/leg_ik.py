"""Analytic two-bone leg inverse kinematics (hip -> knee -> ankle), vectorised over frames (numpy).

Card
----
- **Solve** (:func:`solve_legs`): given hip positions, ankle targets, the thigh and shin lengths and a *pole*
  (a point the knee should bend towards, normally the knee's current position), return the knee and ankle
  positions that reach the target with both bone lengths exact. The knee lies on the circle of points at the
  thigh's length from the hip and the shin's length from the target (law of cosines), at the point of that
  circle nearest the pole.
- **Reach**: a target further from the hip than the leg's length (less :data:`REACH_MARGIN`) is pulled in
  along the hip-to-target line, so the leg ends straight-ish and the ankle stops short; one nearer than
  ``|thigh - shin|`` is pushed out the same way. The returned ankle says where the foot really is.
- **Degenerate pole** (pole on the hip-target line): the knee bends towards ``fallback`` (default +z, the
  character's forward in motion space), as a human knee does.

The procedural generator poses its legs with the same geometry one leg at a time on plain floats
(:func:`wmbench.body.motion.procedural.gait.two_bone_ik`, a per-frame hot path whose numbers the character's
traces rest on); this module is its form over whole clips of generated frames.
"""

from __future__ import annotations

import numpy as np

#: The target is kept this far (m) inside the leg's full reach, so the knee never snaps straight.
REACH_MARGIN = 1e-3


def _unit(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    norm = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.maximum(norm, 1e-12), norm[..., 0]


def solve_legs(hip: np.ndarray, target: np.ndarray, thigh: np.ndarray | float, shin: np.ndarray | float,
               pole: np.ndarray, fallback: tuple[float, float, float] = (0.0, 0.0, 1.0)
               ) -> tuple[np.ndarray, np.ndarray]:
    """(knee, ankle), each shaped like ``hip`` (..., 3): the two-bone solve of the module card."""
    hip, target, pole = (np.asarray(a, dtype=float) for a in (hip, target, pole))
    a = np.broadcast_to(np.asarray(thigh, dtype=float), hip.shape[:-1])
    b = np.broadcast_to(np.asarray(shin, dtype=float), hip.shape[:-1])
    axis, dist = _unit(target - hip)
    d = np.clip(dist, np.abs(a - b) + REACH_MARGIN, a + b - REACH_MARGIN)
    ankle = hip + axis * d[..., None]
    along = (a * a - b * b + d * d) / (2.0 * d)
    radius = np.sqrt(np.clip(a * a - along * along, 0.0, None))
    bend = pole - hip
    bend = bend - axis * np.sum(bend * axis, axis=-1, keepdims=True)
    bend_dir, bend_len = _unit(bend)
    spare = np.broadcast_to(np.asarray(fallback, dtype=float), hip.shape)
    spare = spare - axis * np.sum(spare * axis, axis=-1, keepdims=True)
    spare_dir, _ = _unit(spare)
    bend_dir = np.where((bend_len > 1e-6)[..., None], bend_dir, spare_dir)
    knee = hip + axis * along[..., None] + bend_dir * radius[..., None]
    return knee, ankle
