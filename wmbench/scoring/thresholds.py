"""Calibration knobs shared by the category rules, in one place (the lead tunes these against the real env).

Intensities are the combined 0–1 values of :func:`expression.decision_intensity` (half words, half body), e.g.
0.08 "stands calmly", 0.21 "walks on, relieved", 0.29 "walks on cautiously", 0.42 "freezes, tense" (freeze
posture) or "jogs away", 0.75 "sprints away", 0.77 "sprints away in fear", 0.88 "sprints away in sheer terror,
eyes wide with fear", 0.96 "sprints frantically in blind panic, frantic and desperate with terror, fleeing".

Calibration (real env, smpl body, seeds 0–2, C01–C08 out of 800; ``python -m
tests.scoring.calibrate``): reference 799, null 142.5, random 169, constant keyword-stuffed replies
110–202.
"""

from __future__ import annotations

#: at or above: a high (flight-level) reaction
HIGH_MIN = 0.55
#: at or below: calm (settled, normal)
CALM_MAX = 0.25
#: at or below: mild — still an ordinary, proportionate response (cautious walk)
MILD_MAX = 0.35
#: at or above: a heightened reaction (more than ordinary) — S29
HEIGHTENED_MIN = 0.4
#: a rise or fall of at least this much between the start and the last third of a series is a trend
RISE_MIN = 0.06
#: decisions averaged for the start of a series
START_WINDOW = 2
#: a rise of the keyword part (0–1) or the body part (0–1) alone that counts as escalation, and how far the
#: other part may fall meanwhile
KEYWORD_RISE_MIN = 0.08
BODY_RISE_MIN = 0.2
FALL_TOL = 0.05
#: S22: rise across the approach -> charge switch that counts as a jump
JUMP_MIN = 0.2
#: decisions either side of a switch compared for a jump
JUMP_WINDOW = 2
#: series values may rise by this much and still count as monotone de-escalation
MONOTONE_TOL = 0.05
#: S24 sensitization: a stronger reaction must beat the first by this much
STRONGER_BY = 0.05
#: S24: decisions from an appearance whose peak intensity is its strength
SENSITIZATION_WINDOW = 2
#: S31: decisions right after a despawn checked for vigilance
VIGILANCE_WINDOW = 2
#: S34: decisions after a new beast appears within which the reaction must come for full points
REACTION_WINDOW = 1
#: S34: a later reaction within this many decisions still earns the middle tier
SLOW_REACTION_WINDOW = 3
#: S38: decisions from the first sight of the beast that are "the moment of first detection" (the spec's moment:
#: one decision; the reply after it may already act on what it saw)
FIRST_SIGHT_WINDOW = 1
#: S28: largest spread of per-phase mean intensities that is still "similar intensity"
CONSISTENT_RANGE = 0.15
#: C02 distance tolerance: right within this many metres or this fraction of the true distance
DISTANCE_TOL_M = 1.0
DISTANCE_TOL_FRACTION = 0.2
#: C04 S16/S17: differences (threat minus mild) on the 0–1 keyword and body scales
BIG_KEYWORD_DIFF = 0.2
BIG_SPEED_DIFF = 0.5
SOME_KEYWORD_DIFF = 0.1
SOME_SPEED_DIFF = 0.25
#: caps: an episode where the protagonist was caught / collided scores at most this much
CAUGHT_CAP = 5.0
C01_COLLISION_CAP = 10.0
C04_INTO_DANGER_CAP = 10.0
C06_COLLISION_CAP = 5.0
C06_INVENTED_MEMORY_CAP = 10.0
#: C08 factors: a fitting emotion missing / mixed with a contradicting one; the body's style not matching
EMOTION_MISSING_FACTOR = 0.5
EMOTION_MIXED_FACTOR = 0.5
BODY_MISMATCH_FACTOR = 0.5
#: C08 cue contrast: a MOTION repeated word for word from before the cue changed expresses neither situation
REPEATED_ANSWER_FACTOR = 0.0
