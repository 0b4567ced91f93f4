"""The rank-stability maths (issue 20): average ranks with ties and Spearman's rho, checked against values
worked out by hand, and the comparison over the brains two sets share."""

from __future__ import annotations

import math

import pytest

from wmbench.harness.run.instances import draw_test_seeds
from wmbench.harness.validity.rank_stability import (
    DEFAULT_NONCES,
    RHO_TARGET,
    PanelSet,
    average_ranks,
    compare,
    spearman,
)


def test_average_ranks_share_the_mean_rank_of_a_tie():
    assert average_ranks([10.0, 30.0, 20.0]).tolist() == [1.0, 3.0, 2.0]
    # 5 and 5 occupy ranks 2 and 3 -> 2.5 each; the three 9s occupy 4, 5, 6 -> 5 each
    assert average_ranks([5.0, 1.0, 9.0, 5.0, 9.0, 9.0]).tolist() == [2.5, 1.0, 5.0, 2.5, 5.0, 5.0]


def test_spearman_of_same_and_reversed_order():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [40, 30, 20, 10]) == pytest.approx(-1.0)
    # monotone but not linear: still 1 (ranks, not values)
    assert spearman([1, 2, 3, 4, 5], [1, 8, 27, 64, 1000]) == pytest.approx(1.0)


def test_spearman_without_ties_matches_the_textbook_formula():
    a, b = [3.0, 1.0, 4.0, 1.5, 5.0, 9.0], [2.0, 7.0, 1.0, 8.0, 2.8, 1.8]
    ra, rb = average_ranks(a), average_ranks(b)
    n = len(a)
    d2 = float(((ra - rb) ** 2).sum())
    assert spearman(a, b) == pytest.approx(1 - 6 * d2 / (n * (n * n - 1)))


def test_spearman_with_ties_is_the_pearson_of_average_ranks():
    # ranks a: [1, 2.5, 2.5, 4] (deviations -1.5, 0, 0, 1.5); b: [1, 2, 3, 4] (-1.5, -.5, .5, 1.5):
    # co-deviation 4.5, squares 4.5 and 5 -> 4.5 / sqrt(22.5) = 0.9487
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(4.5 / math.sqrt(4.5 * 5.0), abs=1e-12)


def test_spearman_is_undefined_for_a_constant_side_and_refuses_unpaired_samples():
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
    with pytest.raises(ValueError):
        spearman([1, 2], [1, 2, 3])


def test_compare_uses_the_brains_both_sets_scored():
    a = PanelSet("A", "smpl", (1,), {"x": 100.0, "y": 50.0, "z": 10.0, "only-a": 0.0})
    b = PanelSet("B", "smpl", (2,), {"z": 5.0, "y": 60.0, "x": 90.0})
    c = compare(a, b)
    assert (c.brains, c.rho, c.passes) == (3, pytest.approx(1.0), True)
    swapped = compare(a, PanelSet("C", "robot", (1,), {"x": 10.0, "y": 50.0, "z": 100.0}))
    assert swapped.rho == pytest.approx(-1.0) and not swapped.passes and RHO_TARGET > 0


def test_the_default_nonces_draw_disjoint_sets():
    a, b = (draw_test_seeds(n, 4) for n in DEFAULT_NONCES)
    assert not set(a) & set(b) and 0 not in a + b
