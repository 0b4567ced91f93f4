"""Constant replies that share a MOTION share their episodes: each world is run once, each reply scored on its own.

::

    groups = motion_groups(["constant:beast-ahead/still", "constant:wall-ahead/still", "reference"])
    # -> (("constant:beast-ahead/still", "constant:wall-ahead/still"), ("reference",))
    trace = with_reply(trace_of_beast_ahead_still, constant_reply("constant:wall-ahead/still"))

Card
----
- **Why it is exact.** A constant brain (:class:`~wmbench.brain.panel.brains.ConstantBrain`) sends the same reply
  at every decision whatever it is shown, and the env acts out only the reply's MOTION (the intent, or standing
  still when the reply cannot be read): the PREDICT line is parsed, recorded, and shown back to the brain as
  ``last_prediction``, and moves nothing. So two constants whose replies have the same MOTION and are read alike
  (:func:`motion_key`) live through the same world, decision for decision.
- :func:`motion_groups`: the brains of a panel, the constants grouped by :func:`motion_key` (the quick panel's
  15 constant replies have 10 motions, the full sweep's 65 have 13); every other brain alone.
- :func:`with_reply`: an episode's trace as another constant of its group would have recorded it: every decision's
  reply, its parse (read by the env's own :func:`~wmbench.envs.decisions.read_reply`) and the ``last_prediction``
  its scene shows are that constant's. The rest (scene, truth, intent, body, events) is the shared world.
  Refuses a reply of another motion. Not carried over: the brain's measured latency (the first member's; no
  bench or transfer rule reads it) and the episode's wall time.
- :func:`~wmbench.harness.validity.runner.group_job` runs a group: each bench episode and each C10 run once, with
  the group's first constant, every member scored on its own traces (``tests/harness/validity/test_motion_groups.py``
  checks the traces and the scores against members run alone).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence

from wmbench.brain.panel.brains import ConstantBrain, get_panel_brain
from wmbench.envs.decisions import parse_record, prediction_line, read_reply
from wmbench.protocol.trace import TraceDict

#: what decides a constant's world: its MOTION line as the env reads it, and whether its reply is read
MotionKey = tuple[str | None, bool, str]


def constant_reply(name: str) -> str | None:
    """The reply panel brain ``name`` sends at every decision, or None if it is not a constant reply."""
    if not name.startswith("constant:"):
        return None
    brain = get_panel_brain(name)
    try:
        return brain.reply if isinstance(brain, ConstantBrain) else None
    finally:
        brain.close()


def motion_key(reply: str) -> MotionKey:
    """What the env takes from ``reply`` to move the body: its MOTION line, whether the reply was read, and the
    intent (:func:`~wmbench.envs.decisions.read_reply`, the env's own reader)."""
    reading = read_reply(reply, max(len(reply), 1))
    return reading.motion, bool(reading.parsed.ok), json.dumps(reading.intent.to_dict(), sort_keys=True)


def motion_groups(names: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """``names`` in groups that share their episodes: constants by :func:`motion_key` (in the order of their
    first member), every other brain alone."""
    groups: dict[object, list[str]] = {}
    for name in dict.fromkeys(names):
        reply = constant_reply(name)
        groups.setdefault(("constant", motion_key(reply)) if reply is not None else ("brain", name), []).append(name)
    return tuple(tuple(group) for group in groups.values())


def with_reply(trace: TraceDict, reply: str) -> TraceDict:
    """``trace`` (an episode of a constant reply of the same motion) as constant ``reply`` records it (see the
    card); a copy, ``trace`` is not changed."""
    if not trace["decisions"]:
        return copy.deepcopy(trace)
    first = trace["decisions"][0]["reply"]
    if motion_key(first) != motion_key(reply):
        raise ValueError(f"with_reply: {reply!r} does not move as the trace's reply {first!r} (another MOTION)")
    theirs, mine = read_reply(first, max(len(first), 1)), read_reply(reply, max(len(reply), 1))
    # what each was shown as its last PREDICT from its second decision on (None before any was read)
    shown = {None: None, prediction_line(getattr(theirs.parsed, "prediction", None)):
             prediction_line(getattr(mine.parsed, "prediction", None))}
    out = copy.deepcopy(trace)
    for decision in out["decisions"]:
        recorded = decision["scene"].get("last_prediction")
        if decision["reply"] != first or recorded not in shown:
            raise ValueError(f"with_reply: decision {decision['index']} of the trace is not a constant reply's "
                             f"({decision['reply']!r} shown {recorded!r}; expected {first!r})")
        if "last_prediction" in decision["scene"]:
            decision["scene"]["last_prediction"] = shown[recorded]
        decision["reply"] = mine.reply
        decision["parse"] = parse_record(mine.parsed, mine.reply_chars)
    return out
