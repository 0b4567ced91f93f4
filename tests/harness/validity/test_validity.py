"""`wmbench validity`: the counterbalancing must-show (left-first vs right-first within CI everywhere), the
result API the CI bounds are written against, and the command."""

from __future__ import annotations

import json

import pytest

from wmbench.harness.cli.main import main
from wmbench.harness.validity.runner import (
    CATEGORIES,
    BrainScores,
    CategoryScore,
    ValidityResult,
    merge_results,
    result_from_dict,
    run_validity,
)


#: the first reader of the shared panel measures both tie-breakers (~40 s of CPU; 5+ min of wall on a busy machine):
#: the timeout only guards against a hang, as in test_validity_bounds.py (the default 600 s once failed the
#: whole eager panel's set-up here under load)
@pytest.mark.timeout(3600)
def test_left_first_and_right_first_score_within_ci_on_every_category(quick_validity: ValidityResult):
    result = quick_validity  # the quick panel, run once per session (tests/conftest.py)
    assert result.categories == CATEGORIES and result.seeds == (0, 1, 2, 3)
    apart = {c: (result.brain("left-first").score(c), result.brain("right-first").score(c))
             for c in CATEGORIES if not result.within_ci("left-first", "right-first", c)}
    assert not apart, f"tie-breakers differ beyond the CI: {apart}"


@pytest.fixture(scope="module")
def canonical_tie_breakers() -> ValidityResult:
    """The tie-breakers on the canonical instance (seed 0) alone, run by ``run_validity`` itself."""
    return run_validity(brains=["left-first", "right-first"], seeds=(0,), workers=1, include_c10=False)


def test_without_the_mirrored_seed_the_tie_breakers_come_apart_on_memory(canonical_tie_breakers: ValidityResult):
    """The check above can fail: on the canonical instance alone a side preference looks like memory."""
    result = canonical_tie_breakers
    left, right = result.brain("left-first").score("C06"), result.brain("right-first").score("C06")
    assert left - right >= 10, (left, right)


def test_the_shared_session_panel_is_run_validity(canonical_tie_breakers: ValidityResult, validity_panel):
    """tests/conftest.py's lazy panel (which serves ``quick_validity``) gives exactly ``run_validity``'s numbers."""
    shared = validity_panel(["left-first", "right-first"], (0,), include_c10=False)
    assert shared.categories == canonical_tie_breakers.categories and shared.seeds == canonical_tie_breakers.seeds
    for name in ("left-first", "right-first"):
        mine, theirs = shared.brain(name), canonical_tie_breakers.brain(name)
        assert dict(mine.categories) == dict(theirs.categories), name
        assert dict(mine.scenarios) == dict(theirs.scenarios) and mine.lacks == theirs.lacks, name
        assert dict(mine.labels) == dict(theirs.labels), name


def _scores(name: str, values: dict[str, float], ci: float = 0.0) -> BrainScores:
    return BrainScores(name, "test", {c: CategoryScore(v, (v - ci, v + ci) if ci else None)
                                      for c, v in values.items()})


def _result() -> ValidityResult:
    flat = dict.fromkeys(CATEGORIES, 10.0)
    return ValidityResult(quick=True, seeds=(0, 1), elapsed_s=1.0, workers=1, brains=(
        _scores("reference", dict.fromkeys(CATEGORIES, 100.0)),
        _scores("null", flat), _scores("random", flat),
        _scores("left-first", {**flat, "C06": 60.0}, ci=5.0), _scores("right-first", {**flat, "C06": 64.0}, ci=5.0),
        _scores("constant:beast-ahead/still", {**flat, "C03": 30.0}),
        _scores("constant:all-safe/still", {**flat, "C01": 25.0, "C03": 5.0}),
    ))


def test_result_api_answers_the_bounds_in_one_line():
    result = _result()
    assert result.best_constant().name == "constant:beast-ahead/still" and result.best_constant().total == 110.0
    assert result.best_constant("C01").name == "constant:all-safe/still"
    assert result.within_ci("left-first", "right-first", "C06")
    assert result.spread("C01") == 90.0 and result.brain("reference").total == 900.0
    assert result.loss("left-first", "C06") == 40.0 and result.loss("null", "C01") == 90.0


def test_within_ci_fails_when_the_scores_are_apart():
    result = _result()
    apart = ValidityResult(quick=True, seeds=(0,), elapsed_s=1.0, workers=1, brains=(
        _scores("a", {"C06": 50.0}, ci=2.0), _scores("b", {"C06": 60.0}, ci=2.0)), categories=("C06",))
    assert not apart.within_ci("a", "b", "C06")
    assert result.to_dict()["best_constant"]["overall"] == "constant:beast-ahead/still"


def test_markdown_table_has_every_category_and_the_diagnostics():
    table = _result().to_markdown()
    for c in CATEGORIES:
        assert f"| {c} |" in table
    assert "left-first" in table and "`beast-ahead/still`" in table and "**total /900**" in table


def test_validity_command_writes_json_markdown_and_docs(tmp_path, capsys):
    out, docs = tmp_path / "v", tmp_path / "docs" / "validity.md"
    assert main(["validity", "--brains", "reference,null", "--seeds", "1", "--no-c10", "--workers", "1",
                 "--out", str(out), "--docs", str(docs)]) == 0
    data = json.loads((out / "validity.json").read_text())
    assert data["brains"]["reference"]["total"] > data["brains"]["null"]["total"]
    assert "| C03 |" in (out / "validity.md").read_text()
    page = docs.read_text()
    assert "Sensitive" in page and "wmbench validity" in page
    assert "2 brains" in capsys.readouterr().out


def test_validity_command_rejects_an_unknown_panel_brain(capsys):
    assert main(["validity", "--brains", "nobody"]) == 2
    assert "unknown panel brain 'nobody'" in capsys.readouterr().err


def test_a_partial_rerun_of_some_categories_merges_over_a_full_result(tmp_path, capsys):
    """--categories runs only those categories' scenarios (with the failure labels of the lost points);
    --merge-into puts them over a full run of the same brains and seeds, the other categories kept."""
    partial = run_validity(brains=["null", "reference"], seeds=(1,), workers=1, categories=("C08",))
    assert partial.categories == ("C08",) and set(partial.brain("null").scenarios) == {
        "S36", "S37", "S38", "S39", "S40"}
    assert sum(partial.brain("null").labels["C08"].values()) > 0 and not partial.brain("reference").labels
    base = ValidityResult(quick=False, seeds=(1,), elapsed_s=1.0, workers=1, categories=CATEGORIES, brains=tuple(
        BrainScores(n, "", {c: CategoryScore(50.0) for c in CATEGORIES}, {"S01": 10.0, "S36": 10.0},
                    {"C01": {"perception.phantom": 3}, "C08": {"repetition": 9}}) for n in ("null", "reference")))
    merged = merge_results(base, partial)
    null = merged.brain("null")
    assert null.score("C01") == 50.0 and null.score("C08") == partial.brain("null").score("C08")
    assert null.scenarios["S01"] == 10.0 and null.scenarios["S36"] == partial.brain("null").scenarios["S36"]
    assert null.labels["C01"] == {"perception.phantom": 3} and null.labels["C08"] == partial.brain("null").labels["C08"]
    back = result_from_dict(json.loads(merged.to_json()))  # validity.json reads back (elapsed rounded)
    assert back.brains == merged.brains and back.categories == merged.categories
    (tmp_path / "base.json").write_text(base.to_json())
    assert main(["validity", "--brains", "null,reference", "--seeds", "2", "--categories", "C08", "--workers", "1",
                 "--merge-into", str(tmp_path / "base.json"), "--out", str(tmp_path / "v")]) == 2
    assert "same brains and seeds" in capsys.readouterr().err  # seeds 0-1 over a seed-1 base: refused
