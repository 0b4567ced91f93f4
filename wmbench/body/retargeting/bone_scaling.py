"""Retargeting: the 22-joint HumanML3D pose carried onto other rigs by direction-preserving bone scaling.

Card
----
- **A rig** (:class:`Rig`) is a joint tree with its own bone lengths (a
  :class:`~wmbench.body.skeleton.Skeleton`) plus, per non-root joint, the *source segment* of the 22-joint
  pose whose direction its bone copies (:class:`BoneSource`). A rig bone may span several source bones
  (a one-piece spine from pelvis to spine3) or extend past the source (a hand continuing the forearm
  beyond the wrist: ``extend=True``).
- **Retarget** (:func:`retarget`): root = the source pelvis scaled by the ratio of the rest root heights
  (:func:`root_scale`, so shorter legs take shorter strides and the feet stay on the floor); then
  down the tree, ``joint = parent + rig_bone_length * unit(source segment)``. Every rig bone keeps its own
  length exactly and every bone direction is the source's.
- **Error** (:func:`pose_error`): each joint's root-relative position divided by the summed bone lengths
  of its chain (:func:`chain_lengths`), compared between source and rig — so a perfect transfer to the same
  or a uniformly scaled rig scores 0, and a rig with other proportions scores how far its normalised pose is
  from the source's (0.05 = 5 % of the chain length). Extended joints (hands) are compared with the source
  segment extended by the same normalised length.
- **Rigs** (:data:`RIGS`): ``humanml22`` (identity), ``smpl24`` (the 22 joints + left/right hand, SMPL's
  joint order; hands 9 cm along the forearm), ``stubby`` (17 joints, one-piece torso, legs 0.7x, arms 1.3x:
  short-legged and long-armed), ``robot`` (18 joints laid out like the servo robot at 0.9x, rigid chest).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wmbench.body.robot.urdf import ROBOT_SCALE
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES, PARENTS, Skeleton

_REST = DEFAULT_SKELETON.rest_pose()
_SRC = {name: i for i, name in enumerate(JOINT_NAMES)}


@dataclass(frozen=True)
class BoneSource:
    """A rig bone copies the direction of the source segment ``start -> end`` (22-joint names).
    ``extend``: the rig joint lies beyond ``end`` on that line (e.g. a hand past the wrist)."""

    start: str
    end: str
    extend: bool = False

    def __post_init__(self) -> None:
        for joint in (self.start, self.end):
            if joint not in _SRC:
                raise ValueError(f"unknown source joint {joint!r}; expected one of the 22 HumanML3D joints")
        if self.start == self.end:
            raise ValueError(f"a bone source needs two different joints, got {self.start!r} twice")


@dataclass(frozen=True, eq=False)
class Rig:
    """A target rig (see the module card). ``sources[0]`` is None (the root follows the source pelvis)."""

    name: str
    skeleton: Skeleton
    sources: tuple[BoneSource | None, ...]

    def __post_init__(self) -> None:
        n = self.skeleton.n_joints
        if len(self.sources) != n:
            raise ValueError(f"rig {self.name!r}: one source per joint expected ({n}), "
                             f"got {len(self.sources)}")
        if self.sources[0] is not None or any(s is None for s in self.sources[1:]):
            raise ValueError(f"rig {self.name!r}: only the root (joint 0) may lack a bone source")

    @property
    def n_joints(self) -> int:
        return self.skeleton.n_joints

    def height(self) -> float:
        """Rest height (m) of the rig's highest joint above its floor — the normalising length."""
        return float(self.skeleton.rest_pose()[:, 1].max())


# ------------------------------------------------------------------------------------------------ rigs

#: one row of a derived rig: (joint name, parent name or None for the root, bone source or None, length scale)
_RigRow = tuple[str, str | None, BoneSource | None, float]


def _derived_rig(name: str, joints: tuple[_RigRow, ...]) -> Rig:
    """A rig from rows (joint name, parent name, source, length scale); rest offsets come from the source
    rest pose (the source segment scaled), so a rig's rest pose is the source's with its own lengths."""
    names = tuple(r[0] for r in joints)
    parents = tuple(-1 if r[1] is None else names.index(r[1]) for r in joints)
    offsets = []
    for _, _, source, scale in joints:
        if source is None:
            offsets.append(_REST[0] * scale)
        elif source.extend:
            seg = _REST[_SRC[source.end]] - _REST[_SRC[source.start]]
            offsets.append(seg / np.linalg.norm(seg) * HAND_LENGTH * scale)
        else:
            offsets.append((_REST[_SRC[source.end]] - _REST[_SRC[source.start]]) * scale)
    return Rig(name, Skeleton(names, parents, np.array(offsets)), tuple(r[2] for r in joints))


#: Length (m) of the SMPL hand bone (wrist -> hand joint): our own round number.
HAND_LENGTH = 0.09
#: Proportions of the custom "stubby" rig relative to the source: legs and arms.
STUBBY_LEGS = 0.7
STUBBY_ARMS = 1.3


def _humanml22() -> Rig:
    rows: list[_RigRow] = [(JOINT_NAMES[0], None, None, 1.0)]
    rows += [(name, JOINT_NAMES[p], BoneSource(JOINT_NAMES[p], name), 1.0)
             for name, p in zip(JOINT_NAMES[1:], PARENTS[1:])]
    return _derived_rig("humanml22", tuple(rows))


def _smpl24() -> Rig:
    base = _humanml22()
    rows: list[_RigRow] = [(JOINT_NAMES[0], None, None, 1.0)]
    rows += [(name, JOINT_NAMES[p], base.sources[j], 1.0)
             for j, (name, p) in enumerate(zip(JOINT_NAMES, PARENTS)) if j > 0]
    rows += [(f"{side}_hand", f"{side}_wrist", BoneSource(f"{side}_elbow", f"{side}_wrist", extend=True), 1.0)
             for side in ("left", "right")]
    return _derived_rig("smpl24", tuple(rows))


def _stubby() -> Rig:
    """17 joints: one-piece torso (pelvis -> chest -> head), legs 0.7x, arms 1.3x, toes and hands."""
    rows: list[tuple] = [("pelvis", None, None, 1.0),
                         ("chest", "pelvis", BoneSource("pelvis", "spine3"), 1.0),
                         ("head", "chest", BoneSource("spine3", "head"), 1.0)]
    for side in ("left", "right"):
        s = f"{side}_"
        rows += [
            (s + "hip", "pelvis", BoneSource("pelvis", s + "hip"), 1.0),
            (s + "knee", s + "hip", BoneSource(s + "hip", s + "knee"), STUBBY_LEGS),
            (s + "ankle", s + "knee", BoneSource(s + "knee", s + "ankle"), STUBBY_LEGS),
            (s + "toe", s + "ankle", BoneSource(s + "ankle", s + "foot"), STUBBY_LEGS),
            (s + "shoulder", "chest", BoneSource("spine3", s + "shoulder"), 1.0),
            (s + "elbow", s + "shoulder", BoneSource(s + "shoulder", s + "elbow"), STUBBY_ARMS),
            (s + "hand", s + "elbow", BoneSource(s + "elbow", s + "wrist"), STUBBY_ARMS),
        ]
    rig = _derived_rig("stubby", tuple(rows))
    # Stand the rest pose on the floor: the pelvis drops by what the shortened legs lost.
    offsets = rig.skeleton.rest_offsets.copy()
    lost = (1.0 - STUBBY_LEGS) * float(_REST[_SRC["left_hip"], 1] - _REST[_SRC["left_foot"], 1])
    offsets[0] = (0.0, _REST[0, 1] - lost, 0.0)
    return Rig(rig.name, Skeleton(rig.skeleton.names, rig.skeleton.parents, offsets), rig.sources)


def _robot() -> Rig:
    rows: list[_RigRow] = [("pelvis", None, None, ROBOT_SCALE),
            ("spine", "pelvis", BoneSource("pelvis", "spine1"), ROBOT_SCALE),
            ("neck", "spine", BoneSource("spine1", "neck"), ROBOT_SCALE),
            ("head", "neck", BoneSource("neck", "head"), ROBOT_SCALE)]
    for side in ("left", "right"):
        s = f"{side}_"
        rows += [
            (s + "hip", "pelvis", BoneSource("pelvis", s + "hip"), ROBOT_SCALE),
            (s + "knee", s + "hip", BoneSource(s + "hip", s + "knee"), ROBOT_SCALE),
            (s + "ankle", s + "knee", BoneSource(s + "knee", s + "ankle"), ROBOT_SCALE),
            (s + "foot", s + "ankle", BoneSource(s + "ankle", s + "foot"), ROBOT_SCALE),
            (s + "shoulder", "spine", BoneSource("spine1", s + "shoulder"), ROBOT_SCALE),
            (s + "elbow", s + "shoulder", BoneSource(s + "shoulder", s + "elbow"), ROBOT_SCALE),
            (s + "wrist", s + "elbow", BoneSource(s + "elbow", s + "wrist"), ROBOT_SCALE),
        ]
    return _derived_rig("robot", tuple(rows))


def scaled_rig(rig: Rig, factor: float, name: str | None = None) -> Rig:
    """The same rig with every bone (and the root height) scaled by ``factor``."""
    if not factor > 0:
        raise ValueError(f"scale factor must be > 0, got {factor!r}")
    sk = rig.skeleton
    return Rig(name or f"{rig.name}_x{factor:g}", Skeleton(sk.names, sk.parents, sk.rest_offsets * factor),
               rig.sources)


HUMANML22 = _humanml22()
SMPL24 = _smpl24()
STUBBY = _stubby()
ROBOT_RIG = _robot()
#: Rig name -> rig.
RIGS: dict[str, Rig] = {r.name: r for r in (HUMANML22, SMPL24, STUBBY, ROBOT_RIG)}


def get_rig(rig: str | Rig) -> Rig:
    if isinstance(rig, Rig):
        return rig
    try:
        return RIGS[rig]
    except KeyError:
        raise KeyError(f"unknown rig {rig!r}; expected one of {', '.join(RIGS)}") from None


# ------------------------------------------------------------------------------------------------ transfer

def _as_frames(joints22: np.ndarray) -> tuple[np.ndarray, bool]:
    joints = np.asarray(joints22, dtype=float)
    if joints.shape[-2:] != (len(JOINT_NAMES), 3) or joints.ndim not in (2, 3):
        raise ValueError(f"joints22 must have shape (22, 3) or (T, 22, 3), got {joints.shape}")
    if not np.all(np.isfinite(joints)):
        raise ValueError("joints22 contains non-finite values")
    return (joints[None] if joints.ndim == 2 else joints), joints.ndim == 2


def _directions(frames: np.ndarray, source: BoneSource, fallback: np.ndarray) -> np.ndarray:
    seg = frames[:, _SRC[source.end]] - frames[:, _SRC[source.start]]
    norm = np.linalg.norm(seg, axis=-1, keepdims=True)
    unit_fallback = fallback / max(float(np.linalg.norm(fallback)), 1e-12)
    return np.where(norm > 1e-9, seg / np.maximum(norm, 1e-12), unit_fallback)


def root_scale(rig: str | Rig) -> float:
    """How the root trajectory scales onto ``rig``: its rest root height over the source's (leg length)."""
    rig = get_rig(rig)
    return float(rig.skeleton.rest_offsets[0][1] / _REST[0, 1])


def retarget(joints22: np.ndarray, target_rig: str | Rig) -> np.ndarray:
    """The 22-joint pose(s) ``(22, 3)`` or ``(T, 22, 3)`` on ``target_rig`` -> ``(J, 3)`` or ``(T, J, 3)``."""
    rig = get_rig(target_rig)
    frames, single = _as_frames(joints22)
    sk = rig.skeleton
    lengths = sk.bone_lengths()
    ratio = root_scale(rig)
    out = np.empty((frames.shape[0], sk.n_joints, 3))
    out[:, 0] = frames[:, 0] * ratio
    for j in range(1, sk.n_joints):
        source = rig.sources[j]
        assert source is not None
        out[:, j] = out[:, sk.parents[j]] + lengths[j] * _directions(frames, source, sk.rest_offsets[j])
    return out[0] if single else out


def source_points(joints22: np.ndarray, rig: str | Rig) -> np.ndarray:
    """For each rig joint, the point of the source pose it stands for (``(T, J, 3)``/``(J, 3)``): the source
    joint at the end of its segment, or for an extended joint that segment continued by the rig bone's
    length scaled to the source's height."""
    rig = get_rig(rig)
    frames, single = _as_frames(joints22)
    sk = rig.skeleton
    lengths = sk.bone_lengths()
    scale = HUMANML22.height() / rig.height()
    out = np.empty((frames.shape[0], sk.n_joints, 3))
    out[:, 0] = frames[:, 0]
    for j in range(1, sk.n_joints):
        source = rig.sources[j]
        assert source is not None
        end = frames[:, _SRC[source.end]]
        if source.extend:
            end = end + lengths[j] * scale * _directions(frames, source, sk.rest_offsets[j])
        out[:, j] = end
    return out[0] if single else out


def chain_lengths(rig: str | Rig) -> tuple[np.ndarray, np.ndarray]:
    """Per rig joint, the summed bone lengths from the root to it: on the rig, and over the matching source
    segments in the source's rest pose (what the same chain measures on the 22-joint skeleton)."""
    rig = get_rig(rig)
    sk = rig.skeleton
    lengths = sk.bone_lengths()
    scale = HUMANML22.height() / rig.height()
    rig_chain = np.zeros(sk.n_joints)
    src_chain = np.zeros(sk.n_joints)
    for j in range(1, sk.n_joints):
        source = rig.sources[j]
        assert source is not None
        seg = lengths[j] * scale if source.extend else float(
            np.linalg.norm(_REST[_SRC[source.end]] - _REST[_SRC[source.start]]))
        rig_chain[j] = rig_chain[sk.parents[j]] + lengths[j]
        src_chain[j] = src_chain[sk.parents[j]] + seg
    return rig_chain, src_chain


def pose_error(source22: np.ndarray, retargeted: np.ndarray, rig: str | Rig) -> float:
    """Bone-length-normalised pose error: per rig joint, its root-relative position divided by the summed
    bone lengths of its chain, compared between the source (:func:`source_points`, source chain lengths) and
    the retargeted pose (rig chain lengths); the mean distance over joints (and frames). 0 = a perfect
    transfer; 0.05 = joints off by 5 % of their chain length."""
    rig = get_rig(rig)
    src = source_points(source22, rig)
    tgt = np.asarray(retargeted, dtype=float)
    if tgt.shape != src.shape:
        raise ValueError(f"retargeted must have shape {src.shape} for rig {rig.name!r}, got {tgt.shape}")
    rig_chain, src_chain = chain_lengths(rig)
    src_rel = (src - src[..., :1, :])[..., 1:, :] / src_chain[1:, None]
    tgt_rel = (tgt - tgt[..., :1, :])[..., 1:, :] / rig_chain[1:, None]
    return float(np.linalg.norm(src_rel - tgt_rel, axis=-1).mean())


def direction_error(source22: np.ndarray, retargeted: np.ndarray, rig: str | Rig) -> float:
    """Mean angle (rad) between each rig bone and its source segment (0 by construction for :func:`retarget`;
    a check for other retargeters)."""
    rig = get_rig(rig)
    frames, _ = _as_frames(source22)
    tgt = np.asarray(retargeted, dtype=float).reshape(frames.shape[0], rig.n_joints, 3)
    angles = []
    for j in range(1, rig.n_joints):
        source = rig.sources[j]
        assert source is not None
        a = _directions(frames, source, rig.skeleton.rest_offsets[j])
        b = tgt[:, j] - tgt[:, rig.skeleton.parents[j]]
        b = b / np.maximum(np.linalg.norm(b, axis=-1, keepdims=True), 1e-12)
        angles.append(np.arccos(np.clip(np.sum(a * b, axis=-1), -1.0, 1.0)))
    return float(np.mean(angles))
