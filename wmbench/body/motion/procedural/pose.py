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

from dataclasses import replace

import numpy as np

from wmbench.body.motion.procedural import pose_kernel
from wmbench.body.motion.procedural.gait import (
    FootGeometry,
    GaitParams,
    lift_exponent,
    reach_drops,
    table_gait,
    travel_direction,
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
        # the whole-pose kernel's buffers: the output (a view of ``bones``), scratch, and its rows' joints
        self._bones_flat = self.bones.reshape(-1)
        self._kernel_row_arg = self._kernel_rows.astype(np.int64)
        self._kernel_row_list = tuple(self._kernel_rows.tolist())
        self._frames_arg = np.zeros(3 * len(_FRAME_JOINTS))
        self._legs_arg = np.zeros(pose_kernel.N_LEG_ARGS)
        self._params_for: tuple[Posture | None, GaitParams | None] = (None, None)
        self._param_list: tuple[float, ...] = ()
        self._param_arg = np.zeros(0)
        assert sorted((0, *_TRUNK_ROWS, *_LEG_ROWS)) == list(range(skeleton.n_joints))  # the kernel writes all

    def gait_at(self, speed: float) -> GaitParams:
        """Gait parameters at ``speed`` with the pelvis drop raised to what keeps the feet within reach."""
        table = table_gait(speed)
        return replace(table, drop=float(np.interp(speed, self.drop_grid, self.drop_values)))

    def pelvis_height(self, posture: Posture, gait: GaitParams, speed: float, phase: float) -> float:
        """The pelvis's height (m) in the pose of these arguments: ``pose(...)[0][0][1]`` without the rest of
        the pose (the same function, :func:`~wmbench.body.motion.procedural.pose_kernel.pelvis_y`, so the same
        bits)."""
        p = posture
        amp = p.gait_scale * smoothstep(speed / GAIT_FADE_SPEED)
        return pose_kernel.pelvis_y(self.stand_height, p.pelvis_drop, gait.drop, p.gait_scale, gait.bob, amp,
                                    gait.duty, phase)

    def _params(self, posture: Posture, gait: GaitParams) -> tuple[float, ...]:
        """The pose kernel's ``params`` (:data:`~wmbench.body.motion.procedural.pose_kernel.PARAM_FIELDS`)."""
        fields = pose_kernel.PARAM_FIELDS
        n_posture, n_gait = pose_kernel.N_POSTURE_PARAMS, pose_kernel.N_GAIT_PARAMS
        dx, dz = travel_direction(posture)
        g = self.geo
        return (*(float(getattr(posture, f)) for f in fields[:n_posture]),
                *(float(getattr(gait, f)) for f in fields[n_posture:n_posture + n_gait]),
                lift_exponent(gait), dx, dz, max(dz, 0.0), GAIT_FADE_SPEED,
                self.stand_height, g.ankle_height, g.tip_z, g.foot_width, g.toe_out, g.foot_y, g.foot_z,
                self.thigh, self.shin)

    def pose(self, posture: Posture, gait: GaitParams, speed: float, phase: float, rhythm: RhythmPhase
             ) -> tuple[np.ndarray, float]:
        """(joints (22, 3) root-local, trunk lean) for one frame.

        One kernel call (:func:`~wmbench.body.motion.procedural.pose_kernel.pose_frame`; numba when installed):
        the Euler-angle table of the trunk, neck and arms, the stride and the pelvis height from the posture's
        and gait's fields (packed again only when the posture or the gait object changes: both are frozen),
        then the trunk, neck and arm bones (each rest offset rotated by its parent's frame) and the legs, whose
        knees point where the pelvis does. The chain sum stays numpy's ``chain @ bones`` (BLAS's order)."""
        if posture is not self._params_for[0] or gait is not self._params_for[1]:
            params = self._params(posture, gait)
            self._params_for = (posture, gait)
            self._param_list = params
            self._param_arg = np.array(params)
        kern, path = pose_kernel.frame_kernel(), pose_kernel.frame_kernel_path()
        bones = self.bones
        if path == "numba":
            lean = kern(self._param_arg, float(speed), float(phase), float(rhythm.breath), float(rhythm.scan),
                        float(rhythm.glance_side),
                        self._trunk_slot_arg, self._trunk_offset_arg, self._kernel_row_arg, self._frames_arg,
                        self._legs_arg, self._kernel_out, self._bones_flat)
        else:
            flat = [0.0] * bones.size
            lean = kern(self._param_list, speed, phase, rhythm.breath, rhythm.scan, rhythm.glance_side,
                        self._trunk_slot_list, self._trunk_offset_list, self._kernel_row_list, [0.0] * 33,
                        [0.0] * pose_kernel.N_LEG_ARGS, [0.0] * self._kernel_out.size, flat)
            bones[:] = np.array(flat).reshape(bones.shape)
        return self.chain @ bones, lean
