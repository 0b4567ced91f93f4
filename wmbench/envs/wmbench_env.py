"""WMBenchEnv: one WM Bench scenario as a Gymnasium environment (one ``step`` = one decision).

Card
----
- **Observation** ``Dict(scene, rays, ray_hits)``: ``scene`` is ``json.dumps(scene_context)`` (ASCII, official
  keys first, see :mod:`wmbench.protocol.scene`); ``rays`` the fan's distances (m, capped at 10);
  ``ray_hits`` each ray's class (0 none, 1 wall, 2 beast, 3 human). ``observation=`` picks what the brain
  is shown (``scene``, ``image``, ``scene+image``, ``rays``: :mod:`wmbench.protocol.observation`); the
  image modes add ``image``, the ``(panorama_panel, 4 * panorama_panel, 3)`` uint8 egocentric strip (and
  ``map``, a heading-up view from above, with ``image_map=True``).
- **Action**: the brain's reply text (``PREDICT: ...`` / ``MOTION: ...``). Any object is accepted: bytes
  are decoded as UTF-8 (invalid bytes replaced), text is clipped to ``max_reply_chars`` before parsing, and
  anything unreadable is recorded as a parse error. The MOTION (or the MOTION salvaged from a broken reply)
  becomes a :class:`~wmbench.body.intent.record.MotionIntent`; no MOTION means standing still.
- **Step**: ``decision_dt`` of motion frames; per frame the NPCs move, the body moves (physics sub-steps only
  when ``body.needs_physics``), then the timeline fires, walls stop the body (``collision:wall``, once per
  decision) and a beast within 0.8 m ends the episode (``caught``). Each step appends a
  :class:`~wmbench.protocol.trace.DecisionRecord` to :attr:`trace`; ``info["events"]`` lists this step's event
  kinds (a phase change's ``phase:<name>`` and phase-start events included).
- **Episode**: the scenario's phases in order (world rebuilt, body back at the phase's start pose, memory kept
  or cleared); a phase lasts ``ceil(duration / decision_dt)`` decisions. ``terminated`` after the last phase
  or when caught; never ``truncated``. Stepping a finished episode returns its last observation again.
- **Reward** is 0.0 by default (``reward="none"``): scoring is a separate, pure function of the trace, so
  benchmark results do not depend on it. ``reward="dense"`` is per-decision shaping from the sim (PREDICT
  accuracy, moving away from danger, collisions, caught, escaped; :mod:`wmbench.envs.rewards`). ``reward="score"``
  (the scenario's points / 20 on the terminal step) is the scorer's: the registered ids
  (``gym.make("WMBench-S12-v0", reward="score")``) wrap the env in
  :class:`~wmbench.scoring.episode_score.EpisodeScoreWrapper`; this class alone refuses it.
- **Terminal info**: the step that ends the episode carries ``info["trace"]`` (the episode's
  :class:`~wmbench.protocol.trace.Trace`; ``.to_dict()`` for plain data), so a vector env's autoreset loses it
  not; the registered ids' wrapper adds ``info["episode_score"]`` (scenario, score, max, measured, explanation,
  rule) in every reward mode.
- **Scenarios**: one fixed ``scenario``, or a pool ``scenarios`` (a selection such as ``"C01,C03"`` or
  ``"bench"`` for every bench-mode scenario) drawn from with the env's seeded generator at each reset;
  ``reset(options={"scenario": "S12"})`` picks one explicitly (the choice stays for later resets that name
  none, unless a pool is set); any other option key is refused with the nearest known one
  (:data:`RESET_OPTIONS`). Spaces do not depend on the scenario, so a vector env can mix scenarios.
- **Pace** (:mod:`wmbench.envs.pacing`): on a body slower than the character (``body_pace`` < 1: robot 0.38,
  drone 0.46) every bench scene is played at the body's pace — NPC speeds times the pace, phase durations and
  event times divided by it — so the story unfolds as on the character, on the body's own clock (more
  decisions). Applied to the instance drawn at each ``reset`` (``episode_pace``, recorded in the trace's
  ``meta["instance"]["pace"]``). ``pace="scene"`` plays the scene's own speeds (a diagnostic of the body's raw
  limits). The character's pace is 1: its scenes are never changed.
- **Render**: ``rgb_array`` returns a 320x240 TinyRenderer chase frame from above/behind, framed to include
  the nearest threat, once per ``step`` (so ``metadata["render_fps"]`` is ``1 / decision_dt``, 2 by default:
  a recorded video plays in sim time); ``human`` opens the PyBullet GUI and plays every motion frame in real
  time. The trace's ``meta["poses"]`` (:mod:`wmbench.envs.pose_log`) lets any finished episode be rendered
  again.
- **Live mode** (frame-level API, used by ``wmbench.harness.live.loop``; never mixed with ``step`` in one
  episode): :meth:`observe` gives the scene_context now without advancing; :meth:`apply_reply` parses a reply
  and sets the body's intent from the next frame on (closing the decision before it); :meth:`advance_frame`
  runs one motion frame through the same per-frame code as ``step``. A live decision lasts from its reply to
  the next one (or to the phase's end, a catch or :meth:`finish_decision`) and is then recorded in
  :attr:`trace` like a bench decision. Frames before the first reply hold the initial still intent; a new
  phase starts standing at its start pose, as in bench mode.

Modules: :mod:`~wmbench.envs.live_mode` (live mode as a :class:`~wmbench.envs.live_mode.LiveLoop` the env
owns, driving it through the :class:`~wmbench.envs.live_mode.LiveHost` hooks below), :mod:`~wmbench.envs.decisions`
(reading a reply, the decision in progress, its record and memory).
"""

from __future__ import annotations

import json
import math
import string
import time
from dataclasses import replace
from typing import Any, TypeGuard, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from wmbench.body.base import Body, BodyState, FramePose, FusedPhysics, Respawnable
from wmbench.body.checker import require_body
from wmbench.body.intent.record import MotionIntent
from wmbench.body.registry import get_body
from wmbench.core.errors import UnknownNameError
from wmbench.envs import cameras
from wmbench.envs import render as camera
from wmbench.envs.decisions import (
    AppliedReply,
    OpenDecision,
    has_escaped,
    read_reply,
    remember_decision,
    show_memory,
)
from wmbench.envs.live_mode import FrameStep, LiveLoop
from wmbench.envs.memory import DecisionMemory
from wmbench.envs.npc import NpcCrowd
from wmbench.envs.pacing import BODY_PACE, PaceMode, body_pace, check_pace_mode, paced_record, scene_pace
from wmbench.envs.perception import RAY_RANGE, Perception, RayFan, perceive
from wmbench.envs.pose_log import PoseLog
from wmbench.envs.realized import RealizedTracker
from wmbench.envs.rewards import check_env_reward_mode, dense_reward
from wmbench.envs.scene_space import SceneText
from wmbench.envs.world import World
from wmbench.protocol.camera_layout import PanoramaSpec
from wmbench.protocol.observation import BrainInput, Observation, check_mode, has_image, text_part
from wmbench.protocol.trace import BrainRecord, Event, InstanceRecord, Trace
from wmbench.scenarios import all_scenarios, select
from wmbench.scenarios.families import Instance, draw_instance
from wmbench.scenarios.records import Phase, Scenario
from wmbench.scenarios.registry import get_scenario

#: Public names (``AppliedReply`` is defined in :mod:`wmbench.envs.decisions`).
__all__ = [
    "REPLY_CHARSET", "SCENE_CHARSET", "SCENE_MAX_CHARS", "WMBenchEnv",
]

SCENE_MAX_CHARS = 16384
#: The keys ``reset(options=...)`` reads; any other is refused (with the nearest known one).
RESET_OPTIONS: tuple[str, ...] = ("scenario",)
#: Printable ASCII (space to tilde) plus newline: all that ``json.dumps(..., ensure_ascii=True)`` emits.
SCENE_CHARSET = "".join(chr(c) for c in range(32, 127)) + "\n"
REPLY_CHARSET = string.printable
_TOL = 1e-9


def _whole(value: float, what: str) -> int:
    n = round(value)
    if n < 1 or abs(value - n) > 1e-6:
        raise ValueError(f"{what} must be a positive whole number, got {value:g}")
    return int(n)


class WMBenchEnv(gym.Env[Observation, str]):
    """A WM Bench scenario in PyBullet (see the module card)."""

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 30}

    def __init__(
        self,
        scenario: str | Scenario | None = None,
        body: str | Body = "smpl",
        render_mode: str | None = None,
        decision_dt: float = 0.5,
        frame_rate: int = 30,
        physics_hz: int = 240,
        n_rays: int = 72,
        max_reply_chars: int = 20000,
        reward: str | None = None,
        scenarios: str | None = None,
        observation: str = "scene",
        panorama_panel: int = 128,
        image_map: bool = False,
        pace: str = BODY_PACE,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        if decision_dt <= 0 or frame_rate <= 0 or physics_hz <= 0:
            raise ValueError(f"decision_dt, frame_rate and physics_hz must be > 0, got "
                             f"{decision_dt}, {frame_rate}, {physics_hz}")
        self.substeps = _whole(physics_hz / frame_rate,
                               f"physics_hz / frame_rate ({physics_hz} / {frame_rate})")
        self.frames_per_decision = _whole(decision_dt * frame_rate,
                                          f"decision_dt * frame_rate ({decision_dt} * {frame_rate})")
        if max_reply_chars < 1:
            raise ValueError(f"max_reply_chars must be >= 1, got {max_reply_chars}")
        self.reward_mode = check_env_reward_mode(reward)
        self.scenario_pool: tuple[Scenario, ...] = _scenario_pool(scenarios)
        if scenario is None and not self.scenario_pool:
            raise ValueError("WMBenchEnv needs a scenario (an id such as 'S12' or a Scenario record) or a "
                             "scenarios pool such as 'C01,C03' or 'bench'; got neither")
        chosen = self.scenario_pool[0] if scenario is None else scenario
        #: the registered record: a family of instances (:mod:`wmbench.scenarios.families`)
        self.family_record: Scenario = get_scenario(chosen) if isinstance(chosen, str) else chosen
        #: the instance being run (the canonical record until ``reset`` draws one for its seed)
        self.scenario: Scenario = self.family_record
        self.instance: Instance = draw_instance(self.family_record, 0, np.random.default_rng(0))[1]
        self.body: Body = require_body(get_body(body) if isinstance(body, str) else body)
        #: ``"body"``: bench scenes played at the body's pace; ``"scene"``: as recorded (:mod:`wmbench.envs.pacing`)
        self.pace_mode: PaceMode = check_pace_mode(pace)
        #: the body's pace (sprint speed over the character's, capped at 1)
        self.body_pace: float = body_pace(self.body)
        #: the pace the current episode's scene is played at (1 before ``reset`` and for unpaced scenes)
        self.episode_pace: float = 1.0
        self._fused_types: dict[type, bool] = {}
        self._pose_types: dict[type, bool] = {}
        self.render_mode = render_mode
        self.decision_dt = float(decision_dt)
        self.frame_rate = int(frame_rate)
        self.physics_hz = int(physics_hz)
        self.frame_dt = 1.0 / self.frame_rate
        self.max_reply_chars = int(max_reply_chars)
        self.fan = RayFan.make(n_rays)
        # render() yields one frame per step, i.e. per decision: videos of rgb_array frames play in sim time
        fps = 1.0 / self.decision_dt
        self.metadata = {**self.metadata, "render_fps": int(fps) if float(fps).is_integer() else fps}
        space = spaces.Dict({
            "scene": SceneText(max_length=SCENE_MAX_CHARS, charset=SCENE_CHARSET),
            "rays": spaces.Box(0.0, RAY_RANGE, (n_rays,), dtype=np.float32),
            "ray_hits": spaces.MultiDiscrete([4] * n_rays),
        })
        self.observation = check_mode(observation)  # what the brain is shown (protocol/observation.py)
        self.panorama_spec = PanoramaSpec(panorama_panel)
        if has_image(self.observation):
            space = spaces.Dict({
                **space.spaces,
                "image": spaces.Box(0, 255, self.panorama_spec.shape, dtype=np.uint8),
                **({"map": spaces.Box(0, 255, (cameras.MAP_PX, cameras.MAP_PX, 3), dtype=np.uint8)}
                   if image_map else {})})
        elif image_map:
            raise ValueError(f"image_map needs an image observation (image or scene+image), got {observation!r}")
        # Gymnasium types a Dict space as Space[dict[str, Any]]; its values are this env's Observation
        self.observation_space = cast(spaces.Space[Observation], space)
        self.image_map = bool(image_map)
        self._poses = PoseLog(self.frame_rate)
        self.action_space = spaces.Text(max_length=self.max_reply_chars, charset=REPLY_CHARSET)
        self.trace = Trace(scenario_id=self.scenario.id, seed=None, body=self.body.name)
        self._world: World | None = None
        self._crowd: NpcCrowd | None = None
        self._memory: DecisionMemory | None = None
        self._perception: Perception | None = None
        self._phase_index = 0
        self._phase_frame = 0
        self._frames = 0
        self._terminated = False
        self._live = LiveLoop(self)  # live mode, driving this env through its LiveHost hooks

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self._choose_scenario(options)
        drawn, self.instance = draw_instance(self.family_record, seed, self.np_random)
        self.episode_pace = scene_pace(drawn, self.body_pace, self.pace_mode)
        self.scenario = paced_record(drawn, self.episode_pace)  # the one place every episode is paced
        reuse = False
        if self._world is None:
            self._world = World(self.frame_dt, 1.0 / self.physics_hz, gui=self.render_mode == "human")
        elif self._body_reusable():
            reuse = True  # keep the body; take out only what the last episode added (issue 23)
            if self._crowd is not None:
                self._crowd.remove_all()
            self._world.set_walls(())
        else:
            self.body.remove()
            self._world.reset()
        self._crowd = None
        self._memory = DecisionMemory()
        self._frames = 0
        self._terminated = False
        self._live.clear()
        self.trace = Trace(scenario_id=self.scenario.id, seed=seed, body=self.body.name,
                           meta={"decision_dt": self.decision_dt, "frame_rate": self.frame_rate,
                                 "physics_hz": self.physics_hz, "n_rays": self.fan.n_rays,
                                 "instance": self._instance_record()})
        if self.observation != "scene":
            self.trace.meta["observation"] = self.observation
        self._poses = PoseLog(self.frame_rate)
        self.trace.meta["poses"] = self._poses.data
        first = self.scenario.phases[0]
        if reuse:
            assert isinstance(self.body, Respawnable)
            self.body.respawn((*first.start_position, 0.0), first.start_heading)
        else:
            self.body.spawn(self._world, (*first.start_position, 0.0), first.start_heading)
            self._world.exclude_from_rays(self.body.body_ids())
        events = self._enter_phase(0)
        self._perception = self.perceive()
        return self.current_observation(), self._info(events)

    def step(self, action: str) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._world is None or self._memory is None:
            raise RuntimeError("WMBenchEnv.step called before reset()")
        if self._terminated:
            return self.current_observation(), 0.0, True, False, {**self._info([]), "after_end": True}
        if self._live.open is not None:
            raise RuntimeError("WMBenchEnv.step cannot follow apply_reply in the same episode (live mode); "
                               "call reset() first")
        reading = read_reply(action, self.max_reply_chars)

        before = self._perception
        assert before is not None
        t_start = self._frames * self.frame_dt
        body_before, tracker = self.start_decision(reading.intent)
        events, collided, caught, last = self._run_frames(tracker)
        phase_over = self.phase_over()
        decision = OpenDecision(t_start, before, reading, body_before, tracker, events, collided)
        index, after = self.record_decision(decision, caught, last)
        step_events = list(events)

        reward = 0.0
        if self.reward_mode == "dense":
            reward = dense_reward(self.trace.decisions[index], self._nearest_beast())
        if caught:
            self._terminated = True
        elif phase_over:
            step_events += self.next_phase()
            if not self._terminated:
                after = self.perceive()
        self._perception = show_memory(after, self._memory)  # the outcome of the step just taken
        info = self._info(step_events)
        info["decision"] = index
        if self._terminated:
            info["trace"] = self.trace  # the object (reset starts a new one): vector envs keep it whole
        return self.current_observation(), reward, self._terminated, False, info

    def render(self):
        if self._world is None or self.render_mode is None:
            return None
        self.body.sync_visuals()
        if self.render_mode == "rgb_array":
            return camera.capture(self._world.client, self.body.state(), threat=self._nearest_threat())
        camera.follow(self._world.client, self.body.state())
        return None

    def _instance_record(self) -> InstanceRecord:
        """The trace's ``meta["instance"]``: the drawn instance, and ``pace`` when the scene was paced (absent: 1,
        so unpaced traces stay as they were)."""
        record = cast(InstanceRecord, self.instance.to_dict())
        if self.episode_pace != 1.0:
            record["pace"] = self.episode_pace
        return record

    def _body_reusable(self) -> bool:
        """Whether the next episode may keep the spawned body: it is spawned and
        :class:`~wmbench.body.base.Respawnable` (the world keeps its ground; the last episode's walls and NPCs
        are removed). Saves ``resetSimulation`` and the URDF load per episode."""
        return isinstance(self.body, Respawnable) and bool(self.body.body_ids())

    def close(self) -> None:
        if self._world is not None:
            try:
                self.body.remove()
            finally:
                self._world.close()
                self._world = None
                self._crowd = None

    def _nearest_threat(self) -> tuple[float, float] | None:
        """Where the nearest beast (else the nearest NPC) stands, for the chase camera to frame."""
        if self._crowd is None:
            return None
        state = self.body.state()
        x, y = state.position[0], state.position[1]
        npcs = self._crowd.present()
        if not npcs:
            return None
        nearest = min(npcs, key=lambda n: (not n.is_beast, math.hypot(n.x - x, n.y - y)))
        return (nearest.x, nearest.y)

    # ------------------------------------------------------------------ live mode (wmbench.envs.live_mode)
    def observe(self) -> BrainInput:
        """The scene_context now, without advancing sim time (:meth:`LiveLoop.observe`)."""
        return self._live.observe()

    def apply_reply(self, action: object, brain_meta: BrainRecord | None = None) -> AppliedReply:
        """Parse a reply and act it out from the next frame on (:meth:`LiveLoop.apply_reply`)."""
        return self._live.apply_reply(action, brain_meta)

    def advance_frame(self) -> list[Event]:
        """One motion frame; ends the phase or the episode when due (:meth:`LiveLoop.advance_frame`)."""
        return self._live.advance_frame()

    def finish_decision(self, caught: bool = False) -> int | None:
        """Record the live decision in progress, if any; its index (:meth:`LiveLoop.finish_decision`)."""
        return self._live.finish_decision(caught)

    # ------------------------------------------------------------------ harness hooks
    def record_brain_meta(self, meta: BrainRecord) -> None:
        """Attach the brain's metadata (latency, tokens, retries, provider, error) to the last decision."""
        if not self.trace.decisions:
            raise RuntimeError("record_brain_meta: no decision recorded yet (call step first)")
        last = self.trace.decisions[-1]
        self.trace.decisions[-1] = replace(last, brain=cast(BrainRecord, {**last.brain, **dict(meta)}))

    @property
    def last_perception(self) -> Perception | None:
        """What the current observation was built from: the scene dict, the truth and the ray arrays."""
        return self._perception

    @property
    def phase_index(self) -> int:
        return self._phase_index

    @property
    def sim_time(self) -> float:
        return self._frames * self.frame_dt

    @property
    def world(self) -> World | None:
        return self._world

    @property
    def crowd(self) -> NpcCrowd | None:
        return self._crowd

    @property
    def terminated(self) -> bool:
        """Whether the episode has ended (last phase over, or caught)."""
        return self._terminated

    @property
    def memory(self) -> DecisionMemory | None:
        """The decisions the brain is shown as ``recent_decisions`` (None before ``reset``)."""
        return self._memory

    # ------------------------------------------------------------------ episode hooks (LiveHost)
    def require_reset(self, what: str) -> None:
        """Raise if ``what`` is called before ``reset``."""
        if self._world is None or self._memory is None:
            raise RuntimeError(f"WMBenchEnv.{what} called before reset()")

    def show_perception(self, perception: Perception) -> None:
        """Make ``perception`` the current one (what the next observation and decision are built from)."""
        self._perception = perception

    def end_episode(self) -> None:
        """End the episode now (live mode: the protagonist was caught)."""
        self._terminated = True

    # ------------------------------------------------------------------ internals (and LiveHost hooks)
    def _choose_scenario(self, options: dict[str, Any] | None) -> None:
        """The scenario family of the episode about to start: ``options["scenario"]``, else one drawn from the
        pool (with the env's seeded generator), else the current one; ``reset`` then draws its instance."""
        unknown = sorted(set(options or {}) - set(RESET_OPTIONS))
        if unknown:  # a misspelt option would otherwise be ignored: the episode silently another scenario
            raise UnknownNameError("reset option", str(unknown[0]), RESET_OPTIONS)
        wanted = (options or {}).get("scenario")
        if wanted is not None:
            if not isinstance(wanted, (str, Scenario)):
                raise ValueError(f"reset options['scenario'] must be a scenario id such as 'S12' or a Scenario "
                                 f"record, got {type(wanted).__name__}")
            self.family_record = get_scenario(wanted) if isinstance(wanted, str) else wanted
        elif self.scenario_pool:
            self.family_record = self.scenario_pool[int(self.np_random.integers(len(self.scenario_pool)))]

    def _nearest_beast(self) -> float | None:
        """The nearest beast's distance from the body now (None without a beast)."""
        if self._crowd is None:
            return None
        position = self.body.state().position
        distance = self._crowd.nearest_beast_distance(position[0], position[1])
        return distance if distance is not None and math.isfinite(distance) else None

    def _phase_frames(self, phase: Phase) -> int:
        decisions = max(1, math.ceil(phase.duration / self.decision_dt - _TOL))
        return decisions * self.frames_per_decision

    def phase_over(self) -> bool:
        """Whether the current phase has run all its frames."""
        return self._phase_frame >= self._phase_frames(self.scenario.phases[self._phase_index])

    def next_phase(self) -> list[Event]:
        """Enter the next phase (returns its events), or end the episode after the last one (``[]``)."""
        if self._phase_index + 1 >= len(self.scenario.phases):
            self._terminated = True
            return []
        return self._enter_phase(self._phase_index + 1)

    def _enter_phase(self, index: int) -> list[Event]:
        assert self._world is not None and self._memory is not None
        phase = self.scenario.phases[index]
        if self._crowd is not None:
            self._crowd.remove_all()
        self._world.set_walls(phase.walls)
        self._poses.phase_walls(index, phase.walls)
        if index > 0:
            self.body.reset_pose((*phase.start_position, 0.0), phase.start_heading)
        if not phase.carry_memory:
            self._memory.clear()
        self._memory.seed(phase.prior_decisions)
        self._phase_index = index
        self._phase_frame = 0
        self.trace.phase_starts.append(len(self.trace.decisions))
        t = round(self._frames * self.frame_dt, 6)
        pass_through = self.body.body_ids() if self.body.needs_physics else frozenset()
        start = (phase.start_position[0], phase.start_position[1])
        self._crowd = NpcCrowd(self._world, phase, self.np_random, start, pass_through)
        events = [Event(t, f"phase:{phase.name}")]
        events += [Event(t, kind) for kind in self._crowd.fire_events(0.0, start)]
        self.trace.events.extend(events)
        self._poses.sample(self._frames, t, index, self.body.state(), self._crowd.present(), force=True)
        return events

    def start_decision(self, intent: MotionIntent) -> tuple[BodyState, RealizedTracker]:
        """Hand the body a new intent: the body state before it and a tracker of what it realizes."""
        assert self._crowd is not None
        body_before = self.body.state()
        self.body.apply_intent(intent)
        tracker = RealizedTracker(body_before, self._crowd.nearest_beast_distance(*body_before.position[:2]),
                                  self.body.envelope)
        return body_before, tracker

    def _run_frames(self, tracker: RealizedTracker) -> tuple[list[Event], bool, bool, BodyState]:
        """The decision's frames: its events, whether it hit a wall, whether it was caught, and the body
        state after the last frame (nothing moves the body between that and the decision's record, so the
        record and the next perception reuse it instead of asking the body twice more)."""
        assert self._world is not None and self._crowd is not None
        dt = self.frame_dt
        human = self.render_mode == "human"
        events: list[Event] = []
        collided = caught = False
        state: BodyState | None = self.body.state()
        assert state is not None
        xy = (state.position[0], state.position[1])
        for _ in range(self.frames_per_decision):
            tick = time.perf_counter()
            frame = self.run_frame(xy, full_state=False)  # the full state once, after the last frame
            xy, state = frame.xy, frame.state
            events += frame.events
            if frame.report.collided and not collided:
                collided = True
                events.append(Event(frame.t, "collision:wall", frame.report.wall_name or ""))
            tracker.observe(xy[0], xy[1], frame.posture, dt, self._crowd.nearest_beast_distance(*xy))
            if human:  # play in real time in the GUI
                self.render()
                time.sleep(max(0.0, dt - (time.perf_counter() - tick)))
            if frame.catcher is not None:
                caught = True
                events.append(Event(frame.t, "caught", frame.catcher.name))
                break
        return events, collided, caught, self.body.state() if state is None else state

    def run_frame(self, xy: tuple[float, float], full_state: bool = True) -> FrameStep:
        """One motion frame, shared by bench and live mode: NPCs move, the body moves (physics sub-steps
        only when it needs them), then the timeline fires. ``xy``: the protagonist's position before it.
        ``full_state=False``: a :class:`~wmbench.body.base.FramePose` body is asked only for its frame pose
        (the step's ``state`` is then None; the caller asks ``body.state()`` when it needs it, before the body
        moves again)."""
        assert self._world is not None and self._crowd is not None
        world, crowd, body = self._world, self._crowd, self.body
        dt = self.frame_dt
        crowd.step(dt, self._phase_frame * dt, xy)
        report = body.on_frame()
        if body.needs_physics:
            if self._fuses(body):  # one call per frame, the same steps
                body.run_physics_steps(self.substeps, world.step_physics)
            else:
                control, physics = body.on_physics_step, world.step_physics
                for _ in range(self.substeps):
                    control()
                    physics()
        self._phase_frame += 1
        self._frames += 1
        t = round(self._frames * dt, 6)
        state: BodyState | None
        if full_state or not self._frame_poses(body):
            state = body.state()
            x, y, heading, posture = state.position[0], state.position[1], state.heading, state.posture
        else:
            state = None
            x, y, heading, posture = body.frame_pose()
        xy = (x, y)
        events = [Event(t, kind) for kind in crowd.fire_events(self._phase_frame * dt, xy)]
        poses = self._poses
        if not self._frames % poses.stride:  # due (as sample_pose checks): list the NPCs only then
            poses.sample_pose(self._frames, t, self._phase_index, x, y, heading, crowd.present(), force=True)
        return FrameStep(t, state, xy, events, report, crowd.catcher(x, y), posture)

    def _frame_poses(self, body: Body) -> TypeGuard[FramePose]:
        """Whether ``body`` is :class:`FramePose`, decided once per body type (as :meth:`_fuses`). A subclass
        that overrides ``state`` below the class that wrote ``frame_pose`` is not trusted with it (its frame
        pose could differ from its state): it gets the full state every frame."""
        kind = type(body)
        cached = self._pose_types.get(kind)
        if cached is None:
            owner = next((c for c in kind.__mro__ if "frame_pose" in vars(c)), None)
            cached = self._pose_types[kind] = (isinstance(body, FramePose) and owner is not None
                                               and getattr(kind, "state", None) is getattr(owner, "state", None))
        return cached

    def _fuses(self, body: Body) -> TypeGuard[FusedPhysics]:
        """Whether ``body`` is :class:`FusedPhysics`, decided once per body type: a runtime-checkable
        protocol's ``isinstance`` walks its members (~12 us), which every frame would pay."""
        kind = type(body)
        cached = self._fused_types.get(kind)
        if cached is None:
            cached = self._fused_types[kind] = isinstance(body, FusedPhysics)
        return cached

    def record_decision(self, decision: OpenDecision, caught: bool,
                        state: BodyState | None = None) -> tuple[int, Perception]:
        """Close a decision: realized motion, outcome and memory, its DecisionRecord and its events in the
        trace. Returns its index and the perception at its end. ``state``: the body state now, when the
        caller has it (the last frame's); else the body is asked."""
        assert self._memory is not None
        realized = decision.tracker.result()
        body_after = self.body.state() if state is None else state
        t_end = self._frames * self.frame_dt
        after = self.perceive(body_after)
        escaped = not caught and has_escaped(decision.before, after)
        if escaped:
            decision.events.append(Event(round(t_end, 6), "escaped"))
        remember_decision(self._memory, decision, realized, caught, escaped)
        index = len(self.trace.decisions)
        self.trace.decisions.append(decision.record(index, self._phase_index, body_after, realized))
        self.trace.events.extend(decision.events)
        return index, after

    def perceive(self, state: BodyState | None = None) -> Perception:
        """A fresh perception from the body's pose now, with the memory the brain is shown (time stays).
        ``state``: the body state now, when the caller has it; else the body is asked."""
        assert self._world is not None and self._memory is not None
        return perceive(
            self._world, self._crowd, self.body.state() if state is None else state,
            float(self.body.sensor_height), self.fan,
            recent_decisions=self._memory.recent(), last_prediction=self._memory.last_prediction,
            t=self._frames * self.frame_dt,
        )

    def current_observation(self) -> Observation:
        """The Gymnasium observation of the current perception (in the env's observation mode)."""
        assert self._perception is not None
        scene = self._perception.scene_json()
        if len(scene) > SCENE_MAX_CHARS:  # cannot happen with clipped memory; kept as a hard guarantee
            scene = scene[:SCENE_MAX_CHARS]
        obs = Observation(scene=scene, rays=self._perception.rays.copy(), ray_hits=self._perception.ray_hits.copy())
        if self.observation != "scene":
            perception = self._perception
            obs["scene"] = json.dumps(text_part(self.observation, perception.scene, perception.rays,
                                                perception.ray_hits), ensure_ascii=True)[:SCENE_MAX_CHARS]
            if has_image(self.observation):
                obs["image"] = self.camera_strip()
                if self.image_map:
                    assert self._world is not None
                    state = self.body.state()
                    obs["map"] = cameras.heading_up_map(self._world.client, state.position[0], state.position[1],
                                                        state.heading)
        return obs

    def camera_strip(self) -> np.ndarray:
        """The egocentric panorama now (``[left | front | right | back]``, :mod:`wmbench.envs.cameras`)."""
        assert self._world is not None
        state = self.body.state()
        return cameras.panorama(self._world.client, state.position[0], state.position[1], state.heading,
                                self.panorama_spec)

    def _info(self, events: list[Event]) -> dict[str, Any]:
        return {
            "scenario": self.scenario.id, "phase": self._phase_index, "t": round(self.sim_time, 6),
            "events": [e.kind for e in events], "decision": len(self.trace.decisions),
        }


def _scenario_pool(selection: str | None) -> tuple[Scenario, ...]:
    """The records of a pool selection (``"bench"``: every bench-mode scenario); () for None."""
    if selection is None:
        return ()

    if selection.strip().lower() == "bench":
        return tuple(r for r in all_scenarios() if r.mode == "bench")
    pool = tuple(select(selection))
    if not pool:
        raise ValueError(f"scenarios {selection!r} selects no scenario")
    return pool
