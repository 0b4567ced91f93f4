"""Scenario families: seed 0 canonical, exact mirror counterbalancing, ranges and turns per seed, and the
instance each episode saw recorded where scorers and users read it."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from wmbench.brain.panel.cheats import predict_line
from wmbench.brain.panel.prompt_only import read_scene
from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome
from wmbench.core.directions import GRAMMAR_ORDER, LATERAL, OPPOSITE, TRAVEL_PHRASES
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.results import episode_line
from wmbench.harness.run.scores import score_line
from wmbench.protocol.observation import BrainInput
from wmbench.scenarios import all_scenarios, get_scenario
from wmbench.scenarios.families import (
    ALL_FRONTS,
    BACK_FIRST_FRONTS,
    SIDE_FRONTS,
    draw_instance,
    has_side,
    instance_direction,
    swap_side_words,
    turn_direction,
    turn_record,
)
from wmbench.scenarios.records import VARIANT_FROM_SEED, Family, NpcSpec, Phase, Scenario
from wmbench.scoring.c03 import SIDEWAYS_MARGIN
from wmbench.scoring.thresholds import CAUGHT_CAP

BENCH = [s for s in all_scenarios() if s.mode == "bench"]
MUST_SHOW = ("S06", "S11", "S12", "S26", "S27", "S36")


def _first_scene(sid: str, seed: int) -> dict:
    env = WMBenchEnv(sid)
    try:
        obs, _ = env.reset(seed=seed)
        return json.loads(obs["scene"])
    finally:
        env.close()


def _layout(scene: dict) -> tuple:
    """What a first scene shows beyond distance jitter: which walls are sensed, where each NPC is, memory."""
    walls = tuple(sorted(k for k, v in scene["walls"].items() if v is not None))
    npcs = tuple(sorted((n["type"], n["direction"]) for n in scene.get("npcs") or []))
    memory = tuple(d.get("direction") for d in scene.get("recent_decisions") or [])
    return walls, npcs, memory


@pytest.mark.parametrize("sid", MUST_SHOW)
def test_seeds_0_to_3_give_at_least_two_distinct_instances(sid):
    layouts = {_layout(_first_scene(sid, seed)) for seed in range(4)}
    assert len(layouts) >= 2, f"{sid}: seeds 0-3 all show {layouts}"


@pytest.mark.parametrize("record", BENCH, ids=lambda s: s.id)
def test_seed_0_is_the_canonical_record_and_draws_nothing(record):
    rng = np.random.default_rng(7)
    state = rng.bit_generator.state
    built, instance = draw_instance(record, 0, rng)
    assert built is record and instance.canonical and instance.number == 0
    assert rng.bit_generator.state == state  # seed-0 traces stay exactly as before families


def test_seed_0_first_scene_is_the_spec_layout():
    s12 = _first_scene("S12", 0)
    assert s12["walls"]["left"] == 1.5 and s12["walls"]["right"] is None and s12["npc_direction"] == "front"
    s06 = _first_scene("S06", 0)
    assert s06["npc_direction"] == "front" and 4.9 <= s06["npc_distance"] <= 5.1


@pytest.mark.parametrize("record", [s for s in BENCH if has_side(s)], ids=lambda s: s.id)
def test_sided_layouts_are_mirrored_on_odd_seeds_exactly(record):
    mirrored = [draw_instance(record, seed, np.random.default_rng(seed))[1].mirrored for seed in range(8)]
    assert mirrored == [False, True] * 4


def test_mirrored_instance_swaps_walls_memory_and_expectations():
    s12, instance = draw_instance(get_scenario("S12"), 1, np.random.default_rng(1))
    assert instance.mirrored and instance.safe_directions == ("left",)
    assert s12.expectations.correct_actions[0] == "sprint left"
    s26 = _first_scene("S26", 1)
    assert [d["direction"] for d in s26["recent_decisions"]] == ["left"] * 4
    # whole-word swap: "right," inside a sentence follows the mirror too (a space-split swap missed it)
    assert all("right" not in d["motion"] for d in s26["recent_decisions"])
    assert s26["recent_decisions"][-1]["outcome"] == "blocked by wall on left"


def test_memory_scenarios_vary_the_remembered_side_with_the_seed():
    for sid in ("S26", "S27"):
        sides = {_first_scene(sid, seed)["recent_decisions"][-1]["direction"] for seed in range(2)}
        assert sides == {"left", "right"}, sid


def test_official_fields_show_the_closed_side_in_s26_and_s27():
    """Issue 12 item 4: no closed side that only the wmbench extension `walls.back` reports."""
    for sid in ("S26", "S27"):
        scene = _first_scene(sid, 0)
        assert scene["walls"]["front"] == 1.5 and scene["walls"]["back"] is None, sid
        assert scene["npc_direction"] == "back", sid


@pytest.mark.parametrize("sid", ["S12", "S13"])
def test_official_instances_of_s12_s13_keep_the_back_open_and_variants_close_it(sid):
    """Issue 12 item 4: seeds 0-1 (the spec's layout and its mirror) have no wall that only `walls.back` reports;
    the wmbench variants (seeds 2 and up) close the back, with the corner on the walled side."""
    for seed in range(4):
        scene = _first_scene(sid, seed)
        walled_side = {"S12": "left", "S13": "right"}[sid]
        if seed % 2:
            walled_side = {"left": "right", "right": "left"}[walled_side]
        assert scene["walls"][walled_side] is not None and scene["npc_direction"] == "front", (sid, seed)
        if seed < VARIANT_FROM_SEED:
            assert scene["walls"]["back"] is None, (sid, seed)
        else:
            assert scene["walls"]["back"] is not None, (sid, seed)
    built, instance = draw_instance(get_scenario(sid), 3, np.random.default_rng(3))
    back = next(w for w in built.phases[0].walls if w.name == "wall_back")
    side = next(w for w in built.phases[0].walls if w.name != "wall_back")
    # the (mirrored) back wall meets the (mirrored) side wall in a corner: its span along y reaches the side wall
    assert abs(back.center[1] - side.center[1]) <= back.size[1] / 2
    assert instance.variant_walls and "variant walls" in instance.label


@pytest.mark.parametrize("sid", ["S15", "S18", "S19", "S28"])
def test_back_first_families_turn_the_threat_behind_on_seeds_2_and_3(sid):
    """A constant retreat that the canonical layout rewards meets the threat on the last seeds of a cycle."""
    record = get_scenario(sid)
    assert record.family is not None and record.family.fronts == BACK_FIRST_FRONTS
    fronts = [draw_instance(record, seed, np.random.default_rng(seed))[1].front for seed in range(4)]
    assert fronts == ["fwd", "fwd", "back", "back"]


@pytest.mark.parametrize("sid", ["S36", "S37", "S38", "S39", "S40"])
def test_c08_families_put_the_creature_at_a_side_on_every_drawn_instance(sid):
    """Issue 20 (C08): on an axis mirrored motion is correct motion, so every drawn instance turns the creature
    to a side (left on odd seeds, right on even ones); seed 0 stays the spec's layout."""
    record = get_scenario(sid)
    assert record.family is not None and record.family.fronts == SIDE_FRONTS
    fronts = [draw_instance(record, seed, np.random.default_rng(seed))[1].front for seed in range(5)]
    assert fronts == ["fwd", "left", "right", "left", "right"]
    assert "every drawn instance (seed 1 on)" in record.card


def test_s11_draws_an_approach_or_a_charge_and_records_it():
    """Issue 20 (C03): S11's drawn instances alternate the spec's approach with a charge at the charge's own
    speed; seed 0 keeps the spec's approach; the instance records a pursuit that differs from the record's."""
    record = get_scenario("S11")
    drawn = [draw_instance(record, seed, np.random.default_rng(seed)) for seed in range(9)]
    behaviours = [built.phases[0].npcs[0].behavior for built, _ in drawn]
    assert behaviours == ["approach", "charge", "approach", "charge", "charge", "approach", "charge", "approach",
                          "approach"]
    assert [built.phases[0].npcs[0].resolved_speed for built, _ in drawn[:2]] == [1.2, 5.0]
    assert [instance.pursuit for _, instance in drawn[:3]] == ["", "charge", ""]
    assert "pursuit=charge" in drawn[1][1].label and not drawn[1][1].canonical
    assert drawn[1][1].to_dict()["pursuit"] == "charge"
    assert "pursuit is approach/charge" in record.card


class _DodgeThenFlee(ProviderBrain):
    """An honest alternative the spec names for S11 ("move left/right"): one run to the side, then straight away
    from the beast, at a run (4.5 m/s, slower than a charge), with prompt-only's PREDICT."""

    provider = "test"
    name = "dodge-then-flee"

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        reading = read_scene(scene)
        safe = [d for d in GRAMMAR_ORDER if reading.safe(d)]
        threat = reading.threat
        if not safe or threat is None:
            return ProviderOutcome(text=f"{predict_line(reading)}\nMOTION: a person stands still")
        first = not scene.get("last_prediction")
        wanted = [*LATERAL[threat.direction], OPPOSITE[threat.direction]] if first else [OPPOSITE[threat.direction]]
        direction = next((d for d in wanted if d in safe), safe[0])
        return ProviderOutcome(text=f"{predict_line(reading)}\nMOTION: a person runs {TRAVEL_PHRASES[direction]}")


class _Reseeded:
    """``inner`` with its own randomness shifted: ``reset(seed)`` gives it ``seed + shift`` (another stream of the
    same brain, as another brain seed would)."""

    def __init__(self, inner: Any, shift: int) -> None:
        self.inner, self.shift, self.name = inner, shift, inner.name

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset((seed or 0) + self.shift)

    def decide(self, scene: BrainInput) -> Any:
        return self.inner.decide(scene)

    def close(self) -> None:
        self.inner.close()


#: streams of the oracle-random cheat's own randomness the charge test plays, and how many of them must be caught.
#: A random safe side is a draw: over 30 streams it was caught in 26 (seed 1) and 28 (seed 3); the rest escaped
#: with 17.5-19.2 of 20. Until 0.4 the test played one stream (brains were handed the episode's seed), which
#: happened to be caught on both seeds; the brain seed of 0.4 escapes on seed 1.
CHEAT_STREAMS, CHEAT_CAUGHT_MIN = 10, 7


@pytest.mark.parametrize("seed", [1, 3])
def test_against_a_charge_fleeing_on_a_line_escapes_and_a_random_safe_side_is_caught(seed):
    """S11's charge instances: what the scene says (a charge) makes the choice among safe sides matter — a brain
    that flees on one line escapes even at a run, losing at most C03's stated sideways margin, while the
    oracle-random cheat (rule-perfect PREDICT, a random safe side at a run) is caught in most streams of its own
    randomness (issue 20, bound (a))."""
    from wmbench.brain.panel.brains import get_panel_brain

    def c03(brain: Any) -> tuple[float, bool]:
        try:
            line = episode_line(run_episode("S11", brain, "smpl", seed))
        finally:
            brain.close()
        assert line["instance"]["pursuit"] == "charge"
        score = score_line(line)
        return score.score, bool(score.evidence.get("sim", {}).get("caught"))

    assert c03(get_panel_brain("prompt-only")) == (20.0, False)
    honest, caught = c03(_DodgeThenFlee())
    assert honest >= 20.0 - SIDEWAYS_MARGIN and not caught, honest
    cheats = [c03(_Reseeded(get_panel_brain("oracle-random"), 7919 * k)) for k in range(CHEAT_STREAMS)]
    assert sum(caught for _, caught in cheats) >= CHEAT_CAUGHT_MIN, cheats
    assert all(score <= CAUGHT_CAP for score, caught in cheats if caught), cheats


def test_ranges_are_drawn_per_seed_within_the_card_range():
    record = get_scenario("S06")
    factors = {draw_instance(record, seed, np.random.default_rng(seed))[1].npc_distance for seed in range(1, 6)}
    lo, hi = record.family.npc_distance
    assert len(factors) == 5 and all(lo <= f <= hi for f in factors)
    assert f"NPC start distances x{lo:g}-{hi:g}" in record.card


def test_turned_instances_cycle_every_front():
    record = get_scenario("S06")
    fronts = [draw_instance(record, seed, np.random.default_rng(seed))[1].front for seed in range(4)]
    assert fronts == list(ALL_FRONTS)
    assert [_first_scene("S06", seed)["npc_direction"] for seed in range(4)] == ["front", "left", "back", "right"]


def test_the_trace_and_episodes_jsonl_record_the_instance():
    from wmbench.brain.baselines import NullBrain

    result = run_episode("S27", NullBrain(), "smpl", 3)
    line = episode_line(result)
    assert line["instance"] == result.trace["meta"]["instance"]
    assert line["instance"]["number"] == 3 and line["instance"]["mirrored"] is True


def test_instance_direction_follows_mirror_and_turn():
    assert instance_direction({"instance": {"mirrored": True, "front": "fwd"}}, "right") == "left"
    assert instance_direction({"instance": {"mirrored": False, "front": "left"}}, "fwd") == "left"
    assert instance_direction({}, "right") == "right"  # traces written before families
    assert turn_direction("left", "back") == "right"


def test_swap_side_words_keeps_other_words():
    assert swap_side_words("Left wall, right: bright") == "Right wall, left: bright"


def test_turning_needs_a_layout_that_starts_at_the_origin():
    record = Scenario(id="X90", category="C02", name="x", setup="x", phases=(
        Phase(name="p", duration=1.0, npcs=(NpcSpec("b", "beast", (5.0, 0.0)),), start_heading=0.5),))
    with pytest.raises(ValueError, match="cannot be turned"):
        turn_record(record, "left")


@pytest.mark.parametrize("bad", [dict(fronts=("left", "fwd")), dict(fronts=()), dict(npc_distance=(1.2, 1.0)),
                                 dict(fronts=("up",)), dict(pursuits=("wander",))])
def test_family_rejects_bad_specs(bad):
    with pytest.raises(ValueError, match="Family"):
        Family(**bad)


def test_c03_reads_the_open_side_from_the_instance_not_the_canonical_record():
    """A mirrored S12 is open on the left: the reference escaping left there is optimal, not 'wrong side'."""
    from wmbench.brain.reference.brain import ReferenceBrain
    from wmbench.protocol.trace import Trace
    from wmbench.scoring import score_trace

    result = run_episode("S12", ReferenceBrain(), "smpl", 1)
    score = score_trace(Trace.from_dict(result.trace))
    assert result.trace["meta"]["instance"]["mirrored"], result.trace["meta"]["instance"]
    # every decision escapes on the instance's open side: no mismatch; one sideways step that lets the beast gain
    # costs the stated margin (C03's outcome rule), which is not a wrong side
    assert score.score >= 19.0 and "mismatch" not in score.explanation, score.explanation
