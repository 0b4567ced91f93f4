"""Every scenario x every registered body (generated from the two registries; plugin bodies included through
the demo plugin, installed for this module): a cheap check per pair that the body takes part in the episode.

Per pair: the env builds, resets (seed 0) with the body at the phase's start pose and a first observation at t = 0,
holds still when told to freeze and records the decision (a still intent) under the body's name. The heavy
checks stay where they are (check_env over every scenario for dynamic bodies, the closed loops).
"""

from __future__ import annotations

import json
import math

import pytest

from tests.plugins.demo_install import installed_demo_plugin
from wmbench.body.registry import BODIES, available_bodies
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.scenarios import all_scenarios, get_scenario

FREEZE = "PREDICT: fwd=safe(open), left=safe(open), right=safe(open), back=safe(open)\nMOTION: freezes, holding still"
#: A freeze may drift this far (m) in one decision (a dynamic body settling).
STILL_DRIFT = 0.15
#: The body starts this close (m) to the phase's start position.
SPAWN_TOLERANCE = 0.25
PAIRS = [(s.id, body) for s in all_scenarios() for body in available_bodies()]


@pytest.fixture(scope="module")
def demo_plugin(tmp_path_factory):
    with installed_demo_plugin(tmp_path_factory.mktemp("demo-plugin-site"),
                               tmp_path_factory.mktemp("demo-plugin-build")) as distribution:
        yield distribution


def check_pair(sid: str, body: str) -> None:
    """The per-pair check of the module card (assertions name the pair)."""
    env = WMBenchEnv(sid, body=body)
    try:
        obs, _ = env.reset(seed=0)
        start = get_scenario(sid).phases[0].start_position
        x, y, _ = env.body.state().position
        assert math.hypot(x - start[0], y - start[1]) < SPAWN_TOLERANCE, f"{sid}/{body}: spawned at {(x, y)}"
        assert json.loads(obs["scene"])["t"] == 0.0
        env.step(FREEZE)
        decision = env.trace.decisions[0]
        before, after = decision.body_before["position"], decision.body_after["position"]
        drift = math.hypot(after[0] - before[0], after[1] - before[1])
        assert drift < STILL_DRIFT, f"{sid}/{body}: a freeze moved the body {drift:.3f} m"
        assert env.trace.body == body and decision.intent["speed_class"] == "still"
    finally:
        env.close()


@pytest.mark.parametrize(("sid", "body"), PAIRS)
def test_every_scenario_takes_every_registered_body(sid, body):
    check_pair(sid, body)


def test_every_scenario_takes_every_plugin_body(demo_plugin):
    plugin_bodies = [name for name in available_bodies() if name not in BODIES.registered()]
    assert plugin_bodies, "the demo plugin registers a body"
    for body in plugin_bodies:
        for record in all_scenarios():
            check_pair(record.id, body)
