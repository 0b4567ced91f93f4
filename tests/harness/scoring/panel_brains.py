"""Scorer-validity panel: small brains that each lack one capability, for measuring what the scores reward.

Test/bench helpers only (the package's official validity panel is a separate module). Each brain answers one
question "what does a brain earn WITHOUT capability X?":

- ``const_backstep_beast`` — ``fwd=danger(beast)`` + "cautiously steps back, hands raised defensively, wary";
- ``const_step_back`` / ``const_still`` / ``const_sprint_left`` / ``const_sprint_right`` — one motion always;
- ``memoryless`` — the reference brain, rebuilt for every decision and shown no ``recent_decisions`` /
  ``last_prediction``: right perception and reaction, no memory;
- ``perceive_only`` — the reference's PREDICT, but the MOTION runs toward the danger it named;
- ``act_only`` — a random PREDICT, the reference's MOTION;
- ``trailing_note`` / ``trailing_explain`` — the reference's reply followed by a trailing remark that mentions
  the motion (the second one names the wrong direction).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wmbench.brain.base import BrainReply
from wmbench.brain.baselines import RANDOM_VERDICTS
from wmbench.brain.grammar import GRAMMAR_DIRECTIONS, format_prediction, parse_reply
from wmbench.brain.reference import ReferenceBrain

ALL_SAFE = "PREDICT: left=safe(open), right=safe(open), fwd=safe(open), back=safe(open)"
CONSTANT_REPLIES: dict[str, str] = {
    "const_backstep_beast": "PREDICT: fwd=danger(beast)\n"
                            "MOTION: a person cautiously steps back, hands raised defensively, wary",
    "const_step_back": f"{ALL_SAFE}\nMOTION: a person steps back cautiously",
    "const_still": "PREDICT: fwd=danger(beast)\nMOTION: a person stands still, frozen in fear",
    "const_sprint_left": "PREDICT: fwd=danger(beast)\nMOTION: a person sprints to the left in terror",
    "const_sprint_right": "PREDICT: fwd=danger(beast)\nMOTION: a person sprints to the right in terror",
}
MOTION_TOWARD: dict[str, str] = {"fwd": "forward", "left": "to the left", "right": "to the right",
                                 "back": "backward"}
TRAILING_REMARKS: dict[str, str] = {
    "trailing_note": "\n\n*Note on the motion: the person keeps an eye on the danger while moving away from it.*",
    "trailing_explain": "\n\nExplanation of the motion: running forward toward the beast would be fatal, so "
                        "the person moves away.",
}
PANEL: tuple[str, ...] = (*CONSTANT_REPLIES, "memoryless", "perceive_only", "act_only", *TRAILING_REMARKS)


class ConstantBrain:
    """The same reply every decision, whatever the scene."""

    def __init__(self, name: str, text: str) -> None:
        self.name, self.text = name, text

    def reset(self, seed: int | None = None) -> None:
        return None

    def decide(self, scene: dict[str, Any]) -> BrainReply:
        return BrainReply(text=self.text, latency_s=0.0, provider=self.name)

    def close(self) -> None:
        return None


class _ReferenceVariant:
    """Base: asks the reference brain, then rewrites its reply (``rewrite``)."""

    name = "variant"

    def __init__(self, seed: int | None = 0) -> None:
        self._reference = ReferenceBrain()
        self._rng = np.random.default_rng(seed)
        self._seed = seed

    def reset(self, seed: int | None = None) -> None:
        self._reference.reset(seed)
        self._rng = np.random.default_rng(self._seed if seed is None else seed)

    def decide(self, scene: dict[str, Any]) -> BrainReply:
        reply = self._reference.decide(scene)
        return BrainReply(text=self.rewrite(reply.text), latency_s=reply.latency_s, provider=self.name)

    def rewrite(self, text: str) -> str:
        return text

    def close(self) -> None:
        self._reference.close()


class MemorylessBrain(_ReferenceVariant):
    """The reference brain without memory: a fresh brain per decision that never sees the history."""

    name = "memoryless"

    def decide(self, scene: dict[str, Any]) -> BrainReply:
        self._reference = ReferenceBrain()
        blind = {k: v for k, v in scene.items() if k not in ("recent_decisions", "last_prediction")}
        blind["recent_decisions"] = []
        return super().decide(blind)


class PerceiveOnlyBrain(_ReferenceVariant):
    """Right PREDICT, then a MOTION that runs toward the worst danger it predicted (beast, else wall)."""

    name = "perceive_only"

    def rewrite(self, text: str) -> str:
        parsed = parse_reply(text)
        if parsed.prediction is None:
            return text
        items = parsed.prediction.items
        target = next((i.direction for i in items if i.verdict == "danger" and i.reason == "beast"), None)
        target = target or next((i.direction for i in items if i.verdict == "danger"), "fwd")
        return f"{parsed.prediction.raw}\nMOTION: a person sprints {MOTION_TOWARD[target]} in terror"


class ActOnlyBrain(_ReferenceVariant):
    """A random PREDICT (seeded), the reference's MOTION unchanged."""

    name = "act_only"

    def rewrite(self, text: str) -> str:
        parsed = parse_reply(text)
        motion = parsed.motion or "a person stands still"
        picks = {d: RANDOM_VERDICTS[int(self._rng.integers(len(RANDOM_VERDICTS)))] for d in GRAMMAR_DIRECTIONS}
        return f"{format_prediction(picks)}\nMOTION: {motion}"


class TrailingRemarkBrain(_ReferenceVariant):
    """The reference's reply followed by a remark that mentions the motion."""

    def __init__(self, name: str, seed: int | None = 0) -> None:
        super().__init__(seed)
        self.name = name

    def rewrite(self, text: str) -> str:
        return text + TRAILING_REMARKS[self.name]


def make_panel_brain(name: str) -> Any:
    """A panel brain by name, else a registry brain (``reference``, ``null``, ``random``, ...)."""
    if name in CONSTANT_REPLIES:
        return ConstantBrain(name, CONSTANT_REPLIES[name])
    if name == "memoryless":
        return MemorylessBrain()
    if name == "perceive_only":
        return PerceiveOnlyBrain()
    if name == "act_only":
        return ActOnlyBrain()
    if name in TRAILING_REMARKS:
        return TrailingRemarkBrain(name)
    from wmbench.brain.registry import get_brain

    return get_brain(name)

