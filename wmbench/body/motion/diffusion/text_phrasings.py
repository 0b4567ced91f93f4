"""Phrasings of the motions the diffusion model knows: the open-vocabulary text encoder's training data.

Card
----
- **Classes** (:data:`MOTION_CLASSES`): every motion the shipped diffusion model was trained on, each with the
  *canonical caption* the model is conditioned on when a MOTION line's words are unknown to it (the caption's
  words are all in the model's vocabulary; direction and speed come from the parsed intent, not from these
  words).
- **Phrasings** (:data:`PHRASINGS`): paraphrases written for this project, by hand; the last
  :data:`HELD_OUT_PER_CLASS` of each class are held out of training and used only for R-precision.
- **Hard held-out set** (:data:`HARD_HELD_OUT`): a second evaluation set, written later and never trained on,
  made to be harder than the last phrasings of :data:`PHRASINGS` (which reuse training words): synonyms the
  encoder never saw ("saunters", "hurtles", "boots the ball"), other word orders ("motionless, she ..."), and
  long MOTION lines of the kind the system prompt asks brains for (gait, direction, emotion, body language;
  some longer than the encoder's :data:`~wmbench.body.motion.diffusion.text_encoder.MAX_TOKENS`, so cut).
  Some deliberately use a word of another class ("scrambles" is a lexicon run verb; "creeps" is crouch).
- **Lexicon phrasings** (:func:`lexicon_phrasings`): one phrasing per MOTION-lexicon verb that names a gait
  or stance (``body.intent.lexicon.VERB_LEMMAS``), so every word the intent reader knows has a class.
"""

from __future__ import annotations

#: class -> canonical caption (words the diffusion model was trained with)
MOTION_CLASSES: dict[str, str] = {
    "stand": "a person stands still", "walk": "a person walks forward", "jog": "a person jogs forward",
    "run": "a person runs forward", "sprint": "a person sprints forward", "backstep": "a person steps back",
    "sidestep": "a person sidesteps to the left", "crouch": "a person walks forward crouching low",
    "jump": "a person jumps forward", "crawl": "a person crawls on all fours", "roll": "a person does a forward roll",
    "kick": "a person kicks forward", "punch": "a person punches forward", "spinkick": "a person does a spinning kick",
    "getup": "a person gets up from lying face down", "cartwheel": "a person does a cartwheel",
    "backflip": "a person does a backflip",
}
#: How many phrasings of each class (the last ones) are held out for evaluation.
HELD_OUT_PER_CLASS = 3
#: class -> phrasings (the last HELD_OUT_PER_CLASS are held out)
PHRASINGS: dict[str, tuple[str, ...]] = {
    "stand": ("stays where she is", "holds position", "does not move", "waits in place", "remains standing",
              "stands motionless", "stops and stays put", "halts", "keeps still and waits",
              "stands where he is", "remains in place without moving", "stops moving"),
    "walk": ("strolls along", "walks at a normal pace", "ambles ahead", "goes forward on foot", "paces ahead",
             "limps forward, injured", "wanders ahead slowly", "marches ahead", "walks on", "strolls ahead slowly",
             "wanders along on foot", "goes on at a normal pace"),
    "jog": ("trots ahead", "jogs at an easy pace", "runs lightly", "moves at a trot", "jogs along",
            "trots forward lightly", "goes at a light jog", "jogs on", "trots along at an easy pace",
            "moves at a light trot", "goes forward at a jog"),
    "run": ("runs fast", "races ahead", "hurries forward", "rushes ahead", "runs quickly", "runs off",
            "moves at a run", "rushes forward quickly", "runs ahead fast", "races forward", "hurries off at a run"),
    "sprint": ("sprints for its life", "dashes away at full speed", "bolts ahead", "flees in panic",
               "runs as fast as possible", "darts away in terror", "runs for life", "escapes at full speed",
               "bolts away in panic", "dashes off as fast as possible", "flees at full speed"),
    "backstep": ("backs off", "retreats slowly", "steps backwards", "moves back away from it", "backpedals",
                 "edges backwards", "retreats a few steps", "backs up", "steps back away from it",
                 "backpedals slowly", "edges back a few steps"),
    "sidestep": ("steps sideways", "shuffles to the side", "moves sideways", "sidesteps", "slides to the side",
                 "edges sideways", "shifts to the side", "shuffles sideways", "steps to the side",
                 "moves to the side with small steps", "edges to the side"),
    "crouch": ("crouches and creeps forward", "sneaks ahead low", "stoops and moves on", "ducks low and walks",
               "creeps forward bent over", "moves ahead hunched", "tiptoes forward low", "sneaks forward crouched",
               "creeps on bent low", "ducks and sneaks ahead", "stoops low and creeps on"),
    "jump": ("leaps forward", "jumps over the log", "hops over the gap", "springs ahead", "vaults the fence",
             "jumps across", "bounds forward", "leaps over the gap", "springs over the log", "jumps ahead",
             "bounds over the fence"),
    "crawl": ("crawls forward", "moves on hands and knees", "creeps on all fours", "crawls under the table",
              "goes on all fours", "crawls along the floor", "crawls on hands and knees", "crawls ahead",
              "moves along the floor on all fours", "goes forward on hands and knees", "crawls under the fence"),
    "roll": ("rolls forward", "does a roll", "tucks and rolls", "rolls on the ground",
             "somersaults forward on the floor",
             "rolls over forward", "dives into a roll", "rolls along the floor", "does a forward tumble",
             "tumbles forward and rolls", "dives and rolls"),
    "kick": ("kicks the door", "kicks the ball", "kicks out", "delivers a kick", "kicks hard", "front kicks",
             "kicks with the right leg", "kicks the box", "kicks out hard", "kicks the door hard",
             "delivers a front kick with the leg"),
    "punch": ("punches the air", "throws a punch", "hits with a fist", "boxes", "jabs forward", "strikes with a fist",
              "punches hard", "throws a jab", "punches the bag", "hits the air with a fist", "jabs and punches"),
    "spinkick": ("spins and kicks", "does a roundhouse kick", "turns and kicks high", "kicks while spinning",
                 "does a spin kick", "spins around kicking", "whirls and kicks", "does a spinning roundhouse",
                 "turns around and kicks", "whirls around with a kick", "kicks high while turning"),
    "getup": ("gets up off the floor", "stands up from the ground", "rises from lying down", "picks himself up",
              "gets back on her feet", "gets up from the ground", "stands up after falling", "rises to his feet",
              "gets up after lying down", "stands back up from the floor", "gets to his feet from lying down"),
    "cartwheel": ("cartwheels", "turns cartwheels", "does cartwheels on the grass", "wheels sideways on the hands",
                  "cartwheels across the room", "does a sideways cartwheel", "spins sideways on the hands",
                  "does a cartwheel on the grass", "cartwheels sideways across", "turns a sideways cartwheel",
                  "wheels across on the hands"),
    "backflip": ("flips backwards", "does a back somersault", "somersaults backwards", "does a flip",
                 "flips over backwards", "does a backward flip", "backflips", "flips back in the air",
                 "does a somersault backwards", "flips over in the air", "does a back flip in the air"),
}
#: class -> the hard held-out phrasings (see the module card); evaluation only, never trained on.
HARD_HELD_OUT: dict[str, tuple[str, ...]] = {
    "stand": ("the man freezes in place, holding his breath, eyes fixed on the beast",
              "motionless, she watches the corridor and does not take a single step",
              "a person stays rooted to the spot, trembling with fear", "he lingers where he is, listening"),
    "walk": ("a person heads to the left at an unhurried pace, relaxed and calm",
             "calmly, the woman proceeds toward the exit on foot",
             "a person advances steadily, looking around with curiosity",
             "he saunters down the hallway, hands in his pockets"),
    "jog": ("a person lopes to the right at a comfortable pace, breathing steadily",
            "at a gentle pace she trots toward the door, watchful",
            "a person moves off at a steady, relaxed canter",
            "he jogs off to the left, warily checking behind him"),
    "run": ("a person runs quickly to the left, worried, glancing back over the shoulder at the beast",
            "she hastens away to the right, urgently, heart pounding",
            "swiftly the man heads forward at a brisk running speed",
            "a person takes off at a quick pace toward the open door"),
    "sprint": ("a person sprints to the right in terror, arms pumping, glancing back over the shoulder at the beast",
               "desperate and frantic, she tears off to the left as fast as her legs can carry her",
               "he careers away at breakneck speed, screaming", "a person hurtles forward in blind panic"),
    "backstep": ("a person steps back calmly with hands raised, eyes on the stranger",
                 "warily, he withdraws backward, keeping his face toward the beast",
                 "she recoils and moves away backwards, slowly, palms out",
                 "a person gives ground, retreating step by step without turning around"),
    "sidestep": ("a person slips sideways to the left, keeping the wall at his back",
                 "she scoots laterally to the right", "he shuffles left with small careful steps",
                 "moving crabwise, the person edges to the right along the wall"),
    "crouch": ("hunched over, she sneaks forward, trying not to be seen",
               "a person squats down and inches ahead stealthily",
               "keeping his head down, he prowls ahead on bent legs",
               "low to the ground, the person slinks toward the door"),
    "jump": ("a person hurdles the fallen branch", "she clears the ditch in one bound",
             "with a big leap he crosses the puddle", "a person jumps up and over the barrier, landing on both feet"),
    "crawl": ("she drags herself along the ground on all fours", "a person scrambles forward on hands and knees",
              "the child crawls beneath the table to hide", "on hands and knees he creeps under the low branches"),
    "roll": ("a person tumbles forward and comes up on his feet", "he throws himself into a forward roll to dodge",
             "curling up, the person rolls over the ground", "she dives forward and rolls over her shoulder"),
    "kick": ("a person boots the ball hard with the right foot", "she lashes out with her foot at the attacker",
             "he kicks at the beast to keep it away", "a person strikes the door with a swift kick"),
    "punch": ("a person swings a fist at the attacker", "she hits the bag with a hard right hook",
              "he punches out at the stranger, then raises his guard", "a person throws a quick left jab and a cross"),
    "spinkick": ("a person whirls around and lashes out with a spinning kick",
                 "she pivots on one foot and kicks high behind her",
                 "he turns full circle with his leg extended in a roundhouse",
                 "a person spins on the spot and kicks out"),
    "getup": ("a person props herself up on her arms and stands", "lying on the ground, she climbs back to her feet",
              "he scrambles up from the ground after tripping", "a person rises slowly after falling down"),
    "cartwheel": ("a person turns a cartwheel across the lawn", "she flips sideways over her hands and lands",
                  "he wheels over sideways, hands to the ground", "a person does a gymnastic wheel to the side"),
    "backflip": ("a person flips backward through the air", "she does a back handspring and lands",
                 "he performs a backward somersault", "a person launches into a flip, rotating backwards"),
}
#: Lexicon verbs (``VERB_LEMMAS``) that name a gait or stance -> class.
LEXICON_CLASSES: dict[str, str] = {
    "sprint": "sprint", "dash": "sprint", "bolt": "sprint", "race": "run", "flee": "sprint", "run": "run",
    "rush": "run", "hurry": "run", "scramble": "run", "jog": "jog", "trot": "jog", "walk": "walk",
    "step": "walk", "move": "walk", "go": "walk", "stride": "walk", "stroll": "walk", "amble": "walk",
    "shuffle": "sidestep", "sidestep": "sidestep", "back": "backstep", "retreat": "backstep",
    "backpedal": "backstep", "creep": "crouch", "crouch": "crouch", "duck": "crouch", "stoop": "crouch",
    "tiptoe": "crouch", "stand": "stand", "freeze": "stand", "stop": "stand", "halt": "stand", "wait": "stand",
    "stay": "stand", "remain": "stand", "pause": "stand", "escape": "sprint", "dart": "sprint",
}


def lexicon_phrasings() -> list[tuple[str, str]]:
    """(text, class) for every lexicon verb in :data:`LEXICON_CLASSES` (``"a person <verb>s"``)."""
    return [(f"a person {verb}s", cls) for verb, cls in LEXICON_CLASSES.items()]


def split_phrasings() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(train, held_out) lists of (text, class): training = canonical captions, the training phrasings and
    the lexicon phrasings; held out = the last :data:`HELD_OUT_PER_CLASS` phrasings of each class."""
    train = [(caption, cls) for cls, caption in MOTION_CLASSES.items()] + lexicon_phrasings()
    held: list[tuple[str, str]] = []
    for cls, texts in PHRASINGS.items():
        train += [(t, cls) for t in texts[:-HELD_OUT_PER_CLASS]]
        held += [(t, cls) for t in texts[-HELD_OUT_PER_CLASS:]]
    return train, held


def hard_held_out() -> list[tuple[str, str]]:
    """(text, class) of :data:`HARD_HELD_OUT`, class by class."""
    return [(t, cls) for cls, texts in HARD_HELD_OUT.items() for t in texts]
