"""The quadrotor airframe: published Crazyflie 2.x parameters, its URDF and the rotor mixer.

Card
----
- **Parameters** (:data:`CRAZYFLIE_2X`): mass 0.027 kg, arm 0.0397 m (rotors at ±0.028 m on x and y, "X"
  layout), thrust coefficient kf = 3.16e-10 N/rpm², drag-torque coefficient km = 7.94e-12 N·m/rpm²,
  thrust-to-weight 2.25, inertia diag(1.4e-5, 1.4e-5, 2.17e-5) kg·m², collision cylinder r 0.06 m, h 0.025 m.
  Source: the ``cf2x.urdf`` model of gym-pybullet-drones (Panerati et al., "Learning to Fly — a Gym
  Environment with PyBullet Physics for Reinforcement Learning of Multi-agent Quadcopter Control", IROS 2021),
  whose coefficients come from J. Förster, "System Identification of the Crazyflie 2.0 Nano Quadrocopter"
  (ETH Zürich, 2015). Units: rotor speed in rpm, force = kf rpm², yaw torque = km rpm².
- **Visibility.** The physics (mass, inertia, rotor positions, collision cylinder) is the real 9 cm craft;
  only the *visual* geometry is drawn :data:`VISUAL_SCALE` times larger so it can be seen in a 320x240 frame.
- **Mixer.** Rotor i at (x_i, y_i) pushes f_i along body z: ``T = Σf``, ``τx = Σ y_i f_i``,
  ``τy = -Σ x_i f_i``, ``τz = Σ s_i (km/kf) f_i`` (s = reaction-torque sign, diagonal rotors spin alike).
  :meth:`Airframe.mix` inverts that and saturates each rotor to [0, f_max].
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from wmbench.body.drone.pid import GRAVITY
from wmbench.body.robot.urdf import write_cached_urdf

#: Visual-only enlargement of the drone (physics stays at the real size).
VISUAL_SCALE = 4.0


@dataclass(frozen=True)
class QuadrotorParams:
    """A quadrotor's physical parameters (see the module card for the source)."""

    mass: float = 0.027
    arm: float = 0.0397
    kf: float = 3.16e-10
    km: float = 7.94e-12
    thrust_to_weight: float = 2.25
    inertia: tuple[float, float, float] = (1.4e-5, 1.4e-5, 2.17e-5)
    collision_radius: float = 0.06
    collision_height: float = 0.025

    @property
    def rotor_offset(self) -> float:
        """|x| = |y| of each rotor in the X layout."""
        return self.arm / math.sqrt(2.0)

    @property
    def max_rotor_force(self) -> float:
        return self.thrust_to_weight * self.mass * GRAVITY / 4.0

    @property
    def hover_rpm(self) -> float:
        return math.sqrt(self.mass * GRAVITY / (4.0 * self.kf))

    @property
    def max_rpm(self) -> float:
        return math.sqrt(self.max_rotor_force / self.kf)


CRAZYFLIE_2X = QuadrotorParams()


@dataclass(frozen=True)
class RotorCommand:
    """Per-rotor thrust (N) and speed (rpm), and the total reaction torque about body z (N·m)."""

    forces: tuple[float, float, float, float]
    rpm: tuple[float, float, float, float]
    yaw_torque: float


class Airframe:
    """Rotor positions and the mixer of a :class:`QuadrotorParams` vehicle."""

    #: Rotor order: front-left, back-left, back-right, front-right; reaction-torque signs alternate.
    LAYOUT = ((1.0, 1.0, -1.0), (-1.0, 1.0, 1.0), (-1.0, -1.0, -1.0), (1.0, -1.0, 1.0))

    def __init__(self, params: QuadrotorParams = CRAZYFLIE_2X) -> None:
        self.params = params
        d = params.rotor_offset
        self.rotor_positions = tuple((sx * d, sy * d, 0.0) for sx, sy, _ in self.LAYOUT)
        self.torque_signs = tuple(s for _, _, s in self.LAYOUT)
        ratio = params.km / params.kf
        mix = np.array([
            [1.0, 1.0, 1.0, 1.0],
            [y for _, y, _ in self.rotor_positions],
            [-x for x, _, _ in self.rotor_positions],
            [s * ratio for s in self.torque_signs],
        ])
        self._unmix = np.linalg.inv(mix)
        self._rows = tuple(tuple(float(v) for v in row) for row in self._unmix)
        self._km_signs = tuple(s * params.km for s in self.torque_signs)
        self._f_max = params.max_rotor_force

    def mix(self, thrust: float, torque: tuple[float, float, float]) -> RotorCommand:
        """Rotor forces for a collective thrust and body torques, saturated to [0, f_max] per rotor."""
        f0, f1, f2, f3, yaw = self.mix_forces(thrust, torque[0], torque[1], torque[2])
        return RotorCommand((f0, f1, f2, f3), self.rotor_rpm(f0, f1, f2, f3), yaw)

    def mix_forces(self, thrust: float, tx: float, ty: float,
                   tz: float) -> tuple[float, float, float, float, float]:
        """The hot path of :meth:`mix` on plain floats: ``(f0, f1, f2, f3, yaw_torque)``.

        Each rotor force is the row of the inverse mixing matrix dotted with ``(T, tx, ty, tz)``, summed as
        ``(a0 T + a2 ty) + (a1 tx + a3 tz)`` -- the order numpy's float64 matmul of a 4x4 by a 4-vector
        sums in (checked bit for bit on 80,000 random inputs when this replaced it), so traces stayed
        byte-identical; on another numpy build the two may differ in the last bit."""
        f_max = self._f_max
        kf = self.params.kf
        (a0, a1, a2, a3), (b0, b1, b2, b3), (c0, c1, c2, c3), (d0, d1, d2, d3) = self._rows
        k0, k1, k2, k3 = self._km_signs
        f0 = (a0 * thrust + a2 * ty) + (a1 * tx + a3 * tz)
        f1 = (b0 * thrust + b2 * ty) + (b1 * tx + b3 * tz)
        f2 = (c0 * thrust + c2 * ty) + (c1 * tx + c3 * tz)
        f3 = (d0 * thrust + d2 * ty) + (d1 * tx + d3 * tz)
        # min(max(f, 0), f_max), written out
        f0 = 0.0 if f0 < 0.0 else f0
        f0 = f_max if f_max < f0 else f0
        f1 = 0.0 if f1 < 0.0 else f1
        f1 = f_max if f_max < f1 else f1
        f2 = 0.0 if f2 < 0.0 else f2
        f2 = f_max if f_max < f2 else f2
        f3 = 0.0 if f3 < 0.0 else f3
        f3 = f_max if f_max < f3 else f3
        r0, r1, r2, r3 = math.sqrt(f0 / kf), math.sqrt(f1 / kf), math.sqrt(f2 / kf), math.sqrt(f3 / kf)
        yaw = 0.0 + k0 * r0 * r0 + k1 * r1 * r1 + k2 * r2 * r2 + k3 * r3 * r3
        return f0, f1, f2, f3, yaw

    def rotor_rpm(self, f0: float, f1: float, f2: float, f3: float) -> tuple[float, float, float, float]:
        """Rotor speeds (rpm) that give these thrusts."""
        kf = self.params.kf
        return (math.sqrt(f0 / kf), math.sqrt(f1 / kf), math.sqrt(f2 / kf), math.sqrt(f3 / kf))


def _visual(name: str, geometry: str, xyz: tuple[float, float, float], rgba: str, rpy: str = "0 0 0") -> str:
    return (f'    <visual><origin xyz="{xyz[0]:.4f} {xyz[1]:.4f} {xyz[2]:.4f}" rpy="{rpy}"/>'
            f'<geometry>{geometry}</geometry><material name="{name}">'
            f'<color rgba="{rgba}"/></material></visual>\n')


@lru_cache(maxsize=4)
def drone_urdf_text(params: QuadrotorParams = CRAZYFLIE_2X) -> str:
    """The URDF: one link with the real inertia and collision cylinder and an enlarged visual."""
    ixx, iyy, izz = params.inertia
    s = VISUAL_SCALE
    d = params.rotor_offset * s
    arm_len = 2.0 * params.arm * s
    visuals = _visual("hull", f'<box size="{0.03 * s:.4f} {0.03 * s:.4f} {0.01 * s:.4f}"/>', (0.0, 0.0, 0.0),
                      "0.15 0.15 0.18 1")
    for k, yaw in enumerate((math.pi / 4, -math.pi / 4)):
        box = f'<box size="{arm_len:.4f} {0.004 * s:.4f} {0.003 * s:.4f}"/>'
        visuals += _visual(f"arm{k}", box, (0.0, 0.0, 0.0), "0.25 0.25 0.28 1", rpy=f"0 0 {yaw:.5f}")
    for i, (sx, sy, _) in enumerate(Airframe.LAYOUT):
        color = "0.9 0.3 0.2 0.8" if sx > 0 else "0.2 0.6 0.9 0.8"  # front rotors red, rear blue
        visuals += _visual(f"rotor{i}", f'<cylinder radius="{0.023 * s:.4f}" length="{0.002 * s:.4f}"/>',
                           (sx * d, sy * d, 0.004 * s), color)
    return (
        '<?xml version="1.0"?>\n<robot name="wmbench_quadrotor">\n  <link name="base_link">\n'
        f'    <inertial><origin xyz="0 0 0"/><mass value="{params.mass}"/>'
        f'<inertia ixx="{ixx}" iyy="{iyy}" izz="{izz}" ixy="0" ixz="0" iyz="0"/></inertial>\n'
        f'{visuals}'
        f'    <collision><origin xyz="0 0 0"/><geometry><cylinder radius="{params.collision_radius}" '
        f'length="{params.collision_height}"/></geometry></collision>\n'
        '  </link>\n</robot>\n'
    )


def drone_urdf_path(params: QuadrotorParams = CRAZYFLIE_2X) -> Path:
    """A file holding :func:`drone_urdf_text` (content-addressed, written once)."""
    return write_cached_urdf("drone", drone_urdf_text(params))
