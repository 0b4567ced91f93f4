"""C09 · Realtime Performance, the rules: S41–S45 scored 0–20 each from live runs' records.

::

    scores = score_c09(results)     # {"S41": [ScenarioScore], ...} from {sid: LiveResult}

Every scenario is one live run (:func:`wmbench.harness.live.loop.run_live`) at the target FPS with the chosen
brain thinking concurrently. The rules are stated once, in :data:`RULE_TEXT` (their bands written from the
constants below, the scenario cards' ``Rule:`` paragraphs generated from it).

What is scored is what the system under test brings — its brain: how long it thinks per decision
(:func:`think_seconds`, the wall time of the brain's own call, p95) and what it answers (the decisions judged
against the live run's ground truth). Decisions are placed in *sim* time (the scene a decision was made on,
``snapshot_t``), so the frame loop being late on a busy machine does not move them. wmbench's own pipeline
properties — the frame rate (S41), its drop under NPC motion streams (S43), dropped frames (S44), process
memory growth (S45) — are measured and reported in each score's ``evidence["harness"]``, never scored: they
measure this machine and wmbench's code, and they move with the machine's load.

Why (0.4): the 0.3 rules scored the pipeline's FPS, FPS drop, dropped frames and memory, so 60 of 100 points went
to any brain (the null brain included), and S44 moved with the machine's load. Load enters the score now only
through the brain's own think time, in bands (0.5 s / 1 s / 2 s; 3 s / 5 s / 10 s) far above what machine load
adds to a brain that fits them.

A run that failed (``error``) or produced no frames is *not measured* (``measured`` False), never a silent 0.
Scoring is a pure function of the stored :class:`~wmbench.harness.live.loop.LiveResult` records
(:func:`score_c09`), so ``wmbench report`` rebuilds the same scores from ``live.json``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from wmbench.core.directions import DIRECTION_READINGS, OPPOSITE
from wmbench.core.entities import PURSUIT_BEHAVIORS
from wmbench.protocol.trace import Trace
from wmbench.scoring.bands import band_text, not_measured_in, points_at_least, points_at_most
from wmbench.scoring.evidence import spatial_accuracy
from wmbench.scoring.live_run import LiveResult, percentile
from wmbench.scoring.registry import measured_category
from wmbench.scoring.report_types import Evidence, ScenarioScore

CATEGORY = "C09"
C09_IDS: tuple[str, ...] = ("S41", "S42", "S43", "S44", "S45")
#: the brain's think time per decision (p95, seconds): (upper bound, points), best first; above: 0. The first
#: bound is the decision slot (0.5 s of sim time): a brain within it has a fresh decision ready every slot.
THINK_POINTS_S: tuple[tuple[float, float], ...] = ((0.5, 20.0), (1.0, 15.0), (2.0, 5.0))
#: S41/S43: (lowest share of decisions that keep the body moving safely, factor), best first; below: 0
MOVING_SHARE_FACTORS: tuple[tuple[float, float], ...] = ((0.8, 1.0), (0.5, 0.5))
#: S42: (upper bound in seconds, points), best first; above the last bound (or never) scores 0.
LATENCY_POINTS_S: tuple[tuple[float, float], ...] = ((3.0, 20.0), (5.0, 15.0), (10.0, 5.0))
#: S45: process memory growth over the despawns (reported as a harness property, see the module card)
MEMORY_GROWTH_POINTS: tuple[tuple[float, float], ...] = ((0.05, 20.0), (0.15, 15.0), (0.30, 5.0))
TIMELINE_PREFIXES = ("spawn:", "switch:", "despawn:")
#: S44/S45: a beast's appearance or switch is answered when a decision on a scene taken within this many sim
#: seconds after it moves away from it (and the next keeps moving away)
RESPONSE_WINDOW_S = 2.0
#: the live runs whose trace is kept (their rules judge each decision against its truth)
TRACED_RUNS = frozenset(C09_IDS)
_MOVES_AWAY = ("move away from the beast (the sector opposite it, or any safe one but the beast's when that is "
               "blocked")
_THINK = (f"Think time = the wall time of the brain's own call per decision, p95 over the run: "
          f"{band_text(THINK_POINTS_S, '<=', ' s')}, slower = 0")
_MOVING = ("a decision keeps the body moving safely when it parses, its PREDICT is exact or partial against "
           "the ray-cast truth (as C01), it asks for a gait (not standing) and its direction is safe in the "
           "decision's ground truth; share of the run's decisions "
           + "; ".join(f">= {100 * share:g} % x {factor:g}" for share, factor in MOVING_SHARE_FACTORS)
           + ", less x 0")
_HARNESS = ("reported as a harness property in evidence.harness (wmbench's pipeline on this machine), not scored")

#: Each scenario's rule, the one statement of it: the cards' ``Rule:`` paragraphs are generated from it
#: (:mod:`wmbench.harness.cli.scenario_cards`), its bands from the constants the scorers use.
RULE_TEXT: dict[str, str] = {
    "S41": f"the brain keeps the body's frame stream fed while it walks. {_THINK}; times the moving share "
           f"({_MOVING}). The frame rate (motion frames per wall second, paced at the target) is {_HARNESS}. "
           "A failed run, one that produced no frames or no decisions is not measured.",
    "S42": "the scene change is the run's first timeline event (the beast's spawn at 2 s). The response is "
           "the first decision that (a) was made on a scene taken after the change (sim time) and (b) asks "
           "for a different intent than the decision before it (direction, speed class or style tags; the "
           "body starts standing still) and (c) suits the new scene: with the beast nearby it and the next "
           f"decision {_MOVES_AWAY}; a change toward it does not count). Latency = sim seconds from the change "
           "to the scene that decision was made on, plus that decision's think time: "
           f"{band_text(LATENCY_POINTS_S, '<=', ' s')}, later or never = 0. No scene change during the run, a "
           "failed run, or one that produced no frames is not measured.",
    "S43": f"the protagonist keeps its own motion stream going while the NPCs' run: {_THINK}; times the moving "
           f"share ({_MOVING}; a person within 2 m is danger). The frame rate with one motion stream per NPC "
           f"and its drop against S41 are {_HARNESS}. A failed run, one that produced no frames or no "
           "decisions is not measured.",
    "S44": f"the scene changes every second. {_THINK}; times the share of the beast's appearances and "
           f"approaches answered by a decision, on a scene taken within {RESPONSE_WINDOW_S:g} sim seconds "
           f"after the change, that {_MOVES_AWAY}) and is followed by one that keeps moving away. Dropped "
           f"frames are {_HARNESS}. A failed run, one that produced no frames, or one that kept no trace to "
           "judge the responses by, is not measured.",
    "S45": "three beasts appear and vanish in turn. The share of their appearances answered as in S44, times "
           "20, times the memory factor: process memory (RSS, plus the GPU memory allocated by torch where "
           "CUDA is in use) sampled after each despawn, growth = (third - first) / first, a shrink counting as "
           f"0: {band_text(MEMORY_GROWTH_POINTS, '<=', ' %', 100)} (as a fraction of 20), more = 0 — memory does "
           "not move with CPU load, and a brain in the process is part of it. Fewer than two samples, a "
           "failed run, or one that produced no frames is not measured.",
}


# ------------------------------------------------------------------------------------------------ scoring


def _bands(bands: Sequence[tuple[float, float]]) -> list[list[float]]:
    """Bands as plain JSON lists (evidence must read back from scores.json exactly as written)."""
    return [list(band) for band in bands]


def _score(result: LiveResult, sid: str, rule: str, points: float, summary: str, numbers: dict[str, Any],
           harness: dict[str, Any] | None = None) -> ScenarioScore:
    evidence: Evidence = {"rule": rule, "live": {**result.summary(), **numbers},
                "harness": {"fps": result.fps, "work_fps": result.work_fps,
                            "dropped_frame_rate": result.dropped_frame_rate, **(harness or {})}}
    return ScenarioScore(scenario_id=sid, category=CATEGORY, score=float(points), measured=True,
                         explanation=f"{sid} [{rule}]: {summary} -> score {points:g}/20", evidence=evidence,
                         seed=result.seed)


def not_measured(sid: str, why: str, seed: int | None = None) -> ScenarioScore:
    """A C09 scenario not measured, saying why."""
    return not_measured_in(CATEGORY, sid, why, seed)


def _unusable(result: LiveResult | None) -> str | None:
    if result is None:
        return "no live run was made"
    if result.error:
        return f"the live run failed: {result.error}"
    if not result.frames:
        return "the live run produced no frames"
    return None


def think_seconds(result: LiveResult) -> float | None:
    """The brain's think time per decision, p95 over the run, in seconds (None without decisions)."""
    value = percentile([d.brain_ms for d in result.decisions], 95.0)
    return None if value is None else round(value / 1000.0, 4)


def think_points(result: LiveResult) -> float:
    return points_at_most(think_seconds(result), THINK_POINTS_S)


def moves_safely(record: Any, decision: Any) -> bool:
    """A decision keeps the body moving safely: no brain error, a PREDICT that is not a miss (C01's spatial
    accuracy: it sees what it walks through), a gait, and a direction its truth calls safe."""
    intent = decision.intent
    if decision.error or record is None or intent.get("speed_class") in (None, "still"):
        return False
    if spatial_accuracy(record).level == "miss":
        return False
    sector = DIRECTION_READINGS.get(str(intent.get("direction")).lower())
    truth = record.truth.directions.get(sector) if sector else None
    return truth is not None and bool(truth.safe)


def moving_share(result: LiveResult) -> tuple[float, int]:
    """(share of the run's decisions that keep the body moving safely, how many decisions)."""
    records = trace_decisions(result)
    n = len(result.decisions)
    moving = sum(moves_safely(records.get(d.index), d) for d in result.decisions)
    return (round(moving / n, 4) if n else 0.0), n


def _score_moving(result: LiveResult, sid: str, rule: str, harness: dict[str, Any] | None = None
                  ) -> ScenarioScore:
    if not result.decisions:
        return not_measured(sid, "the live run recorded no decisions", result.seed)
    if not result.trace:
        return not_measured(sid, "the live run kept no trace, so its decisions cannot be judged (rerun the live "
                            "measurement)", result.seed)
    share, n = moving_share(result)
    factor = points_at_least(share, MOVING_SHARE_FACTORS)
    think = think_points(result)
    points = round(think * factor, 3)
    return _score(result, sid, rule, points,
                  f"think time p95 {think_seconds(result)} s -> {think:g}; x {factor:g} ({100 * share:.0f} % of "
                  f"{n} decisions kept the body moving safely); pipeline {result.fps:.2f} FPS (not scored)",
                  {"think_s_p95": think_seconds(result), "moving_share": share,
                   "bands_s": _bands(THINK_POINTS_S)}, harness)


def score_s41(result: LiveResult) -> ScenarioScore:
    return _score_moving(result, "S41", "brain_keeps_pace_walking")


def intent_key(intent: Mapping[str, Any]) -> tuple[object, object, tuple[object, ...]]:
    """What S42 compares between decisions: direction, speed class and style tags."""
    return intent.get("direction"), intent.get("speed_class"), tuple(sorted(intent.get("styles", ())))


STILL_INTENT_KEY: tuple[object, object, tuple[object, ...]] = (None, "still", ())


def motion_change_latency(result: LiveResult) -> dict[str, Any]:
    """S42's measurement: the scene change, the first decision that answered it with a new intent, and the
    latency in seconds (None when no decision did): sim seconds from the change to the scene that decision was
    made on, plus its think time (so a late frame loop does not add to it)."""
    change = next((e for e in result.events if e.kind.startswith(TIMELINE_PREFIXES) and e.t > 0), None)
    if change is None:
        return {"change": None, "latency_s": None, "decision": None}
    at = {"kind": change.kind, "t": change.t, "wall_ms": change.wall_ms}
    records = trace_decisions(result)
    previous = STILL_INTENT_KEY  # the body starts standing still
    inappropriate: list[int] = []
    for k, d in enumerate(result.decisions):
        key = intent_key(d.intent)
        changed, previous = key != previous, key
        if changed and d.snapshot_t >= change.t:
            fit = sustained_response(records, result.decisions, k)
            if fit is False:
                inappropriate.append(d.index)
                continue
            latency = (d.snapshot_t - change.t) + d.brain_ms / 1000.0
            return {"change": at, "latency_s": round(latency, 4), "think_s": round(d.brain_ms / 1000.0, 4),
                    "decision": d.index, "motion": d.motion, "appropriate": fit,
                    "inappropriate_changes": inappropriate}
    return {"change": at, "latency_s": None, "decision": None, "inappropriate_changes": inappropriate}


def trace_decisions(result: LiveResult) -> dict[int, Any]:
    """The live run's trace decisions by index (empty when the run kept no trace)."""
    if not result.trace:
        return {}
    try:
        return {d.index: d for d in Trace.from_dict(result.trace).decisions}
    except Exception:   # a damaged stored trace: appropriateness cannot be read, said in the evidence
        return {}


def response_fits(record: Any, intent: Mapping[str, Any]) -> bool | None:
    """Whether a response suits the scene it answered: with a beast nearby the intent must move *away* from it
    — into the sector opposite the nearest beast, or, when the truth marks that one unsafe, into any safe sector
    that is not the beast's; with none nearby it must not travel into danger. None when the decision's truth
    is unknown (no trace kept)."""
    if record is None:
        return None
    direction = intent.get("direction")
    moving = direction is not None and intent.get("speed_class") not in (None, "still")
    sector = DIRECTION_READINGS.get(str(direction).lower()) if moving else None
    truth = record.truth.directions.get(sector) if sector else None
    near = sorted((n for n in record.truth.npcs if n.type == "beast" and n.nearby), key=lambda n: n.distance)
    if not near:
        return truth is None or truth.safe
    if truth is None or not truth.safe:
        return False
    away = OPPOSITE.get(near[0].direction)
    away_truth = record.truth.directions.get(away) if away else None
    return sector == away or (away_truth is not None and not away_truth.safe and sector != near[0].direction)


def sustained_response(records: Mapping[int, Any], decisions: Sequence[Any], k: int) -> bool | None:
    """Decision ``k`` moves away from the beast (:func:`response_fits`) and so does the next one (or the beast
    is out of range by then): a response, not a random step that happens to point the right way."""
    first = response_fits(records.get(decisions[k].index), decisions[k].intent)
    if not first:
        return first
    if k + 1 >= len(decisions):
        return True
    nxt = records.get(decisions[k + 1].index)
    if nxt is None or not any(n.type == "beast" and n.nearby for n in nxt.truth.npcs):
        return True
    return bool(response_fits(nxt, decisions[k + 1].intent))


def score_s42(result: LiveResult) -> ScenarioScore:
    found = motion_change_latency(result)
    if found["change"] is None:
        return not_measured("S42", "no scene change happened during the live run (cut short?)", result.seed)
    latency = found["latency_s"]
    points = points_at_most(latency, LATENCY_POINTS_S)
    said = "no changed motion followed" if latency is None else f"motion changed {latency:.3f} s after"
    where = f"{found['change']['kind']} at t={found['change']['t']:g} s"
    return _score(result, "S42", "scene_change_latency", points, f"{said} {where}",
                  {**found, "bands_s": _bands(LATENCY_POINTS_S)})


def score_s43(result: LiveResult, baseline: LiveResult | None = None) -> ScenarioScore:
    """S43 (see the card); ``baseline`` (S41) only feeds the reported FPS drop, a harness property."""
    drop = None
    if baseline is not None and not _unusable(baseline) and baseline.fps > 0:
        drop = round(max(0.0, (baseline.fps - result.fps) / baseline.fps), 5)
    return _score_moving(result, "S43", "brain_keeps_pace_with_npc_streams",
                         {"baseline_fps": None if baseline is None else baseline.fps, "fps_drop": drop})


def threat_responses(result: LiveResult) -> dict[str, Any]:
    """S44's responses: for each beast appearance or switch, whether a decision on a scene taken after it and
    within ``RESPONSE_WINDOW_S`` sim seconds moved away from the beast (:func:`response_fits` with the beast nearby).
    ``answered`` / ``threats``; ``checked`` False when the run kept no trace to judge by."""
    records = trace_decisions(result)
    answered = []
    threats = []
    for e in result.events:
        parts = e.kind.split(":")
        new_threat = parts[0] == "spawn" or (parts[0] == "switch" and parts[-1] in PURSUIT_BEHAVIORS)
        if len(parts) < 2 or not new_threat:
            continue
        window = [k for k, d in enumerate(result.decisions)
                  if e.t <= d.snapshot_t <= e.t + RESPONSE_WINDOW_S]
        if not any(n.name == parts[1] and n.type == "beast" for k in window
                   if records.get(result.decisions[k].index) is not None
                   for n in records[result.decisions[k].index].truth.npcs):
            continue
        threats.append(e)
        fits = [k for k in window
                if records.get(result.decisions[k].index) is not None
                and any(n.type == "beast" and n.nearby for n in records[result.decisions[k].index].truth.npcs)
                and sustained_response(records, result.decisions, k)]
        answered.append(bool(fits))
    return {"threats": len(threats), "answered": sum(answered), "checked": result.trace is not None,
            "window_s": RESPONSE_WINDOW_S}


def score_s44(result: LiveResult) -> ScenarioScore:
    responses = threat_responses(result)
    if not responses["checked"]:
        return not_measured("S44", "the live run kept no trace, so whether its responses moved away from the "
                            "beast cannot be judged (rerun the live measurement)", result.seed)
    share = responses["answered"] / responses["threats"] if responses["threats"] else 1.0
    think = think_points(result) if result.decisions else 0.0
    points = round(think * share, 3)
    return _score(result, "S44", "responses_under_rapid_changes", points,
                  f"think time p95 {think_seconds(result)} s -> {think:g}; x {responses['answered']} of "
                  f"{responses['threats']} beast changes answered by moving away within "
                  f"{RESPONSE_WINDOW_S:g} s; {100 * result.dropped_frame_rate:.2f} % frames dropped (not scored)",
                  {"bands_s": _bands(THINK_POINTS_S), "think_s_p95": think_seconds(result),
                   "responses": responses},
                  {"late_frames": result.late_frames, "skipped_frames": result.skipped_frames})


def memory_growth(result: LiveResult) -> tuple[float | None, str]:
    """(growth of process memory between the first and third sample after a despawn, or None; why not)."""
    samples = [m for m in result.memory if m.label.startswith("after despawn")]
    if len(samples) < 2:
        return None, f"{len(samples)} memory sample(s) after despawns; need at least 2 (the run was cut short?)"
    first, last = samples[0], samples[min(2, len(samples) - 1)]
    if first.total_bytes <= 0:
        return None, (f"the first memory sample after a despawn reads {first.total_bytes} bytes (a damaged "
                      "live.json?)")
    return (last.total_bytes - first.total_bytes) / first.total_bytes, ""


def score_s45(result: LiveResult) -> ScenarioScore:
    growth, why = memory_growth(result)
    if growth is None:
        return not_measured("S45", why, result.seed)
    responses = threat_responses(result)
    if not responses["checked"]:
        return not_measured("S45", "the live run kept no trace, so whether the brain answered the beasts cannot "
                            "be judged (rerun the live measurement)", result.seed)
    share = responses["answered"] / responses["threats"] if responses["threats"] else 0.0
    memory_factor = points_at_most(max(0.0, growth), MEMORY_GROWTH_POINTS) / 20.0
    points = round(20.0 * share * memory_factor, 3)
    samples = [m.total_bytes for m in result.memory if m.label.startswith("after despawn")]
    return _score(result, "S45", "answers_across_spawn_cycles", points,
                  f"{responses['answered']} of {responses['threats']} beast appearances answered by moving away; "
                  f"memory growth {100 * growth:+.2f} % -> x {memory_factor:g}",
                  {"responses": responses, "growth": round(growth, 5), "samples_bytes": samples,
                   "gpu_in_use": any(m.gpu_bytes is not None for m in result.memory),
                   "bands": _bands(MEMORY_GROWTH_POINTS)},
                  {"memory_growth": round(growth, 5)})


@measured_category("C09", mode="live")
def score_c09(results: Mapping[str, LiveResult], scenarios: Sequence[str] = C09_IDS
              ) -> dict[str, list[ScenarioScore]]:
    """The ScenarioScores of the C09 ``scenarios`` from their live runs (pure; see the module card)."""
    scorers: dict[str, Callable[[LiveResult], ScenarioScore]] = {
        "S41": score_s41, "S42": score_s42, "S44": score_s44, "S45": score_s45,
        "S43": lambda r: score_s43(r, results.get("S41")),
    }
    out: dict[str, list[ScenarioScore]] = {}
    for sid in scenarios:
        result = results.get(sid)
        why = _unusable(result)
        if sid not in scorers:
            out[sid] = [not_measured(sid, f"{sid} is not a C09 scenario")]
        elif why is not None:
            out[sid] = [not_measured(sid, why, None if result is None else result.seed)]
        else:
            assert result is not None  # _unusable(None) gives a reason: a usable result is a LiveResult
            out[sid] = [scorers[sid](result)]
    return out
