"""Live mode is composition: a LiveLoop drives its env only through the declared LiveHost interface.

A proxy that exposes exactly the LiveHost members (anything else raises) runs the same live episode as the
env's own live API; the traces must be identical. A member used but not declared would fail here.
"""

from __future__ import annotations

import json
from typing import Any

from wmbench.envs.live_mode import LiveHost, LiveLoop
from wmbench.envs.wmbench_env import WMBenchEnv

REPLIES = ("PREDICT: fwd=danger(beast)\nMOTION: sprints back in terror", "MOTION: walks left, glancing back",
           "MOTION: freezes")
#: Every member LiveHost declares (attributes, properties, methods).
DECLARED = frozenset(LiveHost.__annotations__) | {n for n in vars(LiveHost) if not n.startswith("_")}


class DeclaredOnly:
    """The env seen through LiveHost only: reading any undeclared member is an AttributeError."""

    def __init__(self, env: WMBenchEnv) -> None:
        object.__setattr__(self, "_env", env)

    def __getattr__(self, name: str) -> Any:
        if name not in DECLARED:
            raise AttributeError(f"live mode read {name!r}, which LiveHost does not declare")
        return getattr(object.__getattribute__(self, "_env"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"live mode set {name!r} on its host; it must call a declared hook instead")


def live_episode(observe, apply_reply, advance_frame, finish_decision) -> None:
    for text in REPLIES:
        observe()
        apply_reply(text, {"latency_s": 0.0})
        for _ in range(20):
            advance_frame()
    finish_decision()


def test_the_declared_interface_is_all_live_mode_needs():
    own, seen = WMBenchEnv("S22"), WMBenchEnv("S22")
    try:
        own.reset(seed=1)
        seen.reset(seed=1)
        live_episode(own.observe, own.apply_reply, own.advance_frame, own.finish_decision)
        loop = LiveLoop(DeclaredOnly(seen))
        live_episode(loop.observe, loop.apply_reply, loop.advance_frame, loop.finish_decision)
        assert len(own.trace.decisions) == len(REPLIES)
        assert json.dumps(own.trace.to_dict(), sort_keys=True) == json.dumps(seen.trace.to_dict(), sort_keys=True)
    finally:
        own.close()
        seen.close()


def test_the_env_implements_live_host():
    env = WMBenchEnv("S01")
    missing = sorted(name for name in DECLARED if not hasattr(env, name))
    env.close()
    assert missing == []
