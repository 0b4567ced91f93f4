"""The 22-joint skeleton every body reads: the HumanML3D joint set, its tree and our own bone lengths.

Motion space (HumanML3D convention): metres, y up, the character faces +z, its left side is +x, the floor is
the plane y = 0. Joints are points *inside* the body, so a planted foot has its ankle joint about 8 cm and its
foot (ball-of-foot) joint about 2.5 cm above the floor. The world is z up; bodies map motion space into it.

``DEFAULT_SKELETON`` is an adult about 1.75 m tall, pelvis 0.95 m above the floor in the rest T-pose (arms out
along ±x, legs straight). Its bone lengths are our own round numbers, not taken from any body-model file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: The 22 HumanML3D joints, in the dataset's order.
JOINT_NAMES: tuple[str, ...] = (
    "pelvis", "left_hip", "right_hip", "spine1", "left_knee", "right_knee", "spine2", "left_ankle",
    "right_ankle", "spine3", "left_foot", "right_foot", "neck", "left_collar", "right_collar", "head",
    "left_shoulder", "right_shoulder", "left_elbow", "right_elbow", "left_wrist", "right_wrist",
)

#: Parent of each joint (index into JOINT_NAMES); the pelvis is the root (-1). Parents precede children.
PARENTS: tuple[int, ...] = (-1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 12, 13, 14, 16, 17, 18, 19)

#: Number of joints.
N_JOINTS: int = len(JOINT_NAMES)

#: (left, right) joint-index pairs that mirror each other across the x = 0 plane.
MIRROR_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (JOINT_NAMES.index(n), JOINT_NAMES.index("right_" + n[len("left_"):]))
    for n in JOINT_NAMES if n.startswith("left_")
)

#: Joints used for foot contacts, in the HumanML3D order: left ankle, left foot, right ankle, right foot.
FOOT_CONTACT_JOINTS: tuple[int, ...] = (7, 10, 8, 11)
#: A foot joint this close (m) to its lowest height in a clip counts as planted (the skating metric and the
#: learned model's foot lock and pinning share it).
FOOT_CONTACT_HEIGHT = 0.03

# Rest T-pose offsets, each joint from its parent (the pelvis from the floor point below it). Own numbers for
# an adult of about 1.75 m: legs 0.42 + 0.40 m, arms 0.27 + 0.25 m, pelvis 0.95 m, head joint 1.61 m.
_DEFAULT_REST_OFFSETS: dict[str, tuple[float, float, float]] = {
    "pelvis": (0.0, 0.95, 0.0),
    "left_hip": (0.09, -0.05, 0.0),
    "right_hip": (-0.09, -0.05, 0.0),
    "spine1": (0.0, 0.11, -0.02),
    "left_knee": (0.0, -0.42, 0.0),
    "right_knee": (0.0, -0.42, 0.0),
    "spine2": (0.0, 0.13, 0.01),
    "left_ankle": (0.0, -0.40, 0.0),
    "right_ankle": (0.0, -0.40, 0.0),
    "spine3": (0.0, 0.11, 0.0),
    "left_foot": (0.0, -0.055, 0.13),
    "right_foot": (0.0, -0.055, 0.13),
    "neck": (0.0, 0.20, -0.01),
    "left_collar": (0.075, 0.11, -0.01),
    "right_collar": (-0.075, 0.11, -0.01),
    "head": (0.0, 0.11, 0.04),
    "left_shoulder": (0.11, 0.02, -0.01),
    "right_shoulder": (-0.11, 0.02, -0.01),
    "left_elbow": (0.27, 0.0, 0.0),
    "right_elbow": (-0.27, 0.0, 0.0),
    "left_wrist": (0.25, 0.0, 0.0),
    "right_wrist": (-0.25, 0.0, 0.0),
}


@dataclass(frozen=True, eq=False)
class Skeleton:
    """A joint tree with rest offsets (motion space, metres).

    ``rest_offsets[j]`` is joint j's offset from its parent in the rest T-pose; for the root it is the root's
    position above the floor point below it. Equality is identity (the array field has no value equality).
    """

    names: tuple[str, ...]
    parents: tuple[int, ...]
    rest_offsets: np.ndarray
    _chain: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        n = len(self.names)
        offsets = np.array(self.rest_offsets, dtype=float)
        if offsets.shape != (n, 3):
            raise ValueError(f"rest_offsets must have shape ({n}, 3) for {n} joints, got {offsets.shape}")
        if len(self.parents) != n:
            raise ValueError(f"parents must have {n} entries (one per joint), got {len(self.parents)}")
        if n == 0 or self.parents[0] != -1:
            raise ValueError("the first joint must be the root (parent -1)")
        for j, p in enumerate(self.parents[1:], start=1):
            if not 0 <= p < j:
                raise ValueError(
                    f"joint {j} ({self.names[j]!r}) has parent {p}; parents must precede their children")
        if not np.all(np.isfinite(offsets)):
            raise ValueError("rest_offsets must be finite")
        offsets.setflags(write=False)
        object.__setattr__(self, "rest_offsets", offsets)
        chain = np.zeros((n, n))
        for j in range(n):
            k = j
            while k != -1:
                chain[j, k] = 1.0
                k = self.parents[k]
        chain.setflags(write=False)
        object.__setattr__(self, "_chain", chain)

    @property
    def n_joints(self) -> int:
        return len(self.names)

    @property
    def chain_matrix(self) -> np.ndarray:
        """(n, n) matrix with ``[j, k] = 1`` when k is j or one of its ancestors: ``chain @ bones`` turns
        per-joint bone vectors (the root's row = its position) into joint positions."""
        return self._chain

    def bone_lengths(self) -> np.ndarray:
        """(n,) length of the bone from each joint's parent to it; 0 for the root (it has no bone)."""
        lengths = np.linalg.norm(self.rest_offsets, axis=1)
        lengths[0] = 0.0
        return lengths

    def rest_pose(self) -> np.ndarray:
        """(n, 3) global joint positions in the rest T-pose (root above the origin, feet on the floor)."""
        return self._chain @ self.rest_offsets

    def joint_index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(f"unknown joint {name!r}; expected one of {', '.join(self.names)}") from None

    def measure_bone_lengths(self, joints: np.ndarray) -> np.ndarray:
        """Bone lengths of posed joints ``(..., n, 3)`` -> ``(..., n)`` (root entry 0); checks retargets."""
        joints = np.asarray(joints, dtype=float)
        if joints.shape[-2:] != (self.n_joints, 3):
            raise ValueError(f"joints must end in ({self.n_joints}, 3), got shape {joints.shape}")
        parents = np.array(self.parents)
        lengths = np.linalg.norm(joints - joints[..., np.maximum(parents, 0), :], axis=-1)
        lengths[..., 0] = 0.0
        return lengths


DEFAULT_SKELETON: Skeleton = Skeleton(
    names=JOINT_NAMES,
    parents=PARENTS,
    rest_offsets=np.array([_DEFAULT_REST_OFFSETS[name] for name in JOINT_NAMES]),
)
