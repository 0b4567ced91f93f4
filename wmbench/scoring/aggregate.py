"""From per-seed scenario scores to the ``scores.json`` dict: scenarios, categories, pillars, WM Score, grade,
CIs.

Scenario score = mean over its measured seeds (0–20). Category = sum of its five official scenarios (0–100).
WM Score = sum of the ten categories (0–1000). A scenario with no measured seed is *not measured*; a category
with any unmeasured scenario is reported ``measured: false`` with the part that was measured, and the WM Score
names the missing categories — never a silent 0 or 100. Pillars: sums out of 200/500/300 and, separately
labelled, rescaled to the spec's 250/450/300. Grade on the WM Score (S >= 900, A >= 750, B >= 600, C >= 400, D
>= 200, F below), flagged provisional for an incomplete run. Confidence intervals: percentile bootstrap over
seeds (each scenario's seeds resampled with replacement, ``BOOTSTRAP_RESAMPLES`` times, from a generator
seeded per scenario with ``BOOTSTRAP_SEED``) — the same input always gives the same output."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from wmbench.core.taxonomy import (
    CATEGORIES,
    CATEGORY_MAX_POINTS,
    CATEGORY_SCENARIOS,
    GRADE_THRESHOLDS,
    PILLAR_RESCALED_MAX,
    PILLARS,
    SCENARIO_MAX_POINTS,
    WM_SCORE_MAX,
)
from wmbench.scoring.dispatch import normalise_scenario_id, official_category
from wmbench.scoring.failure_labels import count_labels
from wmbench.scoring.report_types import ScenarioScore
from wmbench.scoring.scores_file import (
    CategoryEntry,
    CiBlock,
    HiddenInconsistencyRate,
    PerSeedResult,
    PillarEntry,
    ScenarioEntry,
    Scores,
)

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20260301
CI_METHOD = f"bootstrap over seeds, {BOOTSTRAP_RESAMPLES} resamples, fixed RNG"
DIGITS = 3


def grade_for(wm_score: float) -> str:
    """The spec's grade letter for a WM Score (0–1000)."""
    return next(letter for letter, low in GRADE_THRESHOLDS if wm_score >= low or letter == "F")


def _r(x: float | np.floating[Any]) -> float:
    return round(float(x), DIGITS)


#: a confidence interval needs at least this many seeds per scenario; with fewer it is "not measured" (a
#: bootstrap of one value is a zero-width interval that would claim a certainty the run never showed)
CI_MIN_SEEDS = 2


def _seeds(by_id: Mapping[str, Sequence[ScenarioScore]], ids: Sequence[str]) -> int:
    """The fewest measured seeds of any of ``ids``."""
    return min((len([s for s in by_id.get(sid, []) if s.measured]) for sid in ids), default=0)


def _ci_note(n_seeds: int) -> str:
    return ("bootstrap over seeds" if n_seeds >= CI_MIN_SEEDS else
            f"not measured: {n_seeds} seed(s); a 95 % CI needs at least {CI_MIN_SEEDS}")


def _wm_score_ci_note(by_id: Mapping[str, Sequence[ScenarioScore]], measured_ids: Sequence[str]) -> str:
    """How the WM Score's CI was made. Scenarios measured on fewer seeds than the CI needs (C09's live runs and
    C10's transfer measure one seed by default) enter it as constants: the interval is the spread over the
    seeds of the others, and the note names them rather than dropping the whole CI."""
    counts = {sid: len([s for s in by_id.get(sid, []) if s.measured]) for sid in measured_ids}
    most = max(counts.values(), default=0)
    if most < CI_MIN_SEEDS:
        return _ci_note(most)
    single = [sid for sid, n in counts.items() if n < CI_MIN_SEEDS]
    if not single:
        return f"bootstrap over seeds ({min(counts.values())} or more per scenario)"
    return (f"bootstrap over seeds (up to {most} per scenario); {len(single)} scenario(s) measured on one seed "
            f"({_id_ranges(single)}) enter as constants, without spread")


def _id_ranges(ids: Sequence[str]) -> str:
    """``S41–S50`` for consecutive scenario ids, ``S03, S41–S45`` otherwise."""
    numbers = sorted(int(sid[1:]) for sid in ids)
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"S{r[0]:02d}" if len(r) == 1 else f"S{r[0]:02d}–S{r[-1]:02d}" for r in runs)


def _ci(samples: np.ndarray) -> list[float]:
    lo, hi = np.percentile(samples, [2.5, 97.5])
    return [_r(lo), _r(hi)]


def _bootstrap(values: Sequence[float], scenario_number: int) -> np.ndarray:
    """Bootstrap distribution of the mean of ``values`` (one generator per scenario, so adding or removing
    another scenario never changes this one's draws)."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 1 or np.all(arr == arr[0]):
        return np.full(BOOTSTRAP_RESAMPLES, arr.mean())
    rng = np.random.default_rng([BOOTSTRAP_SEED, scenario_number])
    idx = rng.integers(0, arr.size, size=(BOOTSTRAP_RESAMPLES, arr.size))
    means: np.ndarray = arr[idx].mean(axis=1)
    return means


def _scenario_entry(sid: str, seeds: Sequence[ScenarioScore]) -> ScenarioEntry:
    measured = [s for s in seeds if s.measured]
    return ScenarioEntry(
        score=_r(np.mean([s.score for s in measured])) if measured else None,
        max=SCENARIO_MAX_POINTS,
        measured=bool(measured),
        category=official_category(sid) or (seeds[0].category if seeds else None),
        per_seed=[PerSeedResult(seed=s.seed, score=_r(s.score), measured=s.measured, explanation=s.explanation)
                  for s in seeds],
        # the scorer's evidence object itself (not a copy): ScenarioScore.evidence is an Evidence dict
        evidence=[s.evidence for s in seeds],
        explanation=_scenario_explanation(seeds, measured),
    )


def _scenario_explanation(seeds: Sequence[ScenarioScore], measured: Sequence[ScenarioScore]) -> str:
    if not seeds:
        return "not measured: no episode was scored"
    if not measured:
        return "not measured: " + " | ".join(s.explanation for s in seeds)
    if len(seeds) == 1:
        return seeds[0].explanation
    per = ", ".join(f"seed {s.seed}: {s.score:g}" if s.measured else f"seed {s.seed}: not measured"
                    for s in seeds)
    return f"mean of {len(measured)} measured seeds ({per}); first: {measured[0].explanation}"


def _hidden_inconsistency(all_scores: Sequence[ScenarioScore]) -> HiddenInconsistencyRate:
    count = safe = 0
    for s in all_scores:
        hi = ((s.evidence or {}).get("sim") or {}).get("hidden_inconsistency")
        if s.measured and isinstance(hi, dict):
            count += int(hi.get("count", 0))
            safe += int(hi.get("safe_decisions", 0))
    return {"count": count, "safe_decisions": safe, "rate": round(count / safe, 4) if safe else None}


def summarize(scores: Mapping[str, Sequence[ScenarioScore]]) -> Scores:
    """The ``scores.json`` dict for scenario id -> one :class:`ScenarioScore` per seed (see module doc)."""
    problems: list[str] = []
    by_id: dict[str, list[ScenarioScore]] = {}
    for key, seeds in (scores or {}).items():
        good = [s for s in (seeds or []) if isinstance(s, ScenarioScore)]
        if len(good) != len(seeds or []):
            bad = len(seeds) - len(good)
            problems.append(f"{key}: {bad} entries were not ScenarioScore and were ignored")
        by_id.setdefault(normalise_scenario_id(key), []).extend(good)

    official = [sid for c in CATEGORIES for sid in CATEGORY_SCENARIOS[c]]
    scenarios = {sid: _scenario_entry(sid, by_id.get(sid, [])) for sid in official}
    extra = {sid: _scenario_entry(sid, seeds) for sid, seeds in sorted(by_id.items())
             if official_category(sid) is None}
    samples = {sid: _bootstrap([s.score for s in by_id[sid] if s.measured], int(sid[1:]))
               for sid, e in scenarios.items() if e["measured"]}

    categories: dict[str, CategoryEntry] = {}
    for c in CATEGORIES:
        ids = CATEGORY_SCENARIOS[c]
        measured_ids = [sid for sid in ids if scenarios[sid]["measured"]]
        total: float = sum(scenarios[sid]["score"] or 0.0 for sid in measured_ids)  # measured: never None
        dist = sum((samples[sid] for sid in measured_ids), np.zeros(BOOTSTRAP_RESAMPLES))
        categories[c] = CategoryEntry(
            score=_r(total), max=CATEGORY_MAX_POINTS, measured=len(measured_ids) == len(ids),
            measured_max=SCENARIO_MAX_POINTS * len(measured_ids),
            missing_scenarios=[sid for sid in ids if sid not in measured_ids],
            ci95=_ci(dist) if measured_ids and _seeds(by_id, measured_ids) >= CI_MIN_SEEDS else None,
            ci95_note=_ci_note(_seeds(by_id, measured_ids) if measured_ids else 0),
        )
    pillars: dict[str, PillarEntry] = {}
    for p, cats in PILLARS.items():
        total = sum(categories[c]["score"] for c in cats)
        raw_max = CATEGORY_MAX_POINTS * len(cats)
        scale = PILLAR_RESCALED_MAX[p]
        pillars[p] = PillarEntry(
            sum=_r(total), max=raw_max, rescaled=_r(total * scale / raw_max), rescaled_max=scale,
            rescaled_note=f"sum x {scale:g}/{raw_max:g} (spec pillar scale)",
            measured=all(categories[c]["measured"] for c in cats),
        )

    wm_score = _r(sum(categories[c]["score"] for c in CATEGORIES))
    missing = [c for c in CATEGORIES if not categories[c]["measured"]]
    all_samples = sum(samples.values(), np.zeros(BOOTSTRAP_RESAMPLES))
    measured_count = sum(e["measured"] for e in scenarios.values())
    seed_counts = [len([s for s in by_id[sid] if s.measured]) for sid in samples]
    result = Scores(
        wm_score=wm_score,
        wm_score_max=WM_SCORE_MAX,
        wm_score_measured_max=SCENARIO_MAX_POINTS * measured_count,
        complete=not missing,
        missing_categories=missing,
        wm_score_note=("all ten categories measured" if not missing else
                       f"incomplete: categories {', '.join(missing)} not (fully) measured; the WM Score "
                       f"is the sum of the measured part ({measured_count} of 50 scenarios)"),
        grade=grade_for(wm_score),
        grade_provisional=bool(missing),
        pillars=pillars,
        categories=categories,
        scenarios=scenarios,
        ci=CiBlock(wm_score=_ci(all_samples) if samples and max(seed_counts) >= CI_MIN_SEEDS else None,
                   note=_wm_score_ci_note(by_id, list(samples)),
                   n_seeds=max(seed_counts, default=0),
                   n_seeds_min=min(seed_counts, default=0), method=CI_METHOD),
        hidden_inconsistency_rate=_hidden_inconsistency([s for seeds in by_id.values() for s in seeds]),
        failure_labels=count_labels(by_id),
    )
    if extra:
        result["extra_scenarios"] = extra
    if problems:
        result["problems"] = problems
    return result
