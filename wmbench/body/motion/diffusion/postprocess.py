"""Contact-aware, limit-respecting post-process of the diffusion model's frames (numpy, no training needed).

Card
----
- **Smoothing** (:class:`FrameSmoother`): a causal one-pole low-pass (``alpha`` = :data:`SMOOTHING`) on the
  denormalised frame vectors the body is shown. The model's own context keeps the raw samples (so its input
  stays in its training distribution); only what is shown is filtered. It removes the sample-to-sample
  noise of 4-step DDIM that makes jerk high; it lags by about ``(1 - alpha) / alpha`` frames.
- **Joint limits** (:func:`limit_knees`): a knee may flex at most :data:`KNEE_MAX_FLEX` (rad); a shin folded
  further behind the knee is rotated back (about the knee, in the leg's plane) to the limit and the foot
  follows its ankle (against the folded-shin sprint sample). Simplified: a geometric clamp on joint positions, not an
  inverse-kinematics solve (bone lengths are kept because the shin and foot are rotated rigidly).
- **Foot locking** (:func:`lock_feet`, used by ``clip`` where the root's travel is the model's): a foot joint
  that is planted (within :data:`CONTACT_HEIGHT` of its lowest height in the clip) in two consecutive frames
  shifts the whole body horizontally against its slide (:data:`LOCK_STRENGTH` of it; the correction is
  averaged over :data:`LOCK_WINDOW` frames so it adds no velocity step); with no planted foot the model's own
  root velocity carries the body. Simplified: a partial, smoothed lock, not a full IK foot plant. In the live
  loop the body owns the root's travel (as for every generator), so only the smoothing and the limits apply.
"""

from __future__ import annotations

import numpy as np

from wmbench.body.skeleton import FOOT_CONTACT_JOINTS, JOINT_NAMES

#: Weight of the newest frame in the causal low-pass on shown frames.
SMOOTHING = 0.5
#: Largest knee flexion (rad): 150 degrees, about the human range with the hip flexed.
KNEE_MAX_FLEX = np.deg2rad(150.0)
#: A foot joint this close (m) to its lowest height in a clip counts as planted.
CONTACT_HEIGHT = 0.03
#: Fraction of a planted foot's slide that foot locking removes, and the frames its correction is averaged over.
LOCK_STRENGTH = 0.5
LOCK_WINDOW = 5

_LEGS = tuple((JOINT_NAMES.index(f"{s}_hip"), JOINT_NAMES.index(f"{s}_knee"), JOINT_NAMES.index(f"{s}_ankle"),
               JOINT_NAMES.index(f"{s}_foot")) for s in ("left", "right"))


class FrameSmoother:
    """Causal one-pole low-pass over frame vectors (see the module card); :meth:`reset` forgets the past."""

    def __init__(self, alpha: float = SMOOTHING) -> None:
        if not 0.0 < alpha <= 1.0:
            raise ValueError(f"alpha must be in (0, 1], got {alpha}")
        self.alpha = alpha
        self.state: np.ndarray | None = None

    def reset(self) -> None:
        self.state = None

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        if self.state is None:
            self.state = np.array(frame, dtype=float)
        else:
            self.state = self.alpha * np.asarray(frame, dtype=float) + (1.0 - self.alpha) * self.state
        return self.state.copy()


def _rotate(v: np.ndarray, axis: np.ndarray, angle: float) -> np.ndarray:
    """``v`` rotated by ``angle`` about the unit ``axis`` (Rodrigues)."""
    c, s = np.cos(angle), np.sin(angle)
    return v * c + np.cross(axis, v) * s + axis * float(axis @ v) * (1.0 - c)


def limit_knees(joints: np.ndarray, max_flex: float = KNEE_MAX_FLEX) -> np.ndarray:
    """A copy of one (22, 3) pose whose knees flex at most ``max_flex`` (see the module card)."""
    out = np.array(joints, dtype=float)
    for hip, knee, ankle, foot in _LEGS:
        thigh = out[knee] - out[hip]
        shin = out[ankle] - out[knee]
        nt, ns = np.linalg.norm(thigh), np.linalg.norm(shin)
        if nt < 1e-6 or ns < 1e-6:
            continue
        cos_flex = float(np.clip(thigh @ shin / (nt * ns), -1.0, 1.0))
        flex = float(np.arccos(cos_flex))
        if flex <= max_flex:
            continue
        axis = np.cross(thigh, shin)
        norm = np.linalg.norm(axis)
        if norm < 1e-9:
            continue
        turn = -(flex - max_flex)  # rotate the shin back towards the thigh's line
        axis /= norm
        new_ankle = out[knee] + _rotate(shin, axis, turn)
        out[foot] = new_ankle + _rotate(out[foot] - out[ankle], axis, turn)
        out[ankle] = new_ankle
    return out


def lock_feet(clip: np.ndarray, contact_height: float = CONTACT_HEIGHT, strength: float = LOCK_STRENGTH,
              window: int = LOCK_WINDOW) -> np.ndarray:
    """A copy of a global (T, 22, 3) clip whose planted foot joints slide less (see the module card)."""
    out = np.array(clip, dtype=float)
    feet = list(FOOT_CONTACT_JOINTS)
    floor = out[:, feet, 1].min(axis=0)
    planted = out[:, feet, 1] < floor + contact_height
    steps = np.zeros((len(out), 2))
    for i in range(1, len(out)):
        both = planted[i - 1] & planted[i]
        if both.any():
            slide = out[i, feet][both][:, [0, 2]] - out[i - 1, feet][both][:, [0, 2]]
            steps[i] = -strength * slide.mean(axis=0)
    offset = np.cumsum(steps, axis=0)
    if window > 1 and len(out) > window:  # centred moving average: no velocity step where a contact starts
        pad = window // 2
        padded = np.concatenate((np.repeat(offset[:1], pad, 0), offset, np.repeat(offset[-1:], pad, 0)))
        kernel = np.ones(window) / window
        offset = np.stack([np.convolve(padded[:, k], kernel, mode="valid") for k in range(2)], axis=1)
    out[:, :, 0] += offset[:, None, 0]
    out[:, :, 2] += offset[:, None, 1]
    return out
