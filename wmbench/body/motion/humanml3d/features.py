"""HumanML3D 263-dim motion features and their inverse, written from the published layout.

Layout of one feature row (frame t of T joint frames; there are T - 1 rows because velocities need t + 1):

====================  ====  ==================================================================================
slice                 size  content
====================  ====  ==================================================================================
root_rot_velocity     1     rotation about y from t to t + 1, stored as in HumanML3D: *half* the change of
                            the world->root rotation angle (a left turn, facing yaw growing, gives values < 0)
root_linear_velocity  2     root (pelvis) x, z displacement t -> t + 1 in the root frame of t + 1 (m/frame)
root_height           1     pelvis height y
ric                   63    joints 1..21 relative to the root's floor point, rotated into the root frame
rotations_6d          126   joints 1..21: first two columns of a 3x3 rotation (see below)
local_velocity        66    all 22 joints' displacement t -> t + 1, in the root frame of t
foot_contact          4     left ankle, left foot, right ankle, right foot: 1 when the joint moves less than
                            :data:`FOOT_CONTACT_SPEED` between t and t + 1
====================  ====  ==================================================================================

**Root frame.** The facing direction is ``up x across`` with ``across = (right hip - left hip) + (right
shoulder - left shoulder)``, smoothed over time with a Gaussian (HumanML3D smooths it over 20 frames at 20
fps, i.e. 1 s: ``facing_smoothing_s``), then flattened onto the floor. The root frame of frame t is the world
rotated about y so that this facing becomes +z, with the pelvis's floor point at the origin.

**6D rotations, derived from bone directions.** Positions carry no twist, so each joint's rotation is the
*swing* of its bone: ``S_j`` = the smallest rotation taking the bone's rest direction (parent -> joint in
the skeleton's T-pose) onto its current direction in the root frame; the stored rotation is relative to the
parent's bone, ``S_parent^T S_j`` (``S_pelvis`` = identity), which is how HumanML3D's own inverse kinematics
chains rotations along the kinematic tree. Six numbers = its first two columns.

**Recovery** (:func:`features_to_joints`) uses only the root data and ``ric``, like the standard recovery:
the root rotation and floor position are integrated from their velocities starting at angle 0 and the
origin, so the recovered motion starts with its root at x = z = 0 facing +z. To compare it with the input,
move the input the same way first: :func:`initial_alignment`.

Simplifications: no re-targeting to a reference skeleton and no re-flooring (heights are taken as given,
floor y = 0); features are per frame at the input's frame rate (HumanML3D is 20 fps; resample before feeding
a model trained on it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from wmbench.body.skeleton import DEFAULT_SKELETON, FOOT_CONTACT_JOINTS, N_JOINTS, Skeleton

#: A foot-contact joint moving slower than this (m/s) between two frames is "in contact". HumanML3D's
#: threshold (squared displacement 0.002 m^2 per frame at 20 fps) expressed as a speed.
FOOT_CONTACT_SPEED = math.sqrt(0.002) * 20.0

_LEFT_HIP, _RIGHT_HIP, _LEFT_SHOULDER, _RIGHT_SHOULDER = 1, 2, 16, 17


@dataclass(frozen=True)
class FeatureLayout:
    """Where each part sits in a HumanML3D feature row (``features[:, LAYOUT.ric]``)."""

    root_rot_velocity: slice
    root_linear_velocity: slice
    root_height: slice
    ric: slice
    rotations_6d: slice
    local_velocity: slice
    foot_contact: slice

    @property
    def size(self) -> int:
        return self.foot_contact.stop


LAYOUT = FeatureLayout(
    root_rot_velocity=slice(0, 1), root_linear_velocity=slice(1, 3), root_height=slice(3, 4),
    ric=slice(4, 67), rotations_6d=slice(67, 193), local_velocity=slice(193, 259),
    foot_contact=slice(259, 263),
)
N_FEATURES = LAYOUT.size


def _check_joints(joints: np.ndarray, min_frames: int) -> np.ndarray:
    arr = np.asarray(joints, dtype=float)
    if arr.ndim != 3 or arr.shape[1:] != (N_JOINTS, 3):
        raise ValueError(f"joints must have shape (T, {N_JOINTS}, 3), got {arr.shape}")
    if arr.shape[0] < min_frames:
        raise ValueError(f"need at least {min_frames} frames of joints, got {arr.shape[0]}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("joints contain NaN or infinite values")
    return arr


def _gaussian_smooth(x: np.ndarray, sigma: float) -> np.ndarray:
    """Smooth ``x`` (T, k) along time with a Gaussian of ``sigma`` frames, edges held (mode 'nearest')."""
    if sigma <= 0.0 or len(x) < 2:
        return x
    radius = int(4.0 * sigma + 0.5)
    taps = np.arange(-radius, radius + 1)
    weights = np.exp(-0.5 * (taps / sigma) ** 2)
    weights /= weights.sum()
    padded = np.pad(x, ((radius, radius), (0, 0)), mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * radius + 1, axis=0)  # (T, k, taps)
    return windows @ weights


def facing_yaw(joints: np.ndarray, *, fps: float = 30.0, facing_smoothing_s: float = 1.0) -> np.ndarray:
    """(T,) facing yaw in radians (0 = +z, + = turned towards +x, i.e. left) from hips and shoulders."""
    joints = _check_joints(joints, 1)
    hips = joints[:, _RIGHT_HIP] - joints[:, _LEFT_HIP]
    across = hips + joints[:, _RIGHT_SHOULDER] - joints[:, _LEFT_SHOULDER]
    forward = np.stack((across[:, 2], -across[:, 0]), axis=1)  # up x across, in (x, z)
    norm = np.linalg.norm(forward, axis=1, keepdims=True)
    forward = np.where(norm > 1e-9, forward / np.maximum(norm, 1e-12), (0.0, 1.0))
    forward = _gaussian_smooth(forward, facing_smoothing_s * fps)
    return np.arctan2(forward[:, 0], forward[:, 1])


def _to_root_frame(vectors: np.ndarray, yaw: np.ndarray) -> np.ndarray:
    """Rotate (T, n, 3) vectors about y by -yaw[t] (world -> root frame)."""
    c, s = np.cos(yaw)[:, None], np.sin(yaw)[:, None]
    x, y, z = vectors[..., 0], vectors[..., 1], vectors[..., 2]
    return np.stack((c * x - s * z, y, s * x + c * z), axis=-1)


def _from_root_frame(vectors: np.ndarray, yaw: np.ndarray) -> np.ndarray:
    return _to_root_frame(vectors, -yaw)


def initial_alignment(
    joints: np.ndarray, *, fps: float = 30.0, facing_smoothing_s: float = 1.0
) -> np.ndarray:
    """``joints`` moved so that frame 0's root is at x = z = 0 and faces +z (its root frame becomes the
    world), which is where :func:`features_to_joints` starts a recovered motion. Use the same ``fps`` and
    ``facing_smoothing_s`` as for :func:`joints_to_features`."""
    joints = _check_joints(joints, 1)
    yaw0 = facing_yaw(joints, fps=fps, facing_smoothing_s=facing_smoothing_s)[0]
    shifted = joints - np.array([joints[0, 0, 0], 0.0, joints[0, 0, 2]])
    return _to_root_frame(shifted[None].reshape(1, -1, 3), np.array([yaw0])).reshape(joints.shape)


def _rotation_between(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """(..., 3, 3) smallest rotations taking unit vectors ``u`` onto unit vectors ``v``."""
    k = np.cross(u, v)
    c = np.sum(u * v, axis=-1)
    zero = np.zeros_like(c)
    skew = np.stack((zero, -k[..., 2], k[..., 1], k[..., 2], zero, -k[..., 0], -k[..., 1], k[..., 0], zero),
                    axis=-1).reshape((*k.shape, 3))
    opposite = c < -1.0 + 1e-9
    safe = np.where(opposite, 1.0, 1.0 + c)
    rot = c[..., None, None] * np.eye(3) + skew + k[..., :, None] * k[..., None, :] / safe[..., None, None]
    if np.any(opposite):  # half turn about any axis perpendicular to u
        uu = np.broadcast_to(u, v.shape)[opposite]
        helper = np.where(np.abs(uu[:, :1]) < 0.9, (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
        axis = np.cross(uu, helper)
        axis /= np.linalg.norm(axis, axis=-1, keepdims=True)
        rot[opposite] = 2.0 * axis[:, :, None] * axis[:, None, :] - np.eye(3)
    return rot


def _rotations_6d(local: np.ndarray, skeleton: Skeleton) -> np.ndarray:
    """(T, 21 * 6) parent-relative bone swings of root-frame joints ``local`` (T, 22, 3)."""
    parents = np.array(skeleton.parents[1:])
    bones = local[:, 1:] - local[:, parents]
    bones /= np.maximum(np.linalg.norm(bones, axis=-1, keepdims=True), 1e-12)
    rest = skeleton.rest_offsets[1:] / np.linalg.norm(skeleton.rest_offsets[1:], axis=-1, keepdims=True)
    swing = np.empty((len(local), N_JOINTS, 3, 3))
    swing[:, 0] = np.eye(3)
    swing[:, 1:] = _rotation_between(rest[None], bones)
    relative = np.swapaxes(swing[:, parents], -1, -2) @ swing[:, 1:]
    return np.concatenate((relative[..., :, 0], relative[..., :, 1]), axis=-1).reshape(len(local), -1)


def joints_to_features(
    joints: np.ndarray,
    *,
    fps: float = 30.0,
    facing_smoothing_s: float = 1.0,
    skeleton: Skeleton = DEFAULT_SKELETON,
) -> np.ndarray:
    """(T, 22, 3) global motion-space joints (y up, floor y = 0) -> (T - 1, 263) HumanML3D features."""
    joints = _check_joints(joints, 2)
    if not fps > 0:
        raise ValueError(f"fps must be positive, got {fps}")
    yaw = facing_yaw(joints, fps=fps, facing_smoothing_s=facing_smoothing_s)
    root = joints[:, 0]
    floor_point = np.stack((root[:, 0], np.zeros(len(root)), root[:, 2]), axis=1)
    local = _to_root_frame(joints - floor_point[:, None], yaw)  # (T, 22, 3)

    turn = np.angle(np.exp(1j * (yaw[1:] - yaw[:-1])))  # facing change, wrapped to (-pi, pi]
    root_step = _to_root_frame((root[1:] - root[:-1])[:, None], yaw[1:])[:, 0]
    velocity = _to_root_frame(joints[1:] - joints[:-1], yaw[:-1])
    contact_joints = list(FOOT_CONTACT_JOINTS)
    step2 = np.sum((joints[1:, contact_joints] - joints[:-1, contact_joints]) ** 2, axis=-1)
    contact = (step2 < (FOOT_CONTACT_SPEED / fps) ** 2).astype(float)

    n = len(joints) - 1
    out = np.empty((n, N_FEATURES))
    out[:, LAYOUT.root_rot_velocity] = -0.5 * turn[:, None]
    out[:, LAYOUT.root_linear_velocity] = root_step[:, [0, 2]]
    out[:, LAYOUT.root_height] = root[:-1, 1:2]
    out[:, LAYOUT.ric] = local[:-1, 1:].reshape(n, -1)
    out[:, LAYOUT.rotations_6d] = _rotations_6d(local[:-1], skeleton)
    out[:, LAYOUT.local_velocity] = velocity.reshape(n, -1)
    out[:, LAYOUT.foot_contact] = contact
    return out


def features_to_joints(features: np.ndarray) -> np.ndarray:
    """(T, 263) HumanML3D features -> (T, 22, 3) global joints, recovered from the root data and ``ric``.

    The root starts at x = z = 0 facing +z; its yaw is the running sum of the stored rotation velocities and
    its floor position the running sum of the stored linear velocities turned back into the world.
    """
    feats = np.asarray(features, dtype=float)
    if feats.ndim != 2 or feats.shape[1] != N_FEATURES:
        raise ValueError(f"features must have shape (T, {N_FEATURES}), got {feats.shape}")
    if len(feats) == 0:
        raise ValueError("features are empty (need at least one row)")
    if not np.all(np.isfinite(feats)):
        raise ValueError("features contain NaN or infinite values")
    n = len(feats)
    half_turns = np.concatenate(([0.0], np.cumsum(feats[:-1, LAYOUT.root_rot_velocity][:, 0])))
    yaw = -2.0 * half_turns
    steps = np.zeros((n, 1, 3))
    steps[1:, 0, 0] = feats[:-1, LAYOUT.root_linear_velocity][:, 0]
    steps[1:, 0, 2] = feats[:-1, LAYOUT.root_linear_velocity][:, 1]
    floor_point = np.cumsum(_from_root_frame(steps, yaw)[:, 0], axis=0)
    ric = feats[:, LAYOUT.ric].reshape(n, N_JOINTS - 1, 3)
    joints = np.empty((n, N_JOINTS, 3))
    joints[:, 1:] = _from_root_frame(ric, yaw) + floor_point[:, None]
    joints[:, 0] = floor_point
    joints[:, 0, 1] = feats[:, LAYOUT.root_height][:, 0]
    return joints
