"""C09 · Realtime Performance, the measuring: S41–S45 as live runs with the brain thinking concurrently.

::

    scores = measure_c09("reference", body="smpl", seed=0, fps=60)     # {"S41": [ScenarioScore], ...}

Every scenario is one live run (:func:`wmbench.harness.live.loop.run_live`) at the target FPS, kept in
``live.json`` with its trace (:class:`~wmbench.harness.live.store.LiveStore`) and scored by the rules in
:mod:`wmbench.scoring.c09`: the brain's think time and decisions are scored; the pipeline's wall-clock numbers
(FPS, dropped frames, memory) are reported as harness properties. S43 adds a motion stream per NPC
(:class:`NpcMotionStreams`); S41 runs as its FPS baseline (reported). :func:`measure_live` and
:func:`skip_live` are the ``live`` measurers of ``run_suite``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.registry import selected_generator
from wmbench.brain.base import Brain
from wmbench.brain.registry import get_brain
from wmbench.core.speed import SpeedClass
from wmbench.harness.live.loop import run_live
from wmbench.harness.live.store import LiveStore
from wmbench.harness.run.measure import MeasureContext, measurer
from wmbench.scenarios import Scenario
from wmbench.scoring.c09 import C09_IDS, TRACED_RUNS, not_measured, score_c09
from wmbench.scoring.live_run import DEFAULT_FPS, LiveResult
from wmbench.scoring.report_types import ScenarioScore


class NpcMotionStreams:
    """S43's extra load: one procedural motion stream per present NPC, advanced every frame at its speed."""

    def __init__(self) -> None:
        self._streams: dict[str, tuple[Any, str]] = {}
        self.frames = 0

    def __call__(self, env: Any) -> None:
        crowd = getattr(env, "crowd", None)
        for npc in (crowd.present() if crowd is not None else ()):
            generator, behavior = self._streams.get(npc.name, (None, ""))
            if generator is None:
                generator = selected_generator(env.frame_rate, seed=len(self._streams))
            if behavior != npc.behavior:
                moving = npc.moving
                generator.set_intent(MotionIntent("fwd", 0.0, SpeedClass.WALK, frozenset({"normal"}))
                                     if moving else MotionIntent.still())
            self._streams[npc.name] = (generator, npc.behavior)
            generator.next_frame(npc.current_speed)
            self.frames += 1


def measure_c09(
    brain_spec: str,
    body: str = "smpl",
    seed: int = 0,
    fps: int = DEFAULT_FPS,
    *,
    scenarios: Sequence[str] = C09_IDS,
    brain_options: Mapping[str, Any] | None = None,
    store: LiveStore | Path | str | None = None,
    durations: Mapping[str, float] | None = None,
    progress: Callable[[str], None] | None = None,
    make_brain: Callable[[], Brain] | None = None,
) -> dict[str, list[ScenarioScore]]:
    """Measure the C09 ``scenarios`` live with ``brain_spec`` and score them (see the module card).

    ``make_brain`` builds the brain instead of the registry (``brain_spec`` is then its label only: the
    latency–accuracy frontier passes a brain under a think-time budget this way).

    With a ``store`` (a :class:`LiveStore` or a run directory), runs already stored with the same brain, body,
    seed and FPS are reused and each new run is stored as soon as it ends. ``durations`` cuts runs short (sim
    seconds per scenario id; for tests). The brain is built once and shared by the runs.
    """
    wanted = [sid for sid in scenarios if sid in C09_IDS]
    runs = (["S41"] if "S43" in wanted and "S41" not in wanted else []) + wanted
    live_store = store if isinstance(store, LiveStore) or store is None else LiveStore(store)
    results: dict[str, LiveResult] = {}
    failures: dict[str, str] = {}
    brain = None
    try:
        for sid in runs:
            stored = live_store.reusable(sid, brain_spec, body, seed, fps) if live_store else None
            if stored is not None:
                results[sid] = stored
                continue
            if brain is None:
                brain = make_brain() if make_brain is not None else get_brain(brain_spec, **dict(brain_options or {}))
            if progress is not None:
                progress(f"live: measuring {sid} ({brain_spec}, {body}, {fps} FPS)")
            try:
                result = run_live(sid, brain, body, fps, seed, (durations or {}).get(sid),
                                  frame_work=NpcMotionStreams() if sid == "S43" else None, brain_label=brain_spec,
                                  keep_trace=sid in TRACED_RUNS)
            except Exception as exc:  # one broken run (e.g. its env cannot be built) costs that scenario only
                failures[sid] = f"the live run of {sid} failed: {type(exc).__name__}: {exc}"
                continue
            results[sid] = result
            if live_store is not None:
                live_store.put(result, include_trace=sid in TRACED_RUNS)
    finally:
        if brain is not None:
            brain.close()
    out = score_c09(results, [sid for sid in scenarios if sid in C09_IDS])
    out.update({sid: [not_measured(sid, why, seed)] for sid, why in failures.items() if sid in out})
    out.update({sid: [not_measured(sid, f"{sid} is not a C09 scenario")] for sid in scenarios
                if sid not in C09_IDS})
    return out


@measurer("live")
def measure_live(scenarios: Sequence[Scenario], context: MeasureContext) -> dict[str, list[ScenarioScore]]:
    """The ``live`` measurer of ``run_suite``: C09 with the run's brain, body and first seed; the runs are
    kept in ``<out>/live.json`` so a resumed suite reuses them."""

    def say(line: str) -> None:
        if context.progress:
            print(line, file=sys.stderr, flush=True)

    return measure_c09(context.brain, context.body, context.seeds[0], scenarios=[s.id for s in scenarios],
                       brain_options=context.brain_options, store=LiveStore(Path(context.out)), progress=say)


def skip_live(scenarios: Sequence[Scenario], context: MeasureContext) -> dict[str, list[ScenarioScore]]:
    """The ``live`` measurer of ``run_suite --no-live``: C09 reported as not measured, saying why."""
    why = "live measurement skipped (--no-live); run without --no-live, or `wmbench live`, to measure it"
    return {s.id: [not_measured(s.id, why)] for s in scenarios}
