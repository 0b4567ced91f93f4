"""Forward kinematics of the keyframe generator: channel angles -> 22 root-local joints.

Card
----
- :class:`KeyframeKinematics` rotates the skeleton's own rest offsets down the tree (rotation matrices), so
  every bone keeps its length exactly. The pelvis height is *found*, not authored: the lower foot (ankle or
  ball) is put on the floor, then the ``lift`` channel raises the body (the flight phase of a run).
- Motion space: y up, facing +z, left +x. The upper arms hang :data:`ARM_ABDUCTION` out from the body with
  every channel at 0.
"""

from __future__ import annotations

import math

import numpy as np

from wmbench.body.motion.keyframe.poses import CHANNEL_INDEX
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES, Skeleton


def _rx(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _ry(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _rz(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


#: Upper arms hang this far out from the body (rad) with every channel at 0.
ARM_ABDUCTION = 0.1
_J = {name: i for i, name in enumerate(JOINT_NAMES)}


class KeyframeKinematics:
    """Channels -> (22, 3) root-local joints on a skeleton (rest offsets rotated down the tree, then the lower
    foot grounded). Motion space: y up, facing +z, left +x; rx(+) tips up-vectors forward and down-vectors
    back, ry(+) turns left, rz(+) lifts a left-pointing vector."""

    def __init__(self, skeleton: Skeleton = DEFAULT_SKELETON) -> None:
        self.offsets = skeleton.rest_offsets
        rest = skeleton.rest_pose()
        self.contact_heights = {
            side: (float(rest[_J[f"{side}_ankle"], 1]), float(rest[_J[f"{side}_foot"], 1]))
            for side in ("left", "right")}

    def joints(self, ch: np.ndarray) -> np.ndarray:
        o = self.offsets
        P = np.zeros((len(JOINT_NAMES), 3))
        R: dict[str, np.ndarray] = {}

        def place(child: str, parent: str, rot: np.ndarray) -> None:
            P[_J[child]] = P[_J[parent]] + rot @ o[_J[child]]

        def g(channel: str) -> float:
            return ch[CHANNEL_INDEX[channel]]

        trunk, slump, yaw = g("trunk"), g("slump"), g("chest_yaw") / 3.0
        ident = np.eye(3)
        place("spine1", "pelvis", ident)
        R["spine1"] = _ry(yaw) @ _rx(0.3 * trunk)
        place("spine2", "spine1", R["spine1"])
        R["spine2"] = R["spine1"] @ _ry(yaw) @ _rx(0.3 * trunk + 0.5 * slump)
        place("spine3", "spine2", R["spine2"])
        R["spine3"] = R["spine2"] @ _ry(yaw) @ _rx(0.4 * trunk + 0.5 * slump)
        place("neck", "spine3", R["spine3"])
        neck = R["spine3"] @ _ry(g("neck_yaw")) @ _rx(g("neck_pitch") - 0.5 * trunk)
        place("head", "neck", neck)
        for side, sign in (("left", 1.0), ("right", -1.0)):
            k = side[0]
            collar = R["spine3"] @ _rz(sign * g("raise"))
            place(f"{side}_collar", "spine3", R["spine3"])
            place(f"{side}_shoulder", f"{side}_collar", collar)
            hang = -sign * (0.5 * math.pi - ARM_ABDUCTION - g(f"abduct_{k}"))
            upper = R["spine3"] @ _rx(-g(f"shoulder_{k}")) @ _rz(hang)
            place(f"{side}_elbow", f"{side}_shoulder", upper)
            place(f"{side}_wrist", f"{side}_elbow", upper @ _ry(-sign * g(f"elbow_{k}")))
            thigh = _rx(-g(f"hip_{k}"))
            place(f"{side}_hip", "pelvis", ident)
            place(f"{side}_knee", f"{side}_hip", thigh)
            shin = thigh @ _rx(g(f"knee_{k}"))
            place(f"{side}_ankle", f"{side}_knee", shin)
            place(f"{side}_foot", f"{side}_ankle", shin @ _rx(-g(f"ankle_{k}")))
        # Ground the lower foot: the lowest contact point (ankle or ball) comes to its rest height.
        height = max(max(self.contact_heights[s][0] - P[_J[f"{s}_ankle"], 1],
                         self.contact_heights[s][1] - P[_J[f"{s}_foot"], 1]) for s in ("left", "right"))
        P[:, 1] += height + g("lift")
        return P
