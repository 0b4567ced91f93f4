"""How big a sweep is before it starts: episodes, decisions, and for API brains a time and token estimate.

Card
----
- :func:`estimate_sweep` counts the bench episodes (cells × bench scenarios × instances) and their expected
  decisions (:func:`~wmbench.harness.executors.base.expected_decisions`: full-length episodes, so an upper
  bound), and for API brains (``openai/...``) estimates the wall time at the sweep's ``latency_s`` per
  decision and ``max_connections`` in flight — the larger of the longest episode and decisions ÷ connections,
  per cell, cells one after another — and the tokens at :data:`PROMPT_TOKENS` + :data:`COMPLETION_TOKENS` per
  decision (typical of the default prompt and a two-line reply; a rough guide, not a bill).
- :data:`MAX_EPISODES_WITHOUT_YES`: a sweep (or a run) larger than this is refused unless ``--yes`` is given.
  100,000 episodes of a typo should cost a prompt, not a day.
"""

from __future__ import annotations

from dataclasses import dataclass

from wmbench.harness.executors.base import expected_decisions
from wmbench.harness.executors.local import REMOTE_PREFIXES
from wmbench.harness.run.selection import plan_suite
from wmbench.harness.sweep.model import SweepSpec

#: Larger sweeps need ``--yes`` (documented in docs/sweeps.md).
MAX_EPISODES_WITHOUT_YES = 5_000
#: Rough tokens per API decision: the default system prompt plus one scene_context, and the two-line reply.
PROMPT_TOKENS = 900
COMPLETION_TOKENS = 60


@dataclass(frozen=True)
class SweepEstimate:
    """The size of a sweep (see the module card); the API fields are 0 without API brains."""

    cells: int
    episodes: int
    decisions: int
    api_decisions: int
    api_seconds: float
    api_tokens: int

    @property
    def needs_yes(self) -> bool:
        return self.episodes > MAX_EPISODES_WITHOUT_YES

    def describe(self) -> str:
        text = (f"{self.cells} cell(s), {self.episodes:,} episode(s), about {self.decisions:,} decisions "
                f"(bench scenarios; C09/C10 measured apart)")
        if self.api_decisions:
            text += (f"; API brains: {self.api_decisions:,} requests, about {_duration(self.api_seconds)} "
                     f"and {self.api_tokens:,} tokens")
        return text


def estimate_sweep(spec: SweepSpec) -> SweepEstimate:
    """The :class:`SweepEstimate` of ``spec`` (an unknown selection raises ``ValueError``)."""
    plan = plan_suite(spec.scenarios, spec.seed_arg())
    per_episode = [expected_decisions(e) for e in plan.episodes]
    decisions_per_cell = sum(per_episode)
    longest = max(per_episode, default=0)
    cells = spec.cells()
    api_cells = sum(1 for c in cells if c.brain.spec.startswith(REMOTE_PREFIXES))
    per_cell_s = max(longest, decisions_per_cell / max(1, spec.max_connections)) * spec.latency_s
    return SweepEstimate(
        cells=len(cells), episodes=len(cells) * len(per_episode), decisions=len(cells) * decisions_per_cell,
        api_decisions=api_cells * decisions_per_cell, api_seconds=api_cells * per_cell_s,
        api_tokens=api_cells * decisions_per_cell * (PROMPT_TOKENS + COMPLETION_TOKENS),
    )


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
