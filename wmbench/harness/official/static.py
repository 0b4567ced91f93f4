"""Track A, static: one decision per upstream record, scored against its ``ground_truth`` by the official rules.

Card
----
Each C01..C08 record's ``scene_context`` (official keys only, exactly as the record gives it) goes to the brain
once; its reply is read by wmbench's grammar and scored out of 20:

- **PREDICT** (the spec's ``spatial_accuracy``: exact 20 / partial 10 / miss 0), per direction of
  ``ground_truth.predict``: a direction *matches* when the verdict (safe/danger) is the same and, where the
  truth names a reason, the reply names the same one. *exact*: every direction matches; *partial*: every
  verdict is right but a reason is missing or wrong, or at least half of the directions match; *miss*
  otherwise (an unreadable reply is a miss).
- **MOTION** (the spec's ``expression_richness`` tiers 20/15/10/0 applied to the record's
  ``motion_keywords``): the distinct keywords found in the MOTION line by whole words, negation-aware ("not
  running" is not "run"); all of them (or 3+) 20, 2 → 15, 1 → 10, none 0.
- record points = (PREDICT + MOTION) / 2, of 20.

A category is the mean record points × 5 (of 100: five official scenarios of 20, however many records the file
has for it); the static total is the sum over the categories present. ``official_scale`` rescales a complete
C01..C08 total (of 800) to the official Track-A maximum of 750 (``total × 750 / 800``, stated in the output);
C09/C10 records are N/A in Track A (reported, never scored). Simplified: the upstream scorer's exact keyword
matching code is not public in the spec; these tiers are written from the spec's published point tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypedDict

from wmbench.brain.base import Brain
from wmbench.brain.seeding import brain_seed
from wmbench.core.taxonomy import CATEGORY_TITLES
from wmbench.protocol.grammar import Decision, ParseError, parse_reply
from wmbench.protocol.observation import BrainInput, as_brain_input
from wmbench.scenarios.track_a import TRACK_A_CATEGORIES, OfficialRecord
from wmbench.scoring.keywords import KeywordBanks, load_banks

#: The official Track-A maximum (the official evaluation protocol: "Track A ... max 750/1000").
TRACK_A_OFFICIAL_MAX = 750
RECORD_MAX = 20.0
SCENARIOS_PER_CATEGORY = 5
PREDICT_POINTS = {"exact": 20, "partial": 10, "miss": 0}
MOTION_POINTS = {3: 20, 2: 15, 1: 10, 0: 0}


@dataclass(frozen=True)
class StaticRecordScore:
    """One record's decision and points (PREDICT tier, MOTION keyword hits, total of 20)."""

    id: str
    category: str
    reply: str
    parsed: bool
    predict_tier: str
    predict_points: int
    directions_matched: int
    directions_total: int
    keywords_found: tuple[str, ...]
    motion_points: int
    points: float
    latency_s: float
    error: str | None = None


class StaticCategory(TypedDict):
    score: float
    max: float
    records: int


class StaticResult(TypedDict):
    """What ``track_a_static.json`` holds."""

    track: str
    mode: str
    brain: str
    source: str
    records: list[dict[str, Any]]
    categories: dict[str, StaticCategory]
    not_applicable: list[str]
    total: float
    total_max: float
    official_scale: float | None
    official_max: int
    formula: str


def predict_tier(reply: Decision | ParseError, record: OfficialRecord) -> tuple[str, int]:
    """(tier, directions matched) of a reply's PREDICT against ``record.predict``."""
    prediction = reply.prediction
    if prediction is None:
        return "miss", 0
    matched = verdicts_right = 0
    for direction, (verdict, reason) in record.predict.items():
        item = prediction.get(direction)  # type: ignore[arg-type]
        if item is None or item.verdict != verdict:
            continue
        verdicts_right += 1
        if reason is None or item.reason == reason:
            matched += 1
    total = len(record.predict)
    if matched == total:
        return "exact", matched
    if verdicts_right == total or matched * 2 >= total:
        return "partial", matched
    return "miss", matched


def keywords_found(motion: str, record: OfficialRecord, banks: KeywordBanks) -> tuple[str, ...]:
    """The record's ``motion_keywords`` present in ``motion`` (whole words, negation-aware)."""
    return tuple(banks.found_terms(motion, record.motion_keywords)) if motion else ()


def motion_points(found: int, wanted: int) -> int:
    if wanted and found >= min(3, wanted):
        return MOTION_POINTS[3]
    return MOTION_POINTS[min(found, 2)]


def score_record(record: OfficialRecord, reply_text: str, banks: KeywordBanks, *, latency_s: float = 0.0,
                 error: str | None = None) -> StaticRecordScore:
    """One record's points for one reply (see the module card)."""
    parsed = parse_reply(reply_text)
    tier, matched = predict_tier(parsed, record)
    motion = parsed.motion or ""
    found = keywords_found(motion, record, banks)
    m_points = motion_points(len(found), len(record.motion_keywords))
    p_points = PREDICT_POINTS[tier]
    return StaticRecordScore(
        id=record.id, category=record.category, reply=reply_text, parsed=parsed.ok, predict_tier=tier,
        predict_points=p_points, directions_matched=matched, directions_total=len(record.predict),
        keywords_found=found, motion_points=m_points, points=(p_points + m_points) / 2, latency_s=latency_s,
        error=error)


def official_scene(record: OfficialRecord) -> BrainInput:
    """The scene the brain is shown: the record's ``scene_context`` as given (a fresh copy)."""
    return as_brain_input({key: (dict(value) if isinstance(value, dict) else list(value) if isinstance(value, list)
                                 else value) for key, value in record.scene_context.items()})


def run_static(records: Sequence[OfficialRecord], brain: Brain, brain_spec: str, source: str,
               banks: KeywordBanks | None = None) -> StaticResult:
    """Ask ``brain`` once per C01..C08 record and score every reply; C09/C10 records are listed N/A.

    A failed brain call (``BrainReply.error``) is recorded and scored as a miss (an empty reply)."""
    banks = banks or load_banks()
    scored: list[StaticRecordScore] = []
    not_applicable: list[str] = []
    for record in records:
        if record.category not in TRACK_A_CATEGORIES:
            not_applicable.append(record.id)
            continue
        brain.reset(brain_seed(0))
        reply = brain.decide(official_scene(record))
        text = "" if reply.error else reply.text
        scored.append(score_record(record, text, banks, latency_s=reply.latency_s, error=reply.error))
    return static_result(scored, not_applicable, brain_spec, source)


def static_result(scored: Sequence[StaticRecordScore], not_applicable: Sequence[str], brain_spec: str,
                  source: str) -> StaticResult:
    """Categories, total and the official-scale total of scored records."""
    categories: dict[str, StaticCategory] = {}
    for category in TRACK_A_CATEGORIES:
        points = [s.points for s in scored if s.category == category]
        if points:
            categories[category] = {"score": round(sum(points) / len(points) * SCENARIOS_PER_CATEGORY, 3),
                                    "max": RECORD_MAX * SCENARIOS_PER_CATEGORY, "records": len(points)}
    total = round(sum(c["score"] for c in categories.values()), 3)
    total_max = RECORD_MAX * SCENARIOS_PER_CATEGORY * len(categories)
    complete = len(categories) == len(TRACK_A_CATEGORIES)
    return {
        "track": "A", "mode": "static", "brain": brain_spec, "source": source,
        "records": [{**asdict(s), "keywords_found": list(s.keywords_found)} for s in scored],
        "categories": categories, "not_applicable": list(not_applicable), "total": total, "total_max": total_max,
        "official_scale": round(total * TRACK_A_OFFICIAL_MAX / total_max, 3) if complete and total_max else None,
        "official_max": TRACK_A_OFFICIAL_MAX,
        "formula": "record = (PREDICT tier 20/10/0 + MOTION keyword tier 20/15/10/0) / 2; category = mean record "
                   "x 5 (of 100); total = sum of C01..C08; official_scale = total x 750 / 800 (complete runs "
                   "only); C09/C10 N/A in Track A",
    }


def format_static(result: StaticResult) -> str:
    """The table printed after a static run."""
    lines = [f"{'category':<32} {'points':>8}  records"]
    for category, entry in result["categories"].items():
        label = f"{category} {CATEGORY_TITLES.get(category, '')}"
        lines.append(f"{label:<32} {entry['score']:>8.1f} / {entry['max']:g}  {entry['records']}")
    lines.append("-" * 52)
    lines.append(f"{'Track A static total':<32} {result['total']:>8.1f} / {result['total_max']:g}")
    if result["official_scale"] is not None:
        lines.append(f"{'official scale':<32} {result['official_scale']:>8.1f} / {result['official_max']}")
    if result["not_applicable"]:
        lines.append(f"N/A in Track A (C09/C10): {', '.join(result['not_applicable'])}")
    return "\n".join(lines)
