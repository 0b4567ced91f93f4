"""MOTION text -> :class:`MotionIntent`: where to go, how fast, in what manner. Never raises.

How a sentence is read (word banks in :mod:`wmbench.body.intent.lexicon`):

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

Steps 1 and 2 live in :mod:`wmbench.body.intent.phrases`; this module reads the matched phrases.

Simplified: no parser of English grammar — subjects other than animal threats are assumed to be the body,
and "away" without a named direction is taken as back because the scene is not known here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from wmbench.body.intent import lexicon
from wmbench.body.intent.fallback import fallback_note
from wmbench.body.intent.phrases import (
    PhraseMeaning,
    PhraseUnit,
    lemma_words,
    match_units,
)
from wmbench.body.intent.record import MotionIntent
from wmbench.core.directions import DIRECTION_HEADINGS, OPPOSITE
from wmbench.core.speed import SpeedClass

#: Public names (the phrase tables are imported from :mod:`wmbench.body.intent.phrases`; direction geometry
#: from :mod:`wmbench.core.directions`).
__all__ = ["parse_motion"]

_SPEED_ORDER = tuple(SpeedClass)
#: words before "right" that make it the side ("to the right", "towards the right"), never "immediately"
_SIDE_PRECEDERS = frozenset({"to", "toward"})
_STRAIGHT_BLOCKERS = frozenset({"to", "toward", "for", "into", "at", "back", "away"})


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


def _neighbour(units: list[PhraseUnit], i: int) -> str:
    return units[i].word if 0 <= i < len(units) else ""


def _is_idiom(units: list[PhraseUnit], i: int, direction_word: str) -> bool:
    """"right away/now", "has left", "straight back": the direction word is not a travel direction here."""
    after, after2, before = _neighbour(units, i + 1), _neighbour(units, i + 2), _neighbour(units, i - 1)
    if direction_word == "right":
        # "to the right at an easy pace": after "to" (the article is dropped) it names the side, whatever follows
        return before not in _SIDE_PRECEDERS and after in lexicon.RIGHT_IDIOM_FOLLOWERS
    if direction_word == "left":
        return before in lexicon.LEFT_VERB_PRECEDERS
    if direction_word == "straight":
        nxt = {after, after2}
        return bool(nxt & _STRAIGHT_BLOCKERS) or any(w in lexicon.DIRECTION_WORDS for w in nxt)
    return False


def _place_of(units: list[PhraseUnit], i: int) -> tuple[bool, bool]:
    """(is a location, is an animal's location) for the direction word at ``i``."""
    before, before2 = _neighbour(units, i - 1), _neighbour(units, i - 2)
    noun = before if before in lexicon.THREAT_NOUNS else (
        before2 if before in {"to", "of", *lexicon.LOCATION_PREPOSITIONS} and before2 in lexicon.THREAT_NOUNS
        else "")
    located = bool(noun) or before in lexicon.LOCATION_PREPOSITIONS
    return located, noun in lexicon.BEAST_NOUNS


def _read(units: list[PhraseUnit]) -> _Reading:
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


def _take(r: _Reading, units: list[PhraseUnit], i: int, m: PhraseMeaning, from_span: bool,
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
        r.from_opposites.append(OPPOSITE[m.direction])
    elif beast_place:
        r.threat_opposites.append(OPPOSITE[m.direction])
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
    """Read a MOTION line into a :class:`MotionIntent` (see the module card for the rules). Never raises.
    A line asking for a movement the bodies cannot do gets the nearest doable intent with a ``fallback``
    note (:mod:`wmbench.body.intent.fallback`)."""
    if not isinstance(text, str):
        return MotionIntent.still(source="")
    source = str.__str__(text)
    intent = _parse(source)
    note = fallback_note(source, intent)
    return intent if note is None else replace(intent, fallback=note)


def _parse(source: str) -> MotionIntent:
    reading = _read(match_units(lemma_words(source)))
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
