"""Failure labels: *why* a decision lost points, one label from a small taxonomy.

Card
----
Every scored decision of a C01–C08 episode that earned less than the scenario maximum carries one
:class:`FailureLabel` in its evidence (``evidence["decisions"][i]["label"]``); a rule that scores the episode
as a whole (a pattern, a pair, a curve: its decisions are readings without points) carries one in
``evidence["failure_label"]`` when the episode lost points. ``scores.json`` counts them per scenario, per
category and overall (:func:`count_labels`), and the report prints the table.

The taxonomy (``group.name``):

===================================  =====================================================================
``perception.wrong_entity``          a danger seen in the right direction but called the wrong thing
                                     (a beast called a person or a wall, a person called a beast, ...)
``perception.wrong_direction``       a creature that is there was not marked danger where it is (missed, or
                                     placed in another direction)
``perception.missed_wall``           a wall that is there was called safe(open)
``perception.phantom``               danger named where there is nothing (a beast or wall that is not there)
``decision.into_danger``             moved into a sector that is dangerous (truth or its own PREDICT), or
                                     collided / was caught
``decision.not_open_side``           moved safely, but not the way the scene (or the brain's own memory)
                                     calls for: the wrong side out of a corridor, not the route that worked
``decision.no_escape``               stood still (or did not get away) while a way out was open
``memory.ignored_blocked_route``     repeated a route ``recent_decisions`` says got blocked or caught
``affect.intensity_off_threat``      the emotional intensity does not track the threat (its behaviour,
                                     its distance, its being gone)
``expression.words_motion_mismatch`` the MOTION's words do not fit the moment or the body's realized motion
``repetition``                       the same answer repeated where the situation changed
``reply.unreadable``                 the reply could not be parsed (not in the issue's list: a format
                                     failure is neither perception nor decision)
===================================  =====================================================================

How a label is chosen (:func:`label_decision`, first match wins): an unreadable reply; a repetition named by
the rule (its *why* says "repeat" / "word for word" / "same answer"); a move into danger or contact (from the
trace); the category's own kind of failure (C06 memory branches; C04/C05/C07 intensity; C08 expression);
then what the PREDICT got wrong against the truth (:func:`perception_label`); then the action (not the open
side / no escape). The rules themselves are untouched: labels are read from each rule's branch name and
*why* text plus the decision's trace record, so a label never changes a score.

C09 and C10 (harness measurements, no per-decision reply scoring) carry no labels.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any, TypedDict

from wmbench.core.taxonomy import SCENARIO_MAX_POINTS, TRACE_SCORED_CATEGORIES
from wmbench.protocol.trace import DecisionRecord, Trace
from wmbench.scoring.evidence import direction_checks
from wmbench.scoring.movement import contact, into_danger, into_predicted_danger, realized
from wmbench.scoring.reply import parse_ok
from wmbench.scoring.report_types import ScenarioScore


class FailureLabel(StrEnum):
    """Why a decision lost points (see the module card)."""

    WRONG_ENTITY = "perception.wrong_entity"
    WRONG_DIRECTION = "perception.wrong_direction"
    MISSED_WALL = "perception.missed_wall"
    PHANTOM = "perception.phantom"
    INTO_DANGER = "decision.into_danger"
    NOT_OPEN_SIDE = "decision.not_open_side"
    NO_ESCAPE = "decision.no_escape"
    IGNORED_BLOCKED_ROUTE = "memory.ignored_blocked_route"
    INTENSITY_OFF_THREAT = "affect.intensity_off_threat"
    WORDS_MOTION_MISMATCH = "expression.words_motion_mismatch"
    REPETITION = "repetition"
    UNREADABLE = "reply.unreadable"


#: every label, in the table order of the report
FAILURE_LABELS: tuple[FailureLabel, ...] = tuple(FailureLabel)
#: categories whose rules score the reply decision by decision from traces (labels apply)
LABELLED_CATEGORIES: tuple[str, ...] = TRACE_SCORED_CATEGORIES
_REPEAT_WORDS = ("repeat", "word for word", "same answer", "identical answer")
#: the categories whose every lost point is of one kind (their rules score intensity / expression)
_CATEGORY_FAILURE: dict[str, FailureLabel] = {
    "C04": FailureLabel.INTENSITY_OFF_THREAT, "C05": FailureLabel.INTENSITY_OFF_THREAT,
    "C07": FailureLabel.INTENSITY_OFF_THREAT, "C08": FailureLabel.WORDS_MOTION_MISMATCH,
}
_CREATURES = frozenset({"beast", "human"})


class FailureLabelCounts(TypedDict):
    """``scores.json``'s ``failure_labels``: label counts overall, per category and per scenario."""

    overall: dict[str, int]
    categories: dict[str, dict[str, int]]
    scenarios: dict[str, dict[str, int]]


def perception_label(d: DecisionRecord) -> FailureLabel | None:
    """What the PREDICT got wrong against the decision's truth (None when every direction is right)."""
    checks = direction_checks(d)
    if checks is None:
        return FailureLabel.UNREADABLE
    wrong = [c for c in checks if not c.correct]
    if not wrong:
        return None
    creature_elsewhere = any(not c.truth_safe and c.truth_reason in _CREATURES and c.verdict != "danger"
                             for c in checks)
    people = {n.direction for n in d.truth.npcs if n.type != "beast" and n.nearby}
    for c in wrong:
        if c.verdict == "danger" and (not c.truth_safe or (c.reason == "beast" and c.direction in people)):
            return FailureLabel.WRONG_ENTITY   # the wrong thing named (a person far off called a beast too)
    for c in wrong:
        if not c.truth_safe and c.truth_reason in _CREATURES:
            return FailureLabel.WRONG_DIRECTION
    for c in wrong:
        if c.truth_safe and c.reason in _CREATURES and creature_elsewhere:
            return FailureLabel.WRONG_DIRECTION
    for c in wrong:
        if not c.truth_safe and c.truth_reason == "wall":
            return FailureLabel.MISSED_WALL
    return FailureLabel.PHANTOM


def label_decision(category: str, branch: str, why: str, record: DecisionRecord | None) -> FailureLabel:
    """The one label of a decision that lost points under its rule (see the module card for the order)."""
    text = f"{branch}: {why}".lower()
    if branch == "miss" or "parse error" in text or (record is not None and not parse_ok(record)):
        return FailureLabel.UNREADABLE
    if any(word in text for word in _REPEAT_WORDS):
        return FailureLabel.REPETITION
    if record is not None and (contact(record) or into_danger(record) or into_predicted_danger(record)):
        return FailureLabel.INTO_DANGER
    if any(word in text for word in ("caught", "collided", "collision", "into danger")):
        return FailureLabel.INTO_DANGER
    if category == "C06" and branch == "failed_side":
        return FailureLabel.IGNORED_BLOCKED_ROUTE
    if category == "C06" and branch == "invented_memory":
        return FailureLabel.PHANTOM   # a memory that is not there
    if category in _CATEGORY_FAILURE:
        return _CATEGORY_FAILURE[category]
    seen = perception_label(record) if record is not None else None
    acted_well = any(w in text for w in ("safe sector", "held still to assess", "squeezed"))
    if seen is not None and (category in ("C01", "C02") or acted_well or "predict" in text):
        return seen
    if record is not None and realized(record).moved:
        return FailureLabel.NOT_OPEN_SIDE
    if record is not None or "stood" in text or "still" in text:
        return FailureLabel.NO_ESCAPE
    return seen or FailureLabel.NO_ESCAPE


#: the label of an episode scored as a whole (a pattern, a pair, a curve) that lost points, by category
EPISODE_LABELS: dict[str, FailureLabel] = {
    **_CATEGORY_FAILURE, "C06": FailureLabel.NOT_OPEN_SIDE,   # S28: not the same escape each time
}


def label_episode(category: str, explanation: str) -> FailureLabel:
    """The label of an episode whose rule scores it as a whole and which lost points."""
    text = explanation.lower()
    if any(word in text for word in _REPEAT_WORDS):
        return FailureLabel.REPETITION
    if any(word in text for word in ("caught", "collided", "collision", "into danger")):
        return FailureLabel.INTO_DANGER
    return EPISODE_LABELS.get(category, FailureLabel.NO_ESCAPE)


def _branch(why: str) -> str:
    return why.split(":", 1)[0].strip()


def label_score(score: ScenarioScore, trace: Trace) -> ScenarioScore:
    """``score`` with a label on each decision that lost points (and on the episode when its rule scores a
    pattern); the score itself is unchanged. C09/C10 and unmeasured scores come back as they are."""
    evidence = score.evidence
    if not score.measured or score.category not in LABELLED_CATEGORIES or not isinstance(evidence, dict):
        return score
    records = {d.index: d for d in trace.decisions}
    entries = evidence.get("decisions") or []
    scored = False
    for entry in entries:
        points = entry.get("points")
        if points is None:
            continue
        scored = True
        if float(points) < SCENARIO_MAX_POINTS:
            why = str(entry.get("why", ""))
            index = entry.get("index")
            record = records.get(index) if isinstance(index, int) else None
            entry["label"] = str(label_decision(score.category, _branch(why), why, record))
    if not scored and score.score < SCENARIO_MAX_POINTS:
        evidence["failure_label"] = str(label_episode(score.category, score.explanation))
    return score


def episode_labels(evidence: Mapping[str, Any]) -> list[str]:
    """Every label of one episode's evidence (decision labels, else the episode's own)."""
    labels = [str(e["label"]) for e in evidence.get("decisions") or [] if isinstance(e, dict) and e.get("label")]
    if not labels and evidence.get("failure_label"):
        labels.append(str(evidence["failure_label"]))
    return labels


def count_labels(scores: Mapping[str, Sequence[ScenarioScore]] | Iterable[tuple[str, Sequence[Any]]]
                 ) -> FailureLabelCounts:
    """Label counts over scored episodes: ``{scenario id: [ScenarioScore, ...]}`` -> overall / per category /
    per scenario (labels in taxonomy order; zero counts left out)."""
    items = scores.items() if isinstance(scores, Mapping) else scores
    per_scenario: dict[str, Counter[str]] = {}
    per_category: dict[str, Counter[str]] = {}
    for sid, seeds in items:
        for s in seeds:
            if not isinstance(s, ScenarioScore) or not s.measured or not isinstance(s.evidence, dict):
                continue
            found = episode_labels(s.evidence)
            if found:
                per_scenario.setdefault(sid, Counter()).update(found)
                per_category.setdefault(s.category, Counter()).update(found)
    overall: Counter[str] = Counter()
    for counter in per_category.values():
        overall.update(counter)
    return FailureLabelCounts(overall=_ordered(overall),
                              categories={c: _ordered(n) for c, n in sorted(per_category.items())},
                              scenarios={sid: _ordered(n) for sid, n in sorted(per_scenario.items())})


def _ordered(counter: Mapping[str, int]) -> dict[str, int]:
    known = [str(label) for label in FAILURE_LABELS]
    return {**{k: int(counter[k]) for k in known if counter.get(k)},
            **{k: int(v) for k, v in sorted(counter.items()) if k not in known and v}}
