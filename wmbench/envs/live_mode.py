"""Live mode of :class:`~wmbench.envs.wmbench_env.WMBenchEnv`: the frame-level API ``wmbench.harness.live.loop`` uses.

Card
----
- :meth:`LiveMode.observe` gives the scene_context now without advancing sim time; the decision being acted
  out is shown as the latest of ``recent_decisions`` with its outcome so far (and its PREDICT as
  ``last_prediction``), as a bench step shows the decision just finished.
- :meth:`LiveMode.apply_reply` closes the decision in progress, parses a reply and sets the body's intent from
  the next frame on; the new decision's scene is the last :meth:`LiveMode.observe`.
- :meth:`LiveMode.advance_frame` runs one motion frame through the same per-frame code as ``step``; a live
  decision lasts from its reply to the next one (or to the phase's end, a catch or
  :meth:`LiveMode.finish_decision`) and is then recorded in the trace like a bench decision.
- Never mixed with ``step`` in one episode. Frames before the first reply hold the initial still intent; a
  new phase starts standing at its start pose, as in bench mode.

The mixin works on the env's own state and per-frame, decision and phase code (``_frame``,
``_start_decision``, ``_record_decision``, ``_phase_over``, ``_next_phase``, ``_perceive``).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from wmbench.envs.decisions import (
    AppliedReply,
    OpenDecision,
    has_escaped,
    parse_record,
    read_reply,
    remember_decision,
    show_memory,
)
from wmbench.envs.observation_modes import brain_input
from wmbench.envs.trace import Event


class LiveMode:
    """The frame-level API, mixed into ``WMBenchEnv`` (see the module card)."""

    def observe(self) -> dict[str, Any]:
        """The scene_context now (a fresh perception; sim time does not advance), as the brain receives it.

        The perception is remembered: the next :meth:`apply_reply` records it as the scene its decision saw.
        The decision being acted out is shown as the latest of ``recent_decisions`` with its outcome so far
        (and its PREDICT as ``last_prediction``), as a bench step shows the decision just finished.
        """
        self._require_reset("observe")
        perception = self._perceive()
        live = self._live
        if live is not None:
            preview = copy.deepcopy(self._memory)
            remember_decision(preview, live, live.tracker.result(), caught=False,
                              escaped=has_escaped(live.before, perception))
            show_memory(perception, preview)
        self._perception = perception
        if getattr(self, "observation", "scene") != "scene":  # image/rays modes: what a bench step shows
            return brain_input(self._observation())
        return json.loads(perception.scene_json())

    def apply_reply(self, action: Any, brain_meta: dict[str, Any] | None = None) -> AppliedReply:
        """Parse a reply and set the body's intent; it moves the body from the next :meth:`advance_frame` on.

        The decision in progress (if any) is closed and recorded first. The new decision's scene is the last
        :meth:`observe` (the snapshot the brain answered). ``brain_meta`` goes to its record's ``brain``.
        """
        self._require_reset("apply_reply")
        if self._terminated:
            raise RuntimeError("apply_reply: the episode has ended; call reset() first")
        self.finish_decision()
        reading = read_reply(action, self.max_reply_chars)
        assert self._perception is not None and self._crowd is not None
        body_before, tracker = self._start_decision(reading.intent)
        self._live = OpenDecision(self._frames * self.frame_dt, self._perception, reading, body_before, tracker,
                                  [], False, dict(brain_meta or {}))
        return AppliedReply(len(self.trace.decisions), parse_record(reading.parsed, reading.reply_chars),
                            reading.intent)

    def advance_frame(self) -> list[Event]:
        """One motion frame (same code as ``step``'s frames); ends the phase or the episode when due.

        Returns the frame's events (timeline, ``collision:wall`` once per decision, ``caught``, and a new
        phase's events). After the episode has ended it does nothing and returns ``[]``.
        """
        self._require_reset("advance_frame")
        if self._terminated:
            return []
        assert self._crowd is not None
        state = self.body.state()
        frame = self._frame((state.position[0], state.position[1]))
        events = list(frame.events)
        live = self._live
        if frame.report.collided and (live is None or not live.collided):
            events.append(Event(frame.t, "collision:wall", frame.report.wall_name or ""))
            if live is not None:
                live.collided = True
        if live is not None:
            x, y = frame.xy
            threat = self._crowd.nearest_beast_distance(x, y)
            live.tracker.observe(x, y, frame.state.posture, self.frame_dt, threat)
        if frame.catcher is not None:
            events.append(Event(frame.t, "caught", frame.catcher.name))
        if live is not None:
            live.events.extend(events)
        else:
            self.trace.events.extend(events)
        if frame.catcher is not None:
            self.finish_decision(caught=True)
            self._terminated = True
        elif self._phase_over():
            self.finish_decision()
            events += self._next_phase()
        return events

    def finish_decision(self, caught: bool = False) -> int | None:
        """Close and record the live decision in progress (if any); returns its index."""
        if self._live is None:
            return None
        decision, self._live = self._live, None
        index, _after = self._record_decision(decision, caught)
        return index

    def _require_reset(self, what: str) -> None:
        if self._world is None or self._memory is None:
            raise RuntimeError(f"WMBenchEnv.{what} called before reset()")
