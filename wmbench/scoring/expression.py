"""What a decision expressed: intensity (words and body), descriptors, emotion families, vigilance words.

Intensity combines the MOTION's words (strongest intensity tier 0–4 plus a bonus for further strong terms) and
the body (realized speed class rank 0–4; a tense posture counts as a jog), half each, into 0–1 — words alone
never reach a flight-level intensity the body did not deliver, and neither do words with a tense posture: a
posture shows tension, not flight, so when only the posture lifts a decision to ``HIGH_MIN`` or above it stays
``POSTURE_CEILING_MARGIN`` below (freezing in terror is not a flight-level reaction). A parse error is a
miss: intensity 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wmbench.core.speed import MAX_SPEED_RANK
from wmbench.protocol.trace import DecisionRecord
from wmbench.scoring.keywords import INTENSITY_LEVELS, LEVEL_HIGH, LEVEL_NONE, KeywordBanks, tokenize
from wmbench.scoring.movement import realized
from wmbench.scoring.reply import motion_text, parse_ok
from wmbench.scoring.thresholds import HIGH_MIN

#: postures that show tension even when standing (they lift the body's share of intensity to a jog's)
TENSE_POSTURES = frozenset({"freeze", "crouch", "defensive"})
TENSE_POSTURE_RANK = 2
#: a posture-lifted intensity stops this far below the flight level (``HIGH_MIN``)
POSTURE_CEILING_MARGIN = 0.01
#: intensity = KEYWORD_WEIGHT * keyword part + BODY_WEIGHT * body part (both 0..1)
KEYWORD_WEIGHT = 0.5
BODY_WEIGHT = 0.5
#: keyword intensity: strongest tier (0..4) plus this much per further distinct high/extreme term, capped
ESCALATION_BONUS_PER_TERM = 0.25
ESCALATION_BONUS_CAP = 2.0
KEYWORD_INTENSITY_MAX = LEVEL_NONE + max(INTENSITY_LEVELS.values()) + ESCALATION_BONUS_CAP


@dataclass(frozen=True)
class Intensity:
    """How intense a decision was: by its words (level 0–4, value 0–5), by its body (rank 0–4), combined 0–1.
    """

    keyword_level: int
    keyword_value: float
    body_rank: int
    combined: float
    terms: tuple[str, ...] = ()

    @property
    def keyword_norm(self) -> float:
        return self.keyword_value / KEYWORD_INTENSITY_MAX

    @property
    def body_norm(self) -> float:
        return self.body_rank / MAX_SPEED_RANK

    def to_dict(self) -> dict[str, Any]:
        return {"keyword_level": self.keyword_level, "keyword_value": round(self.keyword_value, 3),
                "body_rank": self.body_rank, "combined": round(self.combined, 3), "terms": list(self.terms)}


@dataclass(frozen=True)
class KeywordIntensity:
    level: int
    value: float
    terms: tuple[str, ...] = field(default=())


def keyword_intensity(text: str, banks: KeywordBanks) -> KeywordIntensity:
    """Strongest intensity tier named (0 none … 4 extreme) plus ``ESCALATION_BONUS_PER_TERM`` for each further
    distinct high/extreme term (capped): "sprint" < "sprint in fear" < "desperate sprint in terror"."""
    found = banks.intensity_terms(text)
    level = max((INTENSITY_LEVELS[tier] for tier, terms in found.items() if terms), default=LEVEL_NONE)
    strong = list(dict.fromkeys(t for tier, terms in found.items() if INTENSITY_LEVELS[tier] >= LEVEL_HIGH
                                for t in terms))
    bonus = min(ESCALATION_BONUS_CAP, ESCALATION_BONUS_PER_TERM * max(0, len(strong) - 1))
    terms = tuple(dict.fromkeys(t for terms in found.values() for t in terms))
    return KeywordIntensity(level, level + bonus, terms)


def decision_intensity(d: DecisionRecord, banks: KeywordBanks) -> Intensity:
    """Combined intensity of a decision: words (MOTION) and body (realized speed class, tense posture).
    A parse error is a miss: intensity 0."""
    if not parse_ok(d):
        return Intensity(LEVEL_NONE, 0.0, 0, 0.0)
    kw = keyword_intensity(motion_text(d), banks)
    r = realized(d)
    body = max(r.speed_rank, TENSE_POSTURE_RANK if r.posture in TENSE_POSTURES else 0)
    words = KEYWORD_WEIGHT * kw.value / KEYWORD_INTENSITY_MAX
    combined = words + BODY_WEIGHT * body / MAX_SPEED_RANK
    moving = words + BODY_WEIGHT * r.speed_rank / MAX_SPEED_RANK
    if combined >= HIGH_MIN > moving:   # a posture shows tension, never flight: it cannot lift words that high
        combined = HIGH_MIN - POSTURE_CEILING_MARGIN
    return Intensity(kw.level, kw.value, body, combined, kw.terms)


# ───────────────────────────── descriptors and emotions ─────────────────────────────

def descriptor_terms(text: str, banks: KeywordBanks) -> list[str]:
    """Distinct descriptors in a MOTION text: emotion words, bank adverbs/adjectives/body details, and any
    other ``-ly`` adverb (not stop-listed). Each word of the text counts for one descriptor at most (longest
    term first: "slowly" is one descriptor, not "slowly" and "slow"); negated words do not count."""
    families = [*banks.emotions.values(), *banks.descriptors.values()]
    matches = [m for terms in families for m in banks.find(text, terms) if not m.negated]
    matches.sort(key=lambda m: (-(m.end - m.start), -len(m.term), m.clause, m.start))
    found: list[str] = []
    covered: set[tuple[int, int]] = set()
    for m in matches:
        span = {(m.clause, i) for i in range(m.start, m.end)}
        if span & covered:
            continue
        covered |= span
        found.append(m.term)
    for ci, tokens in enumerate(tokenize(text or "")):
        for i, tok in enumerate(tokens):
            if (tok.endswith("ly") and len(tok) >= 5 and tok not in banks.adverb_stoplist
                    and (ci, i) not in covered):
                found.append(tok)
    return list(dict.fromkeys(found))


def emotion_families(text: str, banks: KeywordBanks) -> dict[str, list[str]]:
    """Emotion family -> distinct non-negated terms of that family found (families with none are left out)."""
    out = {family: banks.found_terms(text, terms) for family, terms in banks.emotions.items()}
    return {k: v for k, v in out.items() if v}


def vigilance_terms(text: str, banks: KeywordBanks) -> list[str]:
    return banks.found_terms(text, banks.vigilance)
