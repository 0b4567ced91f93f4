"""The reference brain closed-loop on every scenario: the proof that each one is solvable.

Every registered scenario runs once (seed 0, body ``smpl``) with the reference brain deciding from the
observation's scene JSON. No episode may record ``collision:wall`` or ``caught``, and the PREDICT line must
match the sim's ground truth in all four directions for at least 95 % of all decisions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from wmbench.brain.reference.brain import ReferenceBrain
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.protocol.trace import Trace
from wmbench.scenarios import all_scenarios

SCENARIO_IDS = [s.id for s in all_scenarios()]
MIN_PREDICT_MATCH = 0.95
SEED = 0


@dataclass(frozen=True)
class EpisodeResult:
    trace: Trace
    matched: int
    decisions: int


def run_episode(scenario_id: str) -> EpisodeResult:
    env = WMBenchEnv(scenario_id, body="smpl")
    brain = ReferenceBrain()
    try:
        obs, _ = env.reset(seed=SEED)
        brain.reset(SEED)
        done = False
        while not done:
            reply = brain.decide(json.loads(obs["scene"]))
            obs, _, terminated, truncated, _ = env.step(reply.text)
            done = terminated or truncated
        trace = env.trace
    finally:
        env.close()
    matched = 0
    for record in trace.decisions:
        said = {d: tuple(v) for d, v in (record.parse.get("prediction") or {}).items()}
        truth = record.truth.verdicts()
        matched += all(said.get(d, (None,))[0] == verdict for d, (verdict, _) in truth.items())
    return EpisodeResult(trace=trace, matched=matched, decisions=len(trace.decisions))


@pytest.fixture(scope="module")
def episodes() -> dict[str, EpisodeResult]:
    return {sid: run_episode(sid) for sid in SCENARIO_IDS}


def test_every_scenario_is_registered():
    assert len(SCENARIO_IDS) == 50


@pytest.mark.parametrize("scenario_id", SCENARIO_IDS)
def test_reference_never_hits_a_wall_nor_is_caught(episodes, scenario_id):
    result = episodes[scenario_id]
    assert result.decisions > 0
    bad = [(e.t, e.kind) for e in result.trace.events if e.kind in ("collision:wall", "caught")]
    assert not bad, f"{scenario_id}: {bad}"


def test_reference_predicts_the_ground_truth(episodes):
    matched = sum(r.matched for r in episodes.values())
    total = sum(r.decisions for r in episodes.values())
    rate = matched / total
    misses = {sid: f"{r.matched}/{r.decisions}" for sid, r in episodes.items() if r.matched < r.decisions}
    print(f"\nreference PREDICT match rate: {matched}/{total} = {rate:.1%} over {len(episodes)} scenarios; "
          f"imperfect: {misses or 'none'}")
    assert rate >= MIN_PREDICT_MATCH, misses
