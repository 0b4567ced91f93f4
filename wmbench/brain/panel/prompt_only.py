"""``prompt-only``: an independent brain written from the system prompt and the scenario cards alone.

Card
----
The project's stand-in for a real model that follows the prompt. It was written by reading
:data:`wmbench.brain.prompt.DEFAULT_SYSTEM_PROMPT` and the scenario cards (``wmbench show``), nothing in
``wmbench/scoring/`` and nothing of the reference brain, so the score it earns measures what the prompt asks
for and not the reference's habits. Its wording is its own (no phrase of the prompt's examples) and every
reply comes from a fixed template: same scene, same reply.

What it does, rule by rule as the prompt states them:

- **PREDICT.** A wall distance is ``danger(wall)``, null is ``safe(open)``. A beast's direction is
  ``danger(beast, <doing>, <metres>m)`` whatever the walls say; a beast only *heard* (``sound`` names an
  animal noise, none in sight) marks the sound's direction ``danger(beast, heard, out of sight)``. A person
  within 2 m is ``danger(human, <kind>, <doing>, <metres>m)``; farther away ``safe(human, ...)`` in an open
  direction (a wall there keeps ``danger(wall, ...)``). All creatures come from ``npcs`` (and the official
  ``npc_*`` fields when ``npcs`` is missing).
- **Direction.** Never a direction marked danger. Among the safe ones: away from the threat (the opposite
  side) first, then the sides at a right angle, never towards it; with no threat, onward (fwd) first. A
  direction that ``recent_decisions`` shows blocked or caught is avoided; one that shows ``escaped`` is
  preferred (the prompt: do not repeat what failed, prefer what worked). Remaining ties go right before left
  (an arbitrary fixed order; the families' mirrored instances balance it). Nothing safe: it freezes (the
  least bad option: it never walks into a wall or a creature).
- **Intensity follows the threat's behaviour now.** Charging beast: a flat-out flight in panic (more
  desperate when its last move was already a flight from it). Approaching beast: a quick, tense retreat (a
  run when it is within 3 m, or when memory shows a flight or an earlier encounter that ended: sensitised).
  Standing beast: on first sight it freezes and holds its breath; after that it edges away slowly.
  Wandering / crossing beast: a careful walk away. A beast turning away: it holds still and watches it go.
  A person coming close: a calm step back, palms out. A person standing or far: at ease.
- **After a threat** (nothing in sight or hearing now, but its own recent MOTION lines were reactions to a
  beast): vigilant first, then relaxing over the next decisions (counted from ``recent_decisions``), then an
  ordinary walk. With no memory (``prompt-only-memoryless``) it cannot know a threat just passed.

``prompt-only-memoryless`` is the same brain with ``recent_decisions`` and ``last_prediction`` removed from
every scene (the C06 bound: what memory is worth to an honest brain).

Simplified: it keeps no state between calls (everything it knows comes from the scene, as for a chat model);
remembered directions are read literally, as the words the scene gives, without undoing its own turns.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome
from wmbench.core.directions import GRAMMAR_ORDER, LATERAL, OPPOSITE, SCENE_TO_GRAMMAR, Direction
from wmbench.core.entities import BEAST, BEHAVIOR_THREAT_RANK
from wmbench.protocol.observation import BrainInput

__all__ = ["Creature", "PromptOnlyBrain", "Reading", "choose_direction", "compose_reply", "go", "read_scene"]

#: a person closer than this (metres) makes its direction danger(human) (the prompt's 2 m)
PERSONAL_SPACE_M = 2.0
#: an approaching beast closer than this (metres) is fled at a run instead of a jog
CLOSE_BEAST_M = 3.0
#: a person approaching closer than this (metres) is answered with a calm step back
PERSON_NEAR_M = 4.0

#: how it says what a creature is doing (from the scene's own behaviour words)
_DOING: dict[str, str] = {
    "charge": "charging", "approach": "approaching", "stop": "stopped", "wander": "wandering",
    "cross": "crossing", "retreat": "moving off",
}
#: animal noises a listener recognises in ``sound``, and the behaviour each suggests
_ANIMAL_NOISES: tuple[tuple[str, str], ...] = (
    ("roar", "charge"), ("pounding", "charge"), ("growl", "approach"), ("snarl", "approach"),
    ("paws", "charge"), ("rustling", "wander"),
)
_SOUND_FROM_RE = re.compile(r"\bfrom the (front|left|right|back)\b")
#: words in its own earlier MOTION lines that show it was reacting to a beast
_THREAT_MEMORY_RE = re.compile(r"\b(beast|bolts?|bolting|flat out|frozen|freezes)\b")
_FLIGHT_MEMORY_RE = re.compile(r"\b(bolt\w*|runs?|running|sprint\w*|flee\w*|fled|flat out|panic\w*)\b")
#: how it names travel in each direction, as a phrase after a verb
_WAY: dict[str, str] = {"fwd": "straight ahead", "left": "off to the left", "right": "off to the right",
                        "back": "back the way it came"}
#: how it names a single calm step in each direction
_SIDESTEP: dict[str, str] = {"fwd": "forward", "left": "to the left", "right": "to the right", "back": "backward"}


@dataclass(frozen=True)
class Creature:
    """One creature or person as the scene reports it (``direction`` in grammar words; ``distance`` None when
    only heard; ``behavior`` empty when the scene does not say)."""

    kind: str
    behavior: str
    distance: float | None
    direction: Direction

    @property
    def is_beast(self) -> bool:
        return self.kind == BEAST

    def reason(self) -> str:
        """Reason text inside ``danger(...)`` / ``safe(...)``: type, what it is doing, how far."""
        if self.distance is None:
            return "beast, heard, out of sight"
        label = "beast" if self.is_beast else f"human, {self.kind}"
        doing = _DOING.get(self.behavior, self.behavior)   # nothing when the scene does not say
        return ", ".join(part for part in (label, doing, f"{self.distance:.1f}m") if part)


@dataclass(frozen=True)
class Reading:
    """What it makes of one scene: a verdict and reason per direction, the creatures, and its memory."""

    verdicts: dict[str, tuple[str, str]]
    creatures: tuple[Creature, ...]
    threat: Creature | None
    blocked: frozenset[str]
    worked: frozenset[str]
    first_sight: bool
    calm_steps: int | None
    last_was_flight: bool
    met_before: bool

    def safe(self, direction: str) -> bool:
        return self.verdicts[direction][0] == "safe"


# ------------------------------------------------------------------------------------------------ reading
def _grammar(word: Any) -> Direction | None:
    return SCENE_TO_GRAMMAR.get(str(word).lower()) if word is not None else None


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _creatures(scene: BrainInput) -> list[Creature]:
    found: list[Creature] = []
    npcs = scene.get("npcs")
    if isinstance(npcs, list) and npcs:
        for npc in npcs:
            if not isinstance(npc, dict):
                continue
            direction = _grammar(npc.get("direction"))
            if direction is not None and npc.get("type"):
                found.append(Creature(str(npc["type"]), str(npc.get("behavior") or ""),
                                      _number(npc.get("distance")), direction))
    elif scene.get("npc_nearby") and scene.get("npc_type"):
        direction = _grammar(scene.get("npc_direction"))
        if direction is not None:
            found.append(Creature(str(scene["npc_type"]), str(scene.get("npc_behavior") or ""),
                                  _number(scene.get("npc_distance")), direction))
    if not any(c.is_beast for c in found):
        heard = _heard_beast(scene.get("sound"))
        if heard is not None:
            found.append(heard)
    return found


def _heard_beast(sound: Any) -> Creature | None:
    """An animal noise in ``sound`` from a named side: a beast out of sight there."""
    if not isinstance(sound, str):
        return None
    text = sound.lower()
    side = _SOUND_FROM_RE.search(text)
    behavior = next((b for word, b in _ANIMAL_NOISES if word in text), None)
    direction = _grammar(side.group(1)) if side else None
    if behavior is None or direction is None:
        return None
    return Creature(BEAST, behavior, None, direction)


def _threat_rank(c: Creature) -> tuple[int, float]:
    """Sort key, most threatening first: beasts by behaviour, then people close by, then distance."""
    if c.is_beast:
        rank = 10 + BEHAVIOR_THREAT_RANK.get(c.behavior, 1)
    elif c.behavior in ("approach", "charge") or (c.distance is not None and c.distance < PERSON_NEAR_M
                                                   and c.behavior != "retreat"):
        rank = 5
    else:
        rank = 0
    return (-rank, c.distance if c.distance is not None else 99.0)


def _verdicts(scene: BrainInput, creatures: list[Creature]) -> dict[str, tuple[str, str]]:
    walls: Mapping[str, object] = scene.get("walls") or {}
    verdicts: dict[str, tuple[str, str]] = {}
    for direction in GRAMMAR_ORDER:
        scene_word = "front" if direction == "fwd" else direction
        wall = _number(walls.get(scene_word)) if isinstance(walls, dict) else None
        here = sorted((c for c in creatures if c.direction == direction), key=_threat_rank)
        beast = next((c for c in here if c.is_beast), None)
        person = next((c for c in here if not c.is_beast), None)
        if beast is not None:
            verdicts[direction] = ("danger", beast.reason())
        elif person is not None and person.distance is not None and person.distance < PERSONAL_SPACE_M:
            verdicts[direction] = ("danger", person.reason())
        elif wall is not None:
            verdicts[direction] = ("danger", "wall" + (f", {person.reason()}" if person else ""))
        else:
            verdicts[direction] = ("safe", person.reason() if person else "open")
    return verdicts


def _memory(scene: BrainInput) -> tuple[frozenset[str], frozenset[str], int | None, bool, bool]:
    """(blocked or caught directions, escaped directions, decisions since its last reaction to a beast or
    None, whether the last decision was a flight, whether memory shows an earlier encounter: a flight, or a
    reaction to a beast followed by a calm decision)."""
    decisions = scene.get("recent_decisions")
    entries = [d for d in decisions if isinstance(d, dict)] if isinstance(decisions, list) else []
    blocked: set[str] = set()
    worked: set[str] = set()
    calm_steps: int | None = None
    for age, entry in enumerate(reversed(entries)):
        direction = _grammar(entry.get("direction"))
        outcome = str(entry.get("outcome") or "").lower()
        if direction is not None and ("blocked" in outcome or "caught" in outcome):
            blocked.add(direction)
        elif direction is not None and "escaped" in outcome:
            worked.add(direction)
        if calm_steps is None and _THREAT_MEMORY_RE.search(str(entry.get("motion") or "").lower()):
            calm_steps = age
    motions = [str(e.get("motion") or "").lower() for e in entries]
    last_was_flight = bool(motions) and bool(_FLIGHT_MEMORY_RE.search(motions[-1]))
    reacted = [bool(_THREAT_MEMORY_RE.search(m)) for m in motions]
    ended = any(r and not later for i, r in enumerate(reacted) for later in reacted[i + 1:])
    met_before = ended or any(_FLIGHT_MEMORY_RE.search(m) for m in motions)
    return frozenset(blocked), frozenset(worked - blocked), calm_steps, last_was_flight, met_before


def read_scene(scene: BrainInput) -> Reading:
    """Read one scene_context the way the prompt describes it."""
    creatures = _creatures(scene)
    ranked = sorted(creatures, key=_threat_rank)
    threat = ranked[0] if ranked and _threat_rank(ranked[0])[0] < 0 else None
    blocked, worked, calm_steps, last_was_flight, met_before = _memory(scene)
    last = scene.get("last_prediction")
    first_sight = not (isinstance(last, str) and "beast" in last.lower())
    return Reading(_verdicts(scene, creatures), tuple(creatures), threat, blocked, worked, first_sight,
                   calm_steps, last_was_flight, met_before)


# ------------------------------------------------------------------------------------------------ choosing
def choose_direction(reading: Reading) -> Direction | None:
    """The safe direction it moves in (None: nothing is safe)."""
    safe = [d for d in GRAMMAR_ORDER if reading.safe(d)]
    if not safe:
        return None
    threat = reading.threat

    def preference(direction: Direction) -> tuple[int, int]:
        points = 0
        if threat is not None:
            if direction == OPPOSITE[threat.direction]:
                points += 3
            elif direction in LATERAL[threat.direction]:
                points += 2
        else:
            points += 3 if direction == "fwd" else 1 if direction == "back" else 2  # ahead, then a side
        near_people = [c for c in reading.creatures if not c.is_beast and c.direction == direction
                       and c.distance is not None and c.distance < PERSON_NEAR_M]
        if near_people:
            points -= 2
        if direction in reading.blocked:
            points -= 10
        if direction in reading.worked:
            points += 5
        tie = 3 if direction == "right" else 2 if direction == "left" else 1 if direction == "fwd" else 0
        return (points, tie)

    return max(safe, key=preference)


# ------------------------------------------------------------------------------------------------ wording
def go(direction: Direction, verb: str) -> str:
    """``verb`` travelling in ``direction`` ("bolts off to the left"; back turns round first)."""
    if direction == "back":
        return f"turns around and {verb} {_WAY['back']}"
    return f"{verb} {_WAY[direction]}"


def _ease_back(direction: Direction) -> str:
    """A step away that keeps facing what it steps from."""
    return f"eases a step {_SIDESTEP[direction]}"


def _beast_motion(reading: Reading, beast: Creature, direction: Direction | None) -> str:
    if direction is None:
        return "freezes, crouching low, cornered, breath held, eyes locked on the beast"
    behavior = beast.behavior
    if behavior == "charge":
        if reading.last_was_flight:
            return (f"keeps bolting {_WAY[direction]} flat out, frantic now, gasping, arms flailing, "
                    "throwing looks back at the beast")
        return f"{go(direction, 'bolts')} flat out, panic-stricken, eyes wide, heart hammering, fleeing the beast"
    if behavior == "approach":
        close = beast.distance is not None and beast.distance < CLOSE_BEAST_M
        if close or reading.met_before:
            return f"{go(direction, 'runs')} fast, alarmed and tense, looking back at the beast"
        if direction == "back":
            return "backs off briskly, tense and watchful, keeping the beast in view"
        return f"{go(direction, 'jogs')}, tense and watchful, keeping the beast in view"
    if behavior == "stop":
        if reading.first_sight:
            return "stops dead, frozen to the spot, breath held, muscles locked, eyes fixed on the beast"
        if direction == "back":
            return "edges backward slowly, crouched low, eyes never leaving the beast"
        return f"edges {_WAY[direction]} slowly, crouched low, eyes never leaving the beast"
    if behavior == "retreat":
        return "stays motionless, tense, eyes on the beast as it leaves"
    return f"{go(direction, 'walks')} carefully, alert, watching the beast"


def _person_motion(person: Creature, direction: Direction | None, after_threat: bool) -> str:
    near = person.distance is not None and person.distance < PERSON_NEAR_M
    coming = person.behavior in ("approach", "charge")
    if direction is not None and (near or (coming and after_threat)):
        return f"{_ease_back(direction)}, palms out, composed and polite, keeping an eye on the {person.kind}"
    if coming:
        return f"stands easy and composed, watching the {person.kind} come closer"
    return f"stands easy, giving the {person.kind} a friendly nod"


def _calm_motion(reading: Reading, direction: Direction | None) -> str:
    steps = reading.calm_steps
    if direction is None:
        return "stays where it is, looking around for a way through"
    if steps == 0:
        verb = "eases off into a jog" if reading.last_was_flight else "moves on slowly"
        where = "" if direction == "fwd" else f" {_WAY[direction]}"
        return f"{verb}{where}, still tense, scanning all around, on edge"
    if steps == 1:
        return f"{go(direction, 'walks')} carefully, looking around, breathing still quick"
    if steps == 2:
        return f"{go(direction, 'walks')} slower, letting out a long breath, shoulders sinking"
    if steps is not None:
        return f"{go(direction, 'walks')} at an easy pace, loosening up as the fright fades"
    if direction == "fwd":
        return "walks straight ahead at an easy, ordinary pace"
    return f"{go(direction, 'calmly walks')} at an easy pace"


def compose_reply(scene: BrainInput) -> str:
    """The two lines for one scene."""
    reading = read_scene(scene)
    predict = ", ".join(f"{d}={v}({r})" for d, (v, r) in reading.verdicts.items())
    direction = choose_direction(reading)
    threat = reading.threat
    if threat is not None and threat.is_beast:
        motion = _beast_motion(reading, threat, direction)
    elif threat is not None:
        motion = _person_motion(threat, direction, reading.calm_steps is not None)
    else:
        person = next((c for c in reading.creatures if not c.is_beast), None)
        motion = (_person_motion(person, None, False) if person is not None and reading.calm_steps is None
                  else _calm_motion(reading, direction))
    return f"PREDICT: {predict}\nMOTION: a person {motion}"


# ------------------------------------------------------------------------------------------------ brain
class PromptOnlyBrain(ProviderBrain):
    """The independent prompt-following brain (see the module card); ``memory=False`` strips the memory
    fields from every scene first (``prompt-only-memoryless``)."""

    provider = "panel"

    def __init__(self, memory: bool = True) -> None:
        super().__init__()
        self.memory = memory
        self.name = "prompt-only" if memory else "prompt-only-memoryless"

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        if not self.memory:
            scene = {**scene, "recent_decisions": [], "last_prediction": None}
        return ProviderOutcome(text=compose_reply(scene))
