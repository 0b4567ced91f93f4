"""C09 · Realtime Performance, the rules: S41–S45 scored 0–20 each from live runs' records.

::

    scores = score_c09(results)     # {"S41": [ScenarioScore], ...} from {sid: LiveResult}

Every scenario is one live run (:func:`wmbench.harness.live.loop.run_live`) at the target FPS with the chosen
brain thinking concurrently; the numbers are wall-clock measurements on this machine. The rules are stated once,
in :data:`RULE_TEXT` (their bands written from the constants below, the scenario cards' ``Rule:``
paragraphs generated from it): S41 frame rate, S42 cognitive loop latency (scene change to the first
suiting new intent, :func:`sustained_response`), S43 the frame-rate drop under a second motion stream per
NPC (S41 is its baseline), S44 dropped frames times the share of threats answered in time
(:func:`threat_responses`), S45 memory growth over the three despawns.

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
from wmbench.scoring.live_run import DEFAULT_FPS, LiveResult
from wmbench.scoring.report_types import ScenarioScore

CATEGORY = "C09"
C09_IDS: tuple[str, ...] = ("S41", "S42", "S43", "S44", "S45")
#: (lower bound, points), best first; below the last bound scores 0.
FPS_POINTS: tuple[tuple[float, float], ...] = ((45.0, 20.0), (30.0, 15.0), (15.0, 5.0))
#: (upper bound in seconds, points), best first; above the last bound (or never) scores 0.
LATENCY_POINTS_S: tuple[tuple[float, float], ...] = ((3.0, 20.0), (5.0, 15.0), (10.0, 5.0))
S43_MIN_FPS = 30.0
S43_DROP_POINTS: tuple[tuple[float, float], ...] = ((0.10, 20.0), (0.25, 15.0))
S43_FLOOR_FPS = 15.0
S43_FLOOR_POINTS = 5.0
DROPPED_POINTS: tuple[tuple[float, float], ...] = ((0.01, 20.0), (0.05, 15.0), (0.15, 5.0))
MEMORY_GROWTH_POINTS: tuple[tuple[float, float], ...] = ((0.05, 20.0), (0.15, 15.0), (0.30, 5.0))
TIMELINE_PREFIXES = ("spawn:", "switch:", "despawn:")
#: S44: a beast's appearance or switch is answered when a decision on a later scene moves away from it within
#: this many wall seconds
RESPONSE_WINDOW_S = 2.0
#: the live runs whose trace is kept (their rules judge each response against the decision's truth)
TRACED_RUNS = frozenset({"S42", "S44"})
_PACED = (f"The loop is paced at the target frame rate ({DEFAULT_FPS} by default), so FPS cannot exceed the "
          "target; the unpaced capacity (1000 / mean frame work in ms) is reported separately as `work_fps` "
          "and not scored.")
_MOVES_AWAY = ("move away from the beast (the sector opposite it, or any safe one but the beast's when that is "
               "blocked")

#: Each scenario's rule, the one statement of it: the cards' ``Rule:`` paragraphs are generated from it
#: (:mod:`wmbench.harness.cli.scenario_cards`), its bands from the constants the scorers use.
RULE_TEXT: dict[str, str] = {
    "S41": "FPS = the protagonist's motion frames produced per wall-clock second of the live run, with the "
           f"brain thinking concurrently. {_PACED} FPS {band_text(FPS_POINTS, '>=')}, below "
           f"{FPS_POINTS[-1][0]:g} = 0. A failed run, or one that produced no frames, is not measured.",
    "S42": "the scene change is the run's first timeline event (the beast's spawn at 2 s). Latency = "
           "wall-clock time from the frame that fired it to the end of the first frame moving with the first "
           "decision that (a) was made on a scene taken after the change (snapshot at or after that frame; a "
           "reply to the old scene never counts, even if it happens to change the motion) and (b) asks for a "
           "different intent than the decision before it (direction, speed class or style tags; the body "
           "starts standing still) and (c) suits the new scene: with the beast nearby it and the next "
           f"decision {_MOVES_AWAY}; a change toward it does not count): "
           f"{band_text(LATENCY_POINTS_S, '<=', ' s')}, later or never = 0. No scene change during the run, a "
           "failed run, or one that produced no frames is not measured.",
    "S43": "the extra load is one motion stream per present NPC — a ProceduralGenerator producing each "
           "wandering human's pose every frame — run inside the frame's timed work, so it counts against the "
           "frame deadline. FPS is paced as in S41 (it cannot exceed the target; the unpaced capacity is "
           "reported separately as `work_fps`). S41 (no NPCs) is measured as the baseline whenever S43 is. "
           "Drop = (S41 FPS - FPS here) / S41 FPS, floored at 0: "
           + "; ".join(f"FPS >= {S43_MIN_FPS:g} and drop <= {100 * drop:g} % = {points:g}"
                       for drop, points in S43_DROP_POINTS)
           + f"; otherwise FPS >= {S43_FLOOR_FPS:g} = {S43_FLOOR_POINTS:g}; below {S43_FLOOR_FPS:g} = 0. A "
           "missing or failed S41 baseline, a failed run, or one that produced no frames is not measured.",
    "S44": "dropped frames = (late frames + skipped slots) / (frames produced + skipped slots) over the whole "
           "run, while the scene changes every second; a frame is late when its work ends after its slot's "
           "deadline, and the whole slots it overran are skipped (never produced): "
           f"{band_text(DROPPED_POINTS, '<=', ' %', 100)}, more = 0; those points are multiplied by the share "
           "of the beast's appearances and approaches answered by a decision, on a scene taken after the "
           f"change and within {RESPONSE_WINDOW_S:g} s, that moves away from the beast (the sector opposite "
           "it, or any safe one but the beast's when that is blocked) and is followed by one that keeps moving "
           "away. A failed run, one that produced no frames, or one that kept no trace to judge the responses "
           "by, is not measured.",
    "S45": "process memory (RSS, plus the GPU memory allocated by torch where CUDA is in use) sampled after "
           "each of the three despawns; growth = (third sample - first) / first (the second stands in for the "
           "third when the run was cut short), a shrink counting as 0: "
           f"{band_text(MEMORY_GROWTH_POINTS, '<=', ' %', 100)}, more = 0. Fewer than two samples, a failed "
           "run, or one that produced no frames is not measured.",
}


# ------------------------------------------------------------------------------------------------ scoring


def _bands(bands: Sequence[tuple[float, float]]) -> list[list[float]]:
    """Bands as plain JSON lists (evidence must read back from scores.json exactly as written)."""
    return [list(band) for band in bands]


def _score(result: LiveResult, sid: str, rule: str, points: float, summary: str, numbers: dict[str, Any]
           ) -> ScenarioScore:
    evidence = {"rule": rule, "live": {**result.summary(), **numbers}}
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


def score_s41(result: LiveResult) -> ScenarioScore:
    points = points_at_least(result.fps, FPS_POINTS)
    return _score(result, "S41", "fps", points,
                  f"{result.fps:.2f} FPS (target {result.fps_target}; {result.late_frames} late of "
                  f"{result.n_frames} frames)", {"bands": _bands(FPS_POINTS)})


def intent_key(intent: Mapping[str, Any]) -> tuple:
    """What S42 compares between decisions: direction, speed class and style tags."""
    return intent.get("direction"), intent.get("speed_class"), tuple(sorted(intent.get("styles", ())))


STILL_INTENT_KEY = (None, "still", ())


def motion_change_latency(result: LiveResult) -> dict[str, Any]:
    """S42's measurement: the scene change, the first decision that answered it with a new intent, and the
    latency in seconds (None when no decision did)."""
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
        if changed and d.snapshot_ms >= change.wall_ms:
            fit = sustained_response(records, result.decisions, k)
            if fit is False:
                inappropriate.append(d.index)
                continue
            return {"change": at, "latency_s": round((d.applied_ms - change.wall_ms) / 1000.0, 4),
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


def score_s43(result: LiveResult, baseline: LiveResult | None) -> ScenarioScore:
    if baseline is None or _unusable(baseline):
        return not_measured("S43", "the S41 baseline (no NPC streams) is missing: "
                            f"{_unusable(baseline)}", result.seed)
    drop = max(0.0, (baseline.fps - result.fps) / baseline.fps) if baseline.fps > 0 else 1.0
    if result.fps >= S43_MIN_FPS and drop <= S43_DROP_POINTS[-1][0]:
        points = points_at_most(drop, S43_DROP_POINTS)
    else:
        points = S43_FLOOR_POINTS if result.fps >= S43_FLOOR_FPS else 0.0
    return _score(result, "S43", "fps_drop_with_npc_streams", points,
                  f"{result.fps:.2f} FPS with NPC motion streams vs {baseline.fps:.2f} without "
                  f"(drop {100 * drop:.1f} %)", {"baseline_fps": baseline.fps, "drop": round(drop, 5),
                                                 "baseline_work_fps": baseline.work_fps})


def threat_responses(result: LiveResult) -> dict[str, Any]:
    """S44's responses: for each beast appearance or switch, whether a decision on a scene taken after it and
    within ``RESPONSE_WINDOW_S`` moved away from the beast (:func:`response_fits` with the beast nearby).
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
                  if e.wall_ms <= d.snapshot_ms <= e.wall_ms + RESPONSE_WINDOW_S * 1000.0]
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
    rate = result.dropped_frame_rate
    frame_points = points_at_most(rate, DROPPED_POINTS)
    responses = threat_responses(result)
    if not responses["checked"]:
        return not_measured("S44", "the live run kept no trace, so whether its responses moved away from the "
                            "beast cannot be judged (rerun the live measurement)", result.seed)
    share = responses["answered"] / responses["threats"] if responses["threats"] else 1.0
    points = round(frame_points * share, 3)
    return _score(result, "S44", "dropped_frames_with_responses", points,
                  f"{100 * rate:.2f} % dropped ({result.late_frames} late + {result.skipped_frames} skipped, "
                  f"{result.n_frames} frames) -> {frame_points:g}; x {responses['answered']} of "
                  f"{responses['threats']} beast changes answered by moving away within "
                  f"{RESPONSE_WINDOW_S:g} s", {"bands": _bands(DROPPED_POINTS), "responses": responses})


def score_s45(result: LiveResult) -> ScenarioScore:
    samples = [m for m in result.memory if m.label.startswith("after despawn")]
    if len(samples) < 2:
        return not_measured("S45", f"{len(samples)} memory sample(s) after despawns; need at least 2 "
                            "(the run was cut short?)", result.seed)
    first, last = samples[0], samples[min(2, len(samples) - 1)]
    if first.total_bytes <= 0:
        return not_measured("S45", f"the first memory sample after a despawn reads {first.total_bytes} bytes "
                            "(a damaged live.json?)", result.seed)
    growth = (last.total_bytes - first.total_bytes) / first.total_bytes
    points = points_at_most(max(0.0, growth), MEMORY_GROWTH_POINTS)
    return _score(result, "S45", "memory_growth", points,
                  f"memory {first.total_bytes / 2**20:.1f} MiB after the first despawn, "
                  f"{last.total_bytes / 2**20:.1f} MiB after despawn {min(3, len(samples))} "
                  f"(growth {100 * growth:+.2f} %)",
                  {"samples_bytes": [m.total_bytes for m in samples], "growth": round(growth, 5),
                   "gpu_in_use": any(m.gpu_bytes is not None for m in samples),
                   "bands": _bands(MEMORY_GROWTH_POINTS)})


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
