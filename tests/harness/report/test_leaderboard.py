"""leaderboard_entry: every LEADERBOARD_SCHEMA key, the spec's pillar scale, "not measured" as null."""

from __future__ import annotations

import pytest

from wmbench.harness.report.leaderboard import EXTRA_KEYS, SCHEMA_KEYS, check_entry, leaderboard_entry
from wmbench.scoring import ScenarioScore, summarize

SPEC_KEYS = ("model_name", "organization", "submission_date", "wm_score", "grade", "p1_perception",
             "p2_cognition", "p3_embodiment", "c01_to_c10", "fps", "cognitive_latency_ms", "gpu",
             "brain_model", "motion_model", "paper_url", "demo_url")


def scores_for(points: dict[str, float]) -> dict:
    """scores.json for categories given as {category: points per scenario} (others not measured)."""
    by_id = {}
    for cat, each in points.items():
        first = (int(cat[1:]) - 1) * 5 + 1
        for n in range(first, first + 5):
            by_id[f"S{n:02d}"] = [ScenarioScore(f"S{n:02d}", cat, each, seed=0)]
    return summarize(by_id)


def test_schema_keys_are_the_specs():
    assert SCHEMA_KEYS == SPEC_KEYS and EXTRA_KEYS == ("wmbench_version", "measured_categories")


def test_a_complete_run_fills_every_key_with_the_right_type():
    scores = scores_for({f"C{i:02d}": 15.0 for i in range(1, 11)})  # 75 per category, 750 in all
    live = {"fps": 59.97, "cognitive_latency_ms": 17.4, "hardware": {"gpu": "NVIDIA H100", "cpu": "x"}}
    entry = leaderboard_entry(scores, brain="openai/gpt-4o-mini", body="smpl", live=live, organization="Lab",
                              submission_date="2026-01-02")
    assert check_entry(entry) == []
    assert entry["wm_score"] == 750 and entry["grade"] == "A"
    # pillar sums 150/200, 375/500, 225/300 rescaled to the spec's 250/450/300
    assert (entry["p1_perception"], entry["p2_cognition"], entry["p3_embodiment"]) == (188, 338, 225)
    assert entry["c01_to_c10"] == {f"C{i:02d}": 75 for i in range(1, 11)}
    assert entry["fps"] == 59.97 and entry["gpu"] == "NVIDIA H100"
    # the spec's cognitive latency is S42's stimulus -> behaviour change (no S42 evidence here: null); the
    # brain's median decision time is its own field
    assert entry["cognitive_latency_ms"] is None and entry["decision_latency_ms"] == 17
    assert entry["model_name"] == "openai/gpt-4o-mini" == entry["brain_model"]
    assert entry["organization"] == "Lab" and entry["submission_date"] == "2026-01-02"
    assert len(entry["measured_categories"]) == 10


def test_unmeasured_parts_are_null_not_zero():
    scores = scores_for({"C01": 20.0, "C03": 10.0})
    entry = leaderboard_entry(scores, brain="reference", body="robot", live={"fps": 60.0,
                              "cognitive_latency_ms": 17.0, "hardware": {"gpu": "none", "cpu": "EPYC"}})
    assert check_entry(entry) == []
    assert entry["c01_to_c10"]["C01"] == 100 and entry["c01_to_c10"]["C02"] is None
    assert entry["fps"] is None and entry["cognitive_latency_ms"] is None  # C09 was not measured
    assert entry["gpu"] == "none (CPU: EPYC)" and "servo" in entry["motion_model"]
    assert entry["measured_categories"] == ["C01", "C03"]


@pytest.mark.parametrize("pace", [3.0 / 6.5, 1.0, None])
def test_the_entry_says_at_what_pace_a_slow_body_played_its_bench_scenes(pace):
    """A drone entry carries the pace of its bench scenes (1.0 for an --unpaced diagnostic run), so a paced
    score is never mistaken for one against the scene's own speeds; a character run has no pace key."""
    scores = scores_for({"C01": 20.0})
    scores["run"] = {"brain": "reference", "body": "drone" if pace else "smpl",
                     **({} if pace is None else {"pace": pace})}
    entry = leaderboard_entry(scores, brain="reference", body=scores["run"]["body"])
    assert check_entry(entry) == []
    assert entry.get("pace") == pace


@pytest.mark.parametrize(("key", "value", "problem"), [
    ("wm_score", 750.5, "wm_score should be int"), ("fps", "60", "fps should be float or null"),
    ("c01_to_c10", [], "c01_to_c10 should be dict"), ("grade", None, "grade should be str"),
])
def test_check_entry_names_what_is_wrong(key, value, problem):
    entry = leaderboard_entry(scores_for({"C01": 20.0}), brain="reference", body="smpl")
    entry[key] = value
    assert problem in " | ".join(check_entry(entry))
    del entry["demo_url"]
    assert "missing key 'demo_url'" in check_entry(entry)


def test_cognitive_latency_is_s42s_stimulus_to_behaviour_change():
    scores = scores_for({f"C{i:02d}": 15.0 for i in range(1, 11)})
    s42 = scores["scenarios"]["S42"]
    s42["evidence"] = [{"rule": "scene_change_latency", "live": {"latency_s": 1.016}},
                       {"rule": "scene_change_latency", "live": {"latency_s": 1.2}},
                       {"rule": "scene_change_latency", "live": {"latency_s": 0.9}}]
    entry = leaderboard_entry(scores, brain="reference", body="smpl",
                              live={"fps": 60.0, "cognitive_latency_ms": 16.0, "hardware": {}})
    assert entry["cognitive_latency_ms"] == 1016 and entry["decision_latency_ms"] == 16


def test_one_entry_one_truth_categories_add_up_to_the_wm_score():
    # 17.3 per scenario: 86.5 per category, 865 in all; naive rounding gives 10 x 87 = 870 != 865
    scores = scores_for({f"C{i:02d}": 17.3 for i in range(1, 11)})
    entry = leaderboard_entry(scores, brain="reference", body="smpl")
    assert entry["wm_score"] == 865
    assert sum(entry["c01_to_c10"].values()) == entry["wm_score"] == sum(entry["pillar_sums"].values())
    assert all(abs(v - 86.5) <= 1 for v in entry["c01_to_c10"].values())
    sums = entry["pillar_sums"]
    assert (entry["p1_perception"], entry["p2_cognition"], entry["p3_embodiment"]) == (
        round(sums["P1"] * 1.25), round(sums["P2"] * 0.9), sums["P3"])
    assert entry["rescaled_total"] == entry["p1_perception"] + entry["p2_cognition"] + entry["p3_embodiment"]
    assert "rescaled_total, not wm_score" in entry["score_formula"] and entry["track"] == "C"
