"""One bench-mode episode: a scenario, a brain, a body and a seed in; an :class:`EpisodeResult` out.

The loop (sim time stands still while the brain thinks)::

    obs, info = env.reset(seed=seed); brain.reset(seed)
    until terminated or truncated:
        reply = brain.decide(json.loads(obs["scene"]))
        obs, ... = env.step(reply.text)         # "" when the brain failed: scored as a miss
        env.unwrapped.record_brain_meta(reply.meta())

A brain that fails on a decision (``reply.error`` set, or ``decide`` raising despite the protocol: see
:func:`decide_safely`) costs that decision only: it is counted in ``failed_decisions`` and the episode goes
on with an empty reply — unless the reply is ``fatal`` (the brain cannot go on): then the episode ends at
once with that error, and the runner stops the run without keeping it (a rerun plays it again).
Anything else that goes wrong (the env raising, ``brain.reset`` raising) ends the episode as an
:class:`EpisodeResult` with ``error`` set — the suite goes on, and the scorer gives that scenario 0 with the
error as its explanation.
The env is always closed.
"""

from __future__ import annotations

import contextlib
import time
import traceback
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from wmbench.brain.base import Brain, BrainReply
from wmbench.brain.seeding import brain_seed
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.run import env_reuse
from wmbench.protocol.observation import BrainInput, brain_input
from wmbench.protocol.trace import TraceDict

#: A safety net against an env that never ends: no scenario comes close (the longest is well under a minute
#: of sim time at two decisions a second).
MAX_DECISIONS = 5000

EnvFactory = Callable[..., Any]


class EpisodeSummary(TypedDict):
    """An episode line's ``summary``: counts for a quick look without reading the trace."""

    decisions: int
    events: dict[str, int]
    parse_errors: int
    failed_decisions: int
    wall_s: float


@dataclass(frozen=True)
class EpisodeResult:
    """A finished episode. ``trace`` is ``Trace.to_dict()`` (partial or None when ``error`` is set)."""

    scenario: str
    seed: int
    body: str
    brain: str
    trace: TraceDict | None
    wall_s: float
    n_decisions: int
    failed_decisions: int
    parse_errors: int
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def summary(self) -> EpisodeSummary:
        """Counts for a quick look without reading the trace: decisions, events by kind, errors, wall time."""
        events = Counter(e["kind"] for e in (self.trace["events"] if self.trace else ()))
        return {
            "decisions": self.n_decisions,
            "events": dict(sorted(events.items())),
            "parse_errors": self.parse_errors,
            "failed_decisions": self.failed_decisions,
            "wall_s": round(self.wall_s, 3),
        }


def make_env(scenario_id: str, body: str, **env_kwargs: Any) -> WMBenchEnv:
    """The default env factory: ``WMBenchEnv(scenario_id, body=body, **env_kwargs)`` (imported lazily)."""
    return WMBenchEnv(scenario_id, body=body, **env_kwargs)


def run_episode(
    scenario_id: str,
    brain: Brain,
    body: str = "smpl",
    seed: int = 0,
    env_kwargs: Mapping[str, Any] | None = None,
    *,
    brain_label: str | None = None,
    env_factory: EnvFactory | None = None,
    reuse_env: bool = False,
) -> EpisodeResult:
    """Run one episode to its end and return what happened. Never raises an ``Exception``.

    ``brain_label`` is the name written in the result (default ``brain.name``; the suite runner passes the
    brain spec so resumed runs match). ``env_factory(scenario_id, body, **env_kwargs)`` builds the env
    (default :func:`make_env`). ``reuse_env`` (with the default factory): run on this thread's reused env
    (:mod:`wmbench.harness.run.env_reuse`: one PyBullet client per worker, reset between episodes) instead of
    building and closing one; an episode that raised discards it.
    """
    reuse = reuse_env and env_factory is None and env_reuse.reuse_enabled()
    label = brain_label or str(getattr(brain, "name", type(brain).__name__))
    start = time.perf_counter()
    env: Any = None   # a WMBenchEnv, or whatever a caller's env_factory builds (used duck-typed)
    n_decisions = failed = 0
    error: str | None = None
    trace: TraceDict | None = None
    try:
        try:
            if reuse:
                env = env_reuse.reused_env(scenario_id, body, **dict(env_kwargs or {}))
                obs, info = env.reset(seed=seed, options={"scenario": scenario_id})
            else:
                env = (env_factory or make_env)(scenario_id, body, **dict(env_kwargs or {}))
                obs, info = env.reset(seed=seed)
            brain.reset(brain_seed(seed))
            announce_episode(brain, scenario_id, seed, info)
            done = False
            while not done:
                if n_decisions >= MAX_DECISIONS:
                    raise RuntimeError(f"episode did not end after {MAX_DECISIONS} decisions")
                reply = decide_safely(brain, brain_input(obs))  # the JSON, plus the image in image modes
                action = reply.text if reply.error is None else ""
                obs, _reward, terminated, truncated, _info = env.step(action)
                env.unwrapped.record_brain_meta(reply.meta())
                n_decisions += 1
                failed += reply.error is not None
                done = bool(terminated or truncated)
                if reply.fatal:  # the brain cannot go on (bad key, unreachable): do not play out the episode
                    error = f"stopped: the brain cannot go on: {reply.error}"
                    break
        except Exception as exc:  # the world, body or motion plugin broke mid-episode: a recorded, scored failure
            error = f"{type(exc).__name__}: {exc}\n{_short_traceback(exc)}"
        trace = _trace_dict(env)
    finally:  # Ctrl-C (KeyboardInterrupt) passes through, but the env is closed either way
        if not reuse:
            _close(env)
        elif env is not None and (error is not None or trace is None):
            env_reuse.discard_env(env)  # never reuse an env that failed (or was interrupted) mid-episode
    return EpisodeResult(
        scenario=scenario_id, seed=seed, body=body, brain=label, trace=trace,
        wall_s=time.perf_counter() - start, n_decisions=n_decisions, failed_decisions=failed,
        parse_errors=count_parse_errors(trace), error=error,
    )


def announce_episode(brain: Brain, scenario_id: str, seed: int, info: Mapping[str, Any] | None) -> None:
    """Tell a brain that has ``start_episode`` (API brains: cache keys, session ids) which episode starts:
    the scenario, the seed and the drawn instance when the env reports one. Optional for every brain."""
    start_episode = getattr(brain, "start_episode", None)
    if not callable(start_episode):
        return
    info = info or {}
    instance = info.get("instance", info.get("instance_id"))
    start_episode({"scenario": scenario_id, "seed": seed,
                   "instance": None if instance is None else str(instance)})


def count_parse_errors(trace: TraceDict | None) -> int:
    """Decisions whose reply did not parse fully (``parse.ok`` false) in a trace dict."""
    if not trace:
        return 0
    return sum(1 for d in trace["decisions"] if not d["parse"].get("ok", False))


def decide_safely(brain: Brain, scene: BrainInput) -> BrainReply:
    """``brain.decide(scene)`` with the Brain protocol's promise enforced, for every loop that asks a brain
    (bench episodes here, the live worker thread in :mod:`wmbench.harness.live.loop`): an exception, or something
    that is not a :class:`BrainReply`, becomes a failed reply (``text=""``, ``error`` saying what happened,
    ``latency_s`` the time the call took) instead of escaping."""
    start = time.perf_counter()
    try:
        reply = brain.decide(scene)
    except Exception as exc:  # the user's brain raised: a failed reply (recorded and scored), never a crash
        return BrainReply(
            text="", latency_s=time.perf_counter() - start, provider=str(getattr(brain, "name", "?")),
            error=f"brain raised {type(exc).__name__}: {exc}",
        )
    if not isinstance(reply, BrainReply):
        return BrainReply(
            text="", latency_s=time.perf_counter() - start, provider=str(getattr(brain, "name", "?")),
            error=f"brain returned {type(reply).__name__}; expected a BrainReply",
        )
    return reply


def _trace_dict(env: Any) -> TraceDict | None:
    """The env's trace as a dict, or None when there is no env or no readable trace."""
    if env is None:
        return None
    try:
        return env.unwrapped.trace.to_dict()
    except Exception:  # an env broken by the failure above (or a plugin env) has no readable trace
        return None


def _close(env: Any) -> None:
    if env is None:
        return
    with contextlib.suppress(Exception):  # a failing close must not turn a finished episode into a crash
        env.close()


def _short_traceback(exc: BaseException, limit: int = 6) -> str:
    """The last few frames, enough to find the bug from episodes.jsonl without a debugger."""
    frames = traceback.format_tb(exc.__traceback__)[-limit:]
    return "".join(frames).rstrip()
