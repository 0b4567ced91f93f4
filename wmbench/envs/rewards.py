"""Opt-in rewards for RL users of :class:`~wmbench.envs.wmbench_env.WMBenchEnv` that the simulator alone can pay.

Card
----
- **Modes** (``gym.make(..., reward=...)``): ``"none"`` (default; every reward 0.0, so benchmark results
  are unchanged), ``"score"`` and ``"dense"``. The env itself pays ``"none"`` and ``"dense"``; ``"score"`` is
  the benchmark's scorer, so it is paid by :class:`wmbench.scoring.episode_score.EpisodeScoreWrapper`, which
  the registered ids put around the env (``WMBenchEnv(reward="score")`` alone is refused with that advice).
- ``"dense"``: a per-decision shaping signal from the simulator's ground truth (never the scorer), in
  :func:`dense_reward`. It is *not* the benchmark score and says nothing about one; use it to learn, report
  ``"score"``. Per decision:

  * ``PREDICT`` accuracy: +0.1 per direction whose safe/danger verdict matches the truth, -0.1 per direction
    judged wrongly, 0 for one left out (so a reply without PREDICT earns nothing, a constant reply earns
    what the scene's truth gives it and loses it where the truth differs);
  * moving away from danger: while a beast is nearby at the decision's start, +0.1 per metre the nearest
    beast got farther away (-0.1 per metre closer), clipped to +-0.3;
  * -0.2 for a wall collision, -1.0 for being caught, +0.5 for an escape (the sim's ``escaped`` event).

"""

from __future__ import annotations

from typing import Literal

from wmbench.core.errors import ConfigError
from wmbench.protocol.trace import DecisionRecord

RewardMode = Literal["none", "score", "dense"]
REWARD_MODES: tuple[str, ...] = ("none", "score", "dense")
#: The modes the env pays by itself; ``"score"`` needs the scorer's wrapper.
ENV_REWARD_MODES: tuple[str, ...] = ("none", "dense")

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


def check_env_reward_mode(mode: str | None) -> str:
    """:func:`check_reward_mode` for the env itself: ``"score"`` is refused with where to get it."""
    chosen = check_reward_mode(mode)
    if chosen not in ENV_REWARD_MODES:
        raise ConfigError("reward='score' is paid by the benchmark's scorer: use gym.make(..., reward='score') "
                          "or wrap the env in wmbench.scoring.episode_score.EpisodeScoreWrapper(env, 'score')")
    return chosen


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
