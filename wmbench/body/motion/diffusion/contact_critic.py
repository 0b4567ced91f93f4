"""Contact critic: how far the low feet of candidate chunks slide over the ground the body travels.

Card
----
- **What it scores.** The live stream (``generator.LIVE_CANDIDATES``: 8 by default since round 7) samples
  several candidate chunks for the same context and intent (``generator._Stream``) and keeps the one this
  critic likes best: a general physical-plausibility
  check, no text or intent named. A foot joint that is low (within ``FOOT_CONTACT_HEIGHT`` of its floor)
  carries weight and should not move over the ground; the critic adds up how far such joints move, frame
  to frame, on the ground track of the body's travel.
- **The ground track.** In the live loop the body owns the root; the model's frames are root-local. A foot
  joint's ground position in model frame ``k`` is its root-local (x, z) plus ``k`` times the body's travel
  per model frame (``ground_step``: the body's speed along the travel direction, divided by the model's
  frame rate and the playback warp's rate). A planted foot then slides back in root-local terms by exactly
  that step and scores 0; a low foot that moves *with* the body (the back-step's wrong-phase shuffle) or
  shuffles in place scores its slide.
- **Score.** Metres slid by low foot joints per model frame (summed over joints), from the last frame
  already shown through the candidate's frames, each joint's slide weighted by :func:`contact_weight`. Lower
  is better. A foot that is lifted moves freely; heights are only read, never changed.
- **A soft band, on purpose.** The weight is 1 within the skating metric's ``FOOT_CONTACT_HEIGHT`` of the
  floor and falls linearly to 0 at :data:`CRITIC_BAND_TOP`. With the metric's own hard 3 cm band the choice
  preferred samples whose shuffling feet sat just above the line: the back-step's loop skating fell 0.71 ->
  0.25 counted with the metric's 3 cm band but only 1.27 -> 1.03 counted with a 5 cm one. A choice among
  samples must pay for a foot that slides near the ground, not for where the metric draws its line
  (``docs/motion_models.md``, "Round 6").

- **Smoothness** (round 7, :func:`critic_score`): the score adds :data:`ACCELERATION_WEIGHT` times the
  candidate's mean joint acceleration (:func:`joint_acceleration`, m/s², from the frame already shown). With
  the feet alone the choice picked chunks that drive other joints harder: over 8 seeds of the robot tests'
  mixed sequence a servo of the robot overshot its limit by up to 0.047 rad (tolerance 0.02), against at most
  0.017 with the term; the character's loop skating is the same (0.214 without, 0.213 with).

Simplified: no turning (the body's turn is not known to the stream), a floor per joint from the recent
frames, and the raw model frames (before the shown frames' low-pass, interpolation and foot pinning).
"""

from __future__ import annotations

import numpy as np

from wmbench.body.motion.diffusion.dataset import FOOT_COLUMNS, FRAME_DIM, MODEL_FPS
from wmbench.body.skeleton import FOOT_CONTACT_HEIGHT

#: Height above a joint's floor (m) where the critic stops counting its slide (see the card).
CRITIC_BAND_TOP = 0.05
#: Weight of a candidate's mean joint acceleration (m/s²) against its feet's slide (m per model frame).
ACCELERATION_WEIGHT = 0.01


def contact_weight(heights: np.ndarray, floor: np.ndarray) -> np.ndarray:
    """Weight in [0, 1] of each foot joint's slide at ``heights`` over ``floor`` (broadcast): 1 within the
    skating metric's contact band, falling linearly to 0 at :data:`CRITIC_BAND_TOP`."""
    above = np.asarray(heights, dtype=float) - np.asarray(floor, dtype=float)
    return np.clip((CRITIC_BAND_TOP - above) / (CRITIC_BAND_TOP - FOOT_CONTACT_HEIGHT), 0.0, 1.0)


def _frame_vectors(frames: np.ndarray) -> np.ndarray:
    """``frames`` as an array of (..., FRAME_DIM) frame vectors (ValueError for another width)."""
    frames = np.asarray(frames)
    if frames.shape[-1] != FRAME_DIM:
        raise ValueError(f"frames must end in {FRAME_DIM} numbers, got shape {frames.shape}")
    return frames


def foot_positions(frames: np.ndarray) -> np.ndarray:
    """(..., 4, 3) root-local foot joints (``FOOT_CONTACT_JOINTS`` order) of (..., FRAME_DIM) frame vectors."""
    return _frame_vectors(frames)[..., FOOT_COLUMNS]


def contact_slide(candidates: np.ndarray, previous: np.ndarray, floor: np.ndarray, ground_step: np.ndarray
                  ) -> np.ndarray:
    """(B,) metres that low foot joints slide over the ground per model frame in each candidate.

    ``candidates``: (B, T, FRAME_DIM) denormalised model frames; ``previous``: (FRAME_DIM,) the frame shown
    before them; ``floor``: (4,) each foot joint's floor height; ``ground_step``: (x, z) metres the body
    travels per model frame, in the root frame. A joint counts when it is low at the start of a step (as
    ``quality.foot_skating`` counts a planted frame), weighted by :func:`contact_weight`."""
    candidates = np.asarray(candidates, dtype=float)
    b, t = candidates.shape[:2]
    feet = foot_positions(np.concatenate((np.broadcast_to(previous, (b, 1, FRAME_DIM)), candidates), axis=1))
    track = np.arange(t + 1)[:, None] * np.asarray(ground_step, dtype=float)[None]
    ground = feet[..., [0, 2]] + track[None, :, None, :]
    weight = contact_weight(feet[:, :-1, :, 1], floor)
    slide = np.linalg.norm(np.diff(ground, axis=1), axis=-1)
    return (slide * weight).sum(axis=(1, 2)) / t


def joint_acceleration(candidates: np.ndarray, previous: np.ndarray) -> np.ndarray:
    """(B,) mean absolute acceleration (m/s², over the root-local joint coordinates and frames) of each of
    (B, T, FRAME_DIM) denormalised candidates, continuing from ``previous`` (FRAME_DIM,), the frame shown
    before them."""
    joints = _frame_vectors(candidates).astype(float)[..., 4:]
    before = np.broadcast_to(np.asarray(previous, dtype=float)[4:], (len(joints), 1, joints.shape[-1]))
    path = np.concatenate((before, joints), axis=1)
    return np.abs(np.diff(path, n=2, axis=1)).mean(axis=(1, 2)) * MODEL_FPS ** 2


def critic_score(candidates: np.ndarray, previous: np.ndarray, floor: np.ndarray, ground_step: np.ndarray
                 ) -> np.ndarray:
    """(B,) the critic's score of each candidate, lower is better: :func:`contact_slide` plus
    :data:`ACCELERATION_WEIGHT` x :func:`joint_acceleration` (see the card)."""
    return (contact_slide(candidates, previous, floor, ground_step)
            + ACCELERATION_WEIGHT * joint_acceleration(candidates, previous))
