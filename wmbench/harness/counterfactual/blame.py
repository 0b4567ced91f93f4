"""``blame``: for every episode that lost points, the earliest decision whose replacement recovers them.

Card
----
- For each lost episode (score below the scenario maximum) of a run, the **alternative** at decision ``k`` is what
  the reference brain answers there, shown the same scenes the run's brain was shown up to ``k`` (one replay of
  the recorded episode with the reference brain watching). The episode is forked at ``k`` with that answer
  (:func:`~wmbench.harness.counterfactual.fork.fork_episode`) and the run's own brain plays on.
- A decision **recovers** points when its branch earns at least :data:`MIN_GAIN` more than the original (one
  decision of a rule scored per decision can win back only its share). The episode's blame is the earliest such
  decision; every tried decision is kept with its gain, so a run's **costliest decisions** are the ones whose
  replacement gains most.
- Simplified: each branch is scored on its own trace (:func:`~wmbench.scoring.score_trace`); a paired rule's
  partner (S16/S17, S29/S30) is not re-run, so those scenarios' single-trace scores are used. The reference brain
  is one competent answer, not the definition of right: a decision it would have made differently is a lead,
  and the gain says whether it mattered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from wmbench.brain.base import Brain
from wmbench.brain.registry import get_brain
from wmbench.brain.seeding import brain_seed
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.counterfactual.fork import EpisodeSetup, fork_episode, recorded_replies
from wmbench.harness.run.episode import decide_safely
from wmbench.protocol.observation import brain_input
from wmbench.protocol.trace import Trace, TraceDict
from wmbench.scoring import score_trace

#: A replacement recovers points when its branch earns at least this many more than the original.
MIN_GAIN = 1.0


@dataclass(frozen=True)
class TriedDecision:
    """One decision of a lost episode, replaced by the alternative answer, and what the branch scored."""

    scenario: str
    seed: int
    at: int
    original_points: float
    branch_points: float
    original_reply: str
    alternative_reply: str

    @property
    def gain(self) -> float:
        return self.branch_points - self.original_points


@dataclass(frozen=True)
class EpisodeBlame:
    """A lost episode: its points, the earliest recovering decision (None: no single decision recovers them)."""

    scenario: str
    seed: int
    points: float
    earliest: TriedDecision | None
    tried: tuple[TriedDecision, ...]


def alternative_answers(setup: EpisodeSetup, trace: TraceDict, alternative: Brain) -> list[str]:
    """What ``alternative`` answers at each decision of the recorded episode, shown the same scenes."""
    replies = recorded_replies(trace)
    env = WMBenchEnv(setup.scenario, body=setup.body, **dict(setup.env_kwargs or {}))
    answers: list[str] = []
    try:
        obs, _ = env.reset(seed=setup.seed)
        alternative.reset(brain_seed(setup.seed))
        for reply in replies:
            answer = decide_safely(alternative, brain_input(obs))
            answers.append(answer.text if answer.error is None else "")
            obs, _reward, terminated, truncated, _info = env.step(reply)
            if terminated or truncated:
                break
    finally:
        env.close()
    return answers


def blame_episode(setup: EpisodeSetup, trace: TraceDict, onward: Callable[[], Brain],
                  alternative: Callable[[], Brain], max_decisions: int | None = None) -> EpisodeBlame:
    """Try every decision (up to ``max_decisions``) of one lost episode; see the module card."""
    points = float(score_trace(Trace.from_dict(trace)).score)
    answers = alternative_answers(setup, trace, alternative())
    replies = recorded_replies(trace)
    tried: list[TriedDecision] = []
    earliest = None
    for at, answer in enumerate(answers[:max_decisions]):
        if answer == replies[at]:
            continue  # the same reply: the branch is the original
        fork = fork_episode(setup, trace, at, answer, onward())
        decision = TriedDecision(setup.scenario, setup.seed, at, points, float(fork.branch_score.score),
                                 replies[at], answer)
        tried.append(decision)
        if earliest is None and decision.gain >= MIN_GAIN:
            earliest = decision
    return EpisodeBlame(setup.scenario, setup.seed, points, earliest, tuple(tried))


def costliest(blames: Iterable[EpisodeBlame], top: int = 5) -> list[TriedDecision]:
    """The ``top`` decisions whose replacement gains most, over every blamed episode (ties: scenario, seed, at)."""
    every = [d for blame in blames for d in blame.tried if d.gain > 0]
    return sorted(every, key=lambda d: (-d.gain, d.scenario, d.seed, d.at))[:top]


def brain_factory(spec: str, options: dict[str, object] | None = None) -> Callable[[], Brain]:
    """A fresh brain per branch (brains keep state across decisions)."""
    return lambda: get_brain(spec, **dict(options or {}))


def format_blame(blames: Sequence[EpisodeBlame], top: Sequence[TriedDecision]) -> str:
    """The table ``wmbench blame`` prints."""
    rows = ["episode      points  earliest recovering decision",
            "-----------  ------  -----------------------------------------------"]
    for b in blames:
        where = (f"decision {b.earliest.at}: {b.earliest.original_points:.1f} -> {b.earliest.branch_points:.1f}"
                 if b.earliest else f"none of {len(b.tried)} tried recovers the points")
        rows.append(f"{b.scenario} s{b.seed:<6}  {b.points:6.1f}  {where}")
    rows += ["", f"top {len(top)} costly decisions (gain when replaced by the alternative answer):"]
    for d in top:
        rows.append(f"  {d.scenario} seed {d.seed} decision {d.at}: +{d.gain:.1f} points")
        rows.append(f"    said:        {_one_line(d.original_reply)}")
        rows.append(f"    alternative: {_one_line(d.alternative_reply)}")
    return "\n".join(rows)


def _one_line(text: str, limit: int = 150) -> str:
    flat = " | ".join(part.strip() for part in text.splitlines() if part.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
