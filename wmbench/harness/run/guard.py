"""When a run must stop early: a brain that cannot go on, or replies that cannot be read.

Card
----
:class:`RunGuard` looks at each finished episode (in the order they finish) and returns a one-line reason to
stop the run, or None:

- **fatal brain** — a decision whose brain reply says ``fatal`` (bad key, unreachable endpoint, a model that
  does not exist, too many failures in a row inside the provider): the reason is that reply's error, i.e.
  what the endpoint answered;
- **consecutive failures** — ``max_consecutive_failures`` failed decisions in a row across episodes (default
  10), for brains (plugins) that have no breaker of their own;
- **unreadable replies** — once at least ``min_replies`` replies arrived (default 20), if
  ``max_unparseable_fraction`` (default 0.5) or more of them did not parse as PREDICT/MOTION; the reason
  quotes the first unreadable reply so the user sees what the model actually said.

Failed decisions (provider errors) are not replies and do not count toward the unreadable share. The
runner (:mod:`wmbench.harness.suite`) raises :class:`RunStopped` with the reason; the CLI prints it as one
line and exits non-zero, and ``scores.json`` is marked incomplete (:func:`mark_stopped`). An episode during
which the brain went fatal is :meth:`RunGuard.void`: it is not written to ``episodes.jsonl``, so a rerun
with a working endpoint plays it again instead of keeping its zeros.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from wmbench.core.errors import RunError
from wmbench.harness.run.episode import EpisodeResult

QUOTE_CHARS = 120


class RunStopped(RunError):
    """The run stopped early for ``reason``; ``scores`` is what was written for the finished episodes."""

    def __init__(self, reason: str, scores: Mapping[str, Any] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.scores = dict(scores or {})


@dataclass
class RunGuard:
    """Watches finished episodes and says when the run should stop (see module card)."""

    max_consecutive_failures: int = 10
    min_replies: int = 20
    max_unparseable_fraction: float = 0.5
    replies: int = 0
    unparseable: int = 0
    consecutive_failures: int = 0
    first_unreadable: str | None = field(default=None)

    @staticmethod
    def void(result: EpisodeResult) -> bool:
        """True when the brain went fatal during ``result``: not a result of the model, so it is not kept
        (a rerun, once the endpoint is fixed, plays the episode again)."""
        return any((d.get("brain") or {}).get("fatal") for d in (result.trace or {}).get("decisions", ()))

    def check(self, result: EpisodeResult) -> str | None:
        """The reason to stop after ``result``, or None to go on."""
        for decision in (result.trace or {}).get("decisions", ()):
            brain = decision.get("brain") or {}
            error = brain.get("error")
            if brain.get("fatal"):
                return f"the brain cannot go on: {error}"
            if error:
                self.consecutive_failures += 1
                if self.consecutive_failures >= self.max_consecutive_failures:
                    return f"{self.consecutive_failures} brain decisions in a row failed; the last: {error}"
                continue
            self.consecutive_failures = 0
            self.replies += 1
            if not (decision.get("parse") or {}).get("ok", False):
                self.unparseable += 1
                if self.first_unreadable is None:
                    self.first_unreadable = str(decision.get("reply", ""))
        if self.replies >= self.min_replies and self.unparseable >= self.max_unparseable_fraction * self.replies:
            quote = (self.first_unreadable or "")[:QUOTE_CHARS]
            return (f"{self.unparseable} of {self.replies} replies could not be read as PREDICT/MOTION lines "
                    f"(limit {self.max_unparseable_fraction:.0%}); the first was {quote!r}")
        return None


def mark_stopped(scores: MutableMapping[str, Any], reason: str) -> None:
    """Mark a scores dict as an incomplete run that stopped early for ``reason``."""
    scores["complete"] = False
    scores.setdefault("run", {})["stopped"] = reason
    note = f"run stopped early: {reason}"
    scores["wm_score_note"] = f"{note}. {scores['wm_score_note']}" if scores.get("wm_score_note") else note
