"""Gymnasium ids: ``WMBench-S01-v0`` … ``WMBench-S50-v0`` (one per registered scenario), and
``WMBench-Mix-v0``: every bench-mode scenario, one drawn per reset with the env's seeded generator (pass
``scenarios="C01,C03"`` to ``gym.make``/``gym.make_vec`` for another pool, ``reset(options={"scenario": ...})``
to pick one)."""

from __future__ import annotations

import gymnasium as gym

from wmbench.scenarios import all_scenarios

#: The simulator inside the scorer's wrapper (terminal ``episode_score``, the ``"score"`` reward); named by
#: string, so the env part imports neither the harness nor the scorer.
ENTRY_POINT = "wmbench.harness.gym_entry:make_env"
MIX_ENV_ID = "WMBench-Mix-v0"


def env_id(scenario_id: str) -> str:
    return f"WMBench-{scenario_id}-v0"


def register_envs() -> list[str]:
    """Register an id for every scenario in the registry (idempotent). Returns the ids."""
    ids = []
    for record in all_scenarios():
        eid = env_id(record.id)
        if eid not in gym.registry:
            gym.register(id=eid, entry_point=ENTRY_POINT, kwargs={"scenario": record.id})
        ids.append(eid)
    if MIX_ENV_ID not in gym.registry:
        gym.register(id=MIX_ENV_ID, entry_point=ENTRY_POINT, kwargs={"scenarios": "bench"})
    ids.append(MIX_ENV_ID)
    return ids
