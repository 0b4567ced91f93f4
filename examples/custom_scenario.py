"""Write your own scenario with the same records as S01–S50, and run it through the same env and scorer.

    .venv/bin/python examples/custom_scenario.py

The scenario below is a C03-style "predictive reasoning" test: a beast charges from ahead while walls close
the left and the back, so the only way out is to the right. Registering it gives it an id like any built-in
scenario; scoring uses the rule of the category it names.
"""

from __future__ import annotations

from wmbench.brain.registry import get_brain
from wmbench.harness.run.episode import run_episode
from wmbench.protocol.trace import Trace
from wmbench.scenarios import Expectations, NpcSpec, Phase, Scenario, Wall, register
from wmbench.scoring import score_trace

CORNERED = Scenario(
    id="X01",
    category="C03",
    name="Cornered by a Charge",
    setup="A beast charges from 6 m ahead; walls on the left (1.5 m) and behind (1.5 m); the right is open.",
    phases=(
        Phase(
            name="charge into the corner",
            duration=2.0,
            walls=(Wall.facing("left", 1.5, length=10.0), Wall.facing("back", 1.5, length=8.0, offset=-2.0)),
            npcs=(NpcSpec("beast", "beast", (6.0, 0.0), "charge"),),
        ),
    ),
    expectations=Expectations(
        perception="fwd=danger(beast), left=danger(wall), back=danger(wall), right=safe(open)",
        correct_actions=("sprint right",),
        incorrect_actions=("walk forward", "sprint left", "stand still"),
        safe_directions=("right",),
    ),
    card="X01 · Cornered by a Charge (C03)\n\nOnly the right is open; escape right at full speed.",
)


def main() -> None:
    register(CORNERED, overwrite=True)
    for spec in ("reference", "null"):
        result = run_episode("X01", get_brain(spec), body="smpl", seed=0)
        if result.trace is None:  # the episode failed before it recorded anything
            raise SystemExit(f"X01 with {spec}: {result.error}")
        trace = Trace.from_dict(result.trace)
        score = score_trace(trace)
        moved = [d.realized.get("direction") for d in trace.decisions]
        print(f"{spec:>9}: {score.score:4.1f} / 20  realized directions {moved}  events {trace.event_kinds()}")


if __name__ == "__main__":
    main()
