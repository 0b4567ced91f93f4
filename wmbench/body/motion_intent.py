"""MOTION text -> :class:`MotionIntent`: where to go, how fast, in what manner. Never raises.

How a sentence is read (word banks in :mod:`wmbench.body.lexicon`):

1. **Words.** Lower-cased, hyphens and slashes become spaces, each word becomes its lemma, articles and
   possessives are dropped. Only the first :data:`MAX_MOTION_CHARS` characters are read.
2. **Phrases.** At each word the longest known phrase wins ("walk quickly" before "walk"); a phrase may
   carry a speed class, style tags, an intensity bump, a direction, and back-step/sidestep/turn flags.
3. **Clauses and negation.** Punctuation and words such as *but/then/and/while* end a clause. A negator
   (*not, never, without, instead, rather, avoid, don't* ...) silences the rest of its clause: "does not run
   right, sprints left" is a left sprint; "never toward the beast" says nothing. A clause that starts with an
   animal threat ("the lion charges from the left") describes the NPC and is skipped. "stops running" keeps
   *stop* and drops *running*.
4. **Speed.** The fastest class mentioned wins (any moving verb beats still/freeze). Then one bump at most:
   up one class if an intensity word appears (*desperately, frantically, in terror, in panic, quickly, for
   its life*: "desperately runs" -> sprint), else down one if a slow word appears (*slowly, leisurely*); a
   moving gait never drops below walk. A direction with no verb at all ("to the left, fast") is a walk
   (+ bump).
5. **Direction**, first match in this order: an explicit travel word (right/rightward/veers right, left,
   forward/ahead/straight/onward, back/backward/behind, "turns around"; the first named wins, so diagonals
   take their first word); a back-step ("backs away", "steps back", "retreats") -> back; a direction inside
   a *from* span is where the threat is, so the opposite ("away from the beast ahead" -> back); a direction
   right after an animal ("the lion behind her") -> the opposite; plain "away" -> back; any moving verb ->
   fwd. Directions after a place word ("on the left", "in front") or after a person/wall noun are
   locations, not travel. Idioms are guarded: "right away/now", "has left", "looks left", "glances back".
6. **Facing.** Back-steps and sidesteps keep facing the threat (``face_travel=False``, back-steps also get
   the style ``backstep``) unless the text also turns ("turns and backs away").
7. **Still.** No moving verb and no direction, or only still/freeze words -> :meth:`MotionIntent.still`
   with the styles kept (freeze/frozen/rooted add the ``freeze`` tag). Empty or unreadable text -> still,
   no styles. Styles are kept as written even when the body moves ("freezes, then bolts left" keeps
   ``freeze``).

Simplified: no parser of English grammar — subjects other than animal threats are assumed to be the body,
and "away" without a named direction is taken as back because the scene is not known here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from wmbench.body import lexicon
from wmbench.body.intent_types import MotionIntent, SpeedClass

#: Only this much of a MOTION line is read (the source text is kept whole).
MAX_MOTION_CHARS = 2000
#: Relative heading (radians, +left) of each direction word.
DIRECTION_HEADINGS: dict[str, float] = {
    "fwd": 0.0, "left": math.pi / 2, "right": -math.pi / 2, "back": math.pi,
}
OPPOSITE_DIRECTION: dict[str, str] = {"fwd": "back", "back": "fwd", "left": "right", "right": "left"}

_TOKEN_RE = re.compile(r"[a-z]+(?:'[a-z]+)?|[.,;:!?()\[\]]")
_VOWELS = frozenset("aeiou")
_SPEED_ORDER = tuple(SpeedClass)
_STRAIGHT_BLOCKERS = frozenset({"to", "toward", "for", "into", "at", "back", "away"})


# ---------------------------------------------------------------------------------------------------- words
def _inflections(verb: str) -> set[str]:
    """Regular forms of ``verb`` (over-generation is harmless: it only adds spellings nobody writes)."""
    forms = {verb, verb + "s", verb + "es", verb + "ing", verb + "ed", verb + "d"}
    if verb.endswith("e"):
        forms.add(verb[:-1] + "ing")
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in _VOWELS:
        forms |= {verb[:-1] + "ies", verb[:-1] + "ied"}
    if len(verb) > 2 and verb[-1] not in _VOWELS | {"w", "x", "y"} and verb[-2] in _VOWELS \
            and verb[-3] not in _VOWELS:
        forms |= {verb + verb[-1] + "ing", verb + verb[-1] + "ed"}
    return forms


def _build_lemmas() -> dict[str, str]:
    lemmas: dict[str, str] = {}
    for verb in lexicon.VERB_LEMMAS:
        for form in _inflections(verb):
            lemmas.setdefault(form, verb)
    lemmas.update(lexicon.IRREGULAR_FORMS)
    return lemmas


_LEMMAS = _build_lemmas()


def lemma_words(text: str) -> list[str]:
    """Text -> lemmas and punctuation marks, fillers dropped (``"Sprints to the right!"`` -> 4 items)."""
    text = text[:MAX_MOTION_CHARS].lower().replace("’", "'").replace("-", " ").replace("/", " ")
    words = (_LEMMAS.get(w, w) for w in _TOKEN_RE.findall(text))
    return [w for w in words if w not in lexicon.FILLER_WORDS]


# -------------------------------------------------------------------------------------------------- phrases
@dataclass(frozen=True)
class PhraseMeaning:
    """What one known phrase says. Merged over all word banks that list it."""

    speed: str | None = None
    styles: tuple[str, ...] = ()
    intensity: int = 0
    direction: str | None = None
    backstep: bool = False
    sidestep: bool = False
    turn: bool = False
    non_travel: bool = False
    away: bool = False


def _phrase_key(phrase: str) -> tuple[str, ...]:
    return tuple(w for w in lemma_words(phrase) if w.isalpha() or "'" in w)


def _build_phrases() -> dict[tuple[str, ...], PhraseMeaning]:
    fields: dict[tuple[str, ...], dict] = {}

    def add(phrase: str, **kw) -> None:
        entry = fields.setdefault(_phrase_key(phrase), {})
        for k, v in kw.items():
            entry[k] = entry.get(k, ()) + v if k == "styles" else v

    for phrase, speed in lexicon.SPEED_PHRASES.items():
        add(phrase, speed=speed)
    for phrase, styles in lexicon.STYLE_PHRASES.items():
        add(phrase, styles=styles)
    for phrase in lexicon.INTENSITY_UP:
        add(phrase, intensity=1)
    for phrase in lexicon.INTENSITY_DOWN:
        add(phrase, intensity=-1)
    for phrase, direction in {**lexicon.DIRECTION_WORDS, **lexicon.DIRECTION_PHRASES}.items():
        add(phrase, direction=direction)
    for phrase in lexicon.BACKSTEP_PHRASES:
        add(phrase, backstep=True, speed=lexicon.SPEED_PHRASES.get(phrase, "walk"))
    for phrase in lexicon.SIDESTEP_PHRASES:
        add(phrase, sidestep=True, speed=lexicon.SPEED_PHRASES.get(phrase, "walk"))
    for phrase in lexicon.NON_TRAVEL_PHRASES:
        add(phrase, non_travel=True)
    table = {}
    for key, kw in fields.items():
        kw.setdefault("turn", any(w in lexicon.TURN_WORDS for w in key))
        kw.setdefault("away", any(w in lexicon.AWAY_WORDS for w in key) and not kw.get("backstep")
                      and "direction" not in kw and not kw.get("non_travel"))
        if kw.get("non_travel"):
            kw.pop("direction", None)
        table[key] = PhraseMeaning(**kw)
    return table


PHRASES: dict[tuple[str, ...], PhraseMeaning] = _build_phrases()
_LONGEST_PHRASE = max(len(k) for k in PHRASES)


@dataclass(frozen=True)
class _Unit:
    """One matched piece of text: a known phrase (``meaning`` set), a plain word, or a punctuation mark."""

    words: tuple[str, ...]
    meaning: PhraseMeaning | None = None

    @property
    def word(self) -> str:
        return self.words[0]

    @property
    def is_break(self) -> bool:
        return self.meaning is None and (not self.word[0].isalpha() or self.word in lexicon.CLAUSE_BREAKS)


def _units(words: list[str]) -> list[_Unit]:
    units, i = [], 0
    while i < len(words):
        for n in range(min(_LONGEST_PHRASE, len(words) - i), 0, -1):
            key = tuple(words[i:i + n])
            if key in PHRASES:
                units.append(_Unit(key, PHRASES[key]))
                i += n
                break
        else:
            units.append(_Unit((words[i],)))
            i += 1
    return units


# ---------------------------------------------------------------------------------------------------- reading
@dataclass
class _Reading:
    """What the positive (non-negated) clauses said, collected in text order."""

    speeds: list[str]
    styles: set[str]
    bumps: set[int]
    explicit: list[str]
    from_opposites: list[str]
    threat_opposites: list[str]
    away: bool = False
    backstep: bool = False
    sidestep: bool = False
    turn: bool = False


def _neighbour(units: list[_Unit], i: int) -> str:
    return units[i].word if 0 <= i < len(units) else ""


def _is_idiom(units: list[_Unit], i: int, direction_word: str) -> bool:
    """"right away/now", "has left", "straight back": the direction word is not a travel direction here."""
    after, after2, before = _neighbour(units, i + 1), _neighbour(units, i + 2), _neighbour(units, i - 1)
    if direction_word == "right":
        return after in lexicon.RIGHT_IDIOM_FOLLOWERS
    if direction_word == "left":
        return before in lexicon.LEFT_VERB_PRECEDERS
    if direction_word == "straight":
        nxt = {after, after2}
        return bool(nxt & _STRAIGHT_BLOCKERS) or any(w in lexicon.DIRECTION_WORDS for w in nxt)
    return False


def _place_of(units: list[_Unit], i: int) -> tuple[bool, bool]:
    """(is a location, is an animal's location) for the direction word at ``i``."""
    before, before2 = _neighbour(units, i - 1), _neighbour(units, i - 2)
    noun = before if before in lexicon.THREAT_NOUNS else (
        before2 if before in {"to", "of", *lexicon.LOCATION_PREPOSITIONS} and before2 in lexicon.THREAT_NOUNS
        else "")
    located = bool(noun) or before in lexicon.LOCATION_PREPOSITIONS
    return located, noun in lexicon.BEAST_NOUNS


def _read(units: list[_Unit]) -> _Reading:
    r = _Reading([], set(), set(), [], [], [])
    negated = from_span = skip_clause = False
    clause_start, ceasing = True, 0
    for i, unit in enumerate(units):
        if unit.is_break:
            negated = from_span = skip_clause = False
            clause_start, ceasing = True, 0
            continue
        if clause_start:
            clause_start = False
            skip_clause = unit.word in lexicon.BEAST_NOUNS
        if skip_clause or negated:
            continue
        if unit.meaning is None:
            negated = unit.word in lexicon.NEGATORS
            from_span = from_span or unit.word == "from"
            r.away = r.away or unit.word in lexicon.AWAY_WORDS
            ceasing = max(ceasing - 1, 0)
            continue
        _take(r, units, i, unit.meaning, from_span, suppress_speed=ceasing > 0)
        ceasing = 2 if unit.words[0] in lexicon.CESSATION_WORDS else max(ceasing - 1, 0)
    return r


def _take(r: _Reading, units: list[_Unit], i: int, m: PhraseMeaning, from_span: bool,
          suppress_speed: bool) -> None:
    """Add what the phrase at ``units[i]`` says to the reading."""
    if m.speed and not (suppress_speed and m.speed != "still"):
        r.speeds.append(m.speed)
    r.styles.update(m.styles)
    if m.intensity:
        r.bumps.add(m.intensity)
    r.backstep, r.sidestep, r.turn = r.backstep or m.backstep, r.sidestep or m.sidestep, r.turn or m.turn
    r.away = r.away or m.away
    if m.direction is None:
        return
    word = units[i].word
    if len(units[i].words) == 1 and _is_idiom(units, i, word):
        return
    located, beast_place = _place_of(units, i)
    if from_span:
        r.from_opposites.append(OPPOSITE_DIRECTION[m.direction])
    elif beast_place:
        r.threat_opposites.append(OPPOSITE_DIRECTION[m.direction])
    elif not located:
        r.explicit.append(m.direction)


def _speed_class(r: _Reading, has_direction: bool) -> SpeedClass:
    moving = [SpeedClass(s) for s in r.speeds if s != "still"]
    if not moving:
        if r.speeds or not has_direction:
            return SpeedClass.STILL
        moving = [SpeedClass.WALK]
    fastest = max(moving, key=lambda s: s.rank)
    bump = 1 if 1 in r.bumps else (-1 if -1 in r.bumps else 0)
    rank = min(max(fastest.rank + bump, SpeedClass.WALK.rank), SpeedClass.SPRINT.rank)
    return _SPEED_ORDER[rank]


def _direction(r: _Reading) -> str | None:
    for candidates in (r.explicit, ["back"] if r.backstep else [], r.from_opposites, r.threat_opposites,
                       ["back"] if r.away else []):
        if candidates:
            return candidates[0]
    return None


def parse_motion(text: str) -> MotionIntent:
    """Read a MOTION line into a :class:`MotionIntent` (see the module card for the rules). Never raises."""
    if not isinstance(text, str):
        return MotionIntent.still(source="")
    source = str.__str__(text)
    reading = _read(_units(lemma_words(source)))
    direction = _direction(reading)
    styles = set(reading.styles)
    if reading.backstep:
        styles.add("backstep")
    speed = _speed_class(reading, has_direction=direction is not None)
    if speed is SpeedClass.STILL:
        return MotionIntent.still(source=source, styles=frozenset(styles))
    direction = direction or "fwd"
    keeps_facing = (reading.backstep or reading.sidestep) and not reading.turn
    return MotionIntent(
        direction=direction, heading=DIRECTION_HEADINGS[direction], speed_class=speed,
        styles=frozenset(styles), face_travel=not keeps_facing, source=source,
    )
