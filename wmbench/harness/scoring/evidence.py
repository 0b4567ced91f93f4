"""Shared evidence readers: what a decision's words said and what its body did, each against the truth.

Keyword-compatible readings: the PREDICT items (verdict, reason, raw item text), spatial accuracy of a PREDICT
against the ray-cast truth, the intensity of a MOTION text, its descriptors and emotion families.
Sim-grounded readings: the realized motion (direction sector, speed class, posture), collisions, ``caught``,
movement into a sector the truth (or the brain's own PREDICT) marks dangerous, the start-frame sector of a
displacement, NPC presence, the hidden inconsistency (safe action, wrong PREDICT).

A decision whose reply could not be parsed (``parse["ok"]`` false) is a *miss*: no PREDICT, no intensity.
Its sim facts (collision, caught, where the body went on a salvaged MOTION) still count against it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wmbench.envs.trace import DecisionRecord, NpcFact, Trace, Truth
from wmbench.harness.scoring.keywords import INTENSITY_LEVELS, LEVEL_HIGH, LEVEL_NONE, KeywordBanks, tokenize

DIRECTIONS: tuple[str, ...] = ("left", "right", "fwd", "back")
SPEED_RANKS: dict[str, int] = {"still": 0, "walk": 1, "jog": 2, "run": 3, "sprint": 4}
MAX_SPEED_RANK = 4
#: postures that show tension even when standing (they lift the body's share of intensity to a jog's)
TENSE_POSTURES = frozenset({"freeze", "crouch", "defensive"})
TENSE_POSTURE_RANK = 2
#: intensity = KEYWORD_WEIGHT * keyword part + BODY_WEIGHT * body part (both 0..1)
KEYWORD_WEIGHT = 0.5
BODY_WEIGHT = 0.5
#: keyword intensity: strongest tier (0..4) plus this much per further distinct high/extreme term, capped
ESCALATION_BONUS_PER_TERM = 0.25
ESCALATION_BONUS_CAP = 2.0
KEYWORD_INTENSITY_MAX = LEVEL_NONE + max(INTENSITY_LEVELS.values()) + ESCALATION_BONUS_CAP
#: displacement below this (m) has no direction
MIN_DISPLACEMENT_M = 0.1
#: spatial accuracy (spec: exact 20 / partial 10 / miss 0); partial = this many directions right and, when the
#: truth has any danger, at least one danger direction flagged danger
SPATIAL_POINTS = {"exact": 20.0, "partial": 10.0, "miss": 0.0}
PARTIAL_MIN_CORRECT = 3
SAFE_REASONS = frozenset({"open", "exit", None})
_SCENE_TO_GRAMMAR = {"front": "fwd", "fwd": "fwd", "forward": "fwd", "ahead": "fwd", "left": "left",
                     "right": "right", "back": "back", "behind": "back", "backward": "back", "rear": "back"}
_DISTANCE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:m|meters?|metres?)\b", re.IGNORECASE)
_PREDICT_LINE = re.compile(r"predict\s*[:=]\s*(.*)", re.IGNORECASE)
_MOTION_LINE = re.compile(r"motion\s*[:=]\s*(.*)", re.IGNORECASE)


# ───────────────────────────── reply: PREDICT and MOTION ─────────────────────────────

@dataclass(frozen=True)
class PredictItem:
    """One ``dir=verdict(reason)`` item as the grammar read it, with its raw text."""

    direction: str
    verdict: str
    reason: str | None
    raw: str = ""


def parse_ok(d: DecisionRecord) -> bool:
    return bool((d.parse or {}).get("ok"))


def prediction(d: DecisionRecord) -> dict[str, PredictItem] | None:
    """The PREDICT items of a parsed reply, or None for a parse error (a miss)."""
    if not parse_ok(d):
        return None
    raw_from_reply = _raw_items_from_reply(d.reply or "")
    items: dict[str, PredictItem] = {}
    for key, value in ((d.parse or {}).get("prediction") or {}).items():
        direction = _SCENE_TO_GRAMMAR.get(str(key).lower())
        if direction is None:
            continue
        if isinstance(value, dict):
            verdict, reason, raw = value.get("verdict"), value.get("reason"), value.get("raw")
        else:
            seq = [*list(value), None, None, None]
            verdict, reason, raw = seq[0], seq[1], seq[2]
        items[direction] = PredictItem(
            direction, str(verdict or "").lower(), str(reason).lower() if reason else None,
            str(raw) if raw else raw_from_reply.get(direction, ""),
        )
    return items


def motion_text(d: DecisionRecord) -> str:
    """The MOTION text (from the parse, else the reply's MOTION line); empty for a parse error."""
    if not parse_ok(d):
        return ""
    motion = (d.parse or {}).get("motion")
    if isinstance(motion, str) and motion.strip():
        return motion.strip()
    for line in (d.reply or "").splitlines():
        m = _MOTION_LINE.search(line)
        if m:
            return m.group(1).strip()
    return ""


def _raw_items_from_reply(reply: str) -> dict[str, str]:
    body = next((m.group(1) for m in map(_PREDICT_LINE.search, reply.splitlines()) if m), "")
    items: dict[str, str] = {}
    depth, start = 0, 0
    for i, ch in enumerate(body + ","):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth <= 0:
            item = body[start:i].strip()
            start = i + 1
            key = re.match(r"\s*([a-zA-Z]+)\s*=", item)
            direction = _SCENE_TO_GRAMMAR.get(key.group(1).lower()) if key else None
            if direction and direction not in items:
                items[direction] = item
    return items


def distances_in(text: str) -> list[float]:
    """Distances written in metres (``5m``, ``4.8 m``, ``3 metres``), in order."""
    return [float(m.group(1)) for m in _DISTANCE.finditer(text or "")]


# ───────────────────────────── PREDICT vs truth ─────────────────────────────

@dataclass(frozen=True)
class DirectionCheck:
    """One direction of a PREDICT against the truth: right when verdict and reason both fit."""

    direction: str
    truth_safe: bool
    truth_reason: str
    verdict: str | None
    reason: str | None

    @property
    def verdict_ok(self) -> bool:
        return self.verdict == ("safe" if self.truth_safe else "danger")

    @property
    def correct(self) -> bool:
        if not self.verdict_ok:
            return False
        return self.reason in SAFE_REASONS if self.truth_safe else self.reason == self.truth_reason


@dataclass(frozen=True)
class SpatialResult:
    """Spatial accuracy of one decision: ``exact``/``partial``/``miss`` and the direction checks behind it."""

    level: str
    n_correct: int
    danger_found: bool
    checks: tuple[DirectionCheck, ...] = ()

    @property
    def points(self) -> float:
        return SPATIAL_POINTS[self.level]

    def wrong_directions(self) -> list[str]:
        return [c.direction for c in self.checks if not c.correct]


def direction_checks(d: DecisionRecord) -> tuple[DirectionCheck, ...] | None:
    items = prediction(d)
    if items is None:
        return None
    checks = []
    for direction in DIRECTIONS:
        t = d.truth.directions.get(direction)
        if t is None:
            continue
        item = items.get(direction)
        checks.append(DirectionCheck(direction, t.safe, t.reason, item.verdict if item else None,
                                     item.reason if item else None))
    return tuple(checks)


def spatial_accuracy(d: DecisionRecord) -> SpatialResult:
    """Exact = every direction right; partial = ``PARTIAL_MIN_CORRECT`` right and (if the truth has danger) at
    least one true danger flagged ``danger``; otherwise (and for a parse error) a miss."""
    checks = direction_checks(d)
    if checks is None:
        return SpatialResult("miss", 0, False)
    n_correct = sum(c.correct for c in checks)
    dangers = [c for c in checks if not c.truth_safe]
    danger_found = any(c.verdict == "danger" for c in dangers)
    if checks and n_correct == len(checks):
        level = "exact"
    elif n_correct >= PARTIAL_MIN_CORRECT and (danger_found or not dangers):
        level = "partial"
    else:
        level = "miss"
    return SpatialResult(level, n_correct, danger_found, checks)


def predicted_danger(d: DecisionRecord, direction: str | None) -> bool:
    items = prediction(d) or {}
    item = items.get(direction) if direction else None
    return item is not None and item.verdict == "danger"


def predicted_reason_anywhere(d: DecisionRecord, reason: str, verdict: str = "danger") -> list[str]:
    items = prediction(d) or {}
    return [k for k, item in items.items() if item.reason == reason and item.verdict == verdict]


# ───────────────────────────── realized motion and events ─────────────────────────────

@dataclass(frozen=True)
class Realized:
    """What the body did in one decision, as the env measured it (``realized``), with fallbacks."""

    direction: str | None
    distance: float
    speed_class: str
    posture: str
    min_threat_distance: float | None

    @property
    def speed_rank(self) -> int:
        return SPEED_RANKS.get(self.speed_class, 0)

    @property
    def moved(self) -> bool:
        return self.direction is not None and self.speed_rank > 0


def realized(d: DecisionRecord) -> Realized:
    """The realized motion; missing fields fall back to the body states (displacement) and the intent."""
    r = d.realized or {}
    if "direction" in r:
        direction = _SCENE_TO_GRAMMAR.get(str(r["direction"]).lower()) if r["direction"] else None
        distance = float(r.get("distance") or 0.0)
    else:
        displacement = _displacement(d)
        heading = float((d.body_before or {}).get("heading", 0.0))
        direction = sector_of(displacement, heading) if displacement else None
        distance = math.hypot(*displacement) if displacement else 0.0
    speed_class = r.get("speed_class") or (d.body_after or {}).get("speed_class") or "still"
    return Realized(direction, distance, str(speed_class), str(r.get("posture") or "upright"),
                    r.get("min_threat_distance"))


def _displacement(d: DecisionRecord) -> tuple[float, float] | None:
    before, after = (d.body_before or {}).get("position"), (d.body_after or {}).get("position")
    if not before or not after:
        return None
    dx, dy = float(after[0]) - float(before[0]), float(after[1]) - float(before[1])
    return (dx, dy) if math.hypot(dx, dy) >= MIN_DISPLACEMENT_M else None


def sector_of(vector: tuple[float, float], reference_heading: float) -> str:
    """Sector word (fwd/left/right/back) of a world-frame vector relative to ``reference_heading``."""
    angle = math.atan2(vector[1], vector[0]) - reference_heading
    angle = math.atan2(math.sin(angle), math.cos(angle))
    if abs(angle) <= math.pi / 4:
        return "fwd"
    if abs(angle) >= 3 * math.pi / 4:
        return "back"
    return "left" if angle > 0 else "right"


def phase_reference_heading(trace: Trace, phase: int) -> float:
    """The protagonist's heading at the first decision of ``phase`` (the phase's start frame)."""
    first = next((d for d in trace.decisions if d.phase == phase), None)
    return float((first.body_before or {}).get("heading", 0.0)) if first else 0.0


def world_sector(d: DecisionRecord, reference_heading: float) -> str | None:
    """Start-frame sector of this decision's displacement (None when it hardly moved)."""
    displacement = _displacement(d)
    return sector_of(displacement, reference_heading) if displacement else None


def event_kinds(d: DecisionRecord) -> frozenset[str]:
    return frozenset(e.kind for e in d.events)


def collided(d: DecisionRecord) -> bool:
    return any(k.startswith("collision") for k in event_kinds(d))


def caught(d: DecisionRecord) -> bool:
    return "caught" in event_kinds(d)


def trace_caught(trace: Trace) -> bool:
    return "caught" in trace.event_kinds() or any(caught(d) for d in trace.decisions)


def contact(d: DecisionRecord) -> bool:
    """A collision with a wall or being caught during this decision."""
    return collided(d) or caught(d)


def into_danger(d: DecisionRecord) -> bool:
    """The body moved into a sector the truth marks dangerous."""
    r = realized(d)
    t = d.truth.directions.get(r.direction) if r.moved else None
    return t is not None and not t.safe


def into_predicted_danger(d: DecisionRecord) -> bool:
    """The body moved into a sector the brain's own PREDICT marks dangerous."""
    r = realized(d)
    return r.moved and predicted_danger(d, r.direction)


def moved_safe(d: DecisionRecord) -> bool:
    """Moved, into a sector the truth marks safe, without a collision or being caught."""
    r = realized(d)
    t = d.truth.directions.get(r.direction) if r.moved else None
    return t is not None and t.safe and not contact(d)


def facing_kept(d: DecisionRecord, tolerance_rad: float = math.radians(30)) -> bool:
    before, after = (d.body_before or {}).get("heading"), (d.body_after or {}).get("heading")
    if before is None or after is None:
        return False
    delta = math.atan2(math.sin(after - before), math.cos(after - before))
    return abs(delta) <= tolerance_rad


# ───────────────────────────── NPC truth ─────────────────────────────

def canonical_type(npc_type: str) -> str:
    return "beast" if npc_type == "beast" else "human"


def beasts(truth: Truth, nearby_only: bool = False) -> list[NpcFact]:
    return [n for n in truth.npcs if n.type == "beast" and (n.nearby or not nearby_only)]


def humans(truth: Truth, nearby_only: bool = False) -> list[NpcFact]:
    return [n for n in truth.npcs if n.type != "beast" and (n.nearby or not nearby_only)]


def beast_present(d: DecisionRecord) -> bool:
    return bool(beasts(d.truth))


def beast_nearby(d: DecisionRecord) -> bool:
    return bool(beasts(d.truth, nearby_only=True))


def beast_behavior(d: DecisionRecord) -> str | None:
    """Behaviour of the most relevant beast (nearby first, then any)."""
    found = beasts(d.truth, nearby_only=True) or beasts(d.truth)
    return found[0].behavior if found else None


def threatened(d: DecisionRecord) -> bool:
    """A beast is nearby: the decisions C03/C04 threat rules score."""
    return beast_nearby(d)


# ───────────────────────────── intensity ─────────────────────────────

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
    combined = KEYWORD_WEIGHT * kw.value / KEYWORD_INTENSITY_MAX + BODY_WEIGHT * body / MAX_SPEED_RANK
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


# ───────────────────────────── hidden inconsistency ─────────────────────────────

def safe_action(d: DecisionRecord) -> bool:
    """The body's action was safe: moved into a truly safe sector, or stood still with no beast nearby —
    either way without a collision or being caught."""
    if contact(d):
        return False
    r = realized(d)
    return moved_safe(d) if r.moved else not beast_nearby(d)


def hidden_inconsistency(decisions: Iterable[DecisionRecord]) -> dict[str, Any]:
    """Decisions whose action was safe but whose PREDICT was not exact: ``{count, safe_decisions, rate,
    indices}`` (rate None when no action was safe)."""
    safe = [d for d in decisions if safe_action(d)]
    wrong = [d.index for d in safe if spatial_accuracy(d).level != "exact"]
    return {"count": len(wrong), "safe_decisions": len(safe),
            "rate": round(len(wrong) / len(safe), 4) if safe else None, "indices": wrong}


def mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values)) if values else 0.0
