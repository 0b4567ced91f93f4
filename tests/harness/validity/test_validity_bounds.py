"""Validity bounds held in CI (issue 12): the quick panel (`wmbench validity --quick`, seeds 0–3) is run once
and every bound below is one line against its result.

Each bound says which capability a category must charge for. Where the issue's target is not met yet, the test
holds today's level as a regression guard and a strict ``xfail`` states the target, so the day a scorer change
meets it the xfail turns into a failure that asks for the guard to be tightened (see docs/validity.md).
"""

from __future__ import annotations

import pytest

from wmbench.harness.validity.panel import CATEGORIES, ValidityResult, run_validity

pytestmark = pytest.mark.slow

#: what each diagnostic brain breaks: it must lose at least LOSS points against the reference there
BROKEN_BY: dict[str, tuple[str, ...]] = {
    "mirror-swapped": ("C01", "C03"),  # left and right exchanged in both lines
    "perceive-only": ("C03", "C04", "C05", "C06", "C07", "C08"),  # right PREDICT, moves toward the danger
    "act-only": ("C01", "C02", "C03"),  # random PREDICT, flees correctly
}
LOSS = 30.0


@pytest.fixture(scope="module")
def quick() -> ValidityResult:
    return run_validity(quick=True)


def test_reference_solves_the_families(quick: ValidityResult):
    assert quick.brain("reference").total >= 850.0, quick.brain("reference").total


def test_baselines_stay_low(quick: ValidityResult):
    assert quick.brain("null").total <= 120.0, quick.brain("null").total
    assert quick.brain("random").total <= 200.0, quick.brain("random").total


def test_tie_breakers_score_alike_on_every_category(quick: ValidityResult):
    apart = [c for c in CATEGORIES if not quick.within_ci("left-first", "right-first", c)]
    assert not apart, {c: (quick.brain("left-first").score(c), quick.brain("right-first").score(c)) for c in apart}


def test_memory_is_worth_points_in_c06(quick: ValidityResult):
    assert quick.loss("left-first", "C06") >= 30.0  # left-first is the panel's memoryless brain


def test_a_trailing_remark_changes_no_category(quick: ValidityResult):
    moved = {c: quick.brain("trailing-remark").score(c) - quick.brain("reference").score(c) for c in CATEGORIES}
    assert all(abs(delta) <= 5.0 for delta in moved.values()), moved


@pytest.mark.parametrize("brain", sorted(BROKEN_BY))
def test_each_diagnostic_brain_loses_where_it_is_broken(quick: ValidityResult, brain: str):
    losses = {c: quick.loss(brain, c) for c in BROKEN_BY[brain]}
    assert all(loss >= LOSS for loss in losses.values()), losses


#: today's ceiling per category for any constant reply (0.2 rules): C04 pays a constant step back 45 (full
#: panel); C10 pays a constant walk left or right 31.7 (quick panel; a body counts its worst heading since
#: c10const, the forward sprint that earned 63.8 on the mean over headings earns 0)
CONSTANT_CEILING: dict[str, float] = {**dict.fromkeys(CATEGORIES, 45.0), "C10": 35.0}


def test_no_constant_reply_comes_near_a_passing_score_regression_guard(quick: ValidityResult):
    """Today's level (0.2 rules): best constant 203 of 900 (a wary step back under fwd=danger(beast))."""
    best = quick.best_constant()
    assert best.total <= 210.0, (best.name, best.total)
    over = {c: (quick.best_constant(c).name, quick.best_constant(c).score(c)) for c in CATEGORIES
            if quick.best_constant(c).score(c) > CONSTANT_CEILING[c]}
    assert not over, over


@pytest.mark.xfail(strict=True, reason="issue 12 target not met yet: best constant 203/900 (target 150); C04 and "
                                       "C08 pay constants 45 and 42.5 (target 40) — see docs/validity.md")
def test_best_constant_meets_the_issue_target(quick: ValidityResult):
    assert quick.best_constant().total <= 150.0
    assert all(quick.best_constant(c).score(c) <= 40.0 for c in CATEGORIES)

