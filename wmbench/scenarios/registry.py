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


def normalise_id(scenario_id: str) -> str:
    """A scenario id as registered: upper case, ``S5`` -> ``S05``."""
    s = scenario_id.strip().upper()
    if s.startswith("S") and s[1:].isdigit():
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
    :class:`~wmbench.core.errors.UnknownNameError` (also a ``KeyError``) listing the known ids."""
    return SCENARIOS.get(scenario_id)


def all_scenarios() -> tuple[Scenario, ...]:
    """Every registered record, sorted by id."""
    return tuple(SCENARIOS.get(k) for k in sorted(SCENARIOS.registered()))


def select(selection: str | Iterable[str]) -> tuple[Scenario, ...]:
    """Resolve a selection: ``all``, or a comma-separated mix of ids (S12), categories (C03) and pillars (P2).

    Order follows scenario id; duplicates are dropped. Unknown tokens raise ``ValueError`` naming them.
    """
    tokens = [t.strip() for t in (selection.split(",") if isinstance(selection, str) else selection)]
    tokens = [t for t in tokens if t]
    if not tokens:
        raise ValueError("empty scenario selection; expected 'all' or ids/categories/pillars like S12,C03,P2")
    chosen: dict[str, Scenario] = {}
    for token in tokens:
        up = token.upper()
        if up == "ALL":
            matches = list(all_scenarios())
        elif up in CATEGORY_PILLARS:
            matches = [s for s in all_scenarios() if s.category == up]
        elif up in PILLARS:
            matches = [s for s in all_scenarios() if s.pillar == up]
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
