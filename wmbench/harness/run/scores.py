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
- The test split (:mod:`wmbench.harness.run.instances`): seed-0 lines are scored apart into
  ``spec_fidelity`` (:func:`split_spec_fidelity`, :func:`spec_fidelity_block`) and the WM Score is over the
  other seeds, whose list (and the run's nonce) is the ``split`` block.
- :func:`not_measured_score`: the ``measured: false`` entry of a scenario the run could not measure.

The runner (:mod:`wmbench.harness.suite`) calls :func:`score_run` once the episodes are done; ``wmbench
report`` rescores a run directory with :func:`score_lines`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from wmbench.core.errors import WMBenchError
from wmbench.envs.pacing import BODY_PACE, run_pace
from wmbench.harness.run.accounting import brain_usage, sum_usage
from wmbench.harness.run.instances import SPEC_FIDELITY_SEED, split_record
from wmbench.harness.run.measure import MeasureContext, Measurer
from wmbench.harness.run.results import EpisodeKey, EpisodeLine, EpisodeLog, line_key
from wmbench.harness.run.selection import SuitePlan
from wmbench.protocol.trace import Trace
from wmbench.scenarios import Scenario, get_scenario
from wmbench.scoring import score_trace, summarize
from wmbench.scoring.dispatch import normalise_scenario_id
from wmbench.scoring.pairs import PAIRS, rescore_pairs
from wmbench.scoring.report_types import Evidence, ScenarioScore
from wmbench.scoring.scores_file import BrainUsage, NotMeasuredNote, RunBlock, Scores, SpecFidelity, SplitBlock


def score_run(plan: SuitePlan, log: EpisodeLog, keys: set[EpisodeKey], context: MeasureContext,
              measurers: Mapping[str, Measurer], split: SplitBlock | None = None,
              prescored: IncrementalScores | None = None) -> Scores:
    """The scores.json dict of a run: its episode lines in ``keys`` (sorted by scenario and seed), every
    non-bench mode measured by ``measurers`` (or noted as not measured), and the ``run`` summary.
    ``prescored``: lines already scored as they were written (:class:`IncrementalScores`); the others are
    scored here — the result is the same either way.

    The WM Score is over the test instances; seed-0 lines are the spec-fidelity block when the run has any
    other seed (:func:`split_spec_fidelity`). ``split`` (default: from the plan's seeds) is recorded."""
    # streamed: each line is scored as it is read and its trace dropped, so scoring a long run keeps only
    # the scores in memory (a 1000-episode run's traces are ~80 MB as Python objects)
    lines = [(prescored.take(line) if prescored is not None else None) or _ScoredLine.of(line)
             for line in log.iter_lines() if line_key(line) in keys]
    lines.sort(key=lambda line: (line.scenario, line.seed))
    extra: dict[str, Sequence[ScenarioScore]] = {}
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
    test_lines, fidelity_lines = split_spec_fidelity(lines, lambda line: line.seed)
    scores = _summarize([(line.scenario, line.score) for line in test_lines], extra,
                        [line.trace for line in test_lines if line.trace is not None])
    scores["split"] = split if split is not None else split_record(plan.seeds)
    if fidelity_lines:
        scores["spec_fidelity"] = spec_fidelity_block(
            _summarize([(line.scenario, line.score) for line in fidelity_lines], None,
                       [line.trace for line in fidelity_lines if line.trace is not None]))
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
    pace = run_pace(context.body, context.env_kwargs.get("pace", BODY_PACE))
    if pace is not None:
        scores["run"]["pace"] = pace
    return scores


def score_lines(lines: Sequence[EpisodeLine], extra: Mapping[str, Sequence[ScenarioScore]] | None = None
                ) -> Scores:
    """The scores.json dict for episode lines (in the order given) plus already-measured scores by scenario,
    split as :func:`score_run` splits them (seed 0 apart as spec fidelity when other seeds are there).

    An error episode — or a trace the scorer cannot handle — scores 0 with the error as its explanation.
    """
    test_lines, fidelity_lines = split_spec_fidelity(lines, lambda line: line["seed"])
    traces = [t for t in map(paired_trace, test_lines) if t is not None]
    scores = _summarize([(line["scenario"], score_line(line)) for line in test_lines], extra, traces)
    scores["split"] = split_record(line["seed"] for line in lines)
    if fidelity_lines:
        fidelity_traces = [t for t in map(paired_trace, fidelity_lines) if t is not None]
        scores["spec_fidelity"] = spec_fidelity_block(_summarize(
            [(line["scenario"], score_line(line)) for line in fidelity_lines], None, fidelity_traces))
    return scores


_Line = TypeVar("_Line")


def split_spec_fidelity(lines: Sequence[_Line], seed_of: Callable[[_Line], int]
                        ) -> tuple[list[_Line], list[_Line]]:
    """(test lines, spec-fidelity lines): the seed-0 lines go apart when any line has another seed; a run of
    seed 0 alone keeps them as its test lines (``canonical_only``, see :mod:`wmbench.harness.run.instances`)."""
    fidelity = [line for line in lines if seed_of(line) == SPEC_FIDELITY_SEED]
    if len(fidelity) == len(lines):
        return list(lines), []
    return [line for line in lines if seed_of(line) != SPEC_FIDELITY_SEED], fidelity


def spec_fidelity_block(fidelity: Scores) -> SpecFidelity:
    """The ``spec_fidelity`` block of scores.json from the scores of the seed-0 episodes alone: the bench
    categories and scenarios they measured, and their sum."""
    categories = {cat: (entry["score"] if entry["measured_max"] else None)
                  for cat, entry in fidelity["categories"].items() if entry["measured_max"]}
    scenarios = {sid: entry["score"] for sid, entry in fidelity["scenarios"].items() if entry["measured"]}
    total = round(sum(v for v in categories.values() if v is not None), 3)
    most = sum(fidelity["categories"][cat]["measured_max"] for cat in categories)
    return SpecFidelity(seed=SPEC_FIDELITY_SEED, score=total, max=most, categories=categories,
                        scenarios=scenarios,
                        note="seed 0, the spec's canonical published layouts: reported apart, not in the WM Score "
                             "(a brain can memorise them); bench categories only")


@dataclass(frozen=True)
class LineScores:
    """Episode lines scored one at a time (:func:`score_line_stream`): (scenario, seed, score) in (scenario,
    seed) order, paired scenarios already rescored; :meth:`summarize` gives what :func:`score_lines` gives
    for the same lines sorted the same way."""

    scored: tuple[tuple[str, int, Any], ...]

    @property
    def scenarios(self) -> set[str]:
        return {scenario for scenario, _, _ in self.scored}

    def summarize(self, extra: Mapping[str, Sequence[ScenarioScore]] | None = None) -> Scores:
        """Split as :func:`score_run` splits (seed 0 apart as spec fidelity when other seeds are there)."""
        test, fidelity = split_spec_fidelity(self.scored, lambda item: item[1])
        scores = _summarize([(scenario, score) for scenario, _, score in test], extra)
        scores["split"] = split_record(seed for _, seed, _ in self.scored)
        if fidelity:
            scores["spec_fidelity"] = spec_fidelity_block(
                _summarize([(scenario, score) for scenario, _, score in fidelity], None))
        return scores


def score_line_stream(lines: Iterable[EpisodeLine],
                      keep_evidence: Callable[[str, int], bool] | None = None) -> LineScores:
    """Score ``lines`` as they are read — the streaming form of :func:`score_lines` over the lines sorted by
    (scenario, seed): the same scores, never the lines in memory.

    Paired scenarios (S29 against the same seed's S30) are rescored as soon as both traces have been read;
    until then a trace waits as compact JSON text. ``keep_evidence(scenario, seed)`` False: that episode's
    score keeps only the evidence the aggregates read (its rule and hidden-inconsistency counts), so a
    20,000-episode report holds per-seed numbers, not per-decision reasons (:func:`slim_evidence`).
    """
    kept: list[list[Any]] = []  # [scenario, seed, score]
    waiting: dict[tuple[str, int | None], tuple[int, str]] = {}  # paired trace key -> (index in kept, JSON)

    def slim(index: int) -> None:
        if keep_evidence is not None and not keep_evidence(kept[index][0], kept[index][1]):
            kept[index][2] = slim_evidence(kept[index][2])

    for line in lines:
        kept.append([line["scenario"], line["seed"], score_line(line)])
        trace = paired_trace(line)
        if trace is None:
            slim(len(kept) - 1)
            continue
        key = (normalise_scenario_id(trace.scenario_id), trace.seed)
        waiting[key] = (len(kept) - 1, json.dumps(line["trace"]))
        for index in _rescore_pair(key, waiting, kept):
            slim(index)
    for index, _ in waiting.values():  # partners never read: their unpaired scores stand
        slim(index)
    kept.sort(key=lambda item: (item[0], item[1]))
    return LineScores(tuple((sid, seed, score) for sid, seed, score in kept))


def _rescore_pair(key: tuple[str, int | None], waiting: dict[tuple[str, int | None], tuple[int, str]],
                  kept: list[list[Any]]) -> tuple[int, ...]:
    """If ``key``'s pair (scenario and partner, same seed) has both traces, rescore the scenario as
    :func:`~wmbench.scoring.pairs.rescore_pairs` does and let both traces go; the indices of both lines
    (none while one is missing)."""
    scenario, seed = key
    owner = scenario if scenario in PAIRS else next((s for s, (p, _) in PAIRS.items() if p == scenario), None)
    if owner is None:
        return (waiting.pop(key)[0],)
    pair = ((owner, seed), (PAIRS[owner][0], seed))
    if not all(k in waiting for k in pair):
        return ()
    (index, text), (partner_index, partner_text) = waiting.pop(pair[0]), waiting.pop(pair[1])
    entries = {owner: [kept[index][2]]}
    rescore_pairs([Trace.from_dict(json.loads(text)), Trace.from_dict(json.loads(partner_text))], entries)
    kept[index][2] = entries[owner][0]
    return index, partner_index


def slim_evidence(score: ScenarioScore) -> ScenarioScore:
    """``score`` with only the evidence the aggregates read: the rule, and the hidden-inconsistency counts
    (one shared dict per distinct value: thousands of episodes hold a handful of them)."""
    if not isinstance(score, ScenarioScore) or not isinstance(score.evidence, dict):
        return score
    hidden = (score.evidence.get("sim") or {}).get("hidden_inconsistency")
    counts = (int(hidden.get("count", 0)), int(hidden.get("safe_decisions", 0))) if isinstance(hidden, dict) else None
    return replace(score, evidence=_slim(str(score.evidence.get("rule")), counts))


@functools.lru_cache(maxsize=4096)
def _slim(rule: str, counts: tuple[int, int] | None) -> Evidence:
    if counts is None:
        return {"rule": rule}
    return {"rule": rule, "sim": {"hidden_inconsistency": {"count": counts[0], "safe_decisions": counts[1]}}}


class IncrementalScores:
    """Episode lines scored as the run writes them, so the scoring step after the last reply has (almost)
    nothing left to do: the runner calls :meth:`add` with each line's text just appended to
    ``episodes.jsonl`` (while other episodes still wait on their brain), and :func:`score_run` takes the
    scores with :meth:`take` instead of scoring those lines again.

    The same function scores a line here and in :func:`score_run` (``_ScoredLine.of``) from the same text
    (the JSON just written is what a later read parses), so ``scores.json`` is the same. A line is taken
    only if its :func:`line_key` was added in this run; the runner appends only episodes not yet in the file,
    under the run lock, so an added line is the first (the scored) line of its key. A line whose scoring
    raises is left for :func:`score_run`, which raises as it always did (a scorer bug is not a score).
    """

    def __init__(self) -> None:
        self._scored: dict[EpisodeKey, _ScoredLine] = {}
        #: lines scored by :meth:`add` / taken by :meth:`take` (a run's proof that the work moved)
        self.added = 0
        self.taken = 0

    def add(self, text: str) -> bool:
        """Score one written line (its JSON text); False when it could not be scored here."""
        try:
            line = json.loads(text)
            key = line_key(line)
            scored = _ScoredLine.of(line)
        except Exception:  # scored again (and raising, if it must) by score_run, as without this cache
            return False
        self._scored.setdefault(key, scored)
        self.added += 1
        return True

    def take(self, line: EpisodeLine) -> _ScoredLine | None:
        """The score of ``line`` if :meth:`add` scored it (removed from the cache), else None."""
        scored = self._scored.pop(line_key(line), None)
        if scored is not None:
            self.taken += 1
        return scored


@dataclass(frozen=True)
class _ScoredLine:
    """What scoring keeps of one episode line: its identity, its score and the run-summary counts."""

    scenario: str
    seed: int
    error: bool
    failed_decisions: int
    parse_errors: int
    score: ScenarioScore
    usage: BrainUsage  # the brain's tokens, cache hits, retries (run_accounting.brain_usage)
    #: kept only for the scenarios of a paired rule, see :func:`paired_trace`
    trace: Trace | None = None

    @classmethod
    def of(cls, line: EpisodeLine) -> _ScoredLine:
        summary = line.get("summary", {})
        return cls(line["scenario"], line["seed"], bool(line.get("error")), summary.get("failed_decisions", 0),
                   summary.get("parse_errors", 0), score_line(line), brain_usage([line]), paired_trace(line))


def _summarize(scored: Sequence[tuple[str, ScenarioScore]], extra: Mapping[str, Sequence[ScenarioScore]] | None,
               paired_traces: Sequence[Trace] = ()) -> Scores:
    """The scores.json dict of (scenario id, score) pairs, in the order given, plus ``extra`` scores; the
    paired scenarios among them rescored against their partners' ``paired_traces``."""
    by_scenario: dict[str, list[ScenarioScore]] = {}
    for scenario_id, score in scored:
        by_scenario.setdefault(scenario_id, []).append(score)
    if paired_traces:
        rescore_pairs(paired_traces, by_scenario)
    for scenario_id, scores in (extra or {}).items():
        by_scenario.setdefault(scenario_id, []).extend(scores)
    return summarize(by_scenario)


def paired_trace(line: EpisodeLine) -> Trace | None:
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


def score_line(line: EpisodeLine) -> ScenarioScore:
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


def not_measured_score(record: Scenario, why: str) -> ScenarioScore:
    """A ``measured: false`` entry for a scenario this run could not measure, saying why."""
    return ScenarioScore(scenario_id=record.id, category=record.category, score=0.0, measured=False,
                         explanation=f"{record.id}: {why}",
                         evidence={"rule": "not_measured", "mode": record.mode, "reason": why})


def error_score(scenario_id: str, seed: int, why: str) -> ScenarioScore:
    """0 of 20 for an episode that failed, with the reason as its explanation (first line of it)."""
    headline = why.splitlines()[0] if why else "unknown error"
    return ScenarioScore(
        scenario_id=scenario_id, category=get_scenario(scenario_id).category, score=0.0, measured=True,
        explanation=f"{scenario_id}: scored 0: {headline}", evidence={"rule": "episode_error", "error": why},
        seed=seed,
    )
