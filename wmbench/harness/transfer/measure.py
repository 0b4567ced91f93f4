"""C10 · Cross-body Transferability: S46–S50 measured by running the same decisions through other bodies.

::

    scores = measure_c10("reference", seeds=(0,))          # {"S46": [ScenarioScore], ...}

**The brain's score** (:func:`measure_c10`, :func:`measure_c10_brain`): the brain itself runs closed loop on
the character, the robot and the drone (any registered body can be added) in four variants of each scene;
C10 scores how much of its outcome on the character carries over to the other bodies. The runs are
:mod:`wmbench.harness.transfer.outcome`; the rule and the fit of a decision are :mod:`wmbench.scoring.c10.rule`.

**Body diagnostics** (reported in each score's ``evidence["diagnostics"]``, never scored), measured as C10
was before (:func:`run_transfer`):

For each scenario and seed (:func:`run_transfer`):

1. the chosen brain runs closed-loop on the SMPL character (procedural generator) — its replies and the
   character's 22-joint frames are recorded;
2. exactly those replies, with no brain in the loop, are replayed on the servo robot and the drone
   (:func:`wmbench.harness.transfer.body_replay.replay_decisions`) and on the character driven by the second motion
   generator (keyframe).

Pipeline checks: one per scenario (S46 replay on the other bodies, S47 retarget pose error, S48 servo
tracking, S49 agreement of the two motion generators, S50 agreement of the bodies), each stated once in
:data:`~wmbench.scoring.c10.diagnostics.PIPELINE_RULE_TEXT` with its bands written from the constants
the scorers use. A brain that asked for no travelling motion gives them nothing to check: they score 0.

Every score's evidence holds the numbers and, per body, whether it ran, its wall-collision and caught rates.

This module runs and measures (:func:`run_transfer`, :func:`measure_c10`, the ``transfer`` measurer of
``run_suite``, and the pipeline diagnostics of each score); the constants, rule texts and scorers live in
:mod:`wmbench.scoring.c10.diagnostics`, the numbers they read in :mod:`wmbench.scoring.c10.metrics`.

Simplified: C10 runs use the env's default timing (``replay_decisions`` takes no env options), and the
character's frames are root-local (see :mod:`wmbench.scoring.c10.metrics`).
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np

from wmbench.body.character.smpl import SmplCharacter
from wmbench.body.motion.registry import get_generator
from wmbench.brain.base import Brain
from wmbench.brain.registry import get_brain
from wmbench.envs.pacing import body_pace
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.measure import MeasureContext, measurer
from wmbench.harness.transfer.body_replay import replay_decisions
from wmbench.harness.transfer.outcome import TRANSFER_BODIES, run_bodies
from wmbench.protocol.trace import Trace
from wmbench.scenarios import Scenario, get_scenario
from wmbench.scoring.c10.diagnostics import (
    C10_IDS,
    SOURCE_BODY,
    TARGET_BODIES,
    generator_pair,
    not_measured,
    score_transfer,
)
from wmbench.scoring.c10.metrics import BodyRun, TransferRuns
from wmbench.scoring.c10.rule import DIAGNOSTIC_OF, score_brain_transfer
from wmbench.scoring.report_types import ScenarioScore

__all__ = [
    "RecordingGenerator", "measure_c10", "measure_c10_brain", "measure_transfer", "run_transfer",
]


# ------------------------------------------------------------------------------------------------ running


class RecordingGenerator:
    """A motion generator that keeps a copy of every frame it gives the body (the character's 22 joints)."""

    def __init__(self, inner: Any, sink: list[np.ndarray]) -> None:
        self._inner, self._sink = inner, sink
        self.name, self.fps = inner.name, inner.fps

    def reset(self, seed: int | None = None) -> None:
        self._inner.reset(seed)

    def set_intent(self, intent: Any) -> None:
        self._inner.set_intent(intent)

    def next_frame(self, speed: float) -> Any:
        frame = self._inner.next_frame(speed)
        self._sink.append(np.array(frame.joints, dtype=float))
        return frame

    def clip(self, intent: Any, n_frames: int) -> np.ndarray:
        return self._inner.clip(intent, n_frames)


def _character(generator: str, sink: list[np.ndarray] | None = None) -> Any:
    def factory(fps: int) -> Any:
        made = get_generator(generator, fps)
        return made if sink is None else RecordingGenerator(made, sink)

    return SmplCharacter(generator_factory=factory)


def _guarded(body: str, run: Callable[[], Trace]) -> BodyRun:
    try:
        return BodyRun(body, run())
    except Exception as exc:  # a body (maybe a plugin) or its motion model broke in the world: recorded per body
        frames = "".join(traceback.format_tb(exc.__traceback__)[-3:]).rstrip()
        return BodyRun(body, None, f"{type(exc).__name__}: {exc}\n{frames}")


def run_transfer(scenario_id: str, brain: Brain, seed: int = 0, *, brain_label: str | None = None
                 ) -> TransferRuns:
    """The brain on the character, then its replies on every other body (see the module card)."""
    frames: list[np.ndarray] = []
    own, independent = generator_pair()
    result = run_episode(
        scenario_id, brain, SOURCE_BODY, seed, brain_label=brain_label,
        env_factory=lambda sid, _body, **_kw: WMBenchEnv(sid, body=_character(own, frames)))
    trace = Trace.from_dict(result.trace) if result.trace else None
    source = BodyRun(SOURCE_BODY, trace, result.error)
    replies = tuple(d.reply for d in source.decisions)
    replays = {body: _guarded(body, partial(replay_decisions, scenario_id, replies, body, seed=seed))
               for body in TARGET_BODIES}
    second = _guarded(f"{SOURCE_BODY}+{independent}",
                      lambda: replay_decisions(scenario_id, replies, _character(independent), seed=seed))
    return TransferRuns(scenario_id, seed, replies, source, replays, second,
                        np.stack(frames) if frames else None)


def pipeline_diagnostics(scenario_id: str, brain: Brain, seed: int) -> dict[str, Any]:
    """The scenario's pipeline check (the former C10 rule) as a body diagnostic: its points and numbers.

    Deliberately broad: the diagnostic is evidence *outside* the score (it never gives or costs points), so any
    fault in it — a broken body plugin or a bug in a pipeline check — is shown in the evidence with its type
    and message instead of stopping the C10 measurement. The scoring path (``score_transfer`` of the brain's
    own runs) has no such guard: a bug there raises."""
    try:
        old = score_transfer(run_transfer(scenario_id, brain, seed))
    except Exception as err:   # a diagnostic outside the score (see the docstring): shown, never points
        error = f"{type(err).__name__}: {err}"
        return {"what": DIAGNOSTIC_OF.get(scenario_id, ""), "measured": False, "error": error,
                "explanation": f"{scenario_id}: the pipeline check failed ({error})"}
    return {"what": DIAGNOSTIC_OF.get(scenario_id, ""), "measured": old.measured,
            "points_if_scored": old.score, "explanation": old.explanation,
            "numbers": old.evidence.get("transfer", {}), "bodies": old.evidence.get("bodies", {})}


def measure_brain_transfer(brain_factory: Callable[[], Brain], seeds: Sequence[int],
                           scenarios: Sequence[str], bodies: Sequence[str] = TRANSFER_BODIES,
                           diagnostics: bool = True, brain_label: str | None = None,
                           progress: Callable[[str], None] | None = None,
                           score_only: bool = False) -> dict[str, list[ScenarioScore]]:
    """C10 scores for ``scenarios`` and ``seeds`` with one brain (built once by ``brain_factory``);
    ``score_only`` (with ``diagnostics`` False): only the runs the score needs
    (:func:`~wmbench.harness.transfer.outcome.run_bodies`), so the per-body evidence may be partial."""
    if score_only and diagnostics:
        raise ValueError("score_only leaves the per-body evidence partial: it needs diagnostics=False")
    brain = brain_factory()
    out: dict[str, list[ScenarioScore]] = {}
    try:
        for sid in scenarios:
            record = get_scenario(sid)
            for seed in seeds:
                if progress is not None:
                    progress(f"transfer: {sid} seed {seed}: the brain closed loop on {', '.join(bodies)}")
                runs = run_bodies(record, brain, seed, bodies, brain_label=brain_label, score_only=score_only)
                diag = pipeline_diagnostics(sid, brain, seed) if diagnostics else {}
                if diagnostics and len(bodies) > 1:
                    diag["unnormalised"] = unnormalised_transfer(record, brain, seed, bodies, runs, brain_label)
                out.setdefault(sid, []).append(score_brain_transfer(sid, seed, runs, diag))
    finally:
        brain.close()
    return out


def unnormalised_transfer(record: Scenario, brain: Brain, seed: int, bodies: Sequence[str],
                          runs: Mapping[str, Sequence[tuple[str, Trace | None, str | None]]],
                          brain_label: str | None) -> dict[str, Any]:
    """The body diagnostic of body-normalised C10: the same rule over runs against the scene's own threat speeds
    (the source body's runs are the same either way). Reported, never scored."""
    targets = [b for b in bodies[1:] if body_pace(b) < 1.0]
    raw = run_bodies(record, brain, seed, targets, brain_label=brain_label, normalise=False) if targets else {}
    merged = {b: (raw[b] if b in raw else runs[b]) for b in bodies}
    scored = score_brain_transfer(record.id, seed, merged)
    return {"score": scored.score, "pace": {b: round(body_pace(b), 4) for b in bodies},
            "quality": {b: o["quality"] for b, o in scored.evidence["bodies"].items()}}


# ------------------------------------------------------------------------------------------------ measuring


def measure_c10(
    brain_spec: str,
    seeds: Sequence[int] = (0,),
    *,
    scenarios: Sequence[str] = C10_IDS,
    brain_options: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    bodies: Sequence[str] = TRANSFER_BODIES,
) -> dict[str, list[ScenarioScore]]:
    """Run and score the C10 ``scenarios`` for every seed with ``brain_spec`` (built once, then closed): the
    brain closed loop on every body of ``bodies`` (see :mod:`wmbench.harness.transfer.outcome`)."""
    return measure_c10_brain(lambda: get_brain(brain_spec, **dict(brain_options or {})), seeds,
                             scenarios=scenarios, progress=progress, bodies=bodies, brain_label=brain_spec)


def measure_c10_brain(
    brain_factory: Callable[[], Brain],
    seeds: Sequence[int] = (0,),
    scenarios: Sequence[str] = C10_IDS,
    *,
    progress: Callable[[str], None] | None = None,
    bodies: Sequence[str] = TRANSFER_BODIES,
    brain_label: str | None = None,
    diagnostics: bool = True,
    score_only: bool = False,
) -> dict[str, list[ScenarioScore]]:
    """:func:`measure_c10` for a brain object made by ``brain_factory`` (no registry spec needed);
    ``diagnostics`` False skips the pipeline checks (they never change the score); ``score_only`` (with
    ``diagnostics`` False) also skips the runs that cannot change it (see :func:`measure_brain_transfer`)."""
    wanted = [sid for sid in scenarios if sid in C10_IDS]
    out: dict[str, list[ScenarioScore]] = {
        sid: [not_measured(sid, f"{sid} is not a C10 scenario (C10 rules exist for {', '.join(C10_IDS)})")]
        for sid in scenarios if sid not in C10_IDS}
    if not wanted:
        return out
    out.update(measure_brain_transfer(brain_factory, seeds, wanted, bodies, diagnostics=diagnostics,
                                      brain_label=brain_label, progress=progress, score_only=score_only))
    return out


#: the test seeds C10 is measured on in a suite run: its five layouts are fixed (seeds vary the start jitter
#: only), so two seeds give its CI, and the default run's four drawn instances would double its cost (the
#: slowest part of the main job, a closed loop on three bodies per scenario and seed) for no new instance
TRANSFER_SEEDS = 2


@measurer("transfer")
def measure_transfer(scenarios: Sequence[Scenario], context: MeasureContext) -> dict[str, list[ScenarioScore]]:
    """The ``transfer`` measurer of ``run_suite``: C10 with the run's brain on the first
    :data:`TRANSFER_SEEDS` test seeds of the run. The character is always the source body; the robot and the
    drone are targets, and so is the run's ``--body`` when it is another (e.g. a plugin body)."""

    def say(line: str) -> None:
        if context.progress:
            print(line, file=sys.stderr, flush=True)

    extra = () if context.body in TRANSFER_BODIES else (context.body,)   # a plugin body run with --body
    return measure_c10(context.brain, context.seeds[:TRANSFER_SEEDS], scenarios=[s.id for s in scenarios],
                       brain_options=context.brain_options, progress=say, bodies=(*TRANSFER_BODIES, *extra))

