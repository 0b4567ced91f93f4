"""Constant replies of one MOTION share their episodes (wmbench.harness.validity.motion_groups): the shared world
with a member's own replies is exactly that member's own episode, and its scores are panel_job's."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from wmbench.brain.panel.brains import QUICK_CONSTANTS, get_panel_brain, panel_names
from wmbench.harness.run.episode import run_episode
from wmbench.harness.transfer.measure import measure_c10_brain
from wmbench.harness.transfer.outcome import run_bodies
from wmbench.harness.validity.motion_groups import constant_reply, motion_groups, with_reply
from wmbench.harness.validity.runner import group_job, labels_only, panel_job, run_validity
from wmbench.scenarios import get_scenario

WALK_RIGHT = ("constant:beast-ahead/walk-right", "constant:all-safe/walk-right")


def _without_latency(trace: Any) -> Any:
    """A trace without the brain's measured think time (wall-clock noise: no rule reads it)."""
    for decision in trace["decisions"]:
        decision["brain"].pop("latency_s", None)
    return trace


def test_the_quick_panels_constants_fall_into_ten_worlds_and_other_brains_stand_alone():
    groups = motion_groups(panel_names(True))
    constants = [g for g in groups if g[0].startswith("constant:")]
    assert sorted(n for g in constants for n in g) == sorted(QUICK_CONSTANTS) and len(constants) == 10
    assert WALK_RIGHT in constants
    assert all(len(g) == 1 for g in groups if not g[0].startswith("constant:"))
    assert motion_groups(["reference", "constant:wall-ahead/still", "null", "constant:beast-ahead/still"]) == (
        ("reference",), ("constant:wall-ahead/still", "constant:beast-ahead/still"), ("null",))


@pytest.mark.parametrize("scenario, seed", [("S12", 2), ("S29", 1)])
def test_the_shared_bench_world_with_a_members_replies_is_its_own_episode(scenario: str, seed: int):
    first, other = WALK_RIGHT
    shared = run_episode(scenario, get_panel_brain(first), "smpl", seed).trace
    own = run_episode(scenario, get_panel_brain(other), "smpl", seed).trace
    assert shared is not None and own is not None and len(own["decisions"]) > 1
    assert shared != own  # the replies differ: the check below is not trivially true
    assert _without_latency(with_reply(shared, constant_reply(other) or "")) == _without_latency(own)


def test_the_shared_transfer_run_on_another_body_with_a_members_replies_is_its_own_run():
    first, other = WALK_RIGHT
    record = get_scenario("S46")
    runs = {name: run_bodies(record, get_panel_brain(name), 0, ("robot",), ("turned_left",))["robot"][0]
            for name in WALK_RIGHT}
    shared, own = runs[first][1], runs[other][1]
    assert shared is not None and own is not None and len(own.decisions) > 1
    assert _without_latency(with_reply(shared.to_dict(), constant_reply(other) or "")) == _without_latency(
        own.to_dict())


def test_a_group_job_gives_every_member_the_scores_of_its_own_panel_job():
    """Bench (C03 and C06's memory scenarios on a drawn seed) and C10 (S47, scored from the character's runs: the
    other bodies' runs are checked trace by trace above): each member's scores equal those of its own job."""
    seed, group = 1, ("constant:beast-ahead/still", "constant:wall-ahead/still")
    shared = group_job(group, seed, True, bench=("C03", "C06"), transfer=("S47",))
    for name in group:
        alone = panel_job(name, seed, False, bench=("C03", "C06"))[1]
        c10 = measure_c10_brain(lambda n=name: get_panel_brain(n), seeds=(seed,), scenarios=("S47",),
                                brain_label=name, diagnostics=False, score_only=True)["S47"]
        alone += [replace(score, evidence=labels_only(score.evidence), seed=seed) for score in c10]
        assert shared[name] == alone, name
    # each scored on its own replies: their PREDICT lines differ, and so do their scores (points or evidence)
    assert shared[group[0]] != shared[group[1]]


def test_a_reply_of_another_motion_cannot_borrow_the_world():
    trace = run_episode("S01", get_panel_brain("constant:beast-ahead/still"), "smpl", 0).trace
    assert trace is not None
    with pytest.raises(ValueError, match="another MOTION"):
        with_reply(trace, constant_reply("constant:beast-ahead/walk-left") or "")
    with pytest.raises(ValueError, match="constant replies of one motion"):
        group_job(("constant:beast-ahead/still", "constant:beast-ahead/walk-left"), 0, False)
    with pytest.raises(ValueError, match="constant replies of one motion"):
        group_job(("reference",), 0, False)


def test_run_validity_runs_a_group_once_keeps_each_member_and_resumes_a_member_alone(tmp_path):
    """``wmbench validity``'s own loop: the two constants of one motion are one task, each is kept (and
    checkpointed) as its own (brain, seed) job with the scores it gets alone; a member missing from the checkpoint
    is run again alone."""
    names = [*WALK_RIGHT, "constant:beast-ahead/still"]
    checkpoint = tmp_path / "partial.jsonl"
    grouped = run_validity(brains=names, seeds=(1,), workers=1, categories=("C03",), checkpoint=checkpoint)
    alone = {name: run_validity(brains=[name], seeds=(1,), workers=1, categories=("C03",)).brain(name)
             for name in names}
    assert all(grouped.brain(name) == alone[name] for name in names)
    lines = checkpoint.read_text().splitlines()
    assert sorted(json.loads(line)["brain"] for line in lines) == sorted(names)
    checkpoint.write_text("\n".join(line for line in lines if json.loads(line)["brain"] != WALK_RIGHT[1]) + "\n")
    said: list[str] = []
    again = run_validity(brains=names, seeds=(1,), workers=1, categories=("C03",), checkpoint=checkpoint,
                         progress=said.append)
    assert again.brains == grouped.brains and said[0].startswith("resuming: 2/3") and said[1:] == [
        f"3/3 {WALK_RIGHT[1]}"]
