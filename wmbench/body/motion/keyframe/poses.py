"""Key poses of the keyframe generator, as data: the channels, the walk and run keys, the cadence table.

Card
----
- **Channels** (:data:`CHANNELS`): hip/knee/ankle flexion, shoulder flexion and abduction, elbow flexion per
  side; trunk lean, upper-back slump, chest and neck yaw, neck pitch, shoulder raise, vertical lift.
- **Keys** (:data:`WALK_KEYS`, :data:`RUN_KEYS`): four key poses per half cycle — walk: contact, down,
  passing, up; run: contact, compression, push-off, flight — written for the leading (left) leg; the second
  half cycle is the mirror image (:data:`WALK_CYCLE`, :data:`RUN_CYCLE`). :func:`catmull_rom_cyclic`
  interpolates a cycle; the run blends in over :data:`RUN_BLEND`.
- **Cadence** (:data:`CADENCE_TABLE`, :func:`cadence`): steps per minute against speed, linear between knots.
"""

from __future__ import annotations

import bisect

import numpy as np

CHANNELS: tuple[str, ...] = (
    "hip_l", "hip_r", "knee_l", "knee_r", "ankle_l", "ankle_r", "shoulder_l", "shoulder_r",
    "abduct_l", "abduct_r", "elbow_l", "elbow_r", "trunk", "slump", "chest_yaw", "neck_yaw", "neck_pitch",
    "raise", "lift",
)
#: Channel name -> its index in a pose vector.
CHANNEL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CHANNELS)}

# Half-cycle keys for the leading (left) leg; "lead"/"trail" become _l/_r (and swap in the mirrored half).
# "lift" raises the grounded pose (only the run's flight phase uses it: compression comes from the knees).
_KEY_FIELDS = ("hip", "knee", "ankle", "arm", "elbow")
WALK_KEYS: tuple[dict[str, tuple[float, float]], ...] = (
    # field: (lead, trail)                       contact
    {"hip": (0.42, -0.30), "knee": (0.05, 0.20), "ankle": (0.20, -0.20), "arm": (-0.30, 0.30),
     "elbow": (0.15, 0.35), "trunk": (0.03, 0.0), "lift": (0.0, 0.0)},
    {"hip": (0.35, -0.15), "knee": (0.25, 0.55), "ankle": (0.0, -0.30), "arm": (-0.20, 0.20),   # down
     "elbow": (0.20, 0.30), "trunk": (0.03, 0.0), "lift": (0.0, 0.0)},
    {"hip": (0.05, 0.30), "knee": (0.12, 1.05), "ankle": (0.05, 0.10), "arm": (0.0, 0.0),       # passing
     "elbow": (0.20, 0.20), "trunk": (0.03, 0.0), "lift": (0.0, 0.0)},
    {"hip": (-0.20, 0.50), "knee": (0.05, 0.45), "ankle": (-0.15, 0.15), "arm": (0.20, -0.20),  # up
     "elbow": (0.30, 0.15), "trunk": (0.03, 0.0), "lift": (0.0, 0.0)},
)
RUN_KEYS: tuple[dict[str, tuple[float, float]], ...] = (
    {"hip": (0.45, -0.20), "knee": (0.30, 1.00), "ankle": (0.05, -0.20), "arm": (-0.60, 0.60),  # contact
     "elbow": (1.20, 1.30), "trunk": (0.12, 0.0), "lift": (0.0, 0.0)},
    {"hip": (0.25, 0.25), "knee": (0.65, 1.80), "ankle": (0.25, 0.0), "arm": (-0.30, 0.30),     # compression
     "elbow": (1.25, 1.25), "trunk": (0.12, 0.0), "lift": (0.0, 0.0)},
    {"hip": (-0.30, 0.85), "knee": (0.25, 1.50), "ankle": (-0.45, 0.10), "arm": (0.40, -0.40),  # push-off
     "elbow": (1.30, 1.20), "trunk": (0.12, 0.0), "lift": (0.0, 0.0)},
    {"hip": (-0.35, 0.75), "knee": (0.60, 0.60), "ankle": (-0.30, 0.15), "arm": (0.60, -0.60),  # flight
     "elbow": (1.30, 1.20), "trunk": (0.12, 0.0), "lift": (0.05, 0.0)},
)
#: (speed m/s, cadence steps/min), linear between knots.
CADENCE_TABLE: tuple[tuple[float, float], ...] = (
    (0.0, 80.0), (0.5, 90.0), (1.4, 110.0), (2.0, 130.0), (3.0, 160.0), (4.5, 170.0), (6.5, 182.0),
    (10.0, 200.0))
#: Speeds (m/s) over which the run cycle blends in over the walk.
RUN_BLEND = (1.9, 2.7)


def _expand(key: dict[str, tuple[float, float]], mirrored: bool) -> np.ndarray:
    v = np.zeros(len(CHANNELS))
    lead, trail = ("r", "l") if mirrored else ("l", "r")
    names = {"hip": "hip", "knee": "knee", "ankle": "ankle", "arm": "shoulder", "elbow": "elbow"}
    for f in _KEY_FIELDS:
        v[CHANNEL_INDEX[f"{names[f]}_{lead}"]], v[CHANNEL_INDEX[f"{names[f]}_{trail}"]] = key[f]
    v[CHANNEL_INDEX["trunk"]] = key["trunk"][0]
    v[CHANNEL_INDEX["lift"]] = key["lift"][0]
    return v


def _cycle(keys: tuple[dict, ...]) -> np.ndarray:
    """(8, channels): the half-cycle keys then their mirror images."""
    return np.array([_expand(k, False) for k in keys] + [_expand(k, True) for k in keys])


#: The full walk and run cycles, (8, channels) each: the half-cycle keys then their mirror images.
WALK_CYCLE = _cycle(WALK_KEYS)
RUN_CYCLE = _cycle(RUN_KEYS)


def catmull_rom_cyclic(keys: np.ndarray, phase: float) -> np.ndarray:
    """Uniform Catmull-Rom through cyclic ``keys`` (K, channels) at ``phase`` in [0, 1)."""
    k = keys.shape[0]
    x = (phase % 1.0) * k
    i = int(x)
    t = x - i
    p0, p1, p2, p3 = keys[(i - 1) % k], keys[i % k], keys[(i + 1) % k], keys[(i + 2) % k]
    return 0.5 * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t * t
                  + (3 * p1 - p0 - 3 * p2 + p3) * t * t * t)


def cadence(speed: float) -> float:
    """Steps per minute at ``speed`` (m/s) from :data:`CADENCE_TABLE`."""
    speeds = [s for s, _ in CADENCE_TABLE]
    v = min(max(speed, 0.0), speeds[-1])
    i = min(max(bisect.bisect_right(speeds, v), 1), len(speeds) - 1)
    (s0, c0), (s1, c1) = CADENCE_TABLE[i - 1], CADENCE_TABLE[i]
    return c0 + (c1 - c0) * (v - s0) / (s1 - s0)
