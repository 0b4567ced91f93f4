"""Scoring a suite run: episode lines (and the measurers' scores) -> the ``scores.json`` dict.

Card
----
- :func:`score_run` scores *every* line of a run from ``episodes.jsonl``, sorted by (scenario, seed), so a
  resumed run scores exactly like an uninterrupted one; hands non-bench scenarios (C09 live, C10 transfer)
  to the measurer passed for their mode (a missing measurer, or one that fails for a reason wmbench names —
  a :class:`~wmbench.core.errors.WMBenchError` or an ``OSError`` — is a note and a *not measured* entry; any
  other exception is a bug in wmbench's measuring or scoring code and propagates); adds the deterministic
  ``run`` summary (no wall times, paths or worker counts).
- :func:`score_lines` / :func:`score_line`: the scores of episode lines; an error episode, or a stored trace
  that cannot be read back, scores 0 with the reason (:func:`error_score`); a scorer that raises on a
  readable trace is a bug and propagates; paired scenarios (:data:`wmbench.scoring.pairs.PAIRS`) are rescored
  with their partner's trace (only those traces are kept: :func:`paired_trace`).
- :func:`not_measured_score`: the ``measured: false`` entry of a scenario the run could not measure.

The runner (:mod:`wmbench.harness.suite`) calls :func:`score_run` once the episodes are done; ``wmbench
report`` rescores a run directory with :func:`score_lines`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from wmbench.core.errors import WMBenchError
from wmbench.harness.run.accounting import brain_usage, sum_usage
from wmbench.harness.run.measure import MeasureContext, Measurer
from wmbench.harness.run.results import EpisodeKey, EpisodeLine, EpisodeLog, line_key
from wmbench.harness.run.selection import SuitePlan
from wmbench.protocol.trace import Trace
from wmbench.scenarios import Scenario, get_scenario
from wmbench.scoring import score_trace, summarize
from wmbench.scoring.pairs import PAIRS, rescore_pairs
from wmbench.scoring.report_types import ScenarioScore
from wmbench.scoring.scores_file import BrainUsage, NotMeasuredNote, RunBlock, Scores


def score_run(plan: SuitePlan, log: EpisodeLog, keys: set[EpisodeKey], context: MeasureContext,
              measurers: Mapping[str, Measurer]) -> Scores:
    """The scores.json dict of a run: its episode lines in ``keys`` (sorted by scenario and seed), every
    non-bench mode measured by ``measurers`` (or noted as not measured), and the ``run`` summary."""
    # streamed: each line is scored as it is read and its trace dropped, so scoring a long run keeps only
    # the scores in memory (a 1000-episode run's traces are ~80 MB as Python objects)
    lines = [_ScoredLine.of(line) for line in log.iter_lines() if line_key(line) in keys]
    lines.sort(key=lambda line: (line.scenario, line.seed))
    extra: dict[str, Sequence[Any]] = {}
    notes: list[NotMeasuredNote] = []
    for mode, group in plan.by_mode.items():
        ids = [s.id for s in group]
        measurer = measurers.get(mode)
        if measurer is None:
            why = f"{mode}-mode scenario; bench episodes do not measure it and no {mode} measurer is set"
        else:
            try:
                measured = measurer(group, context)
            except (WMBenchError, OSError) as err:  # a refusal wmbench names (brain spec, extra, disk), not a bug
                why = f"{mode} measurement failed ({type(err).__name__}: {err})"
            else:
                extra.update({sid: list(scores) for sid, scores in measured.items()})
                continue
        notes.append({"mode": mode, "scenarios": ",".join(ids), "note": f"not measured: {why}"})
        extra.update({s.id: [not_measured_score(s, why)] for s in group})
    scores = _summarize([(line.scenario, line.score) for line in lines], extra,
                        [line.trace for line in lines if line.trace is not None])
    # deterministic on purpose (no wall times, paths or worker counts): a resumed or parallel run must write
    # the same scores.json as a sequential uninterrupted one; timings live in episodes.jsonl summaries
    scores["run"] = RunBlock(
        brain=context.brain,
        body=context.body,
        selection=plan.selection,
        seeds=list(plan.seeds),
        episodes=len(lines),
        error_episodes=sum(1 for line in lines if line.error),
        failed_decisions=sum(line.failed_decisions for line in lines),
        parse_errors=sum(line.parse_errors for line in lines),
        not_measured_notes=notes,
        brain_usage=sum_usage(line.usage for line in lines),
    )
    return scores


def score_lines(lines: Sequence[EpisodeLine], extra: Mapping[str, Sequence[Any]] | None = None
                ) -> Scores:
    """The scores.json dict for episode lines (in the order given) plus already-measured scores by scenario.

    An error episode — or a trace the scorer cannot handle — scores 0 with the error as its explanation.
    """
    traces = [t for t in map(paired_trace, lines) if t is not None]
    return _summarize([(line["scenario"], score_line(line)) for line in lines], extra, traces)


@dataclass(frozen=True)
class _ScoredLine:
    """What scoring keeps of one episode line: its identity, its score and the run-summary counts."""

    scenario: str
    seed: int
    error: bool
    failed_decisions: int
    parse_errors: int
    score: Any
    usage: BrainUsage  # the brain's tokens, cache hits, retries (run_accounting.brain_usage)
    #: kept only for the scenarios of a paired rule, see :func:`paired_trace`
    trace: Any = None

    @classmethod
    def of(cls, line: EpisodeLine) -> _ScoredLine:
        summary = line.get("summary", {})
        return cls(line["scenario"], line["seed"], bool(line.get("error")), summary.get("failed_decisions", 0),
                   summary.get("parse_errors", 0), score_line(line), brain_usage([line]), paired_trace(line))


def _summarize(scored: Sequence[tuple[str, Any]], extra: Mapping[str, Sequence[Any]] | None,
               paired_traces: Sequence[Any] = ()) -> Scores:
    """The scores.json dict of (scenario id, score) pairs, in the order given, plus ``extra`` scores; the
    paired scenarios among them rescored against their partners' ``paired_traces``."""
    by_scenario: dict[str, list[Any]] = {}
    for scenario_id, score in scored:
        by_scenario.setdefault(scenario_id, []).append(score)
    if paired_traces:
        rescore_pairs(paired_traces, by_scenario)
    for scenario_id, scores in (extra or {}).items():
        by_scenario.setdefault(scenario_id, []).extend(scores)
    return summarize(by_scenario)


def paired_trace(line: EpisodeLine) -> Any:
    """The trace of a line whose scenario takes part in a paired rule (:mod:`wmbench.scoring.pairs`), else
    None: only those traces are kept while a run is scored. A trace that cannot be read is None (score_line
    scores it as an error already)."""
    wanted = set(PAIRS) | {partner for partner, _ in PAIRS.values()}
    trace = line.get("trace")
    if line.get("scenario") not in wanted or line.get("error") or not trace:
        return None
    try:
        return Trace.from_dict(trace)
    except Exception:  # the run's stored file holds a damaged trace (score_line scores it as an error)
        return None


def score_line(line: EpisodeLine) -> Any:
    """One episode line -> its ``ScenarioScore``."""
    stored = line.get("trace")
    if line.get("error") or not stored:
        why = f"episode failed: {line.get('error') or 'no trace'}"
        return error_score(line["scenario"], line["seed"], why)
    try:
        trace = Trace.from_dict(stored)
    except Exception as err:  # the run's stored file holds a damaged trace: the episode scores 0, saying why
        return error_score(line["scenario"], line["seed"], f"scoring failed: {type(err).__name__}: {err}")
    return score_trace(trace)  # a scorer that raises here is a bug in wmbench: it must not become a score


def not_measured_score(record: Scenario, why: str) -> Any:
    """A ``measured: false`` entry for a scenario this run could not measure, saying why."""
    return ScenarioScore(scenario_id=record.id, category=record.category, score=0.0, measured=False,
                         explanation=f"{record.id}: {why}",
                         evidence={"rule": "not_measured", "mode": record.mode, "reason": why})


def error_score(scenario_id: str, seed: int, why: str) -> Any:
    """0 of 20 for an episode that failed, with the reason as its explanation (first line of it)."""
    headline = why.splitlines()[0] if why else "unknown error"
    return ScenarioScore(
        scenario_id=scenario_id, category=get_scenario(scenario_id).category, score=0.0, measured=True,
        explanation=f"{scenario_id}: scored 0: {headline}", evidence={"rule": "episode_error", "error": why},
        seed=seed,
    )
