"""run_episode: the decision loop, brain failures as failed decisions, env failures as error episodes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from wmbench.brain.base import BrainReply
from wmbench.brain.seeding import brain_seed
from wmbench.harness.run.episode import EpisodeResult, run_episode

GOOD_REPLY = ("PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)\n"
              "MOTION: a person walks")


@dataclass
class FakeTrace:
    decisions: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"scenario_id": "X", "decisions": list(self.decisions), "events": list(self.events)}


class FakeEnv:
    """Ends after ``n_steps`` decisions; raises at decision ``fail_at`` if set; records what it was given."""

    def __init__(self, n_steps: int = 4, fail_at: int | None = None) -> None:
        self.n_steps, self.fail_at = n_steps, fail_at
        self.trace = FakeTrace()
        self.actions: list[str] = []
        self.metas: list[dict[str, Any]] = []
        self.closed = False
        self.reset_seed: int | None = None

    @property
    def unwrapped(self) -> FakeEnv:
        return self

    def _obs(self) -> dict[str, str]:
        return {"scene": json.dumps({"t": 0.5 * len(self.actions), "walls": {}})}

    def reset(self, seed: int | None = None):
        self.reset_seed = seed
        return self._obs(), {}

    def step(self, action: str):
        if self.fail_at is not None and len(self.actions) == self.fail_at:
            raise RuntimeError("physics exploded")
        self.actions.append(action)
        self.trace.decisions.append({"parse": {"ok": action.startswith("PREDICT")}})
        kind = "phase:a" if len(self.actions) == 1 else "collision:wall"
        self.trace.events.append({"t": 0.0, "kind": kind})
        return self._obs(), 0.0, len(self.actions) >= self.n_steps, False, {}

    def record_brain_meta(self, meta: dict[str, Any]) -> None:
        self.metas.append(meta)

    def close(self) -> None:
        self.closed = True


class ScriptedBrain:
    """Replies GOOD_REPLY, except: ``errors`` decisions return an error reply, ``raises`` decisions raise."""

    name = "scripted"

    def __init__(self, errors: tuple[int, ...] = (), raises: tuple[int, ...] = (), text: str = GOOD_REPLY):
        self.errors, self.raises, self.text = errors, raises, text
        self.calls = 0
        self.seen: list[dict[str, Any]] = []
        self.reset_seeds: list[int | None] = []

    def reset(self, seed: int | None = None) -> None:
        self.reset_seeds.append(seed)
        self.calls = 0

    def decide(self, scene: dict[str, Any]) -> BrainReply:
        index = self.calls
        self.calls += 1
        self.seen.append(scene)
        if index in self.raises:
            raise ConnectionError("socket closed")
        if index in self.errors:
            return BrainReply(text="partial garbage", latency_s=0.1, provider="fake", error="timeout")
        return BrainReply(text=self.text, latency_s=0.01, provider="fake")

    def close(self) -> None:
        pass


def _run(env: FakeEnv, brain: ScriptedBrain, **kwargs: Any) -> EpisodeResult:
    return run_episode("S01", brain, "smpl", seed=7, env_factory=lambda *_a, **_k: env, **kwargs)


def test_loop_feeds_scenes_to_the_brain_and_replies_to_the_env():
    env, brain = FakeEnv(n_steps=4), ScriptedBrain()
    result = _run(env, brain)
    assert result.error is None and result.ok
    assert (result.scenario, result.seed, result.body, result.brain) == ("S01", 7, "smpl", "scripted")
    assert env.reset_seed == 7 and brain.reset_seeds == [brain_seed(7)]  # the brain never gets the world's seed
    assert env.actions == [GOOD_REPLY] * 4 and result.n_decisions == 4
    assert [s["t"] for s in brain.seen] == [0.0, 0.5, 1.0, 1.5]  # the parsed scene dict, not the JSON string
    assert len(env.metas) == 4 and all(m["provider"] == "fake" and "text" not in m for m in env.metas)
    assert result.failed_decisions == 0 and result.parse_errors == 0
    assert result.trace == env.trace.to_dict() and env.closed
    assert result.summary()["events"] == {"collision:wall": 3, "phase:a": 1}


def test_brain_label_overrides_the_brain_name():
    assert _run(FakeEnv(1), ScriptedBrain(), brain_label="openai/gpt-x").brain == "openai/gpt-x"


@pytest.mark.parametrize("failure", ["errors", "raises"])
def test_brain_failures_are_failed_decisions_and_the_episode_goes_on(failure):
    env, brain = FakeEnv(n_steps=5), ScriptedBrain(**{failure: (1, 3)})
    result = _run(env, brain)
    assert result.error is None and result.n_decisions == 5
    assert result.failed_decisions == 2
    assert env.actions[1] == "" and env.actions[3] == "" and env.actions[0] == GOOD_REPLY
    assert result.parse_errors == 2  # the empty replies are misses
    assert env.metas[1]["error"] and env.metas[0]["error"] is None
    if failure == "raises":
        assert "ConnectionError: socket closed" in env.metas[3]["error"]


def test_non_reply_from_brain_is_a_failed_decision():
    class WrongType(ScriptedBrain):
        def decide(self, scene):
            return "PREDICT: ..."

    env = FakeEnv(n_steps=2)
    result = _run(env, WrongType())
    assert result.failed_decisions == 2 and "expected a BrainReply" in env.metas[0]["error"]


def test_env_exception_becomes_an_error_episode_and_the_env_is_closed():
    env = FakeEnv(n_steps=6, fail_at=2)
    result = _run(env, ScriptedBrain())
    assert result.error is not None and result.error.startswith("RuntimeError: physics exploded")
    assert "step" in result.error  # the traceback tail names where it happened
    assert result.n_decisions == 2 and len(result.trace["decisions"]) == 2  # the partial trace is kept
    assert env.closed and not result.ok


def test_env_that_cannot_be_built_is_an_error_episode():
    def broken_factory(*_args, **_kwargs):
        raise ValueError("unknown body 'hexapod'")

    result = run_episode("S01", ScriptedBrain(), "hexapod", env_factory=broken_factory)
    assert result.error.startswith("ValueError: unknown body 'hexapod'") and result.trace is None
    assert result.n_decisions == 0


def test_ctrl_c_propagates_but_still_closes_the_env():
    class Interrupting(ScriptedBrain):
        def decide(self, scene):
            raise KeyboardInterrupt

    env = FakeEnv()
    with pytest.raises(KeyboardInterrupt):
        _run(env, Interrupting())
    assert env.closed


def test_result_is_frozen():
    result = _run(FakeEnv(1), ScriptedBrain())
    with pytest.raises(AttributeError):
        result.seed = 3  # type: ignore[misc]
