"""One pose of the procedural generator: trunk and arms from Euler frames, legs from IK.

Card
----
- :class:`PoseBuilder` turns (posture, gait, speed, gait phase, rhythm) into 22 root-local joints for one
  skeleton. Trunk, neck and arm joints get yaw-pitch-roll frames (pelvis bob, twist and tilt with the
  stride, shoulders counter-rotating, arms swinging in counter-phase with the legs, elbows bending more with
  speed, breathing, sway, head scan and glance); the legs reach for the gait's foot targets through two-bone
  IK with the knees pointing where the pelvis does. Positions come from summing bone vectors down the tree,
  so every bone keeps its length.
- The pelvis stands :data:`STANDING_SAG` below the rest T-pose and drops at least what keeps a stance leg
  in reach (:func:`~wmbench.body.motion.procedural.gait.reach_drops`); below :data:`GAIT_FADE_SPEED` the gait
  fades out into standing.

Simplified: joint frames are composed as yaw-pitch-roll Euler angles whose pitch adds up along a chain
(exact for hinge chains such as knee/elbow, an approximation for twisted spines).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from wmbench.body.motion.procedural import pose_kernel
from wmbench.body.motion.procedural.gait import (
    FootGeometry,
    GaitParams,
    reach_drops,
    stride_for,
    table_gait,
)
from wmbench.body.motion.procedural.posture import Posture
from wmbench.body.motion.stream import RhythmPhase, smoothstep
from wmbench.body.skeleton import Skeleton

#: Below this speed (m/s) the gait fades out into standing.
GAIT_FADE_SPEED = 0.35
#: A relaxed standing pelvis is this much (m) below the rest T-pose: a hint of knee flexion.
STANDING_SAG = 0.005


# Joints whose frames rotate the offsets of non-leg children, and for each such child the slot of its parent.
_FRAME_JOINTS = (0, 3, 6, 9, 12, 13, 14, 16, 17, 18, 19)
_TRUNK_ROWS = (1, 2, 3, 6, 9, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21)
_LEG_ROWS = (4, 5, 7, 8, 10, 11)  # left/right knee, ankle, foot


def trunk_lean(posture: Posture, speed: float) -> float:
    """The trunk's forward lean (rad) of a pose at ``speed``: the posture's own plus its lean per m/s, at most
    0.6."""
    return min(posture.torso_lean + posture.lean_per_speed * speed, 0.6)


class PoseBuilder:
    """Builds root-local joint positions from gait phase, speed and posture for one skeleton."""

    def __init__(self, skeleton: Skeleton) -> None:
        offsets = skeleton.rest_offsets
        lengths = skeleton.bone_lengths()
        self.chain = skeleton.chain_matrix
        slot = {joint: k for k, joint in enumerate(_FRAME_JOINTS)}
        self.trunk_slots = np.array([slot[skeleton.parents[r]] for r in _TRUNK_ROWS])
        self.trunk_offsets = offsets[list(_TRUNK_ROWS)].T.copy()  # (3, rows)
        # the trunk kernel's arguments, as each path wants them (arrays for numba, tuples for Python)
        self._trunk_slot_list = tuple(self.trunk_slots.tolist())
        self._trunk_offset_list = tuple(offsets[list(_TRUNK_ROWS)].reshape(-1).tolist())
        self._trunk_slot_arg = self.trunk_slots.astype(np.int64)
        self._trunk_offset_arg = np.array(self._trunk_offset_list)
        #: the kernel's output rows: the trunk's, then the legs' (knees, ankles, feet; left then right)
        self._kernel_rows = np.array(_TRUNK_ROWS + _LEG_ROWS)
        self._kernel_out = np.zeros(3 * len(self._kernel_rows))
        self.trunk_rows = np.array(_TRUNK_ROWS)
        self.leg_rows = np.array(_LEG_ROWS)
        self.thigh = float(lengths[4])
        self.shin = float(lengths[7])
        self.geo = FootGeometry(
            ankle_height=float(skeleton.rest_pose()[7, 1]), foot_y=float(offsets[10, 1]),
            foot_z=float(offsets[10, 2]), tip_z=float(offsets[10, 2]) + 0.06,
            foot_width=float(offsets[1, 0]) + 0.01, toe_out=0.08,
        )
        self.stand_height = float(offsets[0, 1]) - STANDING_SAG
        hip_drop, hip_width = float(-offsets[1, 1]), float(offsets[1, 0])
        grid, drops = reach_drops(self.thigh, self.shin, hip_drop, hip_width, self.stand_height, self.geo)
        self.drop_grid = np.array(grid)
        self.drop_values = np.array(drops)
        self.bones = np.zeros((skeleton.n_joints, 3))

    def gait_at(self, speed: float) -> GaitParams:
        """Gait parameters at ``speed`` with the pelvis drop raised to what keeps the feet within reach."""
        table = table_gait(speed)
        return replace(table, drop=float(np.interp(speed, self.drop_grid, self.drop_values)))

    def pelvis_height(self, posture: Posture, gait: GaitParams, speed: float, phase: float) -> float:
        """The pelvis's height (m) in the pose of these arguments: ``pose(...)[0][0][1]`` without the rest of
        the pose (the same arithmetic, so the same bits)."""
        p = posture
        amp = p.gait_scale * smoothstep(speed / GAIT_FADE_SPEED)
        stance_mid = phase - 0.5 * gait.duty
        return (self.stand_height - p.pelvis_drop - gait.drop * p.gait_scale
                + gait.bob * amp * math.cos(4.0 * math.pi * stance_mid))

    def pose(self, posture: Posture, gait: GaitParams, speed: float, phase: float, rhythm: RhythmPhase
             ) -> tuple[np.ndarray, float]:
        """(joints (22, 3) root-local, trunk lean) for one frame."""
        p = posture
        amp = p.gait_scale * smoothstep(speed / GAIT_FADE_SPEED)
        st = stride_for(gait, speed, p, amp)
        cyc = math.cos(2.0 * math.pi * phase)
        stance_mid = phase - 0.5 * gait.duty
        breath = p.breath_depth * math.sin(2.0 * math.pi * rhythm.breath)
        sway = p.sway * math.sin(math.pi * rhythm.breath)
        glance = p.glance * rhythm.glance_side
        lean = trunk_lean(p, speed)

        pelvis_y = self.pelvis_height(p, gait, speed, phase)
        pelvis_roll = gait.obliquity * amp * math.cos(2.0 * math.pi * stance_mid)
        pelvis_yaw = -gait.twist * amp * cyc
        chest_yaw = 0.6 * gait.twist * amp * cyc + 0.4 * glance
        trunk_roll = -0.4 * pelvis_roll + sway
        chest_pitch = lean + p.slump - breath
        swing = gait.arm_swing * p.arm_swing_scale * amp
        swing_l, swing_r = -swing * cyc, swing * cyc
        bend = gait.elbow_bend * amp
        arm_pitch = 0.3 * chest_pitch - p.arm_forward
        raise_l = p.shoulder_raise + 0.5 * breath
        half_pi = 0.5 * math.pi
        ua_l = (chest_yaw, arm_pitch - swing_l, trunk_roll - half_pi + p.arm_abduction)
        ua_r = (chest_yaw, arm_pitch - swing_r, trunk_roll + half_pi - p.arm_abduction)
        flex_l = p.elbow_flex + bend + 0.15 * max(swing_l, 0.0)
        flex_r = p.elbow_flex + bend + 0.15 * max(swing_r, 0.0)
        frames = (
            pelvis_yaw, 0.35 * lean, pelvis_roll + 0.5 * sway,                          # pelvis
            0.3 * pelvis_yaw + 0.15 * glance, 0.6 * lean, 0.8 * trunk_roll,             # spine1
            0.5 * chest_yaw + 0.1 * glance, 0.8 * lean + 0.5 * p.slump, trunk_roll,     # spine2
            chest_yaw, chest_pitch, trunk_roll,                                          # spine3
            1.3 * glance + p.head_scan * math.sin(2.0 * math.pi * rhythm.scan),          # neck
            0.45 * (lean + p.slump) + p.head_pitch, 0.5 * trunk_roll,
            chest_yaw - p.shoulder_protract, chest_pitch, trunk_roll + raise_l,          # left collar
            chest_yaw + p.shoulder_protract, chest_pitch, trunk_roll - raise_l,          # right collar
            *ua_l, *ua_r,                                                                # upper arms
            ua_l[0] - p.forearm_inward, ua_l[1] - flex_l, ua_l[2],                       # forearms
            ua_r[0] + p.forearm_inward, ua_r[1] - flex_r, ua_r[2],
        )
        # the bones in one kernel (pose_kernel's card: the same doubles numpy's cos/sin and elementwise
        # products and the gait's functions gave; compiled by numba when installed): the trunk, neck and arm
        # bones (each rest offset rotated by its parent's frame), then the legs, whose knees point where the
        # pelvis does
        g = self.geo
        legs = (g.ankle_height, g.tip_z, g.foot_width, g.toe_out, g.foot_y, g.foot_z, st.stance_travel, st.duty,
                st.lift, st.lift_exp, st.strike, st.toe_off, st.heel_off, st.follow, st.dx, st.dz, self.thigh,
                self.shin, math.sin(pelvis_yaw), math.cos(pelvis_yaw), pelvis_y, phase, (phase + 0.5) % 1.0)
        kern, path = pose_kernel.kernel(), pose_kernel.kernel_path()
        if path == "numba":
            out = self._kernel_out
            kern(np.array(frames), self._trunk_slot_arg, self._trunk_offset_arg, np.array(legs), out)
        else:
            flat = [0.0] * self._kernel_out.size
            kern(frames, self._trunk_slot_list, self._trunk_offset_list, legs, flat)
            out = np.array(flat)
        bones = self.bones
        bones[0] = (0.0, pelvis_y, 0.0)
        bones[self._kernel_rows] = out.reshape(-1, 3)
        return self.chain @ bones, lean
