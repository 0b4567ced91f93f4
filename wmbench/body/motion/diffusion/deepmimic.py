"""DeepMimic mocap clips (shipped in ``pybullet_data``) -> wmbench's 22-joint skeleton.

Card
----
- **Source.** ``pybullet_data/data/motions/humanoid3d_*.txt``: per frame a duration, the root position
  (y up, metres) and orientation, and the joint rotations of the ``humanoid/humanoid.urdf`` rig (quaternions
  ``w, x, y, z`` for the spherical joints, one angle for knees and elbows). The rig faces +x with its right
  side towards +z.
- **Forward kinematics.** The rig is loaded into a private PyBullet DIRECT client (the same URDF the clips were
  recorded for); each frame's pose is set with ``resetJointStateMultiDof`` and the link frames are read back.
  The rig is loaded at :data:`RIG_SCALING`, where its standing leg matches the clips' root height.
- **22 points.** Links give pelvis, hips, knees, ankles, shoulders, elbows, wrists, chest and neck. The rest
  are placed on the rig: ``left/right_foot`` a fixed point ahead of and below the ankle in the ankle link's
  frame (the foot box), ``spine1/2/3`` on the pelvis -> chest -> neck line, the collars on the line from the
  upper spine to the shoulders, ``head`` above the neck in the neck link's frame.
- **Retarget.** Frames are turned into motion space (x = left, y = up, z = forward), resampled to the target
  frame rate by interpolating positions, and rebuilt bone by bone on :data:`~wmbench.body.skeleton.DEFAULT_SKELETON`:
  each bone keeps its direction from the mocap and takes the skeleton's length; the pelvis trajectory is
  scaled by the ratio of leg lengths; the clip is lowered so a planted foot joint sits at its rest height.
  So every retargeted frame has exactly wmbench's bone lengths.

Simplifications: positions are resampled linearly (not slerped rotations); the foot and head points are
fixed offsets in their parent links (the rig has no toe joint).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from wmbench.body.native_output import quiet_native_output
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES, Skeleton

#: The clips shipped with pybullet_data (file stem after ``humanoid3d_``).
CLIP_NAMES: tuple[str, ...] = (
    "walk", "run", "jump", "crawl", "roll", "kick", "punch", "spin", "spinkick", "getup_facedown",
    "getup_faceup", "dance_a", "dance_b", "cartwheel", "backflip",
)
#: URDF global scaling at which the rig's standing leg matches the clips' root heights (~0.85-0.89 m).
RIG_SCALING = 0.25
#: Spherical joints in the order their quaternions appear in a frame, then the revolute ones, by link name.
_FRAME_LAYOUT: tuple[tuple[str, int], ...] = (
    ("chest", 4), ("neck", 4), ("right_hip", 4), ("right_knee", 1), ("right_ankle", 4), ("right_shoulder", 4),
    ("right_elbow", 1), ("left_hip", 4), ("left_knee", 1), ("left_ankle", 4), ("left_shoulder", 4),
    ("left_elbow", 1),
)
#: Foot point (ball of the foot) in the ankle link's frame, metres at RIG_SCALING (+x forward, -y down).
_FOOT_OFFSET = np.array([0.13, -0.045, 0.0])
#: Head point in the neck link's frame, metres at RIG_SCALING.
_HEAD_OFFSET = np.array([0.0, 0.11, 0.0])
#: Height of a planted foot joint (ball of the foot) above the floor in the rest pose.
FOOT_JOINT_HEIGHT = float(DEFAULT_SKELETON.rest_pose()[JOINT_NAMES.index("left_foot"), 1])


@dataclass(frozen=True, eq=False)
class MocapClip:
    """One retargeted clip: ``joints`` (T, 22, 3) global motion-space positions at ``fps``; ``name`` the clip;
    ``loops`` whether the source says it wraps around (a cyclic clip such as walk or run)."""

    name: str
    joints: np.ndarray
    fps: float
    loops: bool


def motions_dir() -> Path:
    """The folder of DeepMimic clips inside the installed ``pybullet_data``."""
    import pybullet_data

    return Path(pybullet_data.getDataPath()) / "data" / "motions"


def read_frames(name: str) -> tuple[np.ndarray, bool]:
    """The raw frame table (T, 44) of clip ``name`` and whether it loops."""
    if name not in CLIP_NAMES:
        raise KeyError(f"unknown DeepMimic clip {name!r}; expected one of {', '.join(CLIP_NAMES)}")
    path = motions_dir() / f"humanoid3d_{name}.txt"
    data = json.loads(path.read_text())
    frames = np.asarray(data["Frames"], dtype=float)
    if frames.ndim != 2 or frames.shape[1] != 44:
        raise ValueError(f"{path}: expected frames of 44 numbers, got shape {frames.shape}")
    return frames, str(data.get("Loop", "none")).lower() == "wrap"


def _quat_xyzw(wxyz: np.ndarray) -> list[float]:
    return [float(wxyz[1]), float(wxyz[2]), float(wxyz[3]), float(wxyz[0])]


def rig_points(frames: np.ndarray) -> np.ndarray:
    """Forward kinematics of the DeepMimic rig: (T, 44) frames -> (T, 22, 3) points in the rig's own space
    (y up, facing +x, right = +z), before any retargeting."""
    import pybullet as p
    import pybullet_data

    client = p.connect(p.DIRECT)
    try:
        p.setAdditionalSearchPath(pybullet_data.getDataPath(), physicsClientId=client)
        with quiet_native_output():  # the humanoid's URDF has no joint axes: two warning lines per joint
            rig = p.loadURDF("humanoid/humanoid.urdf", [0, 0, 0], globalScaling=RIG_SCALING, useFixedBase=False,
                             physicsClientId=client)
        link = {p.getJointInfo(rig, j, physicsClientId=client)[12].decode(): j
                for j in range(p.getNumJoints(rig, physicsClientId=client))}
        out = np.empty((len(frames), len(JOINT_NAMES), 3))
        for t, frame in enumerate(frames):
            p.resetBasePositionAndOrientation(rig, frame[1:4].tolist(), _quat_xyzw(frame[4:8]),
                                              physicsClientId=client)
            i = 8
            for name, size in _FRAME_LAYOUT:
                value = [frame[i]] if size == 1 else _quat_xyzw(frame[i:i + 4])
                p.resetJointStateMultiDof(rig, link[name], value, physicsClientId=client)
                i += size
            states = p.getLinkStates(rig, list(link.values()), computeForwardKinematics=True,
                                     physicsClientId=client)
            pos = {name: np.array(s[4]) for name, s in zip(link, states)}
            orn = {name: np.array(p.getMatrixFromQuaternion(s[5])).reshape(3, 3) for name, s in zip(link, states)}
            out[t] = _twenty_two(frame[1:4], pos, orn)
        return out
    finally:
        p.disconnect(client)


def _twenty_two(root: np.ndarray, pos: dict[str, np.ndarray], orn: dict[str, np.ndarray]) -> np.ndarray:
    """The 22 joints (rig space) from the link frames of one frame."""
    pelvis, chest, neck = np.asarray(root, dtype=float), pos["chest"], pos["neck"]
    upper = chest + 0.6 * (neck - chest)
    points = {
        "pelvis": pelvis, "left_hip": pos["left_hip"], "right_hip": pos["right_hip"],
        "spine1": pelvis + 0.5 * (chest - pelvis), "spine2": chest, "spine3": upper,
        "left_knee": pos["left_knee"], "right_knee": pos["right_knee"],
        "left_ankle": pos["left_ankle"], "right_ankle": pos["right_ankle"],
        "left_foot": pos["left_ankle"] + orn["left_ankle"] @ _FOOT_OFFSET,
        "right_foot": pos["right_ankle"] + orn["right_ankle"] @ _FOOT_OFFSET,
        "neck": neck, "head": neck + orn["neck"] @ _HEAD_OFFSET,
        "left_collar": upper + 0.45 * (pos["left_shoulder"] - upper),
        "right_collar": upper + 0.45 * (pos["right_shoulder"] - upper),
        "left_shoulder": pos["left_shoulder"], "right_shoulder": pos["right_shoulder"],
        "left_elbow": pos["left_elbow"], "right_elbow": pos["right_elbow"],
        "left_wrist": pos["left_wrist"], "right_wrist": pos["right_wrist"],
    }
    return np.stack([points[n] for n in JOINT_NAMES])


def to_motion_space(points: np.ndarray) -> np.ndarray:
    """Rig space (x forward, y up, z right) -> motion space (x left, y up, z forward); a proper rotation."""
    points = np.asarray(points, dtype=float)
    return np.stack((-points[..., 2], points[..., 1], points[..., 0]), axis=-1)


def resample(joints: np.ndarray, durations: np.ndarray, fps: float) -> np.ndarray:
    """Positions at ``fps`` by linear interpolation over the clip's own frame times."""
    times = np.concatenate(([0.0], np.cumsum(durations[:-1])))
    target = np.arange(0.0, times[-1] + 1e-9, 1.0 / fps)
    flat = joints.reshape(len(joints), -1)
    out = np.stack([np.interp(target, times, flat[:, k]) for k in range(flat.shape[1])], axis=1)
    return out.reshape(len(target), *joints.shape[1:])


def fit_to_skeleton(joints: np.ndarray, skeleton: Skeleton = DEFAULT_SKELETON) -> np.ndarray:
    """Rebuild (T, 22, 3) joints on ``skeleton``: bone directions kept, bone lengths the skeleton's, the pelvis
    path scaled by the leg-length ratio, then lowered so a planted foot joint is at its rest height."""
    joints = np.asarray(joints, dtype=float)
    parents = skeleton.parents
    lengths = skeleton.bone_lengths()
    leg = [skeleton.joint_index(n) for n in ("left_hip", "left_knee", "left_ankle")]
    source_leg = (np.linalg.norm(joints[:, leg[1]] - joints[:, leg[0]], axis=-1)
                  + np.linalg.norm(joints[:, leg[2]] - joints[:, leg[1]], axis=-1)).mean()
    scale = (lengths[leg[1]] + lengths[leg[2]]) / source_leg
    out = np.empty_like(joints)
    out[:, 0] = joints[:, 0] * scale
    for j in range(1, len(parents)):
        bone = joints[:, j] - joints[:, parents[j]]
        norm = np.maximum(np.linalg.norm(bone, axis=-1, keepdims=True), 1e-9)
        out[:, j] = out[:, parents[j]] + bone / norm * lengths[j]
    feet = [skeleton.joint_index(n) for n in ("left_foot", "right_foot")]
    lowest = out[:, feet, 1].min(axis=1)
    out[..., 1] -= np.percentile(lowest, 10) - FOOT_JOINT_HEIGHT
    return out


def tile(points: np.ndarray, durations: np.ndarray, cycles: int) -> tuple[np.ndarray, np.ndarray]:
    """A looping clip played ``cycles`` times: each repeat continues from where the previous one ended
    (its floor position shifted by one cycle's displacement; the repeated wrap frame dropped)."""
    shift = points[-1, 0] - points[0, 0]
    shift[1] = 0.0
    body, dur = points[:-1], durations[:-1]
    reps = [body + k * shift for k in range(cycles)] + [points[-1:] + (cycles - 1) * shift]
    return np.concatenate(reps), np.concatenate([dur] * cycles + [durations[-1:]])


@lru_cache(maxsize=16)
def load_clip(name: str, fps: float = 30.0, skeleton: Skeleton = DEFAULT_SKELETON, cycles: int = 1
              ) -> MocapClip:
    """Clip ``name`` retargeted to ``skeleton`` at ``fps`` (see the module card); a looping clip may be
    played ``cycles`` times. Cached (the joints are read-only)."""
    frames, loops = read_frames(name)
    points = to_motion_space(rig_points(frames))
    durations = frames[:, 0]
    if cycles > 1:
        if not loops:
            raise ValueError(f"clip {name!r} does not loop; it cannot be tiled {cycles} times")
        points, durations = tile(points, durations, cycles)
    joints = fit_to_skeleton(resample(points, durations, fps), skeleton)
    joints.setflags(write=False)
    return MocapClip(name, joints, float(fps), loops)
