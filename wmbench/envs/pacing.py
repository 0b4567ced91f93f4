"""Scene pacing: a bench scene played at the body's pace, so a slow body meets the character's story, slower.

Card
----
- **Pace** (:func:`body_pace`): the body's sprint speed over the character's, capped at 1 — the SMPL character
  and any body at least as fast as it have pace 1; the robot 2.5 / 6.5 = 0.38, the drone 3 / 6.5 = 0.46.
- **Paced record** (:func:`paced_record`): every NPC speed of the scene (its default or recorded speed, and every
  speed a timeline switch sets) times the pace, every phase's duration and every event time divided by it. The
  distances stay, the story stays; it plays out on the body's own clock (a body at half the character's pace
  gets twice the seconds and twice the decisions). A threat then closes the gap in the body's time scale, so a
  score measures the brain's decisions, not the body's top speed.
- **Where it applies** (:func:`scene_pace`): every *bench* scene (``mode == "bench"``: C01–C08 and user bench
  scenarios) on a body whose pace is below 1, by default — the env paces the instance it draws at each reset
  (:class:`~wmbench.envs.wmbench_env.WMBenchEnv`, the one place every episode path goes through:
  ``gym.make``, ``wmbench run``, live, validity, the process and Ray executors). C09's live scenes are played
  as recorded (its rules time the brain in sim seconds), and C10's transfer runs pace their own scenes with
  these same functions (:mod:`wmbench.harness.transfer.outcome`), so the env leaves them as given.
- **Opt-out** (:data:`SCENE_PACE`, ``WMBenchEnv(..., pace="scene")``, ``wmbench run --unpaced``): the scene's
  own NPC speeds and timings on any body — a *diagnostic* of the body's raw physical limits (a slow body is then
  caught where the character escapes), not a measure of the brain.
- **Recorded**: a paced episode's trace carries the pace in ``meta["instance"]["pace"]``; absent means the scene
  ran at its own pace (1), as in every trace written before pacing existed. A run on a slow body records the
  pace of its bench scenes (:func:`run_pace`) in ``run.json`` and ``scores.json``'s ``run`` block (``pace``), and
  the report card prints it beside the body.
- **What the rules read**: every scoring rule reads the trace — decision times, events and distances of the
  scene as played — never the registered record's timings, so a paced scene is scored on its own clock; see
  ``docs/simulation.md`` ("Bench scenes paced to the body") for the rule-by-rule check.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal, get_args

from wmbench.body.base import Body
from wmbench.body.registry import get_body
from wmbench.core.entities import BEHAVIOR_SPEEDS
from wmbench.core.errors import ConfigError
from wmbench.core.speed import SPEED_CLASS_SPEEDS, SpeedClass
from wmbench.scenarios.records import NpcSpec, Phase, Scenario, TimelineEvent

__all__ = ["BODY_PACE", "PACE_MODES", "SCENE_PACE", "PaceMode", "body_pace", "check_pace_mode", "paced_record",
           "run_pace", "scene_pace"]

#: How an env paces its bench scenes: ``"body"`` (default) at the body's pace, ``"scene"`` as recorded.
PaceMode = Literal["body", "scene"]
PACE_MODES: tuple[str, ...] = get_args(PaceMode)
BODY_PACE: PaceMode = "body"
#: the opt-out: the scene's own speeds and timings (a diagnostic of the body's raw limits)
SCENE_PACE: PaceMode = "scene"


def check_pace_mode(mode: object) -> PaceMode:
    """``mode`` if it is one of :data:`PACE_MODES`, else a :class:`~wmbench.core.errors.ConfigError`."""
    if mode == BODY_PACE:
        return BODY_PACE
    if mode == SCENE_PACE:
        return SCENE_PACE
    raise ConfigError(f"pace must be one of {', '.join(map(repr, PACE_MODES))}, got {mode!r} "
                      f"('body': bench scenes at the body's pace; 'scene': their own speeds, a diagnostic)")


def body_pace(body: str | Body) -> float:
    """The body's sprint speed over the character's, capped at 1 (a faster body meets the scene's own threats)."""
    sprint = SpeedClass.SPRINT.value
    envelope = (get_body(body) if isinstance(body, str) else body).envelope
    return min(1.0, float(envelope[sprint]) / SPEED_CLASS_SPEEDS[sprint])


def scene_pace(record: Scenario, pace: float, mode: PaceMode = BODY_PACE) -> float:
    """The pace ``record`` is played at in an env whose body has pace ``pace``: the body's pace for a bench
    scene, 1 for other modes (C09 live, C10 transfer) and with the ``"scene"`` opt-out."""
    return pace if mode == BODY_PACE and record.mode == "bench" else 1.0


def run_pace(body: str | Body, mode: object = BODY_PACE) -> float | None:
    """The pace a run's bench scenes are played at, as ``run.json`` and ``scores.json`` record it: None on a body
    at the character's pace (nothing is paced, nothing recorded), else the body's pace — or 1.0 with the
    ``"scene"`` opt-out. A bad ``mode`` is a :class:`~wmbench.core.errors.ConfigError`."""
    checked = check_pace_mode(mode)
    pace = body_pace(body)
    if pace >= 1.0:
        return None
    return pace if checked == BODY_PACE else 1.0


def paced_record(record: Scenario, pace: float) -> Scenario:
    """``record`` played slower by ``pace``: every NPC speed (default or recorded, and every speed a switch sets)
    times ``pace``, every phase's duration and event time divided by it — the same distances and the same
    story, on the body's own clock (a body at half the character's pace gets twice the time and decisions).
    ``pace`` 1 returns ``record`` itself."""
    if pace == 1.0:
        return record
    if not 0.0 < pace <= 1.0:
        raise ValueError(f"pace must be in (0, 1], got {pace!r}")

    def npc(spec: NpcSpec) -> NpcSpec:
        return replace(spec, speed=spec.resolved_speed * pace)

    def event(e: TimelineEvent) -> TimelineEvent:
        if e.speed is not None:
            return replace(e, at=e.at / pace, speed=e.speed * pace)
        if e.behavior is not None:
            return replace(e, at=e.at / pace, speed=BEHAVIOR_SPEEDS[e.behavior] * pace)
        return replace(e, at=e.at / pace)

    def phase(p: Phase) -> Phase:
        return replace(p, duration=p.duration / pace, npcs=tuple(map(npc, p.npcs)), events=tuple(map(event, p.events)))

    return replace(record, phases=tuple(map(phase, record.phases)))
