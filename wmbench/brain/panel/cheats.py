"""The cheats of the validity panel: brains that earn points without the capability a category names.

Card
----
Each cheat is ``prompt-only`` (:mod:`wmbench.brain.panel.prompt_only`, the independent brain) with exactly one part
replaced, so the difference between the two is what that part is worth to a category:

- ``oracle-random`` — a rule-perfect PREDICT read from the scene (prompt-only's) and a *random* safe direction
  (seeded by ``reset``) at one fixed pace and wording: perceives everything, never reads the situation to
  choose where to go or how intensely. C03 and C05 must charge for that.
- ``distance-only`` — prompt-only's PREDICT and direction, but it never reads what a creature is doing
  (``npc_behavior``, ``npcs[].behavior`` and the sound's kind of noise are hidden from it): its PREDICT names
  no behaviour and its intensity follows the nearest beast's distance alone. C05 must charge for that.
- ``all-beast`` — prompt-only's MOTION on the real scene, but its PREDICT calls every creature a beast
  (``danger(beast, ...)`` wherever a person is). C02 must charge for that.
- ``runs-at-danger`` — prompt-only's PREDICT and expressive words, but whenever a creature is in sight it runs
  straight at it: wrong motion in rich words. C08 must pay it nothing (issue 20: such a brain out-scored the
  honest one on C08).
- ``prompt-words`` — prompt-only's decisions (the same direction and speed class, checked against the body's
  reading of its line) in the prompt's own intensity and relief words ("in terror, desperate and frantic",
  "warily", "calmly with hands raised", "vigilant", "exhaling with relief", "naturally"). Words copied from
  the prompt must be worth no more than a few points (C07, C08).
"""

from __future__ import annotations

from wmbench.body.intent.reader import parse_motion
from wmbench.brain.panel.prompt_only import Reading, choose_direction, compose_reply, go, read_scene
from wmbench.brain.providers.base import ProviderBrain, ProviderOutcome, SeededRandom
from wmbench.core.directions import GRAMMAR_ORDER, TRAVEL_PHRASES
from wmbench.core.speed import SpeedClass
from wmbench.protocol.observation import BrainInput, as_brain_input

__all__ = ["AllBeastBrain", "DistanceOnlyBrain", "OracleRandomBrain", "PromptWordsBrain", "RunsAtDangerBrain",
           "predict_line"]


def predict_line(reading: Reading) -> str:
    """prompt-only's PREDICT line for a reading."""
    return "PREDICT: " + ", ".join(f"{d}={v}({r})" for d, (v, r) in reading.verdicts.items())


def _motion_of(reply: str) -> str:
    return reply.split("\nMOTION: ", 1)[1]


# ------------------------------------------------------------------------------------------------ oracle-random
class OracleRandomBrain(SeededRandom, ProviderBrain):
    """Rule-perfect PREDICT, a seeded random safe direction at a fixed run (standing when nothing is safe)."""

    provider = "panel"
    name = "oracle-random"

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        reading = read_scene(scene)
        safe = [d for d in GRAMMAR_ORDER if reading.safe(d)]
        if not safe:
            return ProviderOutcome(text=f"{predict_line(reading)}\nMOTION: a person stands still")
        direction = safe[int(self._rng.integers(len(safe)))]
        return ProviderOutcome(text=f"{predict_line(reading)}\nMOTION: a person runs {TRAVEL_PHRASES[direction]}")


# ------------------------------------------------------------------------------------------------ distance-only
def behaviour_blind(scene: BrainInput) -> BrainInput:
    """``scene`` with every trace of what a creature is doing removed: ``npc_behavior`` None, each ``npcs``
    entry's behaviour and speed dropped, and the sound reduced to "a noise from the <side>"."""
    blind = dict(scene)
    blind["npc_behavior"] = None
    npcs = scene.get("npcs")
    if isinstance(npcs, list):
        blind["npcs"] = [{k: v for k, v in n.items() if k not in ("behavior", "speed")} if isinstance(n, dict)
                         else n for n in npcs]
    sound = scene.get("sound")
    if isinstance(sound, str) and " from the " in sound:
        blind["sound"] = "a noise from the " + sound.rsplit(" from the ", 1)[1]
    return as_brain_input(blind)


#: (beast closer than metres, MOTION template) — the first band that holds; ``{way}`` is the travel phrase
_DISTANCE_BANDS: tuple[tuple[float, str], ...] = (
    (3.0, "{bolts} flat out, panic-stricken, eyes wide, fleeing the beast"),
    (5.0, "{runs} fast, alarmed and tense, looking back at the beast"),
    (8.0, "{jogs}, tense and watchful, keeping the beast in view"),
)


class DistanceOnlyBrain(ProviderBrain):
    """prompt-only's perception and direction without behaviour; intensity from the beast's distance alone."""

    provider = "panel"
    name = "distance-only"

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        reading = read_scene(behaviour_blind(scene))
        direction = choose_direction(reading)
        predict = predict_line(reading)   # the blind reading names no behaviour
        beasts = [c.distance for c in reading.creatures if c.is_beast and c.distance is not None]
        if not beasts or direction is None:
            motion = _motion_of(compose_reply(behaviour_blind(scene)))
            return ProviderOutcome(text=f"{predict}\nMOTION: {motion}")
        nearest = min(beasts)
        template = next((t for limit, t in _DISTANCE_BANDS if nearest < limit), _DISTANCE_BANDS[-1][1])
        verbs = {verb: go(direction, verb) for verb in ("bolts", "runs", "jogs")}
        return ProviderOutcome(text=f"{predict}\nMOTION: a person {template.format(**verbs)}")


# ------------------------------------------------------------------------------------------------ all-beast
def every_creature_a_beast(scene: BrainInput) -> BrainInput:
    """``scene`` with every person turned into a beast (behaviour, distance and direction kept)."""
    changed = dict(scene)
    if scene.get("npc_type") is not None:
        changed["npc_type"] = "beast"
    npcs = scene.get("npcs")
    if isinstance(npcs, list):
        changed["npcs"] = [{**n, "type": "beast"} if isinstance(n, dict) else n for n in npcs]
    return as_brain_input(changed)


class AllBeastBrain(ProviderBrain):
    """prompt-only's MOTION on the real scene; a PREDICT that calls every creature a beast."""

    provider = "panel"
    name = "all-beast"

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        predict = predict_line(read_scene(every_creature_a_beast(scene)))
        return ProviderOutcome(text=f"{predict}\nMOTION: {_motion_of(compose_reply(scene))}")


# ------------------------------------------------------------------------------------------------ runs-at-danger
class RunsAtDangerBrain(ProviderBrain):
    """prompt-only's PREDICT and words; with a creature in sight it runs straight at the most threatening one."""

    provider = "panel"
    name = "runs-at-danger"

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        honest = compose_reply(scene)
        reading = read_scene(scene)
        target = reading.threat or next((c for c in reading.creatures if c.distance is not None), None)
        if target is None:
            return ProviderOutcome(text=honest)
        predict, motion = honest.split("\nMOTION: ", 1)
        words = motion.split(", ", 1)[1] if ", " in motion else "wide-eyed"
        line = f"a person runs {TRAVEL_PHRASES[target.direction]}, straight at the {target.kind}, {words}"
        return ProviderOutcome(text=f"{predict}\nMOTION: {line}")


# ------------------------------------------------------------------------------------------------ prompt-words
#: the prompt's intensity-guide words for each moment (copied on purpose: this is the cheat); the threat lines
#: name the beast, as prompt-only's do, so that both read the same situation from their own recent_decisions
PROMPT_WORDS: dict[str, str] = {
    "charge": "in terror, desperate and frantic, arms pumping, glancing back over the shoulder at the beast",
    "approach": "warily, away from the beast", "near-person": "calmly with hands raised",
    "vigilant": "staying vigilant",
    "relief": "relaxing gradually, exhaling with relief", "none": "naturally",
}
_GAIT_VERBS: dict[SpeedClass, str] = {
    SpeedClass.WALK: "walks", SpeedClass.JOG: "jogs", SpeedClass.RUN: "runs", SpeedClass.SPRINT: "sprints",
}


def _moment(reading: Reading) -> str:
    threat = reading.threat
    if threat is not None and threat.is_beast:
        return "charge" if threat.behavior == "charge" else "approach"
    if threat is not None:
        return "near-person"
    if reading.calm_steps is not None:
        return "vigilant" if reading.calm_steps <= 1 else "relief"
    return "none"


class PromptWordsBrain(ProviderBrain):
    """prompt-only's decision, worded in the prompt's own intensity and relief words."""

    provider = "panel"
    name = "prompt-words"

    def _respond(self, scene: BrainInput) -> ProviderOutcome:
        honest = compose_reply(scene)
        predict, motion = honest.split("\nMOTION: ", 1)
        intent = parse_motion(motion)
        words = PROMPT_WORDS[_moment(read_scene(scene))]
        if intent.direction is None or intent.speed_class == SpeedClass.STILL:
            return ProviderOutcome(text=f"{predict}\nMOTION: a person stands still, {words}")
        target = intent.speed_class
        lines = [f"a person {verb} {_way(intent.direction, verb)}, {words}"
                 for gait, verb in reversed(_GAIT_VERBS.items()) if gait.rank <= target.rank for _way in _WAYS]
        for line in lines:  # the first line, prompt words included, that the body reads as the same decision
            read = parse_motion(line)
            if (read.speed_class, read.direction, read.face_travel) == (target, intent.direction, intent.face_travel):
                return ProviderOutcome(text=f"{predict}\nMOTION: {line}")
        return ProviderOutcome(text=f"{predict}\nMOTION: {lines[0]}")


def _plain_way(direction: str, verb: str) -> str:
    return TRAVEL_PHRASES[direction]


def _turned_way(direction: str, verb: str) -> str:
    return "and turns around" if direction == "back" else TRAVEL_PHRASES[direction]


#: two ways of naming the travel: plain ("walks backward": a back-step keeps facing) or turning round first
_WAYS = (_plain_way, _turned_way)
