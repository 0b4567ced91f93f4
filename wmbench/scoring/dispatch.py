"""``score_trace``: one episode of a C01–C08 scenario -> its :class:`ScenarioScore`, by the scenario's rule.

The rule is chosen by scenario id: :data:`SCENARIO_RULES` holds every official C01–C08 scenario's
:class:`~wmbench.scoring.rules.ScenarioRule`, built from the registered category scorers
(:func:`~wmbench.scoring.registry.trace_scorers`: each category module's ``RULE_TEXT`` and ``RULES`` by
:func:`~wmbench.scoring.rules.rule_table`, which refuses, at import, a rule for an id outside the category's
official scenarios: nothing is silently ignored). A user scenario of a C01–C08 category with another id gets
its category's generic rule (the function its module registered with ``@category_scorer``). C09/C10 are
measured by the harness elsewhere, so a trace of theirs (or of an unknown category) comes back ``measured``
False with the reason. A brain caught by the beast
before the scenario reached what its rule scores (e.g. before the despawn in S31) is measured and gets 0 —
being caught is the failure. A rule that raises (``KeyError``, ``TypeError``, ...) on a trace is a bug in the
rule, not a property of the brain: it propagates, it never turns into "not measured".
"""

from __future__ import annotations

from dataclasses import replace

from wmbench.core.taxonomy import OFFICIAL_SCENARIO_COUNT, SCENARIOS_PER_CATEGORY
from wmbench.protocol.trace import Trace
from wmbench.scenarios.registry import get_scenario
from wmbench.scenarios.track_a import is_upstream_id, physical_category
from wmbench.scoring.evidence import hidden_inconsistency
from wmbench.scoring.failure_labels import label_score
from wmbench.scoring.keywords import KeywordBanks, load_banks
from wmbench.scoring.movement import trace_caught
from wmbench.scoring.registry import TraceRule, trace_scorers
from wmbench.scoring.report_types import ScenarioScore
from wmbench.scoring.result import unmeasured
from wmbench.scoring.rules import ScenarioRule

#: the categories scored from traces (C01–C08) -> their registered scorer
TRACE_SCORERS = trace_scorers()
#: every official C01–C08 scenario's rule: its statement (the card's ``Rule:`` paragraph) and its scorer
SCENARIO_RULES: dict[str, ScenarioRule] = {
    sid: rule for scorer in TRACE_SCORERS.values() for sid, rule in scorer.scenario_rules().items()
}
RULES: dict[str, TraceRule] = {sid: rule.score for sid, rule in SCENARIO_RULES.items() if rule.score is not None}
#: every official C01–C08 scenario's rule statement, for its card's ``Rule:`` paragraph
RULE_TEXT: dict[str, str] = {sid: rule.statement for sid, rule in SCENARIO_RULES.items()}


def normalise_scenario_id(scenario_id: str) -> str:
    """``S5`` -> ``S05``; an upstream three-digit id (``S001``) is kept: it is never wmbench's ``S01``."""
    s = str(scenario_id).strip().upper()
    return f"S{int(s[1:]):02d}" if s.startswith("S") and s[1:].isdigit() and not is_upstream_id(s) else s


def official_category(scenario_id: str) -> str | None:
    """C01..C10 for the official ids S01..S50, else None."""
    s = normalise_scenario_id(scenario_id)
    if s.startswith("S") and s[1:].isdigit() and not is_upstream_id(s) and 1 <= int(s[1:]) <= OFFICIAL_SCENARIO_COUNT:
        return f"C{(int(s[1:]) - 1) // SCENARIOS_PER_CATEGORY + 1:02d}"
    return None


def category_of(trace: Trace) -> str | None:
    """The trace's category: official numbering, else ``trace.meta["category"]``, else the scenario registry.
    """
    category = (official_category(trace.scenario_id) or physical_category(trace.scenario_id)
                or trace.meta.get("category"))
    if category:
        return str(category).upper()
    try:
        return get_scenario(trace.scenario_id).category
    except KeyError:
        return None


def score_trace(trace: Trace, banks: KeywordBanks | None = None) -> ScenarioScore:
    """Score one episode (0–20) by its scenario's rule; see each category module's docstring for the rules."""
    category = category_of(trace) or "unknown"
    scorer = TRACE_SCORERS.get(category)
    if scorer is None or scorer.generic_rule is None:
        return unmeasured(trace, category, f"category {category} is not scored from traces by this module "
                                           "(C09/C10 are harness measurements)")
    if not trace.decisions:
        return unmeasured(trace, category, "the trace has no decisions")
    sid = normalise_scenario_id(trace.scenario_id)
    if sid != trace.scenario_id:
        trace = replace(trace, scenario_id=sid)
    rule = RULES.get(sid) if official_category(sid) == category else None
    rule = rule or scorer.generic_rule
    result = rule(trace, banks or load_banks())
    if not result.measured and trace_caught(trace):
        result = caught_before_scoring(trace, category, result)
    return label_score(result, trace)   # why points were lost (scoring/failure_labels.py); score unchanged


def caught_before_scoring(trace: Trace, category: str, unscorable: ScenarioScore) -> ScenarioScore:
    """A brain caught before the scenario reached what its rule scores failed it: measured, 0 points."""
    reason = unscorable.evidence.get("reason", "")
    return ScenarioScore(
        scenario_id=trace.scenario_id, category=category, score=0.0, measured=True,
        explanation=f"{trace.scenario_id}: caught by the beast before the scenario could be scored "
                    f"({reason}); score 0/20",
        evidence={"rule": "caught_before_scoring", "reason": reason, "keyword": {},
                  "sim": {"caught": True, "hidden_inconsistency": hidden_inconsistency(trace.decisions)},
                  "decisions": []},
        seed=trace.seed,
    )
