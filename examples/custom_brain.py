"""Put your own decision maker in the loop: any object with ``name``, ``reset``, ``decide`` and ``close``.

    .venv/bin/python examples/custom_brain.py

``decide`` gets the scene_context dict (see ``wmbench/protocol/scene.py``) and returns a ``BrainReply``
whose text is the two lines. To make it available as ``wmbench run --brain my-brain``, expose a factory under
the ``wmbench.brains`` entry-point group of your package (``tests/plugins/wmbench_demo_plugin`` is a complete
example); to serve a remote model, point ``--brain openai/<model>`` at any OpenAI-compatible endpoint.
"""

from __future__ import annotations

import time

from wmbench.brain.base import BrainReply
from wmbench.harness.run.episode import run_episode
from wmbench.protocol.grammar import format_reply
from wmbench.protocol.observation import BrainInput
from wmbench.protocol.trace import Trace
from wmbench.scoring import score_trace

OPPOSITE = {"front": "back", "back": "front", "left": "right", "right": "left"}
GRAMMAR = {"front": "fwd", "back": "back", "left": "left", "right": "right"}
WORDS = {"front": "forward", "back": "backward", "left": "to the left", "right": "to the right"}


class WallsOnlyBrain:
    """Reads the walls correctly, flees straight away from any NPC, and ignores everything else.

    A deliberately simple baseline: it has no memory, no intensity scaling and no idea of what a beast is,
    which the scorers notice.
    """

    name = "walls-only"

    def reset(self, seed: int | None = None) -> None:
        pass

    def decide(self, scene: BrainInput) -> BrainReply:
        start = time.perf_counter()
        walls = scene["walls"]
        verdicts = {GRAMMAR[d]: ("danger", "wall") if walls.get(d) is not None else ("safe", "open")
                    for d in ("front", "back", "left", "right")}
        away: str | None = OPPOSITE.get(scene.get("npc_direction") or "", "front")
        if away is not None and walls.get(away) is not None:  # never into a wall: take the first open side
            away = next((d for d in ("left", "right", "back", "front") if walls.get(d) is None), None)
        motion = (f"a person runs {WORDS[away]}, quickly and nervously" if away else
                  "a person stands still, tense and watchful")
        text = format_reply(verdicts, motion)
        return BrainReply(text=text, latency_s=time.perf_counter() - start, provider="example")

    def close(self) -> None:
        pass


def main() -> None:
    brain = WallsOnlyBrain()
    for scenario in ("S01", "S03", "S12", "S16"):
        result = run_episode(scenario, brain, body="smpl", seed=0)
        if result.trace is None:  # the episode failed before it recorded anything
            raise SystemExit(f"{scenario}: {result.error}")
        print(f"{scenario}: {score_trace(Trace.from_dict(result.trace)).score:4.1f} / 20")


if __name__ == "__main__":
    main()
