"""wmbench as an Inspect AI task (extra ``inspect``): ``inspect eval wmbench/suite -T scenarios=C01``.

Card
----
- **Registration.** wmbench declares this module in Inspect's ``inspect_ai`` entry-point group, so once
  ``wmbench[inspect]`` is installed Inspect finds the task as ``wmbench/suite``.
- **Samples.** One sample per bench episode of the selection (``scenarios``, ``seeds``; ``limit`` and the
  other Inspect options apply as usual); id ``S12-seed0``. Non-bench scenarios (C09 live, C10 transfer) are
  left out: they measure wmbench's own loop and bodies, not a model behind Inspect.
- **Closed loop.** The solver runs the real episode (PyBullet world, body, scorers' trace) in a worker
  thread; every decision asks *Inspect's* model (``get_model()``, so ``--model`` and Inspect's retries,
  limits and logs apply) with the same chat messages the ``openai/`` provider sends
  (:func:`wmbench.brain.providers.openai_chat.chat_messages`; ``history=N`` turns optional), and the reply drives
  the body. A model error is a failed decision (empty reply), as in ``wmbench run``.
- **Scoring.** wmbench's own scorers score the episode (:func:`wmbench.harness.run.scores.score_line`); the
  Inspect score is the scenario points (0–20) with the scorer's explanation, the category in metadata.
  Simplified: Inspect shows the mean points per episode; wmbench's category/pillar roll-up, the WM Score
  and grade need ``wmbench run`` (the episodes are the same).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import deque
from typing import Any

from wmbench.brain.base import BrainReply
from wmbench.brain.prompt import scene_to_json
from wmbench.brain.providers.openai_chat import SESSION_HEADER, ChatTurn, chat_messages
from wmbench.harness.run.episode import run_episode
from wmbench.harness.run.results import EpisodeLine, episode_line
from wmbench.harness.run.scores import score_line
from wmbench.harness.run.selection import parse_seed_list, plan_suite
from wmbench.protocol.observation import BrainInput

try:  # the extra: without it this module still imports, and task() says what to install
    from inspect_ai import Task, task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import (
        ChatMessageAssistant,
        ChatMessageSystem,
        ChatMessageUser,
        GenerateConfig,
        get_model,
    )
    from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
    from inspect_ai.solver import Generate, Solver, TaskState, solver
except ImportError:  # pragma: no cover - exercised only without the extra
    task = None  # type: ignore[assignment]  # None marks the missing extra (checked below and by task users)


def episode_samples(scenarios: str, seeds: int | str) -> list[Any]:
    """One Inspect sample per bench episode of the selection."""
    seed_list = parse_seed_list(seeds) if isinstance(seeds, str) else int(seeds)
    plan = plan_suite(scenarios, seed_list)
    return [Sample(input=f"wmbench episode {spec.scenario} seed {spec.seed}", id=f"{spec.scenario}-seed{spec.seed}",
                   metadata={"scenario": spec.scenario, "seed": spec.seed}) for spec in plan.episodes]


def _to_inspect(messages: list[dict[str, Any]]) -> list[Any]:
    kinds = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}
    return [kinds[m["role"]](content=m["content"]) for m in messages]


class InspectModelBrain:
    """A wmbench Brain whose decisions are asked of Inspect's model, from a worker thread."""

    provider = "inspect"

    def __init__(self, loop: asyncio.AbstractEventLoop, history: int = 0) -> None:
        self.model = get_model()
        self.name = f"inspect/{self.model.name}"
        self._loop = loop
        self.history = int(history)
        self._turns: deque[ChatTurn] = deque(maxlen=max(1, self.history))
        self._config = GenerateConfig()

    def reset(self, seed: int | None = None) -> None:
        """A new episode: no history, and a new opaque session token (``wmbench serve`` keeps a brain per
        session). Nothing names the scenario or the seed on the wire (the ``openai/`` provider's rule)."""
        self._turns.clear()
        self._config = GenerateConfig(extra_headers={SESSION_HEADER: uuid.uuid4().hex})

    def decide(self, scene: BrainInput) -> BrainReply:
        start = time.perf_counter()
        messages = chat_messages(scene, history=list(self._turns)[-self.history:] if self.history else ())
        future = asyncio.run_coroutine_threadsafe(self.model.generate(_to_inspect(messages), config=self._config),
                                                  self._loop)
        try:
            output = future.result()
        except Exception as exc:  # the user's model / network failed: a failed reply, never a crashed run
            return BrainReply(text="", latency_s=time.perf_counter() - start, provider=self.provider,
                              model=self.model.name, error=f"{type(exc).__name__}: {exc}")
        text = output.completion or ""
        usage = output.usage
        error = output.error or (None if text.strip() else "empty reply from the model")
        if self.history and error is None:
            self._turns.append(ChatTurn(scene_json=scene_to_json(scene), reply=text))
        return BrainReply(text="" if error else text, latency_s=time.perf_counter() - start,
                          provider=self.provider, model=self.model.name,
                          prompt_tokens=None if usage is None else usage.input_tokens,
                          completion_tokens=None if usage is None else usage.output_tokens, error=error)

    def close(self) -> None:
        pass


if task is not None:

    @solver
    def closed_loop(body: str = "smpl", history: int = 0) -> Solver:
        """Run the sample's episode, asking Inspect's model at every decision."""

        async def solve(state: TaskState, generate: Generate) -> TaskState:
            brain = InspectModelBrain(asyncio.get_running_loop(), history=history)
            meta = state.metadata
            result = await asyncio.to_thread(run_episode, meta["scenario"], brain, body, int(meta["seed"]),
                                             brain_label=brain.name)
            state.store.set("wmbench_episode", episode_line(result))
            decisions = result.trace["decisions"] if result.trace else []
            if result.n_decisions and result.failed_decisions == result.n_decisions:
                first = next(d["brain"].get("error") for d in decisions if d["brain"].get("error"))
                # never a silent zero: Inspect records the sample as an error with the model's answer
                raise RuntimeError(f"every decision of {meta['scenario']} seed {meta['seed']} failed; the "
                                   f"first: {str(first).splitlines()[0]}")
            replies = [d["reply"] for d in decisions]
            state.output.completion = replies[-1] if replies else ""
            state.completed = True
            return state

        return solve

    @scorer(metrics=[mean()])
    def wmbench_points() -> Scorer:
        """The episode's points (0-20) from wmbench's own scorers, with their explanation."""

        async def score(state: TaskState, target: Target) -> Score:
            line: EpisodeLine = state.store.get("wmbench_episode")
            result = score_line(line)
            summary = line["summary"]
            return Score(value=float(result.score), explanation=result.explanation,
                         metadata={"category": result.category, "scenario": result.scenario_id,
                                   "measured": result.measured, "decisions": summary.get("decisions"),
                                   "failed_decisions": summary.get("failed_decisions"),
                                   "parse_errors": summary.get("parse_errors")})

        return score

    @task
    def suite(scenarios: str = "all", seeds: int | str = 1, body: str = "smpl", history: int = 0) -> Task:
        """The wmbench bench episodes of ``scenarios`` x ``seeds``, closed loop, scored by wmbench."""
        return Task(dataset=MemoryDataset(episode_samples(scenarios, seeds), name="wmbench"),
                    solver=closed_loop(body=body, history=int(history)), scorer=wmbench_points())
