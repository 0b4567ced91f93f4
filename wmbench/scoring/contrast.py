"""Cue contrast: an answer repeated word for word from a different situation does not express this one.

Card
----
- :func:`repeated_answer`: whether a decision's MOTION is, word for word (case, spacing and punctuation
  aside), one the brain gave earlier in the episode while the situation was different (``earlier``: the
  decisions of the other situation, e.g. while the beast was still charging). A brain that answers a charging
  beast and an ordinary wall with the same sentence has not adapted to the wall, whatever that sentence says;
  the C07 and C08 rules that judge a *change* of situation (recovery, a new cue) give such a decision less.
- Parse errors are never "repeated" (they score as misses anyway).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from wmbench.protocol.trace import DecisionRecord
from wmbench.scoring.reply import motion_text, parse_ok

_WORDS = re.compile(r"[a-z0-9]+")


def normalised_motion(d: DecisionRecord) -> str:
    """The MOTION's words, lower case, punctuation and spacing dropped."""
    return " ".join(_WORDS.findall(motion_text(d).lower()))


def repeated_answer(d: DecisionRecord, earlier: Iterable[DecisionRecord]) -> bool:
    """``d``'s MOTION is word for word the MOTION of one of ``earlier`` (a different situation)."""
    if not parse_ok(d):
        return False
    mine = normalised_motion(d)
    return bool(mine) and any(parse_ok(e) and normalised_motion(e) == mine for e in earlier)


__all__ = ["normalised_motion", "repeated_answer"]
