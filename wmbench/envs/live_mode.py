"""Live mode of :class:`~wmbench.envs.wmbench_env.WMBenchEnv`: the frame-level API ``wmbench.harness.live.loop`` uses.

Card
----
- :meth:`LiveLoop.observe` gives the scene_context now without advancing sim time; the decision being acted
  out is shown as the latest of ``recent_decisions`` with its outcome so far (and its PREDICT as
  ``last_prediction``), as a bench step shows the decision just finished.
- :meth:`LiveLoop.apply_reply` closes the decision in progress, parses a reply and sets the body's intent from
  the next frame on; the new decision's scene is the last :meth:`LiveLoop.observe`.
- :meth:`LiveLoop.advance_frame` runs one motion frame through the same per-frame code as ``step``; a live
  decision lasts from its reply to the next one (or to the phase's end, a catch or
  :meth:`LiveLoop.finish_decision`) and is then recorded in the trace like a bench decision.
- Never mixed with ``step`` in one episode. Frames before the first reply hold the initial still intent; a
  new phase starts standing at its start pose, as in bench mode.

Composition, not a mixin: a :class:`LiveLoop` holds the decision in progress and drives its env only through
:class:`LiveHost`, the declared interface of what live mode reads and calls (the env's episode hooks: perceive,
start a decision, run a frame, record a decision, phase bookkeeping). ``WMBenchEnv`` implements it and keeps
``observe`` / ``apply_reply`` / ``advance_frame`` / ``finish_decision`` as its public methods, which delegate
here. :class:`FrameStep` is one frame's outcome, shared by bench and live mode.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Protocol

from wmbench.body.base import Body, BodyState, FrameReport
from wmbench.body.intent.record import MotionIntent
from wmbench.envs.decisions import (
    AppliedReply,
    OpenDecision,
    has_escaped,
    parse_record,
    read_reply,
    remember_decision,
    show_memory,
)
from wmbench.envs.memory import DecisionMemory
from wmbench.envs.npc import Npc, NpcCrowd
from wmbench.envs.perception import Perception
from wmbench.envs.realized import RealizedTracker
from wmbench.protocol.observation import BrainInput, Observation, brain_input
from wmbench.protocol.trace import BrainRecord, Event, Trace


@dataclass(frozen=True)
class FrameStep:
    """One motion frame's outcome: its end time, the body after it (``state``: None when the frame was run
    with ``full_state=False`` for a :class:`~wmbench.body.base.FramePose` body; ``xy`` and ``posture`` are
    always there), the timeline events it fired, the body's frame report and the beast that caught the
    protagonist (or None)."""

    t: float
    state: BodyState | None
    xy: tuple[float, float]
    events: list[Event]
    report: FrameReport
    catcher: Npc | None
    posture: str


class LiveHost(Protocol):
    """What live mode reads and calls of its env (implemented by ``WMBenchEnv``; see its module card)."""

    frame_dt: float
    max_reply_chars: int
    observation: str
    body: Body

    @property
    def trace(self) -> Trace: ...
    @property
    def crowd(self) -> NpcCrowd | None: ...
    @property
    def memory(self) -> DecisionMemory | None: ...
    @property
    def last_perception(self) -> Perception | None: ...
    @property
    def terminated(self) -> bool: ...
    @property
    def sim_time(self) -> float: ...

    def require_reset(self, what: str) -> None: ...
    def perceive(self) -> Perception: ...
    def show_perception(self, perception: Perception) -> None: ...
    def current_observation(self) -> Observation: ...
    def start_decision(self, intent: MotionIntent) -> tuple[BodyState, RealizedTracker]: ...
    def run_frame(self, xy: tuple[float, float]) -> FrameStep: ...
    def record_decision(self, decision: OpenDecision, caught: bool) -> tuple[int, Perception]: ...
    def phase_over(self) -> bool: ...
    def next_phase(self) -> list[Event]: ...
    def end_episode(self) -> None: ...


class LiveLoop:
    """The frame-level API over a :class:`LiveHost` (see the module card); ``open`` is the decision in
    progress (None before the first reply and after it was recorded)."""

    def __init__(self, host: LiveHost) -> None:
        self.host = host
        self.open: OpenDecision | None = None

    def clear(self) -> None:
        """Forget the decision in progress without recording it (a new episode starts)."""
        self.open = None

    def observe(self) -> BrainInput:
        """The scene_context now (a fresh perception; sim time does not advance), as the brain receives it.

        The perception is remembered: the next :meth:`apply_reply` records it as the scene its decision saw.
        The decision being acted out is shown as the latest of ``recent_decisions`` with its outcome so far
        (and its PREDICT as ``last_prediction``), as a bench step shows the decision just finished.
        """
        host = self.host
        host.require_reset("observe")
        perception = host.perceive()
        live = self.open
        if live is not None:
            preview = copy.deepcopy(host.memory)
            assert preview is not None
            remember_decision(preview, live, live.tracker.result(), caught=False,
                              escaped=has_escaped(live.before, perception))
            show_memory(perception, preview)
        host.show_perception(perception)
        if host.observation != "scene":  # image/rays modes: what a bench step shows
            return brain_input(host.current_observation())
        return json.loads(perception.scene_json())

    def apply_reply(self, action: object, brain_meta: BrainRecord | None = None) -> AppliedReply:
        """Parse a reply and set the body's intent; it moves the body from the next :meth:`advance_frame` on.

        The decision in progress (if any) is closed and recorded first. The new decision's scene is the last
        :meth:`observe` (the snapshot the brain answered). ``brain_meta`` goes to its record's ``brain``.
        """
        host = self.host
        host.require_reset("apply_reply")
        if host.terminated:
            raise RuntimeError("apply_reply: the episode has ended; call reset() first")
        self.finish_decision()
        reading = read_reply(action, host.max_reply_chars)
        perception = host.last_perception
        assert perception is not None and host.crowd is not None
        body_before, tracker = host.start_decision(reading.intent)
        self.open = OpenDecision(host.sim_time, perception, reading, body_before, tracker, [], False,
                                 BrainRecord(**(brain_meta or {})))
        return AppliedReply(len(host.trace.decisions), parse_record(reading.parsed, reading.reply_chars),
                            reading.intent)

    def advance_frame(self) -> list[Event]:
        """One motion frame (same code as ``step``'s frames); ends the phase or the episode when due.

        Returns the frame's events (timeline, ``collision:wall`` once per decision, ``caught``, and a new
        phase's events). After the episode has ended it does nothing and returns ``[]``.
        """
        host = self.host
        host.require_reset("advance_frame")
        if host.terminated:
            return []
        crowd = host.crowd
        assert crowd is not None
        state = host.body.state()
        frame = host.run_frame((state.position[0], state.position[1]))
        events = list(frame.events)
        live = self.open
        if frame.report.collided and (live is None or not live.collided):
            events.append(Event(frame.t, "collision:wall", frame.report.wall_name or ""))
            if live is not None:
                live.collided = True
        if live is not None:
            x, y = frame.xy
            threat = crowd.nearest_beast_distance(x, y)
            live.tracker.observe(x, y, frame.posture, host.frame_dt, threat)
        if frame.catcher is not None:
            events.append(Event(frame.t, "caught", frame.catcher.name))
        if live is not None:
            live.events.extend(events)
        else:
            host.trace.events.extend(events)
        if frame.catcher is not None:
            self.finish_decision(caught=True)
            host.end_episode()
        elif host.phase_over():
            self.finish_decision()
            events += host.next_phase()
        return events

    def finish_decision(self, caught: bool = False) -> int | None:
        """Close and record the live decision in progress (if any); returns its index."""
        if self.open is None:
            return None
        decision, self.open = self.open, None
        index, _after = self.host.record_decision(decision, caught)
        return index
