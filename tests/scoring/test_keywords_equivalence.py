"""The indexed, cached keyword matcher gives exactly what the plain word-by-word scan gives.

The reference here is the matcher as first written (every term tried at every position of every clause with
``token_matches``); the texts are generated from the banks' own words, their inflections, near misses,
negators, punctuation and noise, so phrases, negation windows and clause boundaries all get exercised.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from wmbench.scoring import keywords
from wmbench.scoring.keywords import (
    NEGATION_WINDOW,
    TermMatch,
    load_banks,
    token_matches,
    tokenize,
    words_matched_by,
)

BANKS = load_banks()
ALL_TERMS: tuple[str, ...] = tuple(dict.fromkeys(
    t for family in (BANKS.intensity, BANKS.emotions, BANKS.descriptors, BANKS.npc_types, BANKS.behaviors)
    for terms in family.values() for t in terms
)) + BANKS.vigilance + BANKS.memory_claims
BANK_WORDS: tuple[str, ...] = tuple(sorted({w for t in ALL_TERMS for w in t.split()} | set(BANKS.negators)))
#: every way token_matches can accept a longer token, plus endings it must refuse
ENDINGS: tuple[str, ...] = tuple(sorted(keywords._SUFFIXES | {"ies", "ied", "ily", "iness", "ier", "iest", "ung",
                                                                "ment", "'s"}))
SEPARATORS = (" ", "  ", ", ", ". ", "; ", ": ", "! ", "? ", "\n", " (", ") ", " [", "] ", "-", "\u2019", "'")


# ───────────────────────────── the reference (slow) matcher ─────────────────────────────

def reference_tokenize(text: str) -> list[list[str]]:
    clauses = []
    for clause in re.split(r"[,.;:!?\n()\[\]]+", text.lower()):
        tokens = re.findall(r"[a-z]+(?:'[a-z]+)?", clause.replace("\u2019", "'"))
        if tokens:
            clauses.append(tokens)
    return clauses


def reference_find(text: str, terms: tuple[str, ...], negators: tuple[str, ...]) -> list[TermMatch]:
    clauses = reference_tokenize(text or "")
    matches: list[TermMatch] = []
    for term in terms:
        words = [w for clause in reference_tokenize(term) for w in clause]
        if not words:
            continue
        for ci, tokens in enumerate(clauses):
            for start in range(len(tokens) - len(words) + 1):
                if all(token_matches(tokens[start + k], w) for k, w in enumerate(words)):
                    window = tokens[max(0, start - NEGATION_WINDOW):start]
                    negated = any(tok == neg for tok in window for neg in negators)
                    matches.append(TermMatch(term, ci, start, start + len(words), negated))
    return matches


# ───────────────────────────── generated words and texts ─────────────────────────────

short_words = st.text(alphabet="abdeilnrsuy'", min_size=0, max_size=7)


@st.composite
def inflected(draw: st.DrawFn) -> str:
    """A bank word as the text might carry it: plain, inflected, doubled, e-dropped, y->i, or a near miss."""
    word = draw(st.sampled_from(BANK_WORDS))
    ending = draw(st.sampled_from(ENDINGS))
    form = draw(st.sampled_from(("plain", "suffix", "double", "drop_last", "prefix", "truncate", "upper")))
    if form == "suffix":
        return word + ending
    if form == "double":
        return word + word[-1] + ending
    if form == "drop_last":
        return word[:-1] + ending
    if form == "prefix":
        return draw(st.sampled_from(("under", "un", "re", "s"))) + word
    if form == "truncate":
        return word[:-1]
    if form == "upper":
        return word.upper()
    return word


#: whole bank phrases, and phrases cut short (a clause that ends where a phrase would go on)
PHRASES: tuple[str, ...] = tuple(t for t in ALL_TERMS if " " in t)
PHRASE_STARTS: tuple[str, ...] = tuple(dict.fromkeys(t.rsplit(" ", 1)[0] for t in PHRASES))
pieces = st.one_of(inflected(), inflected(), inflected(), st.sampled_from(BANKS.negators), short_words,
                   st.sampled_from(PHRASES), st.sampled_from(PHRASE_STARTS))


#: mostly plain spaces, so clauses run long enough for phrases and the whole negation window
separators = st.one_of(st.just(" "), st.just(" "), st.sampled_from(SEPARATORS))


@st.composite
def texts(draw: st.DrawFn) -> str:
    words = draw(st.lists(pieces, min_size=0, max_size=24))
    out = []
    for w in words:
        out.append(w)
        out.append(draw(separators))
    return "".join(out)


terms_lists = st.lists(
    st.one_of(st.sampled_from(ALL_TERMS), inflected(), short_words, st.just("..."), st.just("walk, quickly")),
    min_size=0, max_size=40,
).map(tuple)


# ───────────────────────────── equivalence ─────────────────────────────

@settings(max_examples=400, deadline=None)
@given(token=st.one_of(inflected(), short_words), word=st.one_of(st.sampled_from(BANK_WORDS), short_words))
def test_words_matched_by_is_token_matches_backwards(token: str, word: str) -> None:
    assert (word in words_matched_by(token)) == token_matches(token, word)


@settings(max_examples=200, deadline=None)
@given(word=st.one_of(st.sampled_from(BANK_WORDS), short_words), ending=st.sampled_from(ENDINGS),
       double=st.booleans())
def test_every_inflection_token_matches_accepts_is_found_backwards(word: str, ending: str, double: bool) -> None:
    for token in (word + (word[-1:] if double else "") + ending, word[:-1] + ending):
        assert (word in words_matched_by(token)) == token_matches(token, word)


@settings(max_examples=300, deadline=None)
@given(text=texts())
def test_tokenize_is_unchanged(text: str) -> None:
    assert tokenize(text) == reference_tokenize(text)


@settings(max_examples=400, deadline=None)
@given(text=texts(), terms=terms_lists, negation=st.booleans())
@example(text="no, not a calm dog runs; never he slowly walks quickly away", terms=("run", "walk quickly", "calm"),
         negation=True)
@example(text="she walks, then he steps", terms=("walk quickly", "step back"), negation=True)
def test_find_equals_the_plain_scan(text: str, terms: tuple[str, ...], negation: bool) -> None:
    expected = reference_find(text, terms, BANKS.negators if negation else ())
    assert BANKS.find(text, terms, negation=negation) == expected
    assert BANKS.find(text, terms, negation=negation) == expected  # again, from the cache


@settings(max_examples=150, deadline=None)
@given(text=texts())
def test_bank_readings_equal_the_plain_scan(text: str) -> None:
    for tier, terms in BANKS.intensity.items():
        hits = {m.term for m in reference_find(text, terms, BANKS.negators) if not m.negated}
        assert BANKS.intensity_terms(text)[tier] == [t for t in terms if t in hits]


def test_the_banks_own_phrases_match_themselves_and_negation_still_counts() -> None:
    for term in ALL_TERMS:
        assert BANKS.found_terms(f"she {term} now", [term]) == [term], term
        assert BANKS.found_terms(f"she does not {term}", [term]) == [], term


def test_cached_answers_cannot_be_changed_by_a_caller() -> None:
    text = "a person runs, then sprints in terror"
    first = BANKS.find(text, BANKS.intensity["high"])
    first.clear()
    assert BANKS.find(text, BANKS.intensity["high"]) == reference_find(text, BANKS.intensity["high"],
                                                                       BANKS.negators)
    clauses = tokenize(text)
    clauses[0].append("extra")
    assert tokenize(text) == reference_tokenize(text)


def test_empty_and_missing_text_find_nothing() -> None:
    assert BANKS.find("", ALL_TERMS) == [] and BANKS.find(None, ALL_TERMS) == []  # type: ignore[arg-type]
