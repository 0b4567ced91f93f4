"""Fork a recorded bench episode at one decision: the world as it was there, another reply, then a brain onward.

Card
----
- **How the world is restored.** Bench mode is deterministic (sim time stops while the brain thinks; every random
  choice goes through the env's seeded generator), so the world at decision ``k`` — PyBullet state, NPCs, the
  generator, the env's memory of recent decisions — is rebuilt by a fresh env of the same scenario, body, seed and
  env options replaying the recorded replies ``0 .. k-1``. This is exact by construction (no snapshot of PyBullet
  internals is needed) and is checked: forking with the original reply (:func:`fork_episode` with ``reply=None``
  and no onward brain) reproduces the recorded trace byte for byte, for every scenario
  (``tests/harness/counterfactual/test_fork.py``). The price is re-simulating the prefix (milliseconds per
  decision).
- **The onward brain.** After the replaced decision the branch is played by ``onward`` (the run's own brain by
  default, or any named brain). Brains keep state across decisions (the reference brain's escalation, an API
  brain's history), so the onward brain is first shown the prefix's scenes in order, its answers discarded —
  the same scenes it saw in the original run, so a deterministic brain is in the same state at the fork. An API
  brain is asked again for the prefix (its response cache answers at temperature 0). Without an onward brain the
  recorded replies after ``k`` are replayed as they were (meaningful only while the branch stays close).
- **What comes back.** :class:`Fork`: both traces (plain data) and both scores, side by side.
- Only bench-mode episodes are forked (C01–C08 and every registered scenario's bench world); live (C09) runs
  are wall-clock and cannot be replayed exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from wmbench.brain.base import Brain
from wmbench.brain.seeding import brain_seed
from wmbench.core.errors import ConfigError
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.run.episode import MAX_DECISIONS, decide_safely
from wmbench.protocol.observation import brain_input
from wmbench.protocol.trace import BrainRecord, Trace, TraceDict
from wmbench.scoring import ScenarioScore, score_trace

#: Brain metadata fields that are wall-clock (never reproducible); left out when traces are compared.
WALL_CLOCK_BRAIN_FIELDS: tuple[str, ...] = ("latency_s",)


@dataclass(frozen=True)
class EpisodeSetup:
    """What rebuilds an episode's world: scenario, seed, body and the env's keyword options."""

    scenario: str
    seed: int
    body: str = "smpl"
    env_kwargs: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Fork:
    """An original episode and its counterfactual branch, both scored."""

    setup: EpisodeSetup
    at: int
    reply: str
    original: TraceDict
    branch: TraceDict
    original_score: ScenarioScore
    branch_score: ScenarioScore

    @property
    def gain(self) -> float:
        """Points the branch earns over the original (negative: the alternative was worse)."""
        return float(self.branch_score.score) - float(self.original_score.score)


def recorded_replies(trace: TraceDict) -> list[str]:
    """The reply text of every recorded decision, in order."""
    return [str(d["reply"]) for d in trace["decisions"]]


def replay_branch(setup: EpisodeSetup, replies: Sequence[str], at: int, reply: str | None,
                  onward: Brain | None = None, brain_meta: Sequence[BrainRecord] = ()) -> TraceDict:
    """Play ``replies[:at]``, then ``reply`` (None: ``replies[at]``) at decision ``at``, then ``onward`` (or the
    remaining ``replies``) to the episode's end; returns the branch's trace. ``brain_meta[i]`` is recorded with
    replayed decision ``i`` (so an unchanged replay reproduces the original trace)."""
    if not 0 <= at < len(replies):
        raise ConfigError(f"--at must be a decision of the episode (0..{len(replies) - 1}), got {at}")
    env = WMBenchEnv(setup.scenario, body=setup.body, **dict(setup.env_kwargs or {}))
    try:
        obs, _ = env.reset(seed=setup.seed)
        if onward is not None:
            onward.reset(brain_seed(setup.seed))
        index, done = 0, False
        while not done:
            if index >= MAX_DECISIONS:
                raise RuntimeError(f"branch did not end after {MAX_DECISIONS} decisions")
            meta: BrainRecord = brain_meta[index] if index < len(brain_meta) else {}
            if index < at:
                if onward is not None:
                    decide_safely(onward, brain_input(obs))  # bring the onward brain's state to the fork
                text = replies[index]
            elif index == at:
                if onward is not None:
                    decide_safely(onward, brain_input(obs))  # it saw this scene too; its answer is replaced
                text = replies[at] if reply is None else reply
                meta = meta if reply is None else {"provider": "counterfactual"}
            elif onward is not None:
                answer = decide_safely(onward, brain_input(obs))
                text, meta = (answer.text if answer.error is None else ""), answer.meta()
            elif index < len(replies):
                text = replies[index]
            else:
                text, meta = "", {"provider": "counterfactual", "error": "no recorded reply left"}
            obs, _reward, terminated, truncated, _info = env.step(text)
            if meta:
                env.record_brain_meta(meta.copy())
            index += 1
            done = bool(terminated or truncated)
        return env.trace.to_dict()
    finally:
        env.close()


def fork_episode(setup: EpisodeSetup, original: TraceDict, at: int, reply: str | None,
                 onward: Brain | None = None) -> Fork:
    """Fork ``original`` (a trace of ``setup``'s episode) at decision ``at`` (see the module card)."""
    replies = recorded_replies(original)
    meta = [d.get("brain") or {} for d in original["decisions"]]
    branch = replay_branch(setup, replies, at, reply, onward, meta)
    return Fork(setup=setup, at=at, reply=replies[at] if reply is None else reply, original=original,
                branch=branch, original_score=score_trace(Trace.from_dict(original)),
                branch_score=score_trace(Trace.from_dict(branch)))


def comparable(trace: TraceDict) -> str:
    """A trace as sorted-key JSON without wall-clock fields: two replays of one episode compare equal."""
    plain: dict[str, Any] = json.loads(json.dumps(trace))
    for decision in plain.get("decisions", ()):
        for key in WALL_CLOCK_BRAIN_FIELDS:
            (decision.get("brain") or {}).pop(key, None)
    return json.dumps(plain, sort_keys=True)
