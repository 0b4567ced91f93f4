"""The validity panel: adversarial and diagnostic brains that check what each category measures.

Card
----
Every brain here is deterministic (seeded by ``reset(seed)`` where it draws at all) and needs no model. Each
one lacks exactly one capability, so a category that scores it well is blind to that capability:

- ``constant:<predict>/<motion>`` — the same reply every decision (:data:`CONSTANT_PREDICTIONS` x
  :data:`CONSTANT_MOTIONS`, 65 replies): no perception, no decision.
- ``left-first`` / ``right-first`` — a sensible memoryless brain: the reference's rules on a scene with its
  memory removed (no ``recent_decisions``, no ``last_prediction``) and no state carried between decisions.
  The reference breaks ties left before right; ``right-first`` is the same brain run on the mirrored scene
  with its reply mirrored back, i.e. it breaks ties right before left. With exact mirror counterbalancing
  the two must score alike on every category. ``memoryless`` is ``left-first``.
- ``mirror-swapped`` — the reference's reply with left and right swapped (it perceives and acts mirrored).
- ``perceive-only`` — the reference's PREDICT (right), but it moves towards the danger it predicts.
- ``act-only`` — a random PREDICT, but the reference's MOTION (flees correctly).
- ``stuffer-still`` / ``stuffer-back`` — a fixed PREDICT and a MOTION stuffed with every emotion and
  expression word, standing still / stepping back.
- ``trailing-remark`` — the reference's reply followed by a chatty remark that mentions moving away.
- ``official-field`` — the reference reading only the official scene fields (no ``walls.back``): what a brain
  written for the official benchmark loses to wmbench's extension fields.
- ``prompt-only`` / ``prompt-only-memoryless`` — the independent brain written from the prompt and the cards
  alone (:mod:`wmbench.brain.panel.prompt_only`), the stand-in for a real model; the second without memory.
- ``oracle-random``, ``distance-only``, ``all-beast``, ``prompt-words``, ``runs-at-danger`` — the cheats
  (:mod:`wmbench.brain.panel.cheats`): prompt-only with one part replaced.
- ``memoriser`` — the seed-0 memoriser cheat (:mod:`wmbench.brain.panel.memoriser`): the reference's replies on
  the spec's published instances, the nearest remembered scene's reply elsewhere.
- ``null``, ``random``, ``reference`` — the existing baselines (:mod:`wmbench.brain.baselines`).

``get_panel_brain(name)`` builds any of them; ``--brain panel:<name>`` names them on the command line.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wmbench.brain.baselines import RANDOM_VERDICTS, NullBrain, RandomBrain
from wmbench.brain.panel.cheats import (
    AllBeastBrain,
    DistanceOnlyBrain,
    OracleRandomBrain,
    PromptWordsBrain,
    RunsAtDangerBrain,
)
from wmbench.brain.panel.memoriser import MemoriserBrain
from wmbench.brain.panel.prompt_only import PromptOnlyBrain
from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome, SeededRandom
from wmbench.brain.reference.brain import ReferenceBrain
from wmbench.core.directions import DIRECTIONS, GRAMMAR_ORDER, GRAMMAR_TO_SCENE, OPPOSITE, TRAVEL_PHRASES
from wmbench.protocol.grammar import format_prediction
from wmbench.protocol.observation import BrainInput, as_brain_input
from wmbench.scenarios.families import swap_side_words

_SAFE = ("safe", "open")
#: PREDICT patterns of the constant sweep: name -> verdict per direction.
CONSTANT_PREDICTIONS: dict[str, dict[str, tuple[str, str]]] = {
    "all-safe": dict.fromkeys(GRAMMAR_ORDER, _SAFE),
    "beast-ahead": {**dict.fromkeys(GRAMMAR_ORDER, _SAFE), "fwd": ("danger", "beast")},
    "wall-ahead": {**dict.fromkeys(GRAMMAR_ORDER, _SAFE), "fwd": ("danger", "wall")},
    "all-beast": dict.fromkeys(GRAMMAR_ORDER, ("danger", "beast")),
    "beast-ahead-walled": {"fwd": ("danger", "beast"), "left": ("danger", "wall"), "right": ("danger", "wall"),
                           "back": _SAFE},
}
#: MOTION lines of the constant sweep: still, freeze, step back, walk / sprint each way, with and without
#: emotion words.
CONSTANT_MOTIONS: dict[str, str] = {
    "still": "a person stands still",
    "still-calm": "a person stands still, calm and relaxed",
    "freeze-fear": "a person freezes in place, terrified, holding breath, eyes wide",
    "step-back": "a person steps back",
    "step-back-wary": "a person cautiously steps back, hands raised defensively, wary",
    "walk-fwd": "a person walks forward",
    "walk-left": "a person walks to the left",
    "walk-right": "a person walks to the right",
    "walk-back-relief": "a person walks back slowly, relieved, breathing out, shoulders relaxing",
    "sprint-back-terror": "a person turns and sprints away in terror, arms flailing, glancing back",
    "sprint-left-terror": "a person sprints to the left in terror, arms flailing, glancing back",
    "sprint-right-terror": "a person sprints to the right in terror, arms flailing, glancing back",
    "sprint-fwd-panic": "a person sprints forward in blind panic, screaming",
}
#: Every emotion / expression word family in one line (the keyword stuffers' motion).
STUFFED_WORDS = ("in fear and terror, panicked, frantic, desperate, afraid, wary, cautious, alert, vigilant, "
                 "tense, nervous, defensive, guarded, hands raised, arms flailing, glancing back, eyes wide, "
                 "heart pounding, holding breath, calm, composed, relieved, relaxed, shoulders dropping, "
                 "watchful, head swivelling, crouched, hunched, trembling")
TRAILING_REMARK = ("\n\n*Note on the motion: the person keeps moving away from it, staying calm and "
                   "keeping their distance.*")
#: brains of the panel other than the constants (the quick panel runs all of them)
DIAGNOSTIC_BRAINS: tuple[str, ...] = (
    "reference", "null", "random", "left-first", "right-first", "mirror-swapped", "perceive-only", "act-only",
    "stuffer-still", "stuffer-back", "trailing-remark", "official-field", "prompt-only", "prompt-only-memoryless",
    "oracle-random", "distance-only", "all-beast", "prompt-words", "runs-at-danger",
)
#: the constant replies of the quick panel: the strongest shapes of the full sweep (a wary step back, a
#: freeze, a flight each way, standing still) under the PREDICT that matches most scenes, and the calm null
QUICK_CONSTANTS: tuple[str, ...] = (
    *(f"constant:beast-ahead/{m}" for m in ("still", "freeze-fear", "step-back-wary", "walk-left", "walk-right",
                                            "sprint-back-terror", "sprint-left-terror", "walk-back-relief")),
    "constant:all-safe/step-back-wary", "constant:all-safe/walk-right",
    # the strongest constants of the full sweep (0.1 and 0.2 rules), kept so the quick panel still tries them
    "constant:all-beast/step-back-wary", "constant:wall-ahead/step-back-wary", "constant:wall-ahead/still",
    "constant:all-beast/step-back", "constant:all-safe/sprint-fwd-panic",  # strongest on C04 / C10 under 0.2
)


def all_constant_names() -> tuple[str, ...]:
    """Every ``constant:<predict>/<motion>`` of the full sweep (65)."""
    return tuple(f"constant:{p}/{m}" for p in CONSTANT_PREDICTIONS for m in CONSTANT_MOTIONS)


def panel_names(quick: bool) -> tuple[str, ...]:
    """The brains of the quick or full panel, diagnostics first."""
    return DIAGNOSTIC_BRAINS + (QUICK_CONSTANTS if quick else all_constant_names())


# ------------------------------------------------------------------------------------------------ brains
class ConstantBrain(ProviderBrain):
    """The same PREDICT and MOTION every decision, whatever the scene."""

    provider = "panel"

    def __init__(self, predict: str, motion: str) -> None:
        super().__init__()
        if predict not in CONSTANT_PREDICTIONS or motion not in CONSTANT_MOTIONS:
            raise ValueError(f"constant:{predict}/{motion}: expected a PREDICT from "
                             f"{sorted(CONSTANT_PREDICTIONS)} and a MOTION from {sorted(CONSTANT_MOTIONS)}")
        self.name = f"constant:{predict}/{motion}"
        self._text = f"{format_prediction(CONSTANT_PREDICTIONS[predict])}\nMOTION: {CONSTANT_MOTIONS[motion]}"

    @property
    def reply(self) -> str:
        """The reply it sends at every decision."""
        return self._text

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        return ProviderOutcome(text=self._text)


class MemorylessBrain(ProviderBrain):
    """The reference's rules with no memory: the scene's memory fields removed and a fresh reference for
    every decision. ``tie_break="right"`` runs it on the mirrored scene and mirrors the reply back."""

    provider = "panel"

    def __init__(self, tie_break: str = "left") -> None:
        super().__init__()
        if tie_break not in ("left", "right"):
            raise ValueError(f"tie_break must be 'left' or 'right', got {tie_break!r}")
        self.tie_break = tie_break
        self.name = f"{tie_break}-first"

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        bare = forget(scene)
        if self.tie_break == "left":
            return ProviderOutcome(text=ReferenceBrain().think(bare).text)
        return ProviderOutcome(text=swap_side_words(ReferenceBrain().think(mirror_scene(bare)).text))


class _ReferenceVariant(ProviderBrain):
    """A brain built on the reference's decision for each scene (the reference keeps its own state)."""

    provider = "panel"

    def __init__(self) -> None:
        super().__init__()
        self._reference = ReferenceBrain()

    def reset(self, seed: int | None = None) -> None:
        with self._lock:
            self._reference.reset(seed)

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        return ProviderOutcome(text=self.transform(self._reference.think(scene).text, scene))

    def transform(self, text: str, scene: BrainInput) -> str:
        raise NotImplementedError


class MirrorSwappedBrain(_ReferenceVariant):
    """The reference's reply with left and right swapped: perceives and acts mirrored."""

    name = "mirror-swapped"

    def transform(self, text: str, scene: BrainInput) -> str:
        return swap_side_words(text)


class PerceiveOnlyBrain(_ReferenceVariant):
    """The reference's PREDICT, then it runs towards the danger it predicted (a beast first, then a human,
    then a wall; ahead when it predicts none)."""

    name = "perceive-only"

    def transform(self, text: str, scene: BrainInput) -> str:
        predict = text.split("\nMOTION:")[0]
        target = "fwd"
        for reason in ("beast", "human", "wall"):
            hit = next((d for d in GRAMMAR_ORDER if f"{d}=danger({reason})" in predict), None)
            if hit is not None:
                target = hit
                break
        words = TRAVEL_PHRASES[target]
        return f"{predict}\nMOTION: a person runs {words}, towards it"


class ActOnlyBrain(SeededRandom, _ReferenceVariant):
    """A random PREDICT (seeded) with the reference's MOTION: acts well, perceives nothing."""

    name = "act-only"

    def transform(self, text: str, scene: BrainInput) -> str:
        verdicts = {d: RANDOM_VERDICTS[int(self._rng.integers(len(RANDOM_VERDICTS)))] for d in GRAMMAR_ORDER}
        return f"{format_prediction(verdicts)}\nMOTION:{text.split(chr(10) + 'MOTION:', 1)[1]}"


class OfficialFieldBrain(_ReferenceVariant):
    """The reference reading only the official scene fields (a brain written for the official benchmark): the
    wmbench extension ``walls.back`` is removed from every scene. What is behind it, it knows only from its own
    last turn: when its previous decision travelled left or right (or turned around), the wall it saw on the
    side now behind it (:func:`wall_behind_after_turn`) is given to the reference as ``walls.back`` — what the
    official fields plus ``recent_decisions`` tell any brain. Losing points here means a scenario depends on a
    field such a brain never had (issue 12: S12/S13 keep their back wall to the wmbench variants, seeds 2 and
    up; turned instances may put a wall behind from the start).

    Simplified: the remembered wall keeps its old distance and is forgotten after one decision; a phase change
    is not noticed."""

    name = "official-field"

    def __init__(self) -> None:
        super().__init__()
        self._previous: tuple[dict[str, Any], str] | None = None  # (official walls, own reply) last decision

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        with self._lock:
            self._previous = None

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        official = official_fields(scene)
        behind = wall_behind_after_turn(self._previous, official.get("recent_decisions"))
        seen = official if behind is None else {**official, "walls": {**official["walls"], "back": behind}}
        text = self._reference.think(seen).text
        walls = official.get("walls")
        self._previous = (dict(walls) if isinstance(walls, dict) else {}, text)
        return ProviderOutcome(text=text)


class TrailingRemarkBrain(_ReferenceVariant):
    """The reference's reply followed by a chatty remark about moving away (the reply must still count)."""

    name = "trailing-remark"

    def transform(self, text: str, scene: BrainInput) -> str:
        return text + TRAILING_REMARK


class StufferBrain(ProviderBrain):
    """A fixed ``beast-ahead`` PREDICT and a MOTION stuffed with every emotion word; ``moving`` steps back."""

    provider = "panel"

    def __init__(self, moving: bool) -> None:
        super().__init__()
        self.name = "stuffer-back" if moving else "stuffer-still"
        action = "steps back" if moving else "stands still"
        self._text = (f"{format_prediction(CONSTANT_PREDICTIONS['beast-ahead'])}\n"
                      f"MOTION: a person {action} {STUFFED_WORDS}")

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        return ProviderOutcome(text=self._text)


# ------------------------------------------------------------------------------------------------ scenes
_MEMORY_KEYS = ("recent_decisions", "last_prediction")


def forget(scene: BrainInput) -> BrainInput:
    """A copy of ``scene`` without memory: no recent decisions, no last prediction."""
    bare = dict(scene)
    if "recent_decisions" in bare:
        bare["recent_decisions"] = []
    if "last_prediction" in bare:
        bare["last_prediction"] = None
    return as_brain_input(bare)


#: the wall sides of the official scene_context (``walls.back`` is a wmbench extension)
OFFICIAL_WALL_SIDES = ("left", "right", "front")


def official_fields(scene: BrainInput) -> BrainInput:
    """A copy of ``scene`` whose ``walls`` hold only the official sides (no ``walls.back``)."""
    walls = scene.get("walls")
    if not isinstance(walls, dict):
        return as_brain_input(dict(scene))
    return as_brain_input({**scene, "walls": {k: v for k, v in walls.items() if k in OFFICIAL_WALL_SIDES}})


#: the official side that ends up behind after a turn towards each scene direction (``back``: turned around)
_BEHIND_AFTER_TURN: dict[str, str] = {turn: GRAMMAR_TO_SCENE[OPPOSITE[turn]] for turn in DIRECTIONS if turn != "fwd"}


def wall_behind_after_turn(previous: tuple[dict[str, Any], str] | None, memory: Any) -> float | None:
    """The official wall reading that a brain's own last turn put behind it, else None.

    ``previous``: (the official ``walls`` it saw last decision, the reply it gave); ``memory``: the scene's
    ``recent_decisions``. A travel left / right / back turns the body to face it, so the wall that was on the
    right / left / front is now behind; a back-step (``steps back``, ``backs away``: facing kept) turns nothing.
    """
    if previous is None or not isinstance(memory, list) or not memory or not isinstance(memory[-1], dict):
        return None
    walls, reply = previous
    side = _BEHIND_AFTER_TURN.get(str(memory[-1].get("direction") or ""))
    if side is None or (side == "front" and re.search(r"steps? back|backs? away", reply)):
        return None
    value = walls.get(side)
    return float(value) if isinstance(value, (int, float)) else None


def mirror_scene(scene: BrainInput) -> BrainInput:
    """``scene`` reflected left <-> right: wall sides, NPC directions, sound and memory words swapped."""
    mirrored = copy.deepcopy(scene)

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return swap_side_words(value)
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        return value

    walls = mirrored.get("walls")
    if isinstance(walls, dict):
        walls["left"], walls["right"] = walls.get("right"), walls.get("left")
    for key in ("npc_direction", "sound", "recent_decisions", "last_prediction", "npcs"):
        if key in mirrored:
            mirrored[key] = swap(mirrored[key])
    return mirrored


# ------------------------------------------------------------------------------------------------ registry
@dataclass(frozen=True)
class PanelEntry:
    """A named panel brain: what it lacks, and how to build it."""

    name: str
    lacks: str
    build: Callable[[], ProviderBrain]


PANEL: dict[str, PanelEntry] = {e.name: e for e in (
    PanelEntry("reference", "nothing (the scripted world model)", ReferenceBrain),
    PanelEntry("null", "everything: one calm standing reply", NullBrain),
    PanelEntry("random", "everything: seeded random well-formed replies", RandomBrain),
    PanelEntry("left-first", "memory (ties broken left)", lambda: MemorylessBrain("left")),
    PanelEntry("right-first", "memory (ties broken right)", lambda: MemorylessBrain("right")),
    PanelEntry("memoryless", "memory (= left-first)", lambda: MemorylessBrain("left")),
    PanelEntry("mirror-swapped", "left/right (perceives and acts mirrored)", MirrorSwappedBrain),
    PanelEntry("perceive-only", "acting on what it perceives (moves towards danger)", PerceiveOnlyBrain),
    PanelEntry("act-only", "perception (random PREDICT, reference MOTION)", ActOnlyBrain),
    PanelEntry("stuffer-still", "perception and action (keyword-stuffed standing reply)",
               lambda: StufferBrain(moving=False)),
    PanelEntry("stuffer-back", "perception and action (keyword-stuffed step back)", lambda: StufferBrain(moving=True)),
    PanelEntry("trailing-remark", "nothing (reference + a chatty trailing remark)", TrailingRemarkBrain),
    PanelEntry("official-field", "the wmbench extension fields (reference without walls.back)", OfficialFieldBrain),
    PanelEntry("prompt-only", "nothing the prompt asks for (independent brain written from the prompt alone)",
               PromptOnlyBrain),
    PanelEntry("prompt-only-memoryless", "memory (prompt-only without recent_decisions / last_prediction)",
               lambda: PromptOnlyBrain(memory=False)),
    PanelEntry("oracle-random", "choosing (rule-perfect PREDICT, a random safe direction at one pace)",
               OracleRandomBrain),
    PanelEntry("distance-only", "reading behaviour (prompt-only with intensity from distance alone)",
               DistanceOnlyBrain),
    PanelEntry("all-beast", "telling beast from person (prompt-only calling every creature a beast)", AllBeastBrain),
    PanelEntry("prompt-words", "nothing (prompt-only's decisions in the prompt's own words)", PromptWordsBrain),
    PanelEntry("runs-at-danger", "acting on what it perceives (prompt-only's words, running at the creature)",
               RunsAtDangerBrain),
    PanelEntry("memoriser", "generalisation (seed-0 reference replies, nearest remembered scene)", MemoriserBrain),
)}


def get_panel_brain(name: str) -> ProviderBrain:
    """Build the panel brain ``name`` (a :data:`PANEL` name or ``constant:<predict>/<motion>``)."""
    if name.startswith("constant:"):
        predict, _, motion = name[len("constant:"):].partition("/")
        return ConstantBrain(predict, motion)
    try:
        return PANEL[name].build()
    except KeyError:
        raise ValueError(f"unknown panel brain {name!r}; expected one of {', '.join(PANEL)} or "
                         f"constant:<predict>/<motion>") from None


def lacks(name: str) -> str:
    """What the panel brain ``name`` lacks, in words."""
    return "perception and decision (a constant reply)" if name.startswith("constant:") else PANEL[name].lacks


def make_panel_brain(name: str) -> ProviderBrain:
    """Registry entry (``--brain panel:<name>``)."""
    return get_panel_brain(name)
