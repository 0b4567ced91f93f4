"""Keyword banks and the word matcher the keyword-compatible evidence is built on.

The banks live in ``keyword_banks.json`` beside this module: the spec's intensity levels (low/medium/high,
kept verbatim) extended with more words and an ``extreme`` tier, emotion families, vigilance words,
memory-claim words, descriptor words (adverbs, adjectives, body details), NPC type and behaviour words.
``load_banks(extra_path)`` merges a user JSON of the same shape (lists are unioned, families may be added).

Matching is by words, not substrings: a text is split into clauses (at ``, . ; : ! ?``) and lower-case word
tokens; a bank term (one or more words) matches consecutive tokens, each token equal to the term's word or the
word plus a common inflection (``run`` ~ ``runs``/``running``, ``move`` ~ ``moving``, ``wary`` ~ ``warily``).
"understand" never matches "stand". A match preceded within ``NEGATION_WINDOW`` tokens of its clause by a
negator ("not", "no", "without", "instead", ...) is *negated* and does not count: "does not run" is not
running.

Speed (same results as the word-by-word definition above, see ``tests/scoring/
test_keywords_equivalence.py``): a text is tokenized once (:func:`clauses_of`, cached per text); each
distinct token is mapped once to every bank-independent word it can be an inflection of
(:func:`words_matched_by`, cached per token), which gives an index word -> positions per text; a term is then
looked up by its first word instead of being tried at every position. Whole ``find`` answers are cached per
(text, terms, negators) — scoring asks the same questions of the same MOTION texts many times.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

DEFAULT_BANKS_PATH = Path(__file__).with_name("keyword_banks.json")

#: Intensity tiers and their levels (0 = no intensity word at all).
INTENSITY_LEVELS: dict[str, int] = {"low": 1, "medium": 2, "high": 3, "extreme": 4}
LEVEL_NONE, LEVEL_LOW, LEVEL_MEDIUM, LEVEL_HIGH, LEVEL_EXTREME = 0, 1, 2, 3, 4
#: Tokens before a match (same clause) searched for a negator.
NEGATION_WINDOW = 3

_LIST_KEYS = ("negators", "vigilance", "memory_claims", "adverb_stoplist")
_FAMILY_KEYS = ("intensity", "emotions", "descriptors", "npc_types", "behaviors")
_KNOWN_KEYS = frozenset(("version", *_LIST_KEYS, *_FAMILY_KEYS))

_SUFFIXES = frozenset({"", "s", "es", "d", "ed", "ing", "ly", "er", "ers", "ness", "y", "ful"})
_E_DROP_SUFFIXES = frozenset({"ing", "ed", "er", "ers", "ily"})
_Y_TO_I_SUFFIXES = frozenset({"ies", "ied", "ily", "iness", "ier", "iest"})
_CLAUSE_SPLIT = re.compile(r"[,.;:!?\n()\[\]]+")
_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?")
#: bounds of the per-string caches (entries); generous for a run, bounded for a long-lived process
_TEXT_CACHE_SIZE = 1 << 15
_TOKEN_CACHE_SIZE = 1 << 16
_FIND_CACHE_SIZE = 1 << 14


def tokenize(text: str) -> list[list[str]]:
    """Clauses of lower-case word tokens (hyphens split words: "wide-eyed" -> "wide", "eyed")."""
    clauses = clauses_of(text) if isinstance(text, str) else _split_clauses(text)
    return [list(tokens) for tokens in clauses]


@lru_cache(maxsize=_TEXT_CACHE_SIZE)
def clauses_of(text: str) -> tuple[tuple[str, ...], ...]:
    """:func:`tokenize` as read-only tuples, computed once per text."""
    return _split_clauses(text)


def _split_clauses(text: str) -> tuple[tuple[str, ...], ...]:
    clauses = []
    for clause in _CLAUSE_SPLIT.split(text.lower()):
        tokens = _TOKEN.findall(clause.replace("\u2019", "'"))
        if tokens:
            clauses.append(tuple(tokens))
    return tuple(clauses)


def token_matches(token: str, word: str) -> bool:
    """``token`` is ``word`` or ``word`` plus a common inflection (doubled final consonant, dropped e, y ->
    i)."""
    if token == word:
        return True
    if len(word) < 2:
        return False
    if token.startswith(word):
        rest = token[len(word):]
        if rest in _SUFFIXES:
            return True
        if len(rest) > 1 and rest[0] == word[-1] and rest[1:] in _SUFFIXES:  # run -> running, step -> stepped
            return True
    if word.endswith("e") and token.startswith(word[:-1]) and token[len(word) - 1:] in _E_DROP_SUFFIXES:
        return True
    return word.endswith("y") and token.startswith(word[:-1]) and token[len(word) - 1:] in _Y_TO_I_SUFFIXES


@lru_cache(maxsize=_TOKEN_CACHE_SIZE)
def words_matched_by(token: str) -> frozenset[str]:
    """Every word ``w`` with ``token_matches(token, w)``: ``token_matches`` run backwards.

    Each way ``token_matches`` accepts a word is undone from the token's end: the token itself; the token
    less a suffix (``runs`` -> ``run``); less a suffix and a doubled final consonant (``running`` -> ``run``);
    less an e-dropping suffix plus ``e`` (``moving`` -> ``move``); less a y -> i suffix plus ``y``
    (``warily`` -> ``wary``). The candidates are then checked with ``token_matches`` itself, so the set never
    holds a word the forward rule rejects."""
    candidates = {token}
    for suffix in _SUFFIXES:
        if suffix and token.endswith(suffix):
            stem = token[:-len(suffix)]
            candidates.add(stem)
            if len(stem) >= 2 and stem[-1] == stem[-2]:
                candidates.add(stem[:-1])
    for suffix in _E_DROP_SUFFIXES:
        if token.endswith(suffix):
            candidates.add(token[:-len(suffix)] + "e")
    for suffix in _Y_TO_I_SUFFIXES:
        if token.endswith(suffix):
            candidates.add(token[:-len(suffix)] + "y")
    return frozenset(word for word in candidates if token_matches(token, word))


@dataclass(frozen=True)
class _TextIndex:
    """A text's clauses and, per word, the ``(clause, position)`` of every token that matches it, in order."""

    clauses: tuple[tuple[str, ...], ...]
    positions: Mapping[str, tuple[tuple[int, int], ...]]


@lru_cache(maxsize=_TEXT_CACHE_SIZE)
def _text_index(text: str) -> _TextIndex:
    clauses = clauses_of(text)
    positions: dict[str, list[tuple[int, int]]] = {}
    for ci, tokens in enumerate(clauses):
        for i, token in enumerate(tokens):
            for word in words_matched_by(token):
                positions.setdefault(word, []).append((ci, i))
    return _TextIndex(clauses, MappingProxyType({w: tuple(p) for w, p in positions.items()}))


@dataclass(frozen=True)
class TermMatch:
    """One occurrence of a bank term: which term, in which clause, at which tokens, negated or not."""

    term: str
    clause: int
    start: int
    end: int
    negated: bool


@dataclass(frozen=True)
class KeywordBanks:
    """All banks, read-only. Families map a name to its terms; flat lists are tuples of terms."""

    intensity: Mapping[str, tuple[str, ...]]
    emotions: Mapping[str, tuple[str, ...]]
    descriptors: Mapping[str, tuple[str, ...]]
    npc_types: Mapping[str, tuple[str, ...]]
    behaviors: Mapping[str, tuple[str, ...]]
    negators: tuple[str, ...]
    vigilance: tuple[str, ...]
    memory_claims: tuple[str, ...]
    adverb_stoplist: tuple[str, ...]
    source: tuple[str, ...] = ()

    def find(self, text: str, terms: Iterable[str], *, negation: bool = True) -> list[TermMatch]:
        """Every occurrence of any of ``terms`` in ``text`` (negated ones flagged, see module doc)."""
        return _find(text, tuple(terms), self.negators if negation else ())

    def found_terms(self, text: str, terms: Iterable[str], *, negation: bool = True) -> list[str]:
        """Distinct terms with at least one non-negated occurrence, in bank order."""
        hits = {m.term for m in self.find(text, terms, negation=negation) if not m.negated}
        return [t for t in dict.fromkeys(terms) if t in hits]

    def intensity_terms(self, text: str) -> dict[str, list[str]]:
        """Tier name -> distinct non-negated terms of that tier found in ``text``."""
        return {tier: self.found_terms(text, terms) for tier, terms in self.intensity.items()}


def _find(text: str, terms: tuple[str, ...], negators: tuple[str, ...]) -> list[TermMatch]:
    text = text or ""
    if not isinstance(text, str):  # never a scoring input; the plain scan fails (or not) on it as it always did
        return _find_by_scanning(text, terms, negators)
    return list(_find_indexed(text, terms, negators))


@lru_cache(maxsize=_FIND_CACHE_SIZE)
def _find_indexed(text: str, terms: tuple[str, ...], negators: tuple[str, ...]) -> tuple[TermMatch, ...]:
    """Same matches, in the same order (term, then clause, then start), as :func:`_find_by_scanning`."""
    index = _text_index(text)
    negator_set = frozenset(negators)
    matches: list[TermMatch] = []
    for term in terms:
        words = _term_words(term)
        if not words:
            continue
        first, rest = words[0], words[1:]
        for ci, start in index.positions.get(first, ()):
            tokens = index.clauses[ci]
            end = start + len(words)
            if end > len(tokens):
                continue
            if rest and not all(w in words_matched_by(tokens[start + k]) for k, w in enumerate(rest, 1)):
                continue
            negated = not negator_set.isdisjoint(tokens[max(0, start - NEGATION_WINDOW):start])
            matches.append(TermMatch(term, ci, start, end, negated))
    return tuple(matches)


def _find_by_scanning(text: str, terms: tuple[str, ...], negators: tuple[str, ...]) -> list[TermMatch]:
    """The definition: every term tried at every position of every clause (slow; the index gives the same)."""
    clauses = tokenize(text or "")
    matches: list[TermMatch] = []
    for term in terms:
        words = _term_words(term)
        if not words:
            continue
        for ci, tokens in enumerate(clauses):
            for start in range(len(tokens) - len(words) + 1):
                if all(token_matches(tokens[start + k], w) for k, w in enumerate(words)):
                    window = tokens[max(0, start - NEGATION_WINDOW):start]
                    negated = any(tok == neg for tok in window for neg in negators)
                    matches.append(TermMatch(term, ci, start, start + len(words), negated))
    return matches


@lru_cache(maxsize=4096)
def _term_words(term: str) -> tuple[str, ...]:
    return tuple(w for clause in tokenize(term) for w in clause)


def load_banks(extra_path: str | Path | None = None) -> KeywordBanks:
    """The default banks, merged with the user JSON at ``extra_path`` if given.

    The extra file has the same shape as ``keyword_banks.json``; its lists are appended (duplicates dropped)
    and new families (e.g. a new emotion) are added. Unknown top-level keys or wrong types raise
    ``ValueError`` naming what was expected."""
    if extra_path is None:
        return _default_banks()
    data = _merge(_read(DEFAULT_BANKS_PATH), _read(Path(extra_path)), where="")
    return _build(data, (str(DEFAULT_BANKS_PATH), str(extra_path)))


@lru_cache(maxsize=1)
def _default_banks() -> KeywordBanks:
    return _build(_read(DEFAULT_BANKS_PATH), (str(DEFAULT_BANKS_PATH),))


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"keyword banks {path}: expected a readable JSON object ({exc})") from exc
    if not isinstance(data, dict):
        kind = type(data).__name__
        raise ValueError(f"keyword banks {path}: expected a JSON object at the top, got {kind}")
    unknown = sorted(set(data) - _KNOWN_KEYS)
    if unknown:
        raise ValueError(f"keyword banks {path}: unknown keys {unknown}; expected some of "
                         f"{sorted(_KNOWN_KEYS)}")
    return data


def _merge(base: Any, extra: Any, where: str) -> Any:
    if isinstance(base, dict):
        if not isinstance(extra, dict):
            raise ValueError(f"keyword banks: {where or 'top'} must be an object, got {type(extra).__name__}")
        out = dict(base)
        for key, value in extra.items():
            out[key] = _merge(base[key], value, f"{where}.{key}".lstrip(".")) if key in base else value
        return out
    if isinstance(base, list):
        if not isinstance(extra, list) or not all(isinstance(t, str) for t in extra):
            raise ValueError(f"keyword banks: {where} must be a list of strings, got {extra!r:.80}")
        return list(dict.fromkeys([*base, *extra]))
    return extra


def _terms(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) and t.strip() for t in value):
        raise ValueError(f"keyword banks: {where} must be a list of non-empty strings, got {value!r:.80}")
    return tuple(dict.fromkeys(t.strip().lower() for t in value))


def _family(data: dict[str, Any], key: str) -> Mapping[str, tuple[str, ...]]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ValueError(f"keyword banks: {key} must be an object of lists, got {type(value).__name__}")
    return MappingProxyType({name: _terms(terms, f"{key}.{name}") for name, terms in value.items()})


def _build(data: dict[str, Any], source: tuple[str, ...]) -> KeywordBanks:
    intensity = _family(data, "intensity")
    unknown_tiers = sorted(set(intensity) - set(INTENSITY_LEVELS))
    if unknown_tiers:
        raise ValueError(f"keyword banks: unknown intensity tiers {unknown_tiers}; expected "
                         f"{list(INTENSITY_LEVELS)}")
    return KeywordBanks(
        intensity=intensity, emotions=_family(data, "emotions"), descriptors=_family(data, "descriptors"),
        npc_types=_family(data, "npc_types"), behaviors=_family(data, "behaviors"),
        **{key: _terms(data.get(key, []), key) for key in _LIST_KEYS}, source=source,
    )
