"""``leaderboard_entry.json``: a run's result in the spec's LEADERBOARD_SCHEMA form.

Card
----
Every schema key (:data:`SCHEMA_KEYS`) is present, plus ``wmbench_version`` and ``measured_categories``
(and, for a suite run, the test split: ``instance_nonce`` (null for explicit seeds), ``test_seeds`` — the WM
Score's instances, so ``--seed-list`` reproduces it — ``canonical_only`` and ``spec_fidelity``, seed 0's
points reported apart):

- One entry, one truth (``score_formula`` states it in the entry): ``wm_score`` (int, 0–1000) is
  ``scores.json``'s WM Score rounded, and it equals the sum of ``c01_to_c10`` *exactly*: the categories are
  rounded by largest remainder so their ints add up to it (each within 1 point of its true value;
  unmeasured categories add 0, a partly measured one is null in ``c01_to_c10`` and its measured part counts
  in ``pillar_sums``). ``pillar_sums`` are the sums of those category ints (P1 /200, P2 /500, P3 /300;
  they add up to ``wm_score``). ``p1_perception``, ``p2_cognition``, ``p3_embodiment`` are the spec's
  rescaled pillars (P1 × 250/200, P2 × 450/500, P3 × 300/300, rounded), so their total
  (``rescaled_total``) is a *different* number from ``wm_score`` whenever P1 and P2 are not in proportion.
- ``c01_to_c10``: ``{"C01": int, ...}``, each category's points (of 100) when fully measured, else
  null — ``measured_categories`` lists the fully measured ones, so an incomplete run is never mistaken for
  a complete one.
- ``fps``: mean FPS of the run's C09 live runs. ``cognitive_latency_ms``: the spec's cognitive loop latency,
  stimulus → behaviour change, as S42 measures it (median over its seeds of the time from the scene change to
  the first changed motion applied, ms); ``decision_latency_ms``: the median time the brain took per decision
  in the live runs. All null when not measured (the schema expects numbers; null says "not measured").
- ``track``: ``"C"`` — a harness-measured run (``"A"`` is written by the static Track-A runner; Track B is
  self-reported and never written by wmbench).
- ``gpu``: the CUDA device torch used during the live runs, else ``"none (CPU: <model>)"``.
- ``brain_model``: the brain spec; ``motion_model``: what turned MOTION into movement for the run's body.
- ``model_name`` defaults to the brain spec; ``organization``, ``paper_url``, ``demo_url`` default to "".
- ``submission_date``: ISO date (UTC) the entry was written.
- ``pace``: on a body slower than the character, the pace its bench scenes were played at
  (:mod:`wmbench.envs.pacing`; 1.0 for an ``--unpaced`` diagnostic run); absent on the character, so a drone
  entry never passes for a run against the scene's own speeds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any, cast

import wmbench
from wmbench.body.motion.registry import describe_generator
from wmbench.core.taxonomy import (
    CATEGORY_MAX_POINTS,
    CATEGORY_PILLARS,
    PILLAR_RESCALED_MAX,
    PILLAR_TITLES,
    PILLARS,
)
from wmbench.scoring.scores_file import Scores

SCHEMA_KEYS: tuple[str, ...] = (
    "model_name", "organization", "submission_date", "wm_score", "grade", "p1_perception", "p2_cognition",
    "p3_embodiment", "c01_to_c10", "fps", "cognitive_latency_ms", "gpu", "brain_model", "motion_model",
    "paper_url", "demo_url",
)
EXTRA_KEYS: tuple[str, ...] = ("wmbench_version", "measured_categories")
#: keys that make the entry say how its numbers relate (item "one entry, one truth")
CONSISTENCY_KEYS: tuple[str, ...] = ("track", "pillar_sums", "rescaled_total", "score_formula",
                                     "decision_latency_ms")
SCORE_FORMULA = ("wm_score = sum(pillar_sums) = sum(c01_to_c10) when every category is fully measured "
                 "(categories rounded by largest remainder; a partly measured category is null in c01_to_c10 "
                 "and its measured part is in pillar_sums); "
                 "p1_perception = P1 sum x 250/200, p2_cognition = P2 sum x 450/500, p3_embodiment = P3 sum x "
                 "300/300 (the spec's pillar scale; their total is rescaled_total, not wm_score)")
#: pillar -> factor from the pillar sum (of 100 per category) to the spec's pillar scale
PILLAR_RESCALE = {p: PILLAR_RESCALED_MAX[p] / (CATEGORY_MAX_POINTS * len(cats)) for p, cats in PILLARS.items()}
#: key -> accepted types (None allowed where the entry may say "not measured")
KEY_TYPES: dict[str, tuple[type, ...]] = {
    "model_name": (str,), "organization": (str,), "submission_date": (str,), "wm_score": (int,),
    "grade": (str,), "p1_perception": (int,), "p2_cognition": (int,), "p3_embodiment": (int,),
    "c01_to_c10": (dict,), "fps": (float, type(None)), "cognitive_latency_ms": (int, type(None)),
    "gpu": (str,), "brain_model": (str,), "motion_model": (str,), "paper_url": (str,), "demo_url": (str,),
    "wmbench_version": (str,), "measured_categories": (list,),
    "track": (str,), "pillar_sums": (dict,), "rescaled_total": (int,), "score_formula": (str,),
    "decision_latency_ms": (int, type(None)), "pace": (float,),
}
PILLAR_KEYS = {p: f"{p.lower()}_{title.lower()}" for p, title in PILLAR_TITLES.items()}
MOTION_MODELS = {
    "smpl": "wmbench procedural gait generator (22-joint HumanML3D skeleton, kinematic character)",
    "robot": "wmbench procedural gait generator retargeted to a PD servo humanoid",
    "drone": "wmbench velocity set-point with cascaded PID (quadrotor)",
}
#: Bodies whose limbs are animated by the selectable motion generator (``--motion-model``).
GENERATOR_BODIES = {"smpl": "22-joint HumanML3D skeleton, kinematic character",
                    "robot": "retargeted to a PD servo humanoid"}


def motion_model_for(body: str, generator: str | None = None) -> str:
    """The leaderboard's ``motion_model``: the generator (``--motion-model``) for bodies it animates."""
    if generator and generator != "procedural" and body in GENERATOR_BODIES:
        return f"{describe_generator(generator)} ({GENERATOR_BODIES[body]})"
    return MOTION_MODELS.get(body, f"wmbench body plugin {body!r}")


def gpu_label(hardware: Mapping[str, Any] | None) -> str:
    hardware = hardware or {}
    gpu = str(hardware.get("gpu") or "none")
    return gpu if gpu != "none" else f"none (CPU: {hardware.get('cpu') or 'unknown'})"


def leaderboard_entry(
    scores: Scores,
    *,
    brain: str,
    body: str,
    live: Mapping[str, Any] | None = None,
    model_name: str | None = None,
    organization: str = "",
    paper_url: str = "",
    demo_url: str = "",
    submission_date: str | None = None,
    motion_model: str | None = None,
) -> dict[str, Any]:
    """The entry for ``scores`` (a scores.json dict) and ``live`` (a live.json dict or None)."""
    categories = scores["categories"]
    c09 = categories.get("C09")
    c09_measured = bool(c09 and c09["measured_max"])
    live = live or {}
    fps = live.get("fps") if c09_measured else None
    decision_latency = live.get("cognitive_latency_ms") if c09_measured else None
    wm_score = round(float(scores["wm_score"] or 0.0))
    counted = {c: float(e["score"] or 0.0) for c, e in sorted(categories.items())}
    ints = largest_remainder(counted, wm_score)
    pillar_sums = {p: sum(v for c, v in ints.items() if CATEGORY_PILLARS.get(c) == p) for p in PILLAR_KEYS}
    rescaled = {p: round(pillar_sums[p] * PILLAR_RESCALE[p]) for p in PILLAR_KEYS}
    entry: dict[str, Any] = {
        "model_name": model_name or brain,
        "organization": organization,
        "submission_date": submission_date or datetime.now(timezone.utc).date().isoformat(),
        "wm_score": wm_score,
        "grade": str(scores["grade"] or "F"),
        **{key: rescaled[p] for p, key in PILLAR_KEYS.items()},
        "c01_to_c10": {c: (ints[c] if e["measured"] else None) for c, e in sorted(categories.items())},
        "fps": None if fps is None else round(float(fps), 2),
        "cognitive_latency_ms": stimulus_latency_ms(scores),
        "gpu": gpu_label(live.get("hardware")),
        "brain_model": brain,
        "motion_model": motion_model_for(body, motion_model),
        "paper_url": paper_url,
        "demo_url": demo_url,
        "wmbench_version": str(getattr(wmbench, "__version__", "unknown")),
        "measured_categories": [c for c, e in sorted(categories.items()) if e["measured"]],
        "run_status": run_status(scores),
        "track": "C",
        "pillar_sums": pillar_sums,
        "rescaled_total": sum(rescaled.values()),
        "score_formula": SCORE_FORMULA,
        "decision_latency_ms": None if decision_latency is None else round(float(decision_latency)),
    }
    split = scores.get("split")
    if split is not None:  # the test split: reproducible with --seed-list test_seeds (or the nonce)
        entry["instance_nonce"] = split["nonce"]
        entry["test_seeds"] = list(split["test_seeds"])
        entry["canonical_only"] = split["canonical_only"]
    run_block = scores.get("run")
    if run_block is not None and "pace" in run_block:  # a slow body: its bench scenes' pace (1.0: --unpaced)
        entry["pace"] = run_block["pace"]
    fidelity = scores.get("spec_fidelity")
    entry["spec_fidelity"] = None if fidelity is None else {"score": fidelity["score"], "max": fidelity["max"]}
    return entry


def largest_remainder(values: Mapping[str, float], total: int) -> dict[str, int]:
    """``values`` rounded to ints that add up to ``total`` (largest remainder; each within 1 of its value).

    ``total`` must be the rounded sum of ``values`` (it is: the WM Score is the sum of the categories)."""
    floors = {k: math.floor(v) for k, v in values.items()}
    left = total - sum(floors.values())
    order = sorted(values, key=lambda k: (-(values[k] - floors[k]), k))
    for k in order[:max(0, left)]:
        floors[k] += 1
    return floors


def stimulus_latency_ms(scores: Scores) -> int | None:
    """The spec's cognitive loop latency: S42's measured scene change → changed motion (median over its
    seeds, ms); None when S42 was not measured or no motion change followed."""
    entry = scores["scenarios"].get("S42")
    if not entry or not entry["measured"]:
        return None
    lives = [cast(Mapping[str, Any], e).get("live") for e in entry["evidence"]]
    found = [float(live["latency_s"]) for live in lives
             if isinstance(live, Mapping) and live.get("latency_s") is not None]
    if not found:
        return None
    found.sort()
    mid = len(found) // 2
    median = found[mid] if len(found) % 2 else (found[mid - 1] + found[mid]) / 2
    return round(median * 1000)


def run_status(scores: Scores) -> str:
    """``"complete"``, or what kept the run from being whole: stopped early (and why), failed episodes,
    failed brain decisions, unreadable replies — so a published entry never hides a partial run."""
    run = scores.get("run")
    if run is None:
        return "complete"
    problems = []
    if run.get("stopped"):
        problems.append(f"stopped early: {run['stopped']}")
    usage = run.get("brain_usage")
    decisions = usage.get("decisions") or 0 if usage else 0
    if run.get("error_episodes"):
        problems.append(f"{run['error_episodes']} of {run.get('episodes', 0)} episodes failed")
    if run.get("failed_decisions"):
        problems.append(f"{run['failed_decisions']} of {decisions} brain decisions failed")
    if run.get("parse_errors"):
        problems.append(f"{run['parse_errors']} of {decisions} replies unreadable")
    return "complete" if not problems else "partial: " + "; ".join(problems)


def check_entry(entry: Mapping[str, Any]) -> list[str]:
    """Problems with an entry (missing keys, wrong types); empty when it follows the schema."""
    problems = [f"missing key {key!r}" for key in (*SCHEMA_KEYS, *EXTRA_KEYS) if key not in entry]
    for key, types in KEY_TYPES.items():
        if key in entry and (not isinstance(entry[key], types) or isinstance(entry[key], bool)):
            names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            problems.append(f"{key} should be {names}, got {type(entry[key]).__name__}")
    return problems
