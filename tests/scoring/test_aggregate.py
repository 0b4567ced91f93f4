"""WM Score aggregation: sums, pillars, grades, unmeasured reporting, bootstrap CIs, determinism."""

from __future__ import annotations

import json

import pytest

from wmbench.core.taxonomy import CATEGORY_SCENARIOS
from wmbench.scoring import ScenarioScore, grade_for, summarize
from wmbench.scoring.aggregate import CI_METHOD


def s(sid: str, score: float, seed: int = 0, measured: bool = True, hidden: tuple[int, int] | None = None):
    category = f"C{(int(sid[1:]) - 1) // 5 + 1:02d}"
    evidence = {}
    if hidden:
        evidence = {"sim": {"hidden_inconsistency": {"count": hidden[0], "safe_decisions": hidden[1]}}}
    return ScenarioScore(sid, category, score, measured=measured, explanation=f"{sid} seed {seed}",
                         evidence=evidence, seed=seed)


def full(score: float = 15.0, seeds: tuple[int, ...] = (0, 1, 2)) -> dict[str, list[ScenarioScore]]:
    return {f"S{i:02d}": [s(f"S{i:02d}", score, seed) for seed in seeds] for i in range(1, 51)}


@pytest.mark.parametrize(("score", "grade"), [
    (1000, "S"), (900, "S"), (899.999, "A"), (750, "A"), (749.9, "B"), (600, "B"), (599.9, "C"),
    (400, "C"), (399.9, "D"), (200, "D"), (199.9, "F"), (0, "F"),
])
def test_grade_boundaries(score, grade) -> None:
    assert grade_for(score) == grade


def test_complete_run_sums_categories_pillars_and_wm_score() -> None:
    result = summarize(full(15.0))
    assert result["wm_score"] == 750.0 and result["grade"] == "A" and not result["grade_provisional"]
    assert result["complete"] and result["missing_categories"] == []
    assert result["categories"]["C03"] == {**result["categories"]["C03"], "score": 75.0, "max": 100.0,
                                           "measured": True}
    p1, p2, p3 = (result["pillars"][p] for p in ("P1", "P2", "P3"))
    assert (p1["sum"], p1["max"], p1["rescaled"], p1["rescaled_max"]) == (150.0, 200.0, 187.5, 250.0)
    assert (p2["sum"], p2["max"], p2["rescaled"], p2["rescaled_max"]) == (375.0, 500.0, 337.5, 450.0)
    assert (p3["sum"], p3["max"], p3["rescaled"], p3["rescaled_max"]) == (225.0, 300.0, 225.0, 300.0)
    assert result["wm_score_measured_max"] == 1000.0


def test_scenario_score_is_the_mean_over_seeds() -> None:
    scores = full(10.0)
    scores["S12"] = [s("S12", 20.0, 0), s("S12", 10.0, 1), s("S12", 0.0, 2)]
    result = summarize(scores)
    assert result["scenarios"]["S12"]["score"] == 10.0
    assert [p["score"] for p in result["scenarios"]["S12"]["per_seed"]] == [20.0, 10.0, 0.0]
    assert [p["seed"] for p in result["scenarios"]["S12"]["per_seed"]] == [0, 1, 2]


def test_unmeasured_categories_are_reported_never_silent() -> None:
    scores = {sid: seeds for sid, seeds in full(20.0).items() if int(sid[1:]) <= 40}   # no C09/C10
    scores["S13"] = [s("S13", 0.0, measured=False)]
    result = summarize(scores)
    assert result["missing_categories"] == ["C03", "C09", "C10"] and not result["complete"]
    c03 = result["categories"]["C03"]
    assert c03["measured"] is False and c03["score"] == 80.0 and c03["missing_scenarios"] == ["S13"]
    assert result["categories"]["C09"]["measured"] is False and result["categories"]["C09"]["score"] == 0.0
    assert result["categories"]["C09"]["ci95"] is None
    assert result["scenarios"]["S41"]["measured"] is False and result["scenarios"]["S41"]["score"] is None
    assert result["scenarios"]["S13"]["explanation"].startswith("not measured")
    assert result["wm_score"] == 780.0 and result["wm_score_measured_max"] == 780.0
    assert result["grade"] == "A" and result["grade_provisional"] is True
    assert "C09" in result["wm_score_note"] and result["pillars"]["P3"]["measured"] is False
    assert result["pillars"]["P1"]["measured"] is True


def test_empty_input() -> None:
    result = summarize({})
    assert result["wm_score"] == 0.0 and len(result["missing_categories"]) == 10
    assert result["ci"]["wm_score"] is None and result["ci"]["n_seeds"] == 0


def test_mixed_measured_seeds_use_the_measured_ones() -> None:
    scores = full(10.0)
    scores["S01"] = [s("S01", 20.0, 0), s("S01", 0.0, 1, measured=False)]
    assert summarize(scores)["scenarios"]["S01"]["score"] == 20.0


def test_deterministic() -> None:
    scores = full(10.0)
    scores["S05"] = [s("S05", v, seed) for seed, v in enumerate((3.0, 17.0, 11.0, 20.0))]
    first = json.dumps(summarize(scores), sort_keys=True)
    assert json.dumps(summarize(scores), sort_keys=True) == first


def test_bootstrap_ci_contains_the_mean_and_is_degenerate_for_identical_seeds() -> None:
    same = summarize(full(12.0))
    assert same["ci"]["wm_score"] == [600.0, 600.0] and same["categories"]["C01"]["ci95"] == [60.0, 60.0]
    assert same["ci"]["method"] == CI_METHOD and same["ci"]["n_seeds"] == 3
    varied = full(10.0)
    for n, sid in enumerate(sorted(varied)):
        varied[sid] = [s(sid, (n * 7 + seed * 5) % 21, seed) for seed in range(4)]
    result = summarize(varied)
    lo, hi = result["ci"]["wm_score"]
    assert lo < result["wm_score"] < hi
    for c, entry in result["categories"].items():
        assert entry["ci95"][0] <= entry["score"] <= entry["ci95"][1], c


def test_ci_of_one_scenario_does_not_depend_on_the_others() -> None:
    base = full(10.0)
    base["S02"] = [s("S02", v, seed) for seed, v in enumerate((0.0, 20.0, 5.0))]
    a = summarize(base)["categories"]["C01"]["ci95"]
    changed = dict(base)
    changed["S30"] = [s("S30", v, seed) for seed, v in enumerate((1.0, 19.0, 7.0))]
    assert summarize(changed)["categories"]["C01"]["ci95"] == a


def test_hidden_inconsistency_rate_is_pooled() -> None:
    scores = full(10.0, seeds=(0,))
    scores["S01"] = [s("S01", 10.0, hidden=(1, 4))]
    scores["S11"] = [s("S11", 10.0, hidden=(2, 6))]
    assert summarize(scores)["hidden_inconsistency_rate"] == {"count": 3, "safe_decisions": 10, "rate": 0.3}


def test_extra_scenarios_and_bad_entries_are_kept_apart() -> None:
    scores = full(10.0, seeds=(0,))
    scores["X01"] = [ScenarioScore("X01", "C03", 20.0)]
    scores["S02"] = [s("S02", 10.0), "not a score"]
    result = summarize(scores)
    assert result["wm_score"] == 500.0 and "X01" in result["extra_scenarios"]
    assert any("S02" in p for p in result["problems"])


def test_keys_are_normalised() -> None:
    scores = {("s" + sid[1:].lstrip("0")): seeds for sid, seeds in full(10.0, seeds=(0,)).items()}
    assert summarize(scores)["complete"]


def test_category_scenario_table() -> None:
    assert CATEGORY_SCENARIOS["C01"] == ("S01", "S02", "S03", "S04", "S05")
    assert CATEGORY_SCENARIOS["C10"][-1] == "S50"


def test_output_is_plain_json() -> None:
    result = summarize(full(10.0))
    assert json.loads(json.dumps(result)) == result  # only JSON types: dumps would raise, loads would differ


def test_one_seed_live_scenarios_do_not_erase_the_wm_score_ci():
    """Issue 24 item 22: a default run scores bench scenarios on two seeds and C09/C10 on one; the WM Score CI
    is the spread over the seeds that vary, with the one-seed scenarios named as constants."""
    scores = {sid: [s(sid, 20.0 - 4 * seed, seed) for seed in (0, 1)]
              for cat, ids in CATEGORY_SCENARIOS.items() if cat not in ("C09", "C10") for sid in ids}
    scores.update({sid: [s(sid, 10.0, 0)] for cat in ("C09", "C10") for sid in CATEGORY_SCENARIOS[cat]})
    result = summarize(scores)
    low, high = result["ci"]["wm_score"]
    assert low < result["wm_score"] < high
    assert "10 scenario(s) measured on one seed (S41–S50) enter as constants" in result["ci"]["note"]
    assert result["categories"]["C09"]["ci95"] is None and result["categories"]["C01"]["ci95"] is not None
