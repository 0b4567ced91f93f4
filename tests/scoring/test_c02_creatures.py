"""C02 tells beast from person (issue 20): the families draw the creature, the scorer judges the type against
the drawn truth, and a brain that calls every creature a beast (everything else perceived right) loses in
every C02 scenario. Real episodes of the drawn instances a run scores."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from wmbench.brain.base import BrainReply
from wmbench.brain.reference.brain import ReferenceBrain
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.instances import draw_test_seeds
from wmbench.protocol.trace import Trace
from wmbench.scoring import score_trace

SEEDS = draw_test_seeds(20261126, 4)
C02 = ("S06", "S07", "S08", "S09", "S10")


class EveryCreatureIsABeast:
    """The reference brain shown a scene in which every creature is a beast: its perception of everything
    else (walls, behaviours, distances, directions) stays right (a local test brain; the panel's own is
    ``panel:all-beast``)."""

    name = "test:all-beast"

    def __init__(self) -> None:
        self.inner = ReferenceBrain()

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def decide(self, scene: dict[str, Any]) -> BrainReply:
        seen = copy.deepcopy(scene)
        if seen.get("npc_type"):
            seen["npc_type"] = "beast"
        for npc in seen.get("npcs") or []:
            npc["type"] = "beast"
        return self.inner.decide(seen)

    def close(self) -> None:
        self.inner.close()


def _score(scenario_id: str, brain: Any, seed: int) -> tuple[float, str]:
    result = run_episode(scenario_id, brain, "smpl", seed)
    assert result.trace is not None and result.error is None
    trace = Trace.from_dict(result.trace)
    return score_trace(trace).score, trace.meta["instance"].get("creature", "")


def test_the_families_draw_people_in_every_recognition_scenario():
    creatures = {sid: [_score(sid, ReferenceBrain(), seed)[1] for seed in SEEDS] for sid in ("S06", "S09")}
    for sid, kinds in creatures.items():
        assert sorted(kinds) == ["beast", "man", "woman", "woman"], (sid, kinds)


@pytest.mark.parametrize("scenario_id, creature", [("S06", "woman"), ("S06", "man"), ("S10", "woman")])
def test_a_person_called_a_beast_scores_nothing_and_the_honest_reading_scores_full(scenario_id, creature):
    seed = next(s for s in SEEDS if ("beast", "woman", "man", "woman")[(s // 4 + s) % 4] == creature)
    honest, kind = _score(scenario_id, ReferenceBrain(), seed)
    cheat, _ = _score(scenario_id, EveryCreatureIsABeast(), seed)
    assert kind == creature
    # named safe(human) in PREDICT, her/his behaviour and distance in MOTION ("the stationary man at 5.7 m":
    # the NPC's own kind word after "the" counts, though "man" alone may name the protagonist)
    assert honest >= 19
    assert cheat == 0.0  # the phantom beast steps "partial" (behaviour and distance right) down to wrong


def test_every_creature_a_beast_earns_at_most_40_on_c02():
    per_scenario = {sid: sum(_score(sid, EveryCreatureIsABeast(), seed)[0] for seed in SEEDS) / len(SEEDS)
                    for sid in C02}
    total = sum(per_scenario.values())
    assert total <= 40.0, per_scenario
