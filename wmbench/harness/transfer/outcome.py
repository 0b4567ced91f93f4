"""C10 as the brain's transfer, the runs: the brain itself drives every body through every scene variant.

Card
----
- **Runs** (:func:`run_bodies`): for each C10 scenario and seed, the brain under test drives each body of
  :data:`TRANSFER_BODIES` (the SMPL character first, then the robot and the drone; a plugin body can be
  passed by name) through every scene variant of :data:`~wmbench.scoring.c10.SCENE_VARIANTS`
  (:func:`scene_variant`) — the scene as recorded and with the protagonist starting turned a quarter left,
  around, and a quarter right. The variants make the right direction depend on the scene: a brain that always
  moves the same way, whatever it perceives, meets the beast or the wall in some of them.
- The rule that turns these runs into points (decision fit, a body's outcome, the score) is
  :mod:`wmbench.scoring.c10`; the pipeline diagnostics are :mod:`wmbench.harness.transfer.c10`.
"""


from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from wmbench.brain.base import Brain
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.run.episode import run_episode
from wmbench.protocol.trace import Trace
from wmbench.scenarios import Scenario
from wmbench.scoring.c10 import SCENE_VARIANTS

TRANSFER_BODIES: tuple[str, ...] = ("smpl", "robot", "drone")
_TURNS: dict[str, float] = {"as_recorded": 0.0, "turned_left": math.pi / 2, "turned_around": math.pi,
                            "turned_right": -math.pi / 2}


# ------------------------------------------------------------------------------------------------ scenes


def scene_variant(record: Scenario, variant: str) -> Scenario:
    """``record`` as one of :data:`SCENE_VARIANTS` (same id): the protagonist starts turned by a quarter, a
    half or three quarters of a turn, so the same world lies in other directions of its body frame."""
    if variant not in SCENE_VARIANTS:
        raise ValueError(f"unknown scene variant {variant!r}; expected one of {SCENE_VARIANTS}")
    turn = _TURNS[variant]
    if turn == 0.0:
        return record
    return replace(record, phases=tuple(replace(p, start_heading=p.start_heading + turn) for p in record.phases))


def run_bodies(record: Scenario, brain: Brain, seed: int = 0, bodies: Sequence[str] = TRANSFER_BODIES,
               variants: Sequence[str] = SCENE_VARIANTS, brain_label: str | None = None,
               ) -> dict[str, list[tuple[str, Trace | None, str | None]]]:
    """The brain closed loop on each body in each variant: ``{body: [(variant, trace or None, error)]}``."""
    out: dict[str, list[tuple[str, Trace | None, str | None]]] = {}
    for body in bodies:
        for variant in variants:
            scene = scene_variant(record, variant)
            result = run_episode(record.id, brain, body, seed, brain_label=brain_label,
                                 env_factory=lambda _sid, b, _s=scene, **_kw: WMBenchEnv(_s, body=b))
            trace = Trace.from_dict(result.trace) if result.trace else None
            out.setdefault(body, []).append((variant, trace, result.error))
    return out
