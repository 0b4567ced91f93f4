"""S12 and S13 are mirrors: swapping left and right in the replies must cost S12 and pay S13.

The reference brain's closed-loop replies (seed 0, body ``smpl``) are taken from S12 and S13 with
:func:`run_episode`; the left<->right swapped replies are replayed as fixed actions with
:func:`replay_decisions` and scored with :func:`score_trace`.
"""

from __future__ import annotations

import re

import pytest

from wmbench.brain.registry import get_brain
from wmbench.harness.run.episode import run_episode
from wmbench.harness.transfer.body_replay import replay_decisions
from wmbench.protocol.trace import Trace
from wmbench.scoring import ScenarioScore, score_trace

SEED = 0
BODY = "smpl"
_SIDE_WORD = re.compile(r"\b(left|right)\b", re.IGNORECASE)
_OTHER_SIDE = {"left": "right", "right": "left"}


def swap_sides(text: str) -> str:
    """``text`` with the whole words left and right exchanged (case kept: left/Left/LEFT)."""
    def other(match: re.Match[str]) -> str:
        word = match.group(0)
        swapped = _OTHER_SIDE[word.lower()]
        if word.isupper():
            return swapped.upper()
        return swapped.capitalize() if word[0].isupper() else swapped

    return _SIDE_WORD.sub(other, text)


def reference_replies(scenario_id: str) -> tuple[tuple[str, ...], Trace]:
    """The reference brain's replies in a closed-loop episode, and that episode's trace."""
    result = run_episode(scenario_id, get_brain("reference"), body=BODY, seed=SEED)
    assert result.ok, f"{scenario_id}: the reference episode failed: {result.error}"
    trace = Trace.from_dict(result.trace)
    return tuple(d.reply for d in trace.decisions), trace


def replayed_score(scenario_id: str, replies: tuple[str, ...]) -> ScenarioScore:
    score = score_trace(replay_decisions(scenario_id, replies, BODY, seed=SEED))
    assert score.measured, f"{scenario_id}: the replay could not be scored: {score.explanation}"
    return score


@pytest.fixture(scope="module")
def s12() -> tuple[tuple[str, ...], Trace]:
    return reference_replies("S12")


@pytest.fixture(scope="module")
def s13() -> tuple[tuple[str, ...], Trace]:
    return reference_replies("S13")


def test_swap_sides_exchanges_whole_words_only():
    assert swap_sides("PREDICT: left=danger(wall), right=safe(open)\nMOTION: runs to the Right") == \
        "PREDICT: right=danger(wall), left=safe(open)\nMOTION: runs to the Left"
    assert swap_sides("LEFT leftover bright, left-hand") == "RIGHT leftover bright, right-hand"


def test_replaying_the_reference_replies_reproduces_the_closed_loop_score(s12):
    replies, closed_loop = s12
    closed, replayed = score_trace(closed_loop), replayed_score("S12", replies)
    print(f"\nS12 reference: closed loop {closed.score:g}/20, replayed {replayed.score:g}/20")
    assert replayed.score == closed.score, (
        f"S12: replaying the reference replies scored {replayed.score:g}, the closed loop {closed.score:g}")


def test_swapping_left_and_right_lowers_s12(s12):
    replies, _ = s12
    original = replayed_score("S12", replies)
    swapped = replayed_score("S12", tuple(swap_sides(r) for r in replies))
    report = (f"S12 (seed {SEED}, {len(replies)} replies): original {original.score:g}/20, swapped "
              f"{swapped.score:g}/20\n  original: {original.explanation}\n  swapped: {swapped.explanation}")
    print("\n" + report)
    assert swapped.score < original.score, report


def test_swapping_left_and_right_raises_s13(s12):
    replies, _ = s12  # S12's replies go the wrong way in S13 (towards its wall); swapped they go left
    unswapped = replayed_score("S13", replies)
    swapped = replayed_score("S13", tuple(swap_sides(r) for r in replies))
    report = (f"S13 (seed {SEED}, S12's {len(replies)} reference replies): unswapped {unswapped.score:g}/20, "
              f"swapped {swapped.score:g}/20\n  unswapped: {unswapped.explanation}\n"
              f"  swapped: {swapped.explanation}")
    print("\n" + report)
    assert swapped.score > unswapped.score, report


def test_s12_and_s13_reference_replies_mirror_each_other(s12, s13):
    """Closed loop, every S13 reply is the left<->right mirror of the S12 reply at the same index: the
    PREDICT verdicts with left and right exchanged, and the MOTION line with the words swapped."""
    (replies_12, trace_12), (replies_13, trace_13) = s12, s13
    assert len(replies_12) == len(replies_13), (
        f"S12 took {len(replies_12)} decisions, S13 {len(replies_13)}; mirrors take the same number")
    mirror_side = {"left": "right", "right": "left", "fwd": "fwd", "back": "back"}
    for d12, d13 in zip(trace_12.decisions, trace_13.decisions, strict=True):
        assert d12.parse["ok"] and d13.parse["ok"], (d12.index, d12.reply, d13.reply)
        mirrored = {mirror_side[k]: tuple(v[:2]) for k, v in d12.parse["prediction"].items()}
        said_13 = {k: tuple(v[:2]) for k, v in d13.parse["prediction"].items()}
        assert said_13 == mirrored, (
            f"decision {d12.index}: S13 PREDICT {said_13} is not the mirror of S12's {mirrored}")
        assert d13.parse["motion"] == swap_sides(d12.parse["motion"]), (
            f"decision {d12.index}: S13 MOTION {d13.parse['motion']!r} is not the mirror of S12's "
            f"{d12.parse['motion']!r}")
