"""Decision bookkeeping of the env: reading a reply, the decision being acted out, and its record.

Card
----
- :func:`read_reply`: any action -> :class:`ReplyReading`. Bytes are decoded as UTF-8 (invalid bytes
  replaced), None is empty text, other objects their ``repr``; the text is clipped to ``max_chars`` before
  parsing (a non-text action is handed to the parser as it is, which records a parse error). The MOTION (or
  the MOTION salvaged from a broken reply) becomes the intent; no MOTION means standing still.
- :class:`OpenDecision`: a decision whose frames are still running (bench: one ``step``; live: until the
  next reply), with what it saw, its reply, the body before it, its realized-motion tracker, its events so
  far and whether it hit a wall. :meth:`OpenDecision.record` closes it into a
  :class:`~wmbench.protocol.trace.DecisionRecord`.
- :func:`remember_decision` adds a finished decision with its outcome to the memory the brain is shown,
  :func:`show_memory` puts a memory into a perception's scene; :func:`has_escaped` says whether the
  protagonist got away from the beasts that were near it.
- :func:`parse_record`: a parse result as plain JSON for the trace.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, cast

from wmbench.body.base import BodyState
from wmbench.body.intent.reader import parse_motion
from wmbench.body.intent.record import MotionIntent
from wmbench.envs.memory import DecisionMemory, decision_outcome, scene_direction
from wmbench.envs.perception import Perception
from wmbench.envs.realized import RealizedMotion, RealizedTracker
from wmbench.protocol.grammar import ParseResult, parse_reply
from wmbench.protocol.trace import (
    BodyStateRecord,
    BrainRecord,
    DecisionRecord,
    Event,
    IntentRecord,
    ParseRecord,
    RealizedRecord,
)


@dataclass(frozen=True)
class ReplyReading:
    """An action read as a reply: the text (clipped), its length before clipping, the parse, the MOTION line
    (None if there is none) and the intent it asks for (still if there is no MOTION)."""

    reply: str
    reply_chars: int
    parsed: ParseResult
    motion: str | None
    intent: MotionIntent


def reply_text(action: object, max_chars: int) -> tuple[str, int]:
    """An action as text clipped to ``max_chars``, and the length of the text before clipping."""
    if action is None:
        text = ""
    elif isinstance(action, (bytes, bytearray)):
        text = bytes(action).decode("utf-8", errors="replace")
    elif isinstance(action, str):
        text = action
    else:
        text = repr(action)
    return text[:max_chars], len(text)


def read_reply(action: object, max_chars: int) -> ReplyReading:
    """Read an action (see the module card). Never raises. A plain ``str`` reply is read once per process
    and text (:func:`_read_text`): brains repeat themselves (the reference brain's S04 replies are ~60 %
    repeats), parsing is pure and its result frozen, and the parse is the largest per-decision cost."""
    if type(action) is str:
        return _read_text(action, max_chars)
    return _read(action, max_chars)


@functools.lru_cache(maxsize=512)
def _read_text(action: str, max_chars: int) -> ReplyReading:
    return _read(action, max_chars)


def _read(action: object, max_chars: int) -> ReplyReading:
    reply, reply_chars = reply_text(action, max_chars)
    parsed = parse_reply(reply if isinstance(action, (str, bytes, bytearray)) else action)
    motion = parsed.motion if isinstance(getattr(parsed, "motion", None), str) else None
    intent = parse_motion(motion) if motion else MotionIntent.still()
    return ReplyReading(reply, reply_chars, parsed, motion, intent)


def parse_record(parsed: ParseResult, reply_chars: int) -> ParseRecord:
    """The parse result as plain JSON (``reply_chars`` = length of the reply before clipping)."""
    prediction = getattr(parsed, "prediction", None)
    items = getattr(prediction, "items", ()) or ()
    code = getattr(parsed, "code", None)
    return {
        "ok": bool(getattr(parsed, "ok", False)),
        "code": None if code is None else getattr(code, "value", str(code)),
        "message": getattr(parsed, "message", ""),
        "prediction": {i.direction: [i.verdict, i.reason, i.raw] for i in items},
        "motion": getattr(parsed, "motion", None),
        "reply_chars": reply_chars,
        "warnings": list(getattr(parsed, "warnings", ()) or ()),
    }


@dataclass
class OpenDecision:
    """A decision whose frames are still running (bench: one ``step``; live: until the next reply)."""

    t_start: float
    before: Perception
    reading: ReplyReading
    body_before: BodyState
    tracker: RealizedTracker
    events: list[Event]
    collided: bool
    brain: BrainRecord = field(default_factory=lambda: BrainRecord())

    def record(self, index: int, phase: int, body_after: BodyState, realized: RealizedMotion) -> DecisionRecord:
        """The trace record of this decision, closed with the body after it and its realized motion."""
        reading = self.reading
        return DecisionRecord(
            index=index, phase=phase, t=round(self.t_start, 6), scene=self.before.scene,
            truth=self.before.truth, reply=reading.reply,
            parse=parse_record(reading.parsed, reading.reply_chars),
            # the lower layers' to_dict() write exactly these records' keys (body/ must not import envs/)
            intent=cast(IntentRecord, reading.intent.to_dict()),
            body_before=cast(BodyStateRecord, self.body_before.to_dict()),
            body_after=cast(BodyStateRecord, body_after.to_dict()), events=tuple(self.events),
            realized=cast(RealizedRecord, realized.to_dict()), brain=BrainRecord(**self.brain),
        )


@dataclass(frozen=True)
class AppliedReply:
    """What :meth:`WMBenchEnv.apply_reply` did: the index its decision will have, the parse, the intent."""

    index: int
    parse: ParseRecord
    intent: MotionIntent


def remember_decision(memory: DecisionMemory, decision: OpenDecision, realized: RealizedMotion, caught: bool,
                      escaped: bool) -> None:
    """Add a decision with its outcome to ``memory`` and remember its PREDICT line."""
    reading = decision.reading
    intent = reading.intent
    outcome = decision_outcome(caught=caught, blocked=decision.collided, escaped=escaped,
                               asked=scene_direction(intent.direction) if intent.moving else None,
                               moved=scene_direction(realized.direction))
    memory.add(decision.t_start, reading.motion or "", intent.direction if intent.moving else None, outcome)
    memory.remember_prediction(prediction_line(getattr(reading.parsed, "prediction", None)))


def prediction_line(prediction: Any) -> str | None:
    """The parsed PREDICT as one canonical line (``PREDICT: left=safe(open), ...``) — what the brain said, read
    by the grammar, never a raw fragment of its reply (a JSON reply's ``"PREDICT": "..."`` quotes and braces
    included); None when nothing was readable."""
    items = getattr(prediction, "items", ()) or ()
    if not items:
        return None
    return "PREDICT: " + ", ".join(
        f"{i.direction}={i.verdict}" + (f"({i.reason})" if i.reason else "") for i in items)


def show_memory(perception: Perception, memory: DecisionMemory) -> Perception:
    """The perception with ``memory`` as its ``recent_decisions`` and ``last_prediction``."""
    perception.scene["recent_decisions"] = memory.recent()
    perception.scene["last_prediction"] = memory.last_prediction
    return perception


def has_escaped(before: Perception, after: Perception) -> bool:
    """A beast that was nearby is still there but out of range, and no beast is nearby any more.
    (A beast that despawned was not escaped from.)"""
    was_near = {f.name for f in before.truth.npcs if f.nearby and f.type == "beast"}
    beasts_now = {f.name: f for f in after.truth.npcs if f.type == "beast"}
    if any(f.nearby for f in beasts_now.values()):
        return False
    return any(name in beasts_now for name in was_near)
