"""Expressive MOTION wording for the reference brain: phrase banks (data) and how they compose.

A :class:`MotionPlan` says *what* the body should do (mood, gait, speed, one direction);
:func:`compose_motion` turns it into one MOTION sentence such as::

    a person sprints headlong to the right in sheer terror, arms pumping wildly, breath ragged

Rules every sentence obeys (tests check every supported plan, not just samples):

- it names exactly one direction, with one of the phrases ``wmbench.body.intent.reader`` reads ("to the
  left", "to the right", "forward", "turns around ... away", "backs away", "steps back") — no other direction
  word anywhere (no "frightened", "upright", "behind", "straight"); the only other such words are the looks
  "glancing back" and "looking around", which the parser reads as glances;
- it contains exactly one speed word (sprints, runs, jogs, walks; "freezes"/"stands" for staying in place)
  and no word that bumps the parser's speed class (a run says no "quickly", a jog no "slowly");
- it carries at least three descriptors that fit the mood: an adverb of manner, an emotion phrase and two body
  details. Phrasing varies deterministically with a ``variant`` number (the decision count).

Intensity words climb with :class:`Mood`: calm < relieved < cautious/defensive < vigilant/wary/tense < fear <
terror < desperate < frantic < panic. Every cautious/vigilant/wary sentence says "cautious" (the spec's medium
bank), relieved and calm ones use no medium or high word, and from terror up each rung adds a high-bank word
(terror, + desperate, + frantic, + panic/flee), so keyword scorers see escalation and de-escalation.
:data:`MOOD_SPEEDS`, :data:`BACKSTEP_MOODS` and :data:`STILL_MOODS` list the combinations the banks are
written for (the reference brain plans nothing else).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from wmbench.core.entities import BEHAVIOR_ROWS
from wmbench.core.speed import SpeedName

SPEED_VERBS: dict[str, str] = {"walk": "walks", "jog": "jogs", "run": "runs", "sprint": "sprints"}


class Mood(str, enum.Enum):
    """The felt state behind a motion. :attr:`intensity` orders them (0 calm … 8 panic)."""

    CALM = "calm"
    RELIEVED = "relieved"
    CAUTIOUS = "cautious"
    DEFENSIVE = "defensive"
    VIGILANT = "vigilant"
    WARY = "wary"
    TENSE = "tense"
    FEAR = "fear"
    TERROR = "terror"
    DESPERATE = "desperate"
    FRANTIC = "frantic"
    PANIC = "panic"

    @property
    def intensity(self) -> int:
        return MOOD_INTENSITY[self]


MOOD_INTENSITY: dict[Mood, int] = {
    Mood.CALM: 0, Mood.RELIEVED: 1, Mood.CAUTIOUS: 2, Mood.DEFENSIVE: 2, Mood.VIGILANT: 3, Mood.WARY: 3,
    Mood.TENSE: 3, Mood.FEAR: 4, Mood.TERROR: 5, Mood.DESPERATE: 6, Mood.FRANTIC: 7, Mood.PANIC: 8,
}
#: The escalation ladder for a persisting beast threat (index = how far it has escalated).
ESCALATION_LADDER: tuple[Mood, ...] = (Mood.FEAR, Mood.TERROR, Mood.DESPERATE, Mood.FRANTIC, Mood.PANIC)


class Gait(str, enum.Enum):
    """How the body carries out the plan.

    TRAVEL: move in ``direction`` facing it; BACKSTEP: move backward while still facing the threat;
    FREEZE: stay in place, rigid (first sight of a beast); CORNERED: stay in place crouched, looking for a way
    out (every direction is dangerous); STAND: stay in place at ease (nowhere to go, nothing to fear).
    """

    TRAVEL = "travel"
    BACKSTEP = "backstep"
    FREEZE = "freeze"
    CORNERED = "cornered"
    STAND = "stand"

    @property
    def moves(self) -> bool:
        return self in (Gait.TRAVEL, Gait.BACKSTEP)


@dataclass(frozen=True)
class NpcMention:
    """The NPC a sentence names: its ``noun`` (beast, woman, man), ``behavior`` and ``distance`` (m)."""

    noun: str
    behavior: str
    distance: float

    def phrase(self) -> str:
        adjective = BEHAVIOR_ADJECTIVES.get(self.behavior, "")
        return " ".join(w for w in ("the", adjective, self.noun) if w) + f" at {self.distance:.1f} m"


@dataclass(frozen=True)
class MotionPlan:
    """What the body should do this decision. ``direction`` is a grammar word (fwd/left/right/back) for a
    moving gait and None for one that stays in place; ``speed`` is "still" exactly when the gait stays.
    ``recalls_past`` appends a phrase about an earlier encounter (only when there was one); ``npc`` names the
    NPC in view with its behaviour and distance."""

    mood: Mood
    gait: Gait
    speed: SpeedName
    direction: str | None
    recalls_past: bool = False
    npc: NpcMention | None = None

    def __post_init__(self) -> None:
        if self.gait.moves and (self.direction is None or self.speed == "still"):
            raise ValueError(f"a {self.gait.value} plan needs a direction and a speed, got {self!r}")
        if not self.gait.moves and (self.direction is not None or self.speed != "still"):
            raise ValueError(f"a {self.gait.value} plan stays in place, got {self!r}")
        if self.gait is Gait.BACKSTEP and self.direction != "back":
            raise ValueError(f"a back-step goes back, got direction {self.direction!r}")

    @property
    def intensity(self) -> int:
        return self.mood.intensity


@dataclass(frozen=True)
class MoodWords:
    """The phrase bank of one mood: adverbs of manner, emotion phrases and body details."""

    manners: tuple[str, ...]
    feelings: tuple[str, ...]
    details: tuple[str, ...]


MOOD_WORDS: dict[Mood, MoodWords] = {
    Mood.CALM: MoodWords(
        manners=("calmly", "easily", "steadily", "casually"),
        feelings=("calm and at ease", "relaxed and unhurried", "in a normal, calm mood",
                  "composed and untroubled"),
        details=("arms loose and relaxed", "shoulders relaxed", "breathing evenly", "face composed and calm",
                 "head held high", "posture easy and open"),
    ),
    Mood.RELIEVED: MoodWords(
        manners=("gently", "loosely", "easily"),
        feelings=("with a deep sigh of relief", "in visible relief", "relieved and catching breath",
                  "finally relaxing in relief"),
        details=("shoulders dropping as the tension drains", "catching breath with long exhales",
                 "hands resting on the hips for a moment", "a faint, shaky smile spreading",
                 "chest heaving less and less", "loosening the tight shoulders"),
    ),
    Mood.CAUTIOUS: MoodWords(
        manners=("cautiously", "carefully", "warily"),
        feelings=("with cautious, measured care", "alert, cautious but steadier now",
                  "cautious and quietly watchful", "in a careful, cautious mood"),
        details=("eyes scanning the surroundings", "pausing now and then to listen",
                 "shoulders slightly raised", "hands loose but ready",
                 "glancing back over the shoulder now and then", "breathing deeply to stay composed"),
    ),
    Mood.DEFENSIVE: MoodWords(
        manners=("defensively", "carefully", "politely but warily"),
        feelings=("in a guarded, defensive stance", "with calm, defensive caution",
                  "guarded, cautious but composed", "defensive yet not hostile"),
        details=("hands raised, palms open", "keeping a polite distance", "eyes on the stranger",
                 "posture guarded but not aggressive", "shoulders squared", "voice even and friendly"),
    ),
    Mood.VIGILANT: MoodWords(
        manners=("vigilantly", "warily", "watchfully"),
        feelings=("on high alert, vigilant and cautious", "in tense, cautious vigilance",
                  "nervous, cautious and vigilant", "wary, cautious and watchful, not yet at ease"),
        details=("scanning the surroundings", "glancing back over the shoulder",
                 "head swivelling from side to side", "ears straining for any sound", "muscles tense",
                 "looking around for any movement"),
    ),
    Mood.WARY: MoodWords(
        manners=("cautiously", "carefully", "warily"),
        feelings=("in tense, cautious silence", "with wary, cautious care", "nervous and cautious",
                  "uneasy, alert and cautious"),
        details=("eyes locked on the beast", "quiet as a shadow", "no sudden movement",
                 "hands slightly raised", "breath held tight", "every muscle ready"),
    ),
    Mood.TENSE: MoodWords(
        manners=("instantly", "abruptly", "suddenly"),
        feelings=("tense with sudden fear", "rigid with alarm", "in startled, tense silence",
                  "gripped by sudden dread"),
        details=("holding breath", "eyes fixed on the beast", "muscles locked", "heart thumping hard",
                 "barely breathing", "fingers trembling slightly"),
    ),
    Mood.FEAR: MoodWords(
        manners=("urgently", "nervously", "anxiously"),
        feelings=("in fear, afraid", "gripped by fear, afraid", "afraid, shaking with fear",
                  "in fear, afraid to look away"),
        details=("heart pounding", "breathing hard", "glancing back over the shoulder", "arms pumping",
                 "eyes wide", "jaw clenched"),
    ),
    # From here on every rung says all the high-intensity words of the rungs below it and adds more (fear <
    # terror < + desperate < + frantic < + panic, flee, for dear life), so a keyword reader sees the climb.
    Mood.TERROR: MoodWords(
        manners=("headlong", "flat out", "headlong"),
        feelings=("in sheer terror and fear", "in wide-eyed terror, afraid", "gripped by fear and terror"),
        details=("arms pumping wildly", "eyes wide", "breath ragged", "heart hammering",
                 "glancing back over the shoulder", "face pale"),
    ),
    Mood.DESPERATE: MoodWords(
        manners=("all out", "headlong", "flat out"),
        feelings=("desperate, in terror and fear, afraid", "in desperate terror, afraid, full of fear",
                  "desperately afraid, in terror and fear"),
        details=("lungs burning", "legs driving hard", "gasping for air", "arms flailing", "sweat streaming",
                 "glancing back over the shoulder in dread"),
    ),
    Mood.FRANTIC: MoodWords(
        manners=("all out", "headlong", "flat out"),
        feelings=("in frantic, desperate terror and fear, afraid, fleeing",
                  "frantic and desperate with terror and fear, afraid, fleeing",
                  "fleeing in a frantic, desperate scramble of terror and fear, afraid"),
        details=("lungs burning", "stumbling but pushing on", "face twisted", "gasping for air",
                 "arms flailing wildly", "heart about to burst"),
    ),
    Mood.PANIC: MoodWords(
        manners=("all out", "headlong", "flat out"),
        feelings=("in blind panic, frantic, desperate, terrified, in terror and fear, fleeing for dear life",
                  "panic-stricken, frantic and desperate, terrified, in mortal terror and fear, fleeing",
                  "fleeing for dear life in blind panic, frantic, desperate, afraid, in terror and horror"),
        details=("gasping and sobbing for breath", "limbs flailing", "sheer panic in the eyes",
                 "lungs on fire", "pushing past exhaustion", "sweat pouring down the face"),
    ),
}

#: Which speeds each mood is written for (moving gaits); the brain plans only these combinations.
MOOD_SPEEDS: dict[Mood, tuple[SpeedName, ...]] = {
    Mood.CALM: ("walk",), Mood.RELIEVED: ("walk",), Mood.CAUTIOUS: ("walk",), Mood.DEFENSIVE: ("walk",),
    Mood.VIGILANT: ("walk",), Mood.WARY: ("walk", "jog"), Mood.TENSE: (), Mood.FEAR: ("jog", "run", "sprint"),
    Mood.TERROR: ("sprint",), Mood.DESPERATE: ("sprint",), Mood.FRANTIC: ("sprint",), Mood.PANIC: ("sprint",),
}
#: Which moods a back-step (walking backward, facing the threat) is written for.
BACKSTEP_MOODS: tuple[Mood, ...] = (Mood.CAUTIOUS, Mood.DEFENSIVE, Mood.VIGILANT, Mood.WARY, Mood.FEAR)
#: Which moods each staying-in-place gait is written for.
STILL_MOODS: dict[Gait, tuple[Mood, ...]] = {
    Gait.FREEZE: (Mood.TENSE,),
    Gait.CORNERED: (Mood.FEAR, Mood.TERROR),
    Gait.STAND: (Mood.CALM, Mood.RELIEVED, Mood.CAUTIOUS, Mood.DEFENSIVE, Mood.VIGILANT),
}
#: Staying-in-place openings, one bank per still gait (each names the posture the body should take).
STILL_OPENINGS: dict[Gait, tuple[str, ...]] = {
    Gait.FREEZE: ("freezes in place", "freezes rigid", "freezes on the spot"),
    Gait.CORNERED: ("freezes and crouches low", "freezes, crouching low", "freezes in a low crouch"),
    Gait.STAND: ("stands quietly in place", "stands in place, waiting", "stands and waits"),
}
#: The two details of a cornered body: it is looking for the way out, not giving up.
CORNERED_DETAILS: tuple[str, ...] = (
    "eyes searching for a gap, ready to squeeze past",
    "weight on the balls of the feet, ready to squeeze past",
    "muscles coiled, assessing the gap, ready to squeeze past",
)
CORNERED_WATCH: tuple[str, ...] = ("heart pounding", "breath held tight", "eyes fixed on the beast")
#: Back-step openings (the body keeps facing the threat); a defensive back-step always "steps back".
BACKSTEP_OPENINGS: tuple[str, ...] = ("backs away", "steps back", "backs away step by step")
DEFENSIVE_BACKSTEP = "steps back"
#: Said when an earlier encounter (this episode, or one remembered in recent_decisions) colours the response.
RECALL_DETAILS: tuple[str, ...] = (
    "remembering the last flight", "the earlier flight fresh in mind", "haunted by the last flight",
)
#: How an NPC's behaviour is named next to it ("the charging beast at 4.8 m"): words the motion parser
#: does not read as the body's own speed or direction.
BEHAVIOR_ADJECTIVES: dict[str, str] = {name: row.adjective for name, row in BEHAVIOR_ROWS.items()}
#: Direction phrases for a travelling body; ``{verb}`` is the speed verb, ``{manner}`` the adverb.
TRAVEL_TEMPLATES: dict[str, str] = {
    "left": "{verb} {manner} to the left",
    "right": "{verb} {manner} to the right",
    "fwd": "{verb} {manner} forward",
    "back": "turns around and {verb} {manner} away",
}
SUBJECT = "a person"
_PREPOSITIONS = ("in ", "with ")  # never "on"/"at": "to the right on ..." reads as an idiom


def _pick(options: tuple[str, ...], variant: int, stride: int = 1) -> str:
    return options[(variant * stride) % len(options)]


def compose_motion(plan: MotionPlan, variant: int = 0) -> str:
    """One MOTION sentence for ``plan``; ``variant`` (e.g. the decision count) picks the phrasing."""
    words = MOOD_WORDS[plan.mood]
    manner = _pick(words.manners, variant)
    feeling = _pick(words.feelings, variant, stride=3)
    first = _pick(words.details, variant)
    second = _pick(words.details, variant + 1 + variant % 2)  # never the same as ``first`` (len >= 3)
    if plan.gait is Gait.TRAVEL:
        assert plan.direction is not None  # guaranteed by MotionPlan
        action = TRAVEL_TEMPLATES[plan.direction].format(verb=SPEED_VERBS[plan.speed], manner=manner)
    elif plan.gait is Gait.BACKSTEP:
        opening = DEFENSIVE_BACKSTEP if plan.mood is Mood.DEFENSIVE else _pick(BACKSTEP_OPENINGS, variant)
        action = f"{opening} {manner}"
    else:  # staying in place: no adverb of manner, the opening names the posture
        action = _pick(STILL_OPENINGS[plan.gait], variant)
        if plan.gait is Gait.CORNERED:
            first, second = _pick(CORNERED_DETAILS, variant), _pick(CORNERED_WATCH, variant)
    recall = f", {_pick(RECALL_DETAILS, variant)}" if plan.recalls_past else ""
    npc = f", {plan.npc.phrase()}" if plan.npc is not None else ""
    joiner = " " if feeling.startswith(_PREPOSITIONS) else ", "
    return f"{SUBJECT} {action}{joiner}{feeling}{npc}, {first}, {second}{recall}"
