"""The seed a brain is given never names its world (wmbench/brain/seeding.py).

Before 0.4 the harness called ``brain.reset(seed)`` with the episode's own seed, and that seed rebuilds the world
exactly through the public env: :class:`WorldRebuilder` below (a brain that reads that side channel) found its
scenario and drawn instance, hidden NPCs and timeline included, in every run. These tests run it through the real
episode loop, the live loop and a counterfactual branch.
"""

from __future__ import annotations

import json

import gymnasium as gym

from wmbench.brain.base import BrainReply
from wmbench.brain.seeding import brain_seed
from wmbench.harness.counterfactual.fork import EpisodeSetup, replay_branch
from wmbench.harness.live.loop import run_live
from wmbench.harness.run.episode import run_episode
from wmbench.protocol.observation import BrainInput
from wmbench.scenarios import all_scenarios

REPLY = "PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)\nMOTION: a person stands still"
#: a drawn instance of a default run is a seed from a large space (wmbench.harness.run.instances)
DRAWN_SEED = 2_718_281_828


def _first_scene(scenario_id: str, seed: int) -> dict[str, object]:
    env = gym.make(f"WMBench-{scenario_id}-v0")
    try:
        obs, _ = env.reset(seed=seed)
        return json.loads(obs["scene"])
    finally:
        env.close()


class WorldRebuilder:
    """A side-channel brain: it takes the seed it is given for the world's seed, rebuilds the scenario whose first
    scene is the one it was shown (through the public Gymnasium ids), and would then read that world's truth. It
    records what it found; its replies are constant."""

    name = "world-rebuilder"

    def __init__(self, candidates: tuple[str, ...]) -> None:
        self.candidates = candidates
        self.seeds: list[int | None] = []
        self.found: list[str | None] = []
        self._looking = False

    def reset(self, seed: int | None = None) -> None:
        self.seeds.append(seed)
        self._looking = True

    def decide(self, scene: BrainInput) -> BrainReply:
        if self._looking:  # the first scene of the episode
            self._looking = False
            shown = json.loads(scene["scene"]) if isinstance(scene.get("scene"), str) else dict(scene)
            seed = self.seeds[-1]
            self.found.append(None if seed is None else self.rebuild(shown, seed))
        return BrainReply(text=REPLY, latency_s=0.0, provider="test")

    def rebuild(self, shown: dict[str, object], seed: int) -> str | None:
        """The scenario whose world, built from ``seed``, shows ``shown`` first (None: no such world)."""
        return next((sid for sid in self.candidates if _first_scene(sid, seed) == shown), None)

    def close(self) -> None:
        pass


def test_brain_seeds_are_deterministic_distinct_32_bit_and_never_the_episode_seed():
    seeds = range(5000)
    derived = [brain_seed(s) for s in seeds]
    assert derived == [brain_seed(s) for s in seeds]  # same seed, same replies
    assert len(set(derived)) == len(derived)
    assert all(0 <= d < 2**32 for d in derived)
    assert all(d != s for s, d in zip(seeds, derived))
    assert brain_seed(DRAWN_SEED) != DRAWN_SEED


def test_a_brain_cannot_rebuild_its_world_from_the_seed_the_run_gives_it():
    """The side channel is real (the control: handed the episode's seed, the rebuilder finds S12 among the
    candidates), and the episode loop no longer opens it: the seed it gets rebuilds no world it was shown."""
    candidates = tuple(s.id for s in all_scenarios())[8:16]  # S09-S16: S12 and its neighbours
    brain = WorldRebuilder(candidates)
    shown = _first_scene("S12", DRAWN_SEED)
    assert brain.rebuild(shown, DRAWN_SEED) == "S12"  # what a run used to hand every brain
    result = run_episode("S12", brain, seed=DRAWN_SEED)
    assert result.error is None
    assert brain.seeds == [brain_seed(DRAWN_SEED)] and brain.found == [None]


def test_the_live_loop_and_a_counterfactual_branch_give_the_brain_seed_too():
    live = WorldRebuilder(("S12",))  # a bench scene played live
    result = run_live("S12", live, fps=30, seed=DRAWN_SEED, duration=0.5)
    assert result.error is None
    assert live.seeds == [brain_seed(DRAWN_SEED)] and live.found == [None]
    onward = WorldRebuilder(("S12",))
    replay_branch(EpisodeSetup("S12", DRAWN_SEED), [REPLY] * 3, at=0, reply=REPLY, onward=onward)
    assert onward.seeds == [brain_seed(DRAWN_SEED)] and onward.found == [None]
