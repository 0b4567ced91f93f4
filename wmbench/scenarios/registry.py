"""The scenario registry: ids S01..S50 (and user scenarios) -> frozen records.

Category modules declare each scenario as a small function whose docstring is the scenario's *card*;
:func:`scenario` turns it into a registered record with ``card`` set from that docstring.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import replace

from wmbench.core.registry import Registry
from wmbench.core.suggest import did_you_mean
from wmbench.core.taxonomy import CATEGORY_PILLARS, PILLARS
from wmbench.scenarios.families import MIRROR_ONLY, family_card_line
from wmbench.scenarios.records import Scenario
from wmbench.scenarios.track_a import (
    PHYSICAL_PREFIX,
    TRACK_A_CATEGORIES,
    UpstreamIdError,
    is_upstream_id,
    looks_like_track_a,
    physical_scenario,
    read_track_a,
)


def normalise_id(scenario_id: str) -> str:
    """A scenario id as registered: upper case, ``S5`` -> ``S05``. A three-digit upstream id (``S001``, the
    official dataset's) stays as it is: it never aliases wmbench's ``S01``."""
    s = scenario_id.strip().upper()
    if s.startswith("S") and s[1:].isdigit() and not is_upstream_id(s):
        return f"S{int(s[1:]):02d}"
    return s


#: Every scenario record by id (built-ins S01..S50 and user scenarios); no plugins group.
SCENARIOS: Registry[Scenario] = Registry("scenario", normalise=normalise_id)


def scenario(build: Callable[[], Scenario]) -> Callable[[], Scenario]:
    """Decorator: build the record, attach the function's docstring as its card, register it.

    A bench-mode record whose builder names no family gets :data:`~wmbench.scenarios.families.MIRROR_ONLY`
    (exact mirror counterbalancing where the layout has a side); the card gains the family's ``Family:`` line
    (before a user card's own ``Rule:`` paragraph; the official rules are not in the cards but stated once by
    their scorers, see :mod:`wmbench.harness.cli.scenario_cards`).
    """
    record = build()
    card = inspect.cleandoc(build.__doc__ or "")
    if not card:
        raise ValueError(f"scenario {record.id}: its builder {build.__name__} needs a docstring card")
    if record.family is None and record.mode == "bench":
        record = replace(record, family=MIRROR_ONLY)
    register(replace(record, card=_with_family_line(card, family_card_line(record))))
    return build


def _with_family_line(card: str, line: str) -> str:
    """The card with its ``Family:`` line just before the ``Rule:`` paragraph (the rule stays last)."""
    head, marker, rule = card.rpartition("\nRule:")
    return f"{head}\n{line}{marker}{rule}" if marker else f"{card}\n{line}"


def register(record: Scenario, *, overwrite: bool = False) -> Scenario:
    """Add a record to the registry (user scenarios too). Duplicate ids fail loudly unless ``overwrite``."""
    if record.id in SCENARIOS.registered() and not overwrite:
        raise ValueError(f"scenario id {record.id!r} is already registered")
    return SCENARIOS.register(record.id, record, overwrite=overwrite)


def get_scenario(scenario_id: str) -> Scenario:
    """The record for ``scenario_id`` (case-insensitive, ``S5`` == ``S05``); an unknown id raises
    :class:`~wmbench.core.errors.UnknownNameError` (also a ``KeyError``) listing the known ids; an upstream
    id (``S001``) raises :class:`~wmbench.scenarios.track_a.UpstreamIdError` saying it is not ``S01``."""
    if is_upstream_id(scenario_id):
        raise UpstreamIdError(scenario_id)
    return SCENARIOS.get(scenario_id)


def all_scenarios() -> tuple[Scenario, ...]:
    """Every registered record, sorted by id."""
    return tuple(SCENARIOS.get(k) for k in sorted(SCENARIOS.registered()))


def select(selection: str | Iterable[str]) -> tuple[Scenario, ...]:
    """Resolve a selection: ``all``, or a comma-separated mix of ids (S12), categories (C03) and pillars (P2).

    A token naming a Track-A file (``wm_bench.jsonl``) selects the physical world of each of its C01..C08
    records (registered as ``TA-C01-S001`` ...; :mod:`wmbench.scenarios.track_a`). An upstream id (``S001``) given
    without its file is refused: it is not wmbench's ``S01``.
    Order follows scenario id; duplicates are dropped. Unknown tokens raise ``ValueError`` naming them.
    """
    tokens = [t.strip() for t in (selection.split(",") if isinstance(selection, str) else selection)]
    tokens = [t for t in tokens if t]
    if not tokens:
        raise ValueError("empty scenario selection; expected 'all' or ids/categories/pillars like S12,C03,P2")
    chosen: dict[str, Scenario] = {}
    for token in tokens:
        up = token.upper()
        if looks_like_track_a(token):
            matches = [register(physical_scenario(r), overwrite=True) for r in read_track_a(token)
                       if r.category in TRACK_A_CATEGORIES]
        elif is_upstream_id(up):
            raise UpstreamIdError(token)
        elif up == "ALL":
            matches = list(_not_imported())
        elif up in CATEGORY_PILLARS:
            matches = [s for s in _not_imported() if s.category == up]
        elif up in PILLARS:
            matches = [s for s in _not_imported() if s.pillar == up]
        else:
            try:
                matches = [get_scenario(up)]
            except KeyError:
                known = ["all", *SCENARIOS.registered(), *CATEGORY_PILLARS, *PILLARS]
                raise ValueError(
                    f"unknown scenario selection token {token!r}; {did_you_mean(token, known)}"
                    f"expected 'all', a scenario id "
                    f"({', '.join(sorted(SCENARIOS.registered()))}), a category C01..C10 or a pillar P1..P3"
                ) from None
        for s in matches:
            chosen[s.id] = s
    return tuple(chosen[k] for k in sorted(chosen))


def _not_imported() -> tuple[Scenario, ...]:
    """Every registered record but the Track-A worlds (``TA-...``), which only their file selects."""
    return tuple(s for s in all_scenarios() if not s.id.startswith(PHYSICAL_PREFIX))
