"""Opt-in rewards for RL users of :class:`~wmbench.envs.wmbench_env.WMBenchEnv`, and the terminal info.

Card
----
- **Modes** (``WMBenchEnv(..., reward=...)``): ``"none"`` (default; every reward 0.0, so benchmark results
  are unchanged), ``"score"`` and ``"dense"``.
- ``"score"``: 0 on every step but the terminal one, which pays the scenario's points / 20 (0..1) as the
  benchmark's scorer gives them for this episode's trace (:func:`wmbench.scoring.score_trace`). An
  episode return is therefore exactly the scenario score / 20. C09/C10 scenarios are measured by the harness,
  not from one trace: their terminal reward is 0 and the info says ``measured: False``.
- ``"dense"``: a per-decision shaping signal from the simulator's ground truth (never the scorer), in
  :func:`dense_reward`. It is *not* the benchmark score and says nothing about one; use it to learn, report
  ``"score"``. Per decision:

  * ``PREDICT`` accuracy: +0.1 per direction whose safe/danger verdict matches the truth, -0.1 per direction
    judged wrongly, 0 for one left out (so a reply without PREDICT earns nothing, a constant reply earns
    what the scene's truth gives it and loses it where the truth differs);
  * moving away from danger: while a beast is nearby at the decision's start, +0.1 per metre the nearest
    beast got farther away (-0.1 per metre closer), clipped to +-0.3;
  * -0.2 for a wall collision, -1.0 for being caught, +0.5 for an escape (the sim's ``escaped`` event).

- **Terminal info** (every mode): the step that ends an episode carries ``info["episode_score"]``
  (:func:`terminal_score`: ``scenario``, ``score`` 0..20, ``max`` 20, ``measured``, ``explanation``,
  ``rule``; never None, so a vector env can stack them into arrays) and ``info["trace"]`` (the episode's
  :class:`~wmbench.envs.trace.Trace` object; ``to_dict()`` gives plain data), so a vector env's autoreset,
  which starts a new trace one step later, loses neither. Gymnasium's vector envs hand a
  terminal step's info on as that step's info (the next ``reset`` is a separate step in ``NEXT_STEP`` mode).
"""

from __future__ import annotations

from typing import Any, Literal

from wmbench.core.taxonomy import SCENARIO_MAX_POINTS
from wmbench.envs.trace import DecisionRecord, Trace
from wmbench.scoring import score_trace

RewardMode = Literal["none", "score", "dense"]
REWARD_MODES: tuple[str, ...] = ("none", "score", "dense")

PREDICT_WEIGHT = 0.1
DISTANCE_WEIGHT = 0.1
DISTANCE_CLIP = 0.3
COLLISION_PENALTY = -0.2
CAUGHT_PENALTY = -1.0
ESCAPE_BONUS = 0.5


def check_reward_mode(mode: str | None) -> str:
    """``None`` -> ``"none"``; an unknown mode raises ``ValueError`` naming the allowed ones."""
    chosen = "none" if mode is None else mode
    if chosen not in REWARD_MODES:
        raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)} (or None), got {mode!r}")
    return chosen


def terminal_score(trace: Trace) -> dict[str, Any]:
    """The benchmark's score of a finished episode's trace, as plain data (see the module card)."""
    scored = score_trace(trace)
    evidence = getattr(scored, "evidence", None) or {}
    return {
        "scenario": trace.scenario_id,
        "score": float(scored.score),
        "max": SCENARIO_MAX_POINTS,
        "measured": bool(scored.measured),
        "explanation": str(scored.explanation),
        "rule": str((evidence.get("rule") if isinstance(evidence, dict) else None) or ""),
    }


def score_reward(score: dict[str, Any]) -> float:
    """The terminal reward of ``"score"`` mode: points / 20 (0 for an unmeasured scenario)."""
    return float(score["score"]) / SCENARIO_MAX_POINTS if score["measured"] else 0.0


def dense_reward(decision: DecisionRecord, nearest_beast_after: float | None) -> float:
    """The ``"dense"`` shaping reward of one recorded decision (see the module card).

    ``nearest_beast_after``: the nearest beast's distance (m) once the decision's motion is done (None when
    no beast is in the world).
    """
    return (predict_reward(decision) + distance_reward(decision, nearest_beast_after)
            + event_reward(decision))


def predict_reward(decision: DecisionRecord) -> float:
    prediction = (decision.parse or {}).get("prediction") or {}
    total = 0.0
    for direction, truth in decision.truth.directions.items():
        said = prediction.get(direction)
        if not said:
            continue
        verdict = str(said[0]).lower()
        if verdict not in ("safe", "danger"):
            continue
        total += PREDICT_WEIGHT if (verdict == "safe") == truth.safe else -PREDICT_WEIGHT
    return total


def distance_reward(decision: DecisionRecord, nearest_beast_after: float | None) -> float:
    before = [f.distance for f in decision.truth.npcs if f.type == "beast" and f.nearby]
    if not before or nearest_beast_after is None:
        return 0.0
    gained = nearest_beast_after - min(before)
    return max(-DISTANCE_CLIP, min(DISTANCE_CLIP, DISTANCE_WEIGHT * gained))


def event_reward(decision: DecisionRecord) -> float:
    kinds = {e.kind for e in decision.events}
    return ((COLLISION_PENALTY if "collision:wall" in kinds else 0.0)
            + (CAUGHT_PENALTY if "caught" in kinds else 0.0)
            + (ESCAPE_BONUS if "escaped" in kinds else 0.0))
