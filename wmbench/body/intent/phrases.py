"""Words and phrases of MOTION text: lemmas, the phrase table built from the word banks, phrase matching.

Card
----
- :func:`lemma_words`: lower-cased, hyphens and slashes become spaces, each word becomes its lemma (regular
  inflections of every verb in :mod:`wmbench.body.intent.lexicon` plus its irregular forms), fillers (articles,
  possessives ...) are dropped. Only the first :data:`MAX_MOTION_CHARS` characters are read.
- :data:`PHRASES`: every phrase of the word banks (as lemmas) -> its :class:`PhraseMeaning` (speed class,
  style tags, intensity bump, direction, back-step/sidestep/turn flags, ``away``), merged over all banks
  that list it.
- :func:`match_units`: at each word the longest known phrase wins ("walk quickly" before "walk"); words that
  start no phrase and punctuation marks become units of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wmbench.body.intent import lexicon

#: Only this much of a MOTION line is read (the source text is kept whole).
MAX_MOTION_CHARS = 2000

_TOKEN_RE = re.compile(r"[a-z]+(?:'[a-z]+)?|[.,;:!?()\[\]]")
_VOWELS = frozenset("aeiou")


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
class PhraseUnit:
    """One matched piece of text: a known phrase (``meaning`` set), a plain word, or a punctuation mark."""

    words: tuple[str, ...]
    meaning: PhraseMeaning | None = None

    @property
    def word(self) -> str:
        return self.words[0]

    @property
    def is_break(self) -> bool:
        return self.meaning is None and (not self.word[0].isalpha() or self.word in lexicon.CLAUSE_BREAKS)


def match_units(words: list[str]) -> list[PhraseUnit]:
    units, i = [], 0
    while i < len(words):
        for n in range(min(_LONGEST_PHRASE, len(words) - i), 0, -1):
            key = tuple(words[i:i + n])
            if key in PHRASES:
                units.append(PhraseUnit(key, PHRASES[key]))
                i += n
                break
        else:
            units.append(PhraseUnit((words[i],)))
            i += 1
    return units
