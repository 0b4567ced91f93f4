"""Out-of-vocabulary motions: a MOTION line asking for a movement no generator can act out gets a note.

Card
----
- **What.** The bodies act out a :class:`~wmbench.body.intent.record.MotionIntent` (a direction, a speed class,
  style tags). A MOTION line may ask for more ("does a cartwheel", "crawls on all fours", "waves both arms",
  "limps forward, injured"); the intent then keeps only what it can (a direction and a gait if the text
  names them, else standing still). :func:`fallback_note` says so, in one line that goes into the intent's
  ``fallback`` field and from there into the trace and the report transcript, e.g.
  ``"cartwheel -> stand still: no such motion"`` or ``"limp -> walk fwd: no such gait"``. Never silent.
- **How.** :data:`UNSUPPORTED` lists movement concepts by the word forms that name them; the first one found
  in the text (whole words, any position) is the concept. The doable motion is read from the intent that
  was actually parsed (:func:`doable_motion`), so the note always names what the body will really do.
- **Which words.** Concepts that none of the shipped generators (procedural, keyframe, diffusion) has: the
  DeepMimic clip kinds that are not locomotion, gestures, and gaits the speed classes cannot express.

Simplified: a word list, not an understanding of the sentence; a negated mention ("without crawling") still
gets a note (the note only informs, it changes no motion or score).
"""

from __future__ import annotations

import re

from wmbench.body.intent.phrases import MAX_MOTION_CHARS
from wmbench.body.intent.record import MotionIntent

#: concept -> (word forms that name it, why it cannot be done)
UNSUPPORTED: dict[str, tuple[tuple[str, ...], str]] = {
    "cartwheel": (("cartwheel", "cartwheels", "cartwheeling"), "no such motion"),
    "backflip": (("backflip", "backflips", "flip", "flips", "somersault", "somersaults"), "no such motion"),
    "crawl": (("crawl", "crawls", "crawling", "crawled", "all fours"), "no quadruped motion"),
    "wave": (("wave", "waves", "waving", "waved"), "no arm gestures"),
    "point": (("points at", "pointing at", "gestures", "gesturing", "beckons"), "no arm gestures"),
    "punch": (("punch", "punches", "punching", "strikes at", "hits"), "no arm gestures"),
    "throw": (("throw", "throws", "throwing", "hurls"), "no arm gestures"),
    "kick": (("kick", "kicks", "kicking"), "no such motion"),
    "jump": (("jump", "jumps", "jumping", "leaps", "leap", "leaping", "vaults", "hurdles"), "no jumps"),
    "hop": (("hop", "hops", "hopping"), "no jumps"),
    "spin": (("spin", "spins", "spinning", "twirls", "pirouette"), "no such motion"),
    "roll": (("roll", "rolls", "rolling", "tumbles"), "no such motion"),
    "dance": (("dance", "dances", "dancing"), "no such motion"),
    "limp": (("limp", "limps", "limping", "hobbles", "injured"), "no such gait"),
    "skip": (("skip", "skips", "skipping"), "no such gait"),
    "swim": (("swim", "swims", "swimming"), "no such motion"),
    "sit": (("sit", "sits", "sitting", "sits down"), "no seated pose"),
    "lie down": (("lie down", "lies down", "lying down", "lies flat", "drops prone", "prone"), "no lying pose"),
    "get up": (("get up", "gets up", "stands up", "getting up"), "no such motion"),
    "push-up": (("push up", "push ups", "pushups"), "no such motion"),
}

_TOKEN = re.compile(r"[a-z]+")


def _phrases() -> dict[str, list[tuple[tuple[str, ...], str, str]]]:
    """First word -> [(phrase words, concept, why)], longest phrase first."""
    table: dict[str, list[tuple[tuple[str, ...], str, str]]] = {}
    for concept, (forms, why) in UNSUPPORTED.items():
        for form in forms:
            words = tuple(form.split())
            table.setdefault(words[0], []).append((words, concept, why))
    for entries in table.values():
        entries.sort(key=lambda entry: -len(entry[0]))
    return table


_PHRASES = _phrases()


def unsupported_concept(text: str) -> tuple[str, str] | None:
    """``(concept, why)`` of the first unsupported movement named in ``text`` (by position; only the first
    :data:`~wmbench.body.intent.phrases.MAX_MOTION_CHARS` characters are read, as by the parser), else None."""
    words = _TOKEN.findall(text[:MAX_MOTION_CHARS].lower().replace("-", " "))
    for i, word in enumerate(words):
        for phrase, concept, why in _PHRASES.get(word, ()):
            if tuple(words[i:i + len(phrase)]) == phrase:
                return concept, why
    return None


def doable_motion(intent: MotionIntent) -> str:
    """What the body will do for ``intent``, in a few words: ``"stand still"``, ``"walk left"``, ``"run back,
    crouch"`` (the crouch/freeze/defensive posture tag, when present)."""
    motion = f"{intent.speed_class.value} {intent.direction}" if intent.moving else "stand still"
    postures = [s for s in ("crouch", "freeze", "defensive") if s in intent.styles]
    return ", ".join((motion, *postures))


def fallback_note(text: str, intent: MotionIntent) -> str | None:
    """``"<concept> -> <doable motion>: <why>"`` when ``text`` asks for a movement the bodies cannot do, else
    None."""
    found = unsupported_concept(text)
    if found is None:
        return None
    concept, why = found
    return f"{concept} -> {doable_motion(intent)}: {why}"
