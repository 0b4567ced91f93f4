"""Paired scenarios: a rule that needs the same brain's episode of another scenario (same seed).

Card
----
- :data:`PAIRS`: scenario -> (partner scenario, rule). Empty since 0.4: S29 was scored against the same
  brain's S30 ("history changes the answer"), which paid a habit the prompt never asks for (see
  :mod:`wmbench.scoring.c06`); S29 now judges the remembered flight's lessons on its own. The mechanism stays
  for rules that need another episode of the same brain and seed.
- :func:`score_traces`: traces -> ``{scenario: [ScenarioScore, ...]}``, each trace by its own rule, then each
  paired scenario rescored with its partner's trace of the same seed. A trace whose partner is missing keeps
  its unpaired score (the rule says what that costs).
- :func:`rescore_pairs`: the same step for scores already computed (the run scorer's path).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableMapping
from typing import Any

from wmbench.protocol.trace import Trace
from wmbench.scoring.dispatch import normalise_scenario_id, score_trace
from wmbench.scoring.keywords import KeywordBanks, load_banks
from wmbench.scoring.report_types import ScenarioScore

PairRule = Callable[[Trace, "Trace | None", KeywordBanks], ScenarioScore]
PAIRS: dict[str, tuple[str, PairRule]] = {}


def rescore_pairs(traces: Iterable[Trace], scores: MutableMapping[str, list[Any]],
                  banks: KeywordBanks | None = None) -> None:
    """Replace the score of every paired scenario's trace that has its partner's trace of the same seed."""
    by_key: dict[tuple[str, int | None], Trace] = {}
    for trace in traces:
        by_key[(normalise_scenario_id(trace.scenario_id), trace.seed)] = trace
    for (sid, seed), trace in by_key.items():
        if sid not in PAIRS:
            continue
        partner_id, rule = PAIRS[sid]
        partner = by_key.get((partner_id, seed))
        if partner is None:
            continue
        paired = rule(trace, partner, banks or load_banks())
        entries = scores.get(sid) or scores.get(trace.scenario_id) or []
        for i, old in enumerate(entries):
            if isinstance(old, ScenarioScore) and old.seed == seed and old.measured:
                entries[i] = paired
                break


def score_traces(traces: Iterable[Trace], banks: KeywordBanks | None = None) -> dict[str, list[ScenarioScore]]:
    """Every trace by its rule, paired scenarios against their partners (see the card)."""
    kept = list(traces)
    scores: dict[str, list[ScenarioScore]] = {}
    for trace in kept:
        scores.setdefault(normalise_scenario_id(trace.scenario_id), []).append(score_trace(trace, banks))
    rescore_pairs(kept, scores, banks)
    return scores


def partner_of(scenario_id: str) -> str | None:
    """The scenario a paired scenario is scored against, else None."""
    pair = PAIRS.get(normalise_scenario_id(scenario_id))
    return pair[0] if pair else None


__all__ = ["PAIRS", "partner_of", "rescore_pairs", "score_traces"]
