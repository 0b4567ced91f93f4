"""Perception: walls and NPCs in the scene_context and the truth match the sim and the layouts."""

from __future__ import annotations

import json
import math

import pytest

from tests.envs.conftest import one_phase, reply
from wmbench.envs.perception import RayFan
from wmbench.protocol.scene import SCENE_KEYS, WALL_KEYS, WALL_SENSING_RANGE, sector_of, validate_scene
from wmbench.scenarios import NpcSpec, TimelineEvent, Wall, select

C01 = [s.id for s in select("C01")]
C02 = [s.id for s in select("C02")]
SCENE_TO_GRAMMAR = {"front": "fwd", "left": "left", "right": "right", "back": "back"}


def scene_of(obs) -> dict:
    return json.loads(obs["scene"])


def expected_wall(walls, angles) -> float | None:
    """Analytic ray-box distance from the origin along each angle; the shortest one within sensing range."""
    best = math.inf
    for a in angles:
        dx, dy = math.cos(a), math.sin(a)
        for w in walls:
            lo = (w.center[0] - w.size[0] / 2, w.center[1] - w.size[1] / 2)
            hi = (w.center[0] + w.size[0] / 2, w.center[1] + w.size[1] / 2)
            t0, t1 = 0.0, math.inf
            for d, low, high in ((dx, lo[0], hi[0]), (dy, lo[1], hi[1])):
                if abs(d) < 1e-12:
                    if not low <= 0.0 <= high:
                        t0, t1 = 1.0, 0.0
                    continue
                a1, a2 = sorted((low / d, high / d))
                t0, t1 = max(t0, a1), min(t1, a2)
            if t0 <= t1:
                best = min(best, t0)
    return round(best, 2) if best <= WALL_SENSING_RANGE else None


@pytest.mark.parametrize("sid", C01)
def test_walls_in_scene_and_truth_match_the_layout(sid, make_env):
    env = make_env(sid)
    obs, _ = env.reset(seed=0)
    scene = scene_of(obs)
    phase = env.scenario.phases[0]
    fan = env.fan
    for word in WALL_KEYS:
        angles = [fan.angles[i] for i in fan.cones[word]]  # the body faces +x at reset
        want = expected_wall(phase.walls, angles)
        got = scene["walls"][word]
        assert (got is None) == (want is None), (word, got, want)
        if want is not None:
            assert got == pytest.approx(want, abs=0.05)
        truth = env.last_perception.truth.directions[SCENE_TO_GRAMMAR[word]]
        assert truth.safe == (want is None) and truth.reason == ("open" if want is None else "wall")
        assert truth.wall_distance == got


@pytest.mark.parametrize("sid", C02)
def test_npc_facts_in_scene_and_truth_match_the_sim(sid, make_env):
    env = make_env(sid)
    env.reset(seed=3)
    for _ in range(4):
        scene, truth = env.last_perception.scene, env.last_perception.truth
        body = env.body.state()
        present = {n.name: n for n in env.crowd.present()}
        assert {f.name for f in truth.npcs} == set(present)
        for fact in truth.npcs:
            npc = present[fact.name]
            dist = math.hypot(npc.x - body.position[0], npc.y - body.position[1])
            assert fact.type == npc.kind and fact.behavior == npc.behavior
            assert fact.distance == pytest.approx(dist, abs=0.1)
            bearing = math.atan2(npc.y - body.position[1], npc.x - body.position[0]) - body.heading
            assert fact.direction == SCENE_TO_GRAMMAR[sector_of(bearing)]
            assert fact.nearby == (fact.visible and dist <= 8.0)
        if truth.primary is not None:
            assert scene["npc_nearby"] is True
            assert scene["npc_type"] == truth.primary.type and scene["npc_behavior"] == truth.primary.behavior
            assert scene["npc_distance"] == pytest.approx(truth.primary.distance, abs=0.1)
            assert SCENE_TO_GRAMMAR[scene["npc_direction"]] == truth.primary.direction
        else:
            assert scene["npc_nearby"] is False and scene["npc_type"] is None and scene["npcs"] == []
        _, _, terminated, _, _ = env.step(reply("stands still, watching"))
        if terminated:
            break


def test_s09_reports_the_beast_on_both_sides_of_the_8m_boundary(make_env):
    env = make_env("S09")
    env.reset(seed=0)
    seen = {}
    terminated = False
    while not terminated:
        phase = env.phase_index
        seen.setdefault(phase, (env.last_perception.scene, env.last_perception.truth))
        _, _, terminated, _, _ = env.step(reply("stands still"))
    (inside, t_in), (outside, t_out) = seen[0], seen[1]
    assert inside["npc_nearby"] is True and inside["npc_direction"] == "front"
    assert 7.4 <= inside["npc_distance"] <= 8.0
    assert t_in.directions["fwd"].reason == "beast" and t_in.primary.nearby
    assert outside["npc_nearby"] is False and outside["npcs"] == [] and outside["npc_distance"] is None
    assert t_out.directions["fwd"].safe and t_out.primary is None
    assert t_out.npcs[0].distance > 8.0 and not t_out.npcs[0].nearby


def test_s10_despawned_beast_is_gone_from_scene_and_truth(make_env):
    env = make_env("S10")
    env.reset(seed=0)
    assert env.last_perception.scene["npc_type"] == "beast"
    events = []
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(reply("stands still"))
        events += info["events"]
    assert "despawn:beast" in events and "escaped" not in events  # a despawn is not an escape
    after = [d for d in env.trace.decisions if d.t >= 1.5]
    assert after
    for record in after:
        assert record.scene["npc_nearby"] is False and record.scene["npcs"] == []
        assert record.truth.npcs == () and record.truth.primary is None
        assert all(t.safe for t in record.truth.directions.values())


def test_scene_keys_are_in_contract_order_and_valid(make_env):
    env = make_env("S07")
    obs, _ = env.reset(seed=0)
    scene = scene_of(obs)
    assert tuple(scene) == SCENE_KEYS
    assert tuple(scene["walls"]) == WALL_KEYS
    assert validate_scene(scene) == []
    assert set(scene["npcs"][0]) == {"type", "behavior", "distance", "direction", "speed"}


def test_primary_is_the_most_threatening_and_npcs_are_ordered(make_env):
    scenario = one_phase(npcs=(NpcSpec("w", "woman", (1.5, 0.0)), NpcSpec("idle", "beast", (0.0, 5.0)),
                               NpcSpec("hunter", "beast", (-6.0, 0.0), "approach")), jitter=0.0)
    env = make_env(scenario)
    obs, _ = env.reset(seed=0)
    scene = scene_of(obs)
    assert [(n["type"], n["behavior"]) for n in scene["npcs"]] == [
        ("beast", "approach"), ("beast", "stop"), ("woman", "stop")]
    assert scene["npc_behavior"] == "approach" and scene["npc_direction"] == "back"
    truth = env.last_perception.truth
    assert truth.threat_level == 3
    assert truth.verdicts() == {"left": ("danger", "beast"), "right": ("safe", "open"),
                                "fwd": ("danger", "human"), "back": ("danger", "beast")}


def test_a_beast_behind_a_wall_is_not_seen_but_is_heard(make_env):
    scenario = one_phase(walls=(Wall.facing("fwd", 2.0, length=6.0),),
                         npcs=(NpcSpec("b", "beast", (5.0, 0.0), "approach"),), jitter=0.0)
    env = make_env(scenario)
    obs, _ = env.reset(seed=0)
    scene = scene_of(obs)
    assert scene["npc_nearby"] is False and scene["walls"]["front"] == pytest.approx(2.0, abs=0.01)
    assert scene["sound"] == "low growl from the front"
    assert env.last_perception.truth.npcs[0].visible is False
    assert (obs["ray_hits"] == 2).sum() == 0 and obs["ray_hits"][0] == 1


def test_ray_arrays_report_classes_and_distances(make_env):
    scenario = one_phase(walls=(Wall.facing("left", 3.0),),
                         npcs=(NpcSpec("b", "beast", (4.0, 0.0)), NpcSpec("m", "man", (0.0, -5.0))),
                         jitter=0.0)
    env = make_env(scenario, n_rays=36)
    obs, _ = env.reset(seed=0)
    rays, hits = obs["rays"], obs["ray_hits"]
    assert rays.shape == (36,) and hits.shape == (36,)
    assert hits[0] == 2 and rays[0] == pytest.approx(4.0 - 1.17, abs=0.01)  # facing us: head 1.17 m ahead
    assert hits[9] == 1 and rays[9] == pytest.approx(3.0, abs=0.01)          # +90 deg: the wall
    assert hits[27] == 3 and rays[27] == pytest.approx(5.0 - 0.22, abs=0.01)  # -90 deg: the man
    assert hits[18] == 0 and rays[18] == pytest.approx(10.0)


def test_ray_fan_needs_at_least_32_rays():
    with pytest.raises(ValueError, match="32"):
        RayFan.make(16)


@pytest.mark.parametrize("n_rays, cone", [(72, 3), (36, 1), (32, 1), (120, 5)])
def test_ray_fan_cones(n_rays, cone):
    fan = RayFan.make(n_rays)
    assert fan.angles[0] == 0.0 and len(fan.angles) == n_rays
    assert all(len(fan.cones[w]) == cone for w in WALL_KEYS)
    assert 0 in fan.cones["front"] and n_rays // 2 in fan.cones["back"]
    quarter = [n_rays // 4 + k for k in range(-(cone // 2), cone // 2 + 1)]
    assert sorted(fan.cones["left"]) == quarter


def test_sound_describes_a_charging_beast_out_of_range(make_env):
    scenario = one_phase(npcs=(NpcSpec("b", "beast", (-15.0, 0.0), "charge"),), jitter=0.0)
    env = make_env(scenario)
    obs, _ = env.reset(seed=0)
    scene = scene_of(obs)
    assert scene["npc_nearby"] is False
    assert scene["sound"] == "roar and pounding paws from the back"


def test_a_timeline_event_at_a_decision_time_is_visible_in_that_decision(make_env):
    scenario = one_phase(npcs=(NpcSpec("b", "beast", (7.0, 0.0), "approach"),),
                         events=(TimelineEvent(1.0, "b", "switch", behavior="charge"),), jitter=0.0)
    env = make_env(scenario)
    env.reset(seed=0)
    env.step(reply("stands still"))
    obs, _, _, _, info = env.step(reply("stands still"))
    assert info["events"] == ["switch:b:charge"]
    assert scene_of(obs)["npc_behavior"] == "charge"
