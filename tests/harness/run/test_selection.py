"""Suite plans: selection split by mode, seeds, the episode list."""

from __future__ import annotations

import pytest

from wmbench.harness.run.selection import EpisodeSpec, parse_seed_list, plan_suite, resolve_seeds


def test_seed_count_and_list():
    assert resolve_seeds(3) == (0, 1, 2)
    assert resolve_seeds([4, 1, 4]) == (4, 1)
    assert parse_seed_list("0,1, 2") == (0, 1, 2)
    assert parse_seed_list("0-2,7") == (0, 1, 2, 7)


@pytest.mark.parametrize("bad", [0, -1, [], [-1], [1.5], True])
def test_bad_seeds_raise(bad):
    with pytest.raises(ValueError):
        resolve_seeds(bad)


@pytest.mark.parametrize("text", ["a", "3-1", "1,,x", ""])
def test_bad_seed_list_names_the_item(text):
    with pytest.raises(ValueError):
        parse_seed_list(text)


def test_plan_splits_bench_from_other_modes_and_orders_episodes():
    plan = plan_suite("S06,S01,C09,C10", [1, 0])
    assert [s.id for s in plan.bench] == ["S01", "S06"]
    assert plan.episodes == (EpisodeSpec("S01", 1), EpisodeSpec("S01", 0), EpisodeSpec("S06", 1),
                             EpisodeSpec("S06", 0))
    assert sorted(plan.episodes)[0] == EpisodeSpec("S01", 0)
    assert {mode: [s.id for s in group] for mode, group in plan.by_mode.items()} == {
        "live": ["S41", "S42", "S43", "S44", "S45"], "transfer": ["S46", "S47", "S48", "S49", "S50"]}
    assert len(plan.scenario_ids) == 12


def test_all_has_40_bench_scenarios():
    plan = plan_suite("all", 1)
    assert len(plan.bench) == 40 and all(s.category not in ("C09", "C10") for s in plan.bench)


def test_unknown_scenario_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="S99"):
        plan_suite("S01,S99", 1)


def test_huge_seed_range_is_refused_before_it_is_built():
    """Issue 15: ``--seed-list 0-99999999`` used to hang at 3.9 GB; now it fails at once, naming the range."""
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(ValueError, match=r"seed range '0-99999999' .* too long; at most 100,000"):
        parse_seed_list("0-99999999")
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50_000  # KiB: nothing materialised


def test_huge_seed_count_and_huge_seed_are_refused():
    with pytest.raises(ValueError, match="seed count must be between 1 and 100,000, got 1,000,000,000,000"):
        resolve_seeds(10**12)
    with pytest.raises(ValueError, match="integers from 0 to 4294967295"):
        resolve_seeds([2**40])
    assert resolve_seeds(100_000)[-1] == 99_999
