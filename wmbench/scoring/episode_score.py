"""The benchmark's score of a finished episode, handed to Gymnasium users: terminal info and the ``"score"`` reward.

Card
----
- :class:`EpisodeScoreWrapper` wraps a :class:`~wmbench.envs.wmbench_env.WMBenchEnv` (the registered ids do it
  for you: ``gym.make("WMBench-S12-v0", reward=...)``). On the step that ends an episode it adds
  ``info["episode_score"]`` (:class:`EpisodeScore`: ``scenario``, ``score`` 0..20, ``max`` 20, ``measured``,
  ``explanation``, ``rule``; never None, so a vector env can stack them into arrays) in every reward mode,
  computed from ``info["trace"]`` (the env puts the finished trace there, so a vector env's autoreset, which
  starts a new trace one step later, loses neither).
- ``reward="score"``: 0 on every step but the terminal one, which pays the scenario's points / 20 (0..1) as
  :func:`~wmbench.scoring.dispatch.score_trace` gives them. An episode return is exactly the scenario score / 20.
  C09/C10 scenarios are measured by the harness, not from one trace: their terminal reward is 0 and the info says
  ``measured: False``. ``"none"`` and ``"dense"`` rewards come from the env unchanged.
- The wrapper reads only the protocol (the trace in the info), never the env's internals, so scoring stays
  independent of the simulator.
"""

from __future__ import annotations

from typing import Any, SupportsFloat, TypedDict

import gymnasium as gym

from wmbench.core.taxonomy import SCENARIO_MAX_POINTS
from wmbench.protocol.trace import Trace
from wmbench.scoring.dispatch import score_trace

#: The reward modes a scored env accepts (the env's own, plus the scorer's ``"score"``).
SCORE_MODE = "score"


class EpisodeScore(TypedDict):
    """``info["episode_score"]`` of an episode's last step."""

    scenario: str
    score: float
    max: float
    measured: bool
    explanation: str
    rule: str


def terminal_score(trace: Trace) -> EpisodeScore:
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


def score_reward(score: EpisodeScore) -> float:
    """The terminal reward of ``"score"`` mode: points / 20 (0 for an unmeasured scenario)."""
    return float(score["score"]) / SCENARIO_MAX_POINTS if score["measured"] else 0.0


class EpisodeScoreWrapper(gym.Wrapper[Any, Any, Any, Any]):
    """Adds ``info["episode_score"]`` on the terminal step and, with ``reward="score"``, pays it (see the card)."""

    def __init__(self, env: gym.Env[Any, Any], reward: str | None = None) -> None:
        super().__init__(env)
        self.pays_score = reward == SCORE_MODE

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        trace = info.get("trace")
        if terminated and isinstance(trace, Trace):
            score = terminal_score(trace)
            info["episode_score"] = score
            if self.pays_score:
                reward = score_reward(score)
        return obs, reward, terminated, truncated, info
