"""One env (one PyBullet client) per thread, reused across a suite's episodes.

Card
----
- **Why.** Building a PyBullet client per episode costs ~30 MB of buffers allocated and freed each time
  (which is why :mod:`wmbench.envs.allocator` once tuned glibc for the whole process). Reusing one env per
  worker thread or process makes that moot: between episodes the env's world is emptied with
  ``resetSimulation`` and rebuilt (``WMBenchEnv.reset``), and the next scenario is chosen with
  ``reset(options={"scenario": ...})``.
- **What.** :func:`reused_env` returns this thread's env for a (body, env options) pair, building it on
  first use; :func:`discard_env` closes and forgets it (after an episode that raised, so a broken env is
  never reused); :func:`close_all` closes every env of this thread.
- **Same results.** A reused env gives byte-identical traces to a fresh one for the same scenario and seed
  (tests/harness/run/test_env_reuse.py checks all bench scenarios): every random choice is re-seeded at reset,
  and nothing of an episode survives ``reset`` but the body object, whose pose and intent are reset.
- **Opt-out.** ``WMBENCH_REUSE_ENVS=0`` builds a fresh env per episode, as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from typing import Any

from wmbench.envs.wmbench_env import WMBenchEnv

OPT_OUT_ENV = "WMBENCH_REUSE_ENVS"

_local = threading.local()


def reuse_enabled() -> bool:
    return os.environ.get(OPT_OUT_ENV, "").strip().lower() not in ("0", "false", "no", "off")


def _key(body: str, env_kwargs: dict[str, Any]) -> str:
    return json.dumps([body, env_kwargs], sort_keys=True, default=repr)


def _envs() -> dict[str, WMBenchEnv]:
    envs: dict[str, WMBenchEnv] | None = getattr(_local, "envs", None)
    if envs is None:
        envs = _local.envs = {}
    return envs


def reused_env(scenario_id: str, body: str, **env_kwargs: Any) -> WMBenchEnv:
    """This thread's env for ``body`` and ``env_kwargs`` (built with ``scenario_id`` the first time)."""
    envs = _envs()
    key = _key(body, env_kwargs)
    env = envs.get(key)
    if env is None:
        env = envs[key] = WMBenchEnv(scenario_id, body=body, **env_kwargs)
    return env


def discard_env(env: WMBenchEnv) -> None:
    """Close ``env`` and forget it, so the next episode builds a fresh one."""
    envs = _envs()
    for key, held in list(envs.items()):
        if held is env:
            del envs[key]
    with contextlib.suppress(Exception):
        env.close()


def close_all() -> None:
    """Close every env this thread holds."""
    envs = _envs()
    for env in list(envs.values()):
        with contextlib.suppress(Exception):
            env.close()
    envs.clear()
