"""Cross-body transfer: replaying decisions on every body, and the agreement metrics."""

from __future__ import annotations

import math

import pytest

from wmbench.harness.transfer.body_replay import replay_decisions
from wmbench.scoring.c10.agreement import direction_agreement, speed_rank_agreement

PREDICT = "PREDICT: fwd=danger(beast), right=danger(wall), left=safe(open), back=safe(open)\n"
FLEE_LEFT = [PREDICT + "MOTION: " + m for m in (
    "sprints to the left in terror", "keeps running, glancing back", "runs on, fast", "jogs on",
    "walks on calmly", "stops and stands still")]


def decision(dx: float, dy: float, heading: float = 0.0, speed: float = 1.0) -> dict:
    return {"body_before": {"position": [0.0, 0.0, 0.0], "heading": heading},
            "body_after": {"position": [dx, dy, 0.0], "heading": heading},
            "realized": {"mean_speed": speed}}


def trace(*decisions: dict) -> dict:
    return {"decisions": list(decisions)}


def test_direction_agreement_of_hand_made_traces():
    same = {"a": trace(decision(1, 0), decision(0, 1)), "b": trace(decision(2, 0), decision(0, 3))}
    assert direction_agreement(same) == pytest.approx(1.0)
    opposite = {"a": trace(decision(1, 0)), "b": trace(decision(-1, 0))}
    assert direction_agreement(opposite) == pytest.approx(-1.0)
    # relative to each body's own heading: 'ahead' for a body facing +y is +y
    turned = {"a": trace(decision(1, 0, heading=0.0)), "b": trace(decision(0, 1, heading=math.pi / 2))}
    assert direction_agreement(turned) == pytest.approx(1.0)
    still = {"a": trace(decision(0, 0)), "b": trace(decision(0.01, 0)), "c": trace(decision(1, 0))}
    assert direction_agreement(still) == pytest.approx(1 / 3)  # a-b agree (both still), a-c and b-c do not


def test_speed_rank_agreement_of_hand_made_traces():
    fast_slow = [decision(1, 0, speed=s) for s in (6.0, 1.4, 3.0)]
    scaled = [decision(1, 0, speed=s) for s in (2.5, 0.5, 1.2)]
    assert speed_rank_agreement({"a": trace(*fast_slow), "b": trace(*scaled)}) == pytest.approx(1.0)
    reversed_ = [decision(1, 0, speed=s) for s in (0.5, 2.5, 1.2)]
    assert speed_rank_agreement({"a": trace(*fast_slow), "b": trace(*reversed_)}) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="two bodies"):
        speed_rank_agreement({"a": trace(*fast_slow)})


def test_replay_drives_every_body_with_the_same_decisions():
    traces = {body: replay_decisions("S50", FLEE_LEFT, body, seed=0) for body in ("smpl", "robot", "drone")}
    for body, t in traces.items():
        assert t.body == body and len(t.decisions) == len(FLEE_LEFT)
        assert [d.reply for d in t.decisions] == FLEE_LEFT
        assert t.decisions[0].realized["direction"] == "left"
        assert "caught" not in t.event_kinds()
    directions = direction_agreement(traces)
    ranks = speed_rank_agreement(traces)
    print(f"\nS50 flee-left replay: direction agreement {directions:.3f}, speed-rank agreement {ranks:.3f}")
    assert directions > 0.8 and ranks > 0.7


def test_replay_rejects_a_single_string():
    with pytest.raises(TypeError, match="sequence"):
        replay_decisions("S50", "MOTION: runs", "smpl")
