"""C10 as the brain's transfer, the runs: the brain itself drives every body through every scene variant.

Card
----
- **Runs** (:func:`run_bodies`): for each C10 scenario and seed, the brain under test drives each body of
  :data:`TRANSFER_BODIES` (the SMPL character first, then the robot and the drone; a plugin body can be
  passed by name) through every scene variant of :data:`~wmbench.scoring.c10.rule.SCENE_VARIANTS`
  (:func:`scene_variant`) — the scene as recorded and with the protagonist starting turned a quarter left,
  around, and a quarter right. The variants make the right direction depend on the scene: a brain that always
  moves the same way, whatever it perceives, meets the beast or the wall in some of them.
- **Body-normalised threats** (:func:`~wmbench.envs.pacing.paced_record`, the same function the env paces every bench
  scene with): on a body slower than the character, every NPC speed of the scene (its default or recorded speed, and
  every speed a timeline switch sets) is multiplied by the body's **pace** (:func:`~wmbench.envs.pacing.body_pace`:
  the body's sprint speed / the character's, capped at 1: robot 2.5 / 6.5 = 0.38, drone 3 / 6.5 = 0.46), and every
  phase's duration and event time is divided by it: the distances stay, and the scene plays out as on the character
  but slower, on the body's own clock (the drone gets 13 decisions where the character gets 6). So a threat closes the
  gap in the body's own time scale and C10's "carried" measures the brain's decisions, not the body's top speed. The
  transfer scenes are paced here (``normalise``), so the env is built with ``pace="scene"`` and plays the record it is
  given. (Until 0.4 only the speeds were scaled and the timings kept: a brain whose pace depends on the threat's
  distance then met only the first part of the story on a slow body.) The runs against the scene's own speeds are kept
  as a body diagnostic (``evidence["diagnostics"]["unnormalised"]``), never scored.
- **Score only** (``run_bodies(..., score_only=True)``, what the validity panel asks for): the score is
  ``20 x Q(character) x carried`` with Q a body's *worst* run, so a run of quality 0 settles its body's Q at 0
  and a character Q of 0 settles the score at 0. A score-only call stops a body's variants at its first run of
  quality 0 and skips the target bodies once the character's Q is 0: the same score from fewer runs (the
  per-body evidence then covers only the runs made, so full runs stay the default everywhere a report reads
  it).
- The rule that turns these runs into points (decision fit, a body's outcome, the score) is
  :mod:`wmbench.scoring.c10.rule`; the pipeline diagnostics are :mod:`wmbench.harness.transfer.measure`.
"""


from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from wmbench.brain.base import Brain
from wmbench.envs.pacing import SCENE_PACE, body_pace, paced_record
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.run.episode import run_episode
from wmbench.protocol.trace import Trace
from wmbench.scenarios import Scenario
from wmbench.scoring.c10.rule import SCENE_VARIANTS, body_outcome

__all__ = ["TRANSFER_BODIES", "run_bodies", "scene_variant"]

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
               variants: Sequence[str] = SCENE_VARIANTS, brain_label: str | None = None, *,
               normalise: bool = True, score_only: bool = False
               ) -> dict[str, list[tuple[str, Trace | None, str | None]]]:
    """The brain closed loop on each body in each variant: ``{body: [(variant, trace or None, error)]}``;
    ``normalise``: threats paced to each body (:func:`paced_record`), else the scene's own speeds;
    ``score_only``: stop where the score is settled (see the card: same score, fewer runs)."""
    out: dict[str, list[tuple[str, Trace | None, str | None]]] = {}
    for body in bodies:
        paced = paced_record(record, body_pace(body)) if normalise else record
        runs = out.setdefault(body, [])
        for variant in variants:
            scene = scene_variant(paced, variant)
            result = run_episode(record.id, brain, body, seed, brain_label=brain_label,
                                 env_factory=lambda _sid, b, _s=scene, **_kw: WMBenchEnv(_s, body=b, pace=SCENE_PACE))
            runs.append((variant, Trace.from_dict(result.trace) if result.trace else None, result.error))
            if score_only and body_outcome(body, runs[-1:]).quality == 0.0:
                break   # this body's Q (its worst run) is 0 whatever its other variants do
        if score_only and body == bodies[0] and body_outcome(body, runs).quality == 0.0:
            break       # the character's Q is 0: the score is 0 whatever the other bodies do
    return out
