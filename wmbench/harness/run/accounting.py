"""What a run's brain cost and how it behaved, summed from the episode lines into ``scores.json["run"]``.

Card
----
:func:`brain_usage` adds up, over every decision of every episode line: ``decisions``, ``prompt_tokens`` and
``completion_tokens`` (None when the brain reported no token counts at all), ``cache_hits`` (replies replayed
from the response cache), ``retries`` (HTTP attempts beyond the first) and ``failed_decisions`` (provider
errors). The CLI summary, ``report.md``/``report.html`` and the leaderboard entry show the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from wmbench.harness.run.results import EpisodeLine
from wmbench.protocol.trace import BrainRecord
from wmbench.scoring.scores_file import BrainUsage, RunBlock


def brain_usage(lines: Iterable[EpisodeLine]) -> BrainUsage:
    """Token, cache, retry and failure totals of the decisions in ``lines`` (see module card)."""
    decisions = cache_hits = retries = failed = 0
    prompt: int | None = None
    completion: int | None = None
    for line in lines:
        trace = line.get("trace")
        for decision in trace.get("decisions", ()) if trace else ():
            brain = decision.get("brain") or BrainRecord()
            decisions += 1
            cache_hits += bool(brain.get("cached"))
            retries += int(brain.get("retries") or 0)
            failed += bool(brain.get("error"))
            prompt_tokens, completion_tokens = brain.get("prompt_tokens"), brain.get("completion_tokens")
            if prompt_tokens is not None:
                prompt = (prompt or 0) + int(prompt_tokens)
            if completion_tokens is not None:
                completion = (completion or 0) + int(completion_tokens)
    return {"decisions": decisions, "prompt_tokens": prompt, "completion_tokens": completion,
            "cache_hits": cache_hits, "retries": retries, "failed_decisions": failed}


def sum_usage(usages: Iterable[BrainUsage]) -> BrainUsage:
    """The totals of several :func:`brain_usage` dicts (token counts stay None if none was reported)."""
    total = BrainUsage(decisions=0, prompt_tokens=None, completion_tokens=None, cache_hits=0, retries=0,
                       failed_decisions=0)
    for usage in usages:
        total["decisions"] += usage["decisions"]
        total["cache_hits"] += usage["cache_hits"]
        total["retries"] += usage["retries"]
        total["failed_decisions"] += usage["failed_decisions"]
        for name in ("prompt_tokens", "completion_tokens"):
            value = usage[name]
            if value is not None:
                total[name] = (total[name] or 0) + value
    return total


def format_usage(run: RunBlock | Mapping[str, Any]) -> str:
    """One line for the CLI summary and the report, e.g. ``tokens 1200 in / 300 out · 4 cache hits ...``."""
    usage = run.get("brain_usage") or {}
    if not usage:
        return ""
    tokens = ("tokens not reported" if usage.get("prompt_tokens") is None and usage.get("completion_tokens")
              is None else f"tokens {usage.get('prompt_tokens') or 0} in / {usage.get('completion_tokens') or 0}"
              " out")
    return (f"{usage.get('decisions', 0)} decisions · {tokens} · {usage.get('cache_hits', 0)} cache hits · "
            f"{usage.get('retries', 0)} retries · {usage.get('failed_decisions', 0)} failed")
