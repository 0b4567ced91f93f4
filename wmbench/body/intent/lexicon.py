"""Word banks that ``motion_intent`` reads MOTION text with — plain data, no logic.

Phrases are written in *lemma* form with spaces between words (``"walk quickly"``, ``"run for life"``).
Before matching, the reader lower-cases the text, maps each word to its lemma (``sprints``/``sprinting``/
``sprinted`` -> ``sprint``; irregular forms from :data:`IRREGULAR_FORMS`) and drops the filler words in
:data:`FILLER_WORDS` (articles and possessives), so ``"catches her breath"`` matches ``"catch breath"`` and
``"runs for its life"`` matches ``"run for life"``. Longer phrases win over shorter ones at the same position.

The spec's intensity banks (``SCORING.response_differentiation.keyword_intensity``) are all covered:
high ``sprint run desperate frantic terror flee``, medium ``walk quickly / step back / retreat / cautious``,
low ``walk turn move stand`` (see :data:`SPEC_INTENSITY_BANKS`, checked by the tests).
"""

from __future__ import annotations

from wmbench.core.directions import DIRECTION_READINGS

#: The official intensity keyword banks, verbatim, so tests can check every word is understood.
SPEC_INTENSITY_BANKS: dict[str, tuple[str, ...]] = {
    "high": ("sprint", "run", "desperate", "frantic", "terror", "flee"), "medium": ("walk quickly",
    "step back", "retreat", "cautious"), "low": ("walk", "turn", "move", "stand"),
}

#: Verbs whose regular inflections (-s/-es/-ing/-ed, e-drop, y->ies/ied, doubled final consonant) are
#: generated automatically. Adjectives and adverbs are listed as they are written, not here.
VERB_LEMMAS: tuple[str, ...] = (
    "sprint", "dash", "bolt", "race", "flee", "run", "rush", "hurry", "scramble", "jog", "trot", "walk",
    "step", "move", "edge", "back", "retreat", "creep", "sidestep", "stand", "freeze", "stop", "halt",
    "wait", "hover", "stay", "remain", "turn", "veer", "flank", "go", "escape", "crouch", "duck", "glance",
    "look", "scan", "exhale", "sigh", "catch", "climb", "clamber", "raise", "slow", "dart", "stride",
    "stroll", "amble", "shuffle", "tiptoe", "backpedal", "pause", "tense", "stiffen", "guard", "shield",
    "brace", "watch", "spin", "pivot", "wheel", "stoop",
)

#: Irregular word forms -> lemma (regular ones are generated from :data:`VERB_LEMMAS`).
IRREGULAR_FORMS: dict[str, str] = {
    "ran": "run", "fled": "flee", "froze": "freeze", "frozen": "freeze", "stood": "stand", "crept": "creep",
    "went": "go", "goes": "go", "gone": "go", "caught": "catch", "strode": "stride", "raised": "raise",
    "backward": "backward", "backwards": "backward", "rightwards": "rightward", "leftwards": "leftward",
    "forwards": "forward", "onwards": "onward", "towards": "toward", "carefully": "careful",
    "cautiously": "cautious", "warily": "wary", "desperately": "desperate", "frantically": "frantic",
    "terrified": "terror", "terrifying": "terror", "panicked": "panic", "panicking": "panic",
    "panicky": "panic", "fearful": "fear", "fearfully": "fear", "afraid": "fear", "scared": "fear",
    "frightened": "fear", "horrified": "horror", "vigilantly": "vigilant", "alertly": "alert",
    "watchful": "vigilant", "watchfully": "vigilant", "scanning": "scan", "defensively": "defensive",
    "relieved": "relief", "relievedly": "relief", "calmly": "calm", "relaxed": "calm", "relaxing": "calm",
    "relax": "calm", "relaxes": "calm", "relaxedly": "calm", "casually": "casual", "tensely": "tense",
    "stiffly": "stiff", "hurriedly": "hurry", "hastily": "hurry", "normally": "normal",
    "naturally": "natural", "quickly": "quick", "swiftly": "quick", "rapidly": "quick", "briskly": "brisk",
    "slowly": "slow", "gingerly": "slow", "hands": "hand", "arms": "arm", "petrified": "freeze",
    "paralyzed": "freeze", "paralysed": "freeze", "crouched": "crouch", "hunched": "crouch",
    "lowers": "low", "lowered": "low", "lower": "low", "steps": "step", "lives": "life",
    "shoulders": "shoulder",
}

#: Articles and possessives dropped before phrase matching.
FILLER_WORDS: frozenset[str] = frozenset({
    "a", "an", "the", "her", "his", "its", "their", "my", "your", "our", "one's", "him", "them", "herself",
    "himself", "itself", "themselves", "very", "really",
})

#: Words that negate the rest of their clause ("does not run right", "never toward the beast").
NEGATORS: frozenset[str] = frozenset({
    "not", "no", "never", "without", "nor", "neither", "instead", "rather", "avoid", "avoiding", "avoids",
    "don't", "doesn't", "didn't", "won't", "can't", "cannot", "isn't", "aren't", "wasn't", "shouldn't",
    "dont", "doesnt", "didnt", "wont", "cant", "isnt", "arent", "wasnt", "shouldnt", "refuse", "refuses",
})
#: Words after which the next speed verb (within two words) is being stopped, not done ("stops running").
CESSATION_WORDS: frozenset[str] = frozenset({"stop", "halt", "cease", "quit", "finish"})
#: Words that end a clause (besides punctuation) — negation never crosses them.
CLAUSE_BREAKS: frozenset[str] = frozenset({"but", "then", "and", "while", "so", "yet", "though", "although",
                                           "however", "before", "after", "until", "as"})

#: Speed phrases -> speed class. ``motion_intent`` takes the fastest class mentioned (moving beats still).
SPEED_PHRASES: dict[str, str] = {
    # sprint
    "sprint": "sprint", "dash": "sprint", "bolt": "sprint", "race": "sprint", "flee": "sprint",
    "run for life": "sprint", "run for dear life": "sprint", "full speed": "sprint", "flat out": "sprint",
    "full tilt": "sprint", "as fast as": "sprint", "dart": "sprint",
    # run
    "run": "run", "rush": "run", "hurry away": "run", "hurry off": "run", "scramble": "run", "escape": "run",
    # jog
    "jog": "jog", "trot": "jog", "walk quickly": "jog", "walk quick": "jog", "walk fast": "jog",
    "walk briskly": "jog", "walk brisk": "jog", "brisk walk": "jog", "quick walk": "jog", "hurry": "jog",
    "stride": "jog",
    # walk
    "walk": "walk", "step": "walk", "move": "walk", "edge": "walk", "back away": "walk", "back off": "walk",
    "back up": "walk", "step back": "walk", "back step": "walk", "backstep": "walk", "backpedal": "walk",
    "retreat": "walk", "creep": "walk", "sidestep": "walk", "side step": "walk", "turn": "walk",
    "veer": "walk", "flank": "walk", "go": "walk", "stroll": "walk", "amble": "walk", "shuffle": "walk",
    "tiptoe": "walk", "turn around": "walk",
    # still
    "stand": "still", "still": "still", "freeze": "still", "stop": "still", "halt": "still",
    "wait": "still", "hover": "still", "stay put": "still", "stay": "still", "remain": "still",
    "pause": "still", "hold position": "still", "hold ground": "still", "stand ground": "still",
    "rooted": "still",
}

#: Adverbs/phrases that push the fastest speed class up or down by one (applied once, see motion_intent).
INTENSITY_UP: frozenset[str] = frozenset({
    "desperate", "frantic", "terror", "panic", "quick", "fast", "hasty", "headlong", "wildly", "madly",
    "for life", "all out",
})
INTENSITY_DOWN: frozenset[str] = frozenset({"slow", "leisurely", "lazily", "unhurried", "unhurriedly"})

#: Direction words (travel directions). "left"/"right" have guards against idioms in motion_intent.
DIRECTION_WORDS: dict[str, str] = {
    **DIRECTION_READINGS, "rightward": "right", "leftward": "left", "straight": "fwd", "onward": "fwd",
}
#: "away" with no direction named anywhere means back (the scene is not known here).
AWAY_WORDS: frozenset[str] = frozenset({"away", "off"})
#: Phrases that name a direction outright (checked before single words).
DIRECTION_PHRASES: dict[str, str] = {
    "turn around": "back", "turn back": "back", "about face": "back", "u turn": "back", "reverse": "back",
    "straight ahead": "fwd", "head on": "fwd", "right away from": "right",
}
#: Words that follow "right" in idioms where it means "immediately"/"exactly", not a direction.
RIGHT_IDIOM_FOLLOWERS: frozenset[str] = frozenset({
    "away", "now", "then", "there", "here", "after", "before", "behind", "into", "at", "on", "up", "next",
    "by",
})
#: Words before "left" that make it the verb "to leave" ("the beast has left").
LEFT_VERB_PRECEDERS: frozenset[str] = frozenset({"has", "have", "had", "was", "were", "is", "just", "having"})
#: Threat nouns: a direction word right after one ("the beast ahead") says where the threat is, not where
#: to go.
THREAT_NOUNS: frozenset[str] = frozenset({
    "beast", "lion", "tiger", "wolf", "bear", "animal", "predator", "creature", "threat", "danger", "woman",
    "man", "person", "stranger", "human", "npc", "wall", "obstacle", "attacker", "roar", "noise", "sound",
})
#: Animate threats. A clause that starts with one describes the NPC ("the lion charges"), not the body, and
#: a direction right after one ("the lion behind") is where to get away from.
BEAST_NOUNS: frozenset[str] = frozenset({
    "beast", "lion", "tiger", "wolf", "bear", "animal", "predator", "creature", "threat", "attacker",
})
#: Words introducing a place ("on the left", "at her back"), not a travel direction.
LOCATION_PREPOSITIONS: frozenset[str] = frozenset({"on", "at", "in"})
#: Back-step phrases: travel back while still facing the threat (face_travel False), style "backstep".
BACKSTEP_PHRASES: frozenset[str] = frozenset({
    "back away", "back off", "back up", "step back", "back step", "backstep", "backpedal", "retreat",
    "step backward", "walk backward", "move backward", "edge backward", "edge back", "creep back",
    "shuffle back",
})
#: Sideways steps keep the facing too (face_travel False) but are not back-steps.
SIDESTEP_PHRASES: frozenset[str] = frozenset({"sidestep", "side step", "shuffle sideways", "step sideways"})
#: Words that mean the body turns, which restores face_travel for back-steps.
TURN_WORDS: frozenset[str] = frozenset({"turn", "wheel", "spin", "pivot"})

#: Style phrases -> style tags (every tag is in intent_types.STYLE_TAGS; the tests check it).
STYLE_PHRASES: dict[str, tuple[str, ...]] = {
    "fear": ("fear",), "horror": ("fear",), "dread": ("fear",), "terror": ("fear", "terror"),
    "panic": ("fear", "terror"), "desperate": ("desperate",), "desperation": ("desperate",),
    "frantic": ("desperate",), "frenzied": ("desperate",), "cautious": ("caution",),
    "caution": ("caution",), "careful": ("caution",), "wary": ("caution",), "tiptoe": ("caution",),
    "creep": ("caution",), "vigilant": ("vigilant",), "alert": ("vigilant",), "scan": ("vigilant",),
    "look around": ("vigilant",), "glance around": ("vigilant",), "eyes peeled": ("vigilant",),
    "watch": ("vigilant",), "freeze": ("freeze",), "rooted": ("freeze",), "stock still": ("freeze",),
    "crouch": ("crouch",), "duck": ("crouch",), "low": ("crouch",), "stoop": ("crouch",),
    "defensive": ("defensive",), "guard": ("defensive",), "hand up": ("defensive",),
    "arm up": ("defensive",), "arm raised": ("defensive",), "hand raised": ("defensive",),
    "raise arm": ("defensive",), "raise hand": ("defensive",), "shield": ("defensive",),
    "brace": ("defensive",), "relief": ("relief",), "exhale": ("relief",), "catch breath": ("relief",),
    "sigh": ("relief",), "calm": ("calm",), "casual": ("calm",), "leisurely": ("calm",),
    "at ease": ("calm",), "glance back": ("glance_back",), "look back": ("glance_back",),
    "over shoulder": ("glance_back",), "glance behind": ("glance_back",), "look behind": ("glance_back",),
    "climb": ("climb",), "clamber": ("climb",), "tense": ("tense",), "stiff": ("tense",),
    "stiffen": ("tense",), "rigid": ("tense",), "hurry": ("hurry",), "hurry away": ("hurry",),
    "hasty": ("hurry",), "normal": ("normal",), "natural": ("normal",), "ordinary": ("normal",),
}
#: Phrases that consume a direction word without naming a travel direction ("glances back" is a look).
NON_TRAVEL_PHRASES: frozenset[str] = frozenset({
    "glance back", "look back", "glance behind", "look behind", "look around", "glance around", "look left",
    "look right", "glance left", "glance right", "look ahead", "look forward", "right away", "right now",
    "all right", "left behind",
})
