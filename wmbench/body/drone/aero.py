"""Optional aerodynamics for the quadrotor: rotor drag, ground effect and downwash (all off by default).

Card
----
- **Why.** The default drone is the textbook rigid body pushed by four thrusts (no air). Users who want more
  realism switch effects on with :class:`AeroOptions` (``Quadrotor(aero=AeroOptions(drag=True, ...))``);
  scores of the default drone are unchanged (nothing here runs unless asked).
- **Coefficients** (:data:`CRAZYFLIE_2X_AERO`): the identified Crazyflie 2.x values gym-pybullet-drones
  ships in its ``cf2x.urdf`` (Förster 2015; Shi et al. 2019 for the ground effect; its downwash fit from the
  Dynamic Systems Lab): propeller radius 2.31348e-2 m, ground-effect coefficient 11.36859, drag 9.1785e-7
  (body x, y) and 10.311e-7 (body z) N per (m/s · rad/s), downwash 2267.18, 0.16, -0.11. The models below
  are the same three, written here in the body frame.
- **Drag** (:func:`drag_force`): ``F_b = -k ⊙ v_b · Σω_i`` -- body-frame velocity times the per-axis
  coefficient times the sum of the rotor speeds (rad/s), applied at the centre of mass in the body frame.
  (gym-pybullet-drones multiplies the *world* velocity by the per-axis coefficients before rotating it;
  with k_x = k_y that differs only in the z-tilt coupling.) At hover rpm and 3 m/s it is ~0.017 N, about 6 %
  of the weight.
- **Ground effect** (:func:`ground_effect_gain`): rotor i at height h_i above the ground (z = 0) gets extra
  thrust ``f_i · c_ge (R / 4h_i)²``, h clipped so that the gain never exceeds 4/15 (the cap gym-pybullet-
  drones sets through its minimum height); only while the craft is less than 90° from upright. At wmbench's
  altitudes (0.8-1.7 m) the gain is below 0.1 %: it matters for landing, which no scenario asks for.
- **Downwash** (:func:`downwash_force`): another rotorcraft ``dz > 0`` above and ``dxy < 10 m`` to the side
  pushes down with ``c1 (R / 4dz)² exp(-(dxy / (c2 dz + c3))² / 2)`` N. wmbench scenes have one drone, so it
  acts only when :attr:`Quadrotor.rotorcraft_above <wmbench.body.drone.quadrotor.Quadrotor.rotorcraft_above>` names
  positions (a multi-drone plugin, or a test).
- **Cost**: ``benchmarks/bench_floor.py`` measures the drone body with each effect on against off.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

RPM_TO_RAD_S = 2.0 * math.pi / 60.0
#: The ground-effect gain never exceeds this fraction of a rotor's thrust.
GROUND_EFFECT_MAX_GAIN = 4.0 / 15.0
#: Rotorcraft further than this (m) to the side cause no downwash.
DOWNWASH_RANGE = 10.0


@dataclass(frozen=True)
class AeroOptions:
    """Which effects to simulate (all off: the default drone)."""

    drag: bool = False
    ground_effect: bool = False
    downwash: bool = False

    @property
    def any(self) -> bool:
        return self.drag or self.ground_effect or self.downwash


@dataclass(frozen=True)
class AeroCoefficients:
    """Identified aerodynamic coefficients of a rotorcraft (see the module card)."""

    prop_radius: float = 2.31348e-2
    ground_effect: float = 11.36859
    drag_xy: float = 9.1785e-7
    drag_z: float = 10.311e-7
    downwash: tuple[float, float, float] = (2267.18, 0.16, -0.11)

    @property
    def ground_effect_min_height(self) -> float:
        """The height (m) below which the ground-effect gain stays at :data:`GROUND_EFFECT_MAX_GAIN`."""
        return self.prop_radius / 4.0 * math.sqrt(self.ground_effect / GROUND_EFFECT_MAX_GAIN)


CRAZYFLIE_2X_AERO = AeroCoefficients()


def drag_force(c: AeroCoefficients, rpm_sum: float,
               v_body: tuple[float, float, float]) -> tuple[float, float, float]:
    """Body-frame drag (N) for the summed rotor speed ``rpm_sum`` (rpm) and the body-frame velocity (m/s)."""
    w = rpm_sum * RPM_TO_RAD_S
    return (-c.drag_xy * w * v_body[0], -c.drag_xy * w * v_body[1], -c.drag_z * w * v_body[2])


def ground_effect_gain(c: AeroCoefficients, height: float) -> float:
    """Extra thrust of a rotor at ``height`` (m) above the ground, as a fraction of its own thrust."""
    h = max(height, c.ground_effect_min_height)
    ratio = c.prop_radius / (4.0 * h)
    return c.ground_effect * ratio * ratio


def downwash_force(c: AeroCoefficients, below: tuple[float, float, float],
                   above: Iterable[tuple[float, float, float]]) -> float:
    """Downward force (N, >= 0) on a rotorcraft at ``below`` from rotorcraft at the positions ``above``."""
    c1, c2, c3 = c.downwash
    total = 0.0
    for x, y, z in above:
        dz = z - below[2]
        dxy = math.hypot(x - below[0], y - below[1])
        if dz <= 0.0 or dxy >= DOWNWASH_RANGE:
            continue
        ratio = c.prop_radius / (4.0 * dz)
        beta = max(c2 * dz + c3, 1e-3)   # the fit's width reaches 0 at dz = 0.69 m; kept positive below
        total += c1 * ratio * ratio * math.exp(-0.5 * (dxy / beta) ** 2)
    return total
