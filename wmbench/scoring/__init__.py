"""Scorers for C01–C08 (pure functions of episode traces), the C09/C10 rules (of live-run records and transfer
runs, measured by the harness) and the WM Score aggregation.

::

    from wmbench.scoring import score_trace, summarize
    score = score_trace(trace)                 # ScenarioScore, 0–20, with explanation and evidence
    report = summarize({"S12": [score, ...]})  # the scores.json dict

Each category module's docstring (``c01`` … ``c08``) is the authoritative rule for its scenarios;
``RULE_TEXT`` holds the same rule per scenario for the scenario cards. Thresholds live in :mod:`thresholds`,
keyword banks in ``keyword_banks.json`` (extend with ``load_banks(extra_path)``)."""

from wmbench.scoring.aggregate import grade_for, summarize
from wmbench.scoring.dispatch import RULE_TEXT, category_of, score_trace
from wmbench.scoring.keywords import KeywordBanks, load_banks
from wmbench.scoring.report_types import DecisionPoints, ScenarioScore

__all__ = [
    "RULE_TEXT",
    "DecisionPoints",
    "KeywordBanks",
    "ScenarioScore",
    "category_of",
    "grade_for",
    "load_banks",
    "score_trace",
    "summarize",
]
