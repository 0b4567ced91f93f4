"""docs/validity.md's issue-20 sections, from synthetic results: prompt-only's gaps to the reference (each above
10 explained by a prompt rule, or flagged), the bounds, the failure labels and the rank-stability numbers."""

from __future__ import annotations

from wmbench.harness.validity.docs import (
    PROMPT_RULES,
    bound_lines,
    label_lines,
    rank_lines,
    reference_gap_lines,
    render,
)
from wmbench.harness.validity.runner import CATEGORIES, BrainScores, CategoryScore, ValidityResult


def _brain(name: str, scores: dict[str, float], labels: dict[str, dict[str, int]] | None = None) -> BrainScores:
    return BrainScores(name, "", {c: CategoryScore(scores.get(c, 50.0)) for c in CATEGORIES}, {}, labels or {})


def _result() -> ValidityResult:
    return ValidityResult(quick=True, seeds=(0, 1), elapsed_s=3.0, workers=1, brains=(
        _brain("reference", dict.fromkeys(CATEGORIES, 100.0)),
        _brain("prompt-only", {**dict.fromkeys(CATEGORIES, 100.0), "C08": 80.0, "C02": 85.0},
               {"C03": {"decision.not_open_side": 2}, "C08": {"expression.words_motion_mismatch": 5}}),
        _brain("runs-at-danger", {"C08": 12.0}, {"C08": {"decision.into_danger": 7}}),
        _brain("mirror-swapped", {"C08": 60.0}),
        _brain("constant:beast-ahead/still", dict.fromkeys(CATEGORIES, 14.0)),
    ))


def test_a_gap_above_10_is_explained_by_a_prompt_rule_or_flagged():
    lines = "\n".join(reference_gap_lines(_result()))
    assert PROMPT_RULES["C08"] in lines and "| C02 | 100.0 | 85.0 | +15.0 | **unexplained** |" in lines
    assert "| C01 | 100.0 | 100.0 | +0.0 | (gap within 10) |" in lines


def test_bounds_say_whether_they_hold():
    lines = "\n".join(bound_lines(_result()))
    assert "| runs at the danger: C08 | 12.0 | <= 15 | yes |" in lines
    assert "| mirror-swapped (mirrored motion): C08 | 60.0 | <= 15 | **no** |" in lines
    assert "| 126.0 / 900 | <= 130 | yes |" in lines


def test_failure_labels_are_summed_per_brain():
    lines = label_lines(_result())
    assert lines[0] == "| label | prompt-only | runs-at-danger |"
    assert "| `decision.into_danger` | 0 | 7 |" in lines and lines[-1] == "| **total** | 7 | 7 |"


def test_rank_numbers_and_the_whole_page():
    rank = {"target": 0.95, "elapsed_s": 12.0, "sets": [
                {"label": "A/smpl", "body": "smpl", "seeds": [5, 6], "totals": {"reference": 790.0, "null": 67.5}},
                {"label": "A/drone", "body": "drone", "seeds": [5, 6], "totals": {"reference": 690.0}}],
            "comparisons": [{"a": "A/smpl", "b": "B/smpl", "rho": 0.97, "brains": 16, "passes": True},
                            {"a": "A/smpl", "b": "A/drone", "rho": 0.9, "brains": 16, "passes": False}]}
    assert "| A/smpl vs A/drone | 16 | 0.900 | **no** |" in rank_lines(rank)
    assert "| null | 67.5 | nan |" in rank_lines(rank) and "| reference | 790.0 | 690.0 |" in rank_lines(rank)
    page = render(_result(), "wmbench validity --quick --docs x.md", rank=rank, note="C03 and C08 re-measured.")
    for heading in ("## prompt-only against the reference", "## Issue 20's bounds", "## Failure labels",
                    "## Rank stability", "C03 and C08 re-measured."):
        assert heading in page
