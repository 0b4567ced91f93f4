"""What a suite run covers: the scenario selection split by run mode, the seeds, and the episode plan.

A suite run is ``scenarios × seeds`` for the bench-mode scenarios (C01–C08). Live (C09) and transfer (C10)
scenarios are not episodes of the bench loop; they are handed to measurers keyed by mode (see
:mod:`wmbench.harness.suite`). This module only resolves *what* to run — it runs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wmbench.scenarios import Scenario, select

BENCH_MODE = "bench"
#: At most this many seeds per scenario in one run (100,000 episodes of one scenario is days of work; a
#: larger count is a typo, and materialising it used to take gigabytes before anything ran).
MAX_SEEDS = 100_000
#: Seeds are below 2**32 (numpy's seeded generators take any size, but a larger seed is a typo too).
MAX_SEED = 2**32 - 1


@dataclass(frozen=True, order=True)
class EpisodeSpec:
    """One episode to run: a bench-mode scenario and a seed (ordered by scenario id, then seed)."""

    scenario: str
    seed: int


@dataclass(frozen=True)
class SuitePlan:
    """A resolved selection: the bench episodes to run and the other scenarios grouped by mode."""

    selection: str
    seeds: tuple[int, ...]
    bench: tuple[Scenario, ...]
    by_mode: dict[str, tuple[Scenario, ...]]   # every non-bench mode present in the selection

    @property
    def episodes(self) -> tuple[EpisodeSpec, ...]:
        return tuple(EpisodeSpec(s.id, seed) for s in self.bench for seed in self.seeds)

    @property
    def scenario_ids(self) -> tuple[str, ...]:
        others = [s.id for group in self.by_mode.values() for s in group]
        return tuple(sorted([s.id for s in self.bench] + others))


def resolve_seeds(seeds: int | Sequence[int]) -> tuple[int, ...]:
    """``3`` -> ``(0, 1, 2)``; a sequence is kept in order with duplicates dropped. Must not be empty."""
    if isinstance(seeds, bool):
        raise ValueError(f"seeds must be a count or a list of integers, got {seeds!r}")
    if isinstance(seeds, int):
        if seeds < 1 or seeds > MAX_SEEDS:
            raise ValueError(f"seed count must be between 1 and {MAX_SEEDS:,}, got {seeds:,}")
        return tuple(range(seeds))
    resolved: dict[int, None] = {}  # insertion-ordered set
    for seed in seeds:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            shown = list(seeds) if len(seeds) <= 10 else f"{len(seeds):,} seeds"
            raise ValueError(f"seeds must be integers from 0 to {MAX_SEED}, got {seed!r} in {shown}")
        resolved[seed] = None
        if len(resolved) > MAX_SEEDS:
            raise ValueError(f"too many seeds: more than {MAX_SEEDS:,} per scenario")
    if not resolved:
        raise ValueError("seed list is empty; expected at least one seed such as 0")
    return tuple(resolved)


def parse_seed_list(text: str) -> tuple[int, ...]:
    """``"0,1,2"`` or ``"0-4,9"`` -> seeds. Raises ``ValueError`` naming the bad item."""
    seeds: list[int] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        try:
            if "-" in item:
                lo, hi = (int(x) for x in item.split("-", 1))
                if hi < lo:
                    raise ValueError
                if hi - lo + 1 + len(seeds) > MAX_SEEDS:  # checked before building the list
                    raise OverflowError
                seeds.extend(range(lo, hi + 1))
            else:
                seeds.append(int(item))
        except OverflowError:
            raise ValueError(f"seed range {item!r} in {text!r} is too long; at most {MAX_SEEDS:,} seeds "
                             f"per scenario") from None
        except ValueError:
            raise ValueError(
                f"bad seed {item!r} in {text!r}; expected integers like 0,1,2 or a range 0-4") from None
    return resolve_seeds(seeds)


def plan_suite(selection: str, seeds: int | Sequence[int]) -> SuitePlan:
    """Resolve ``selection`` (``all``, ids, categories, pillars) and ``seeds`` into a :class:`SuitePlan`.

    Unknown scenario tokens raise ``ValueError`` (the registry's message names the valid ids).
    """
    try:
        chosen = select(selection)
    except KeyError as err:  # get_scenario raises KeyError for an unknown id
        raise ValueError(err.args[0] if err.args else str(err)) from None
    by_mode: dict[str, list[Scenario]] = {}
    for record in chosen:
        by_mode.setdefault(record.mode, []).append(record)
    bench = tuple(by_mode.pop(BENCH_MODE, ()))
    return SuitePlan(
        selection=selection if isinstance(selection, str) else ",".join(selection),
        seeds=resolve_seeds(seeds),
        bench=bench,
        by_mode={mode: tuple(group) for mode, group in sorted(by_mode.items())},
    )
