"""Replaying one list of decisions on any body: the same replies drive every body's env.

Card
----
- :func:`replay_decisions` runs a scenario's env with a fixed list of replies (no brain) on a named body and
  returns the trace: the same decisions drive every body. It stops when the replies run out or the episode
  ends, whichever is first. Whether the bodies' traces then agree is judged in :mod:`wmbench.scoring.c10.agreement`.

It lives in the harness because it drives the env (the body package never imports the env).
"""

from __future__ import annotations

from collections.abc import Sequence

from wmbench.body.base import Body
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.protocol.trace import Trace


def replay_decisions(scenario_id: str, replies: Sequence[str], body: str | Body, seed: int = 0) -> Trace:
    """Run ``scenario_id`` on ``body`` (a name or a Body instance) with ``replies`` as the actions."""
    if isinstance(replies, str):
        raise TypeError("replies must be a sequence of reply strings, not one string")
    env = WMBenchEnv(scenario_id, body=body)
    try:
        env.reset(seed=seed)
        for reply in replies:
            _, _, terminated, truncated, _ = env.step(reply)
            if terminated or truncated:
                break
        return env.trace
    finally:
        env.close()
