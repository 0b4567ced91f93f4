"""Live mode: the world runs in wall-clock time while the brain thinks, exactly like a deployed agent.

::

    result = run_live("S42", "reference", body="smpl", fps=60, seed=0)
    result.fps, result.late_frame_rate, result.cognitive_latency_ms, result.cognitive_latency_p95_ms

Card
----
- **Frames.** The env's frame rate is set to the target ``fps`` (one frame = 1/fps sim seconds; physics
  240 Hz, so ``fps`` must be one of :data:`LIVE_FPS_CHOICES`). The main thread produces frames on the
  :class:`~wmbench.harness.live.metrics.FrameClock`: per frame it applies the newest reply (if one arrived),
  advances the world one frame (NPCs, body, physics, timeline), runs ``frame_work`` (extra per-frame load,
  e.g. NPC motion streams), and hands the brain a new scene when due.
- **Brain.** Runs concurrently in a worker thread (one decision at a time). It is shown a scene at each
  decision slot (every ``decision_dt`` = 0.5 s of sim time) when it is free, else as soon as its previous
  reply has been applied. The body repeats the last decision until the next arrives: a slow brain really does
  get caught. A brain that fails (error or exception) costs that decision: its empty reply is applied (the
  body stands) and the failure is recorded.
- **Latency** per decision: snapshot of the scene shown to the brain -> end of the first frame moving with
  its new MOTION (see :mod:`~wmbench.harness.live.metrics`). ``cognitive_latency_ms`` is the median,
  ``cognitive_latency_p95_ms`` the 95th percentile, over the run's decisions.
- **Ends** when the episode ends (last phase over, or caught) or after ``duration`` sim seconds. A brain still
  thinking at the end is left to finish in its thread (its answer is dropped); a brain given as an instance
  is waited for, so the caller may use it again at once.
- Only the main thread touches PyBullet; the brain sees plain dicts.
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wmbench.brain.base import Brain, BrainReply
from wmbench.brain.registry import get_brain
from wmbench.brain.seeding import brain_seed
from wmbench.envs.pacing import BODY_PACE, PaceMode
from wmbench.envs.wmbench_env import WMBenchEnv
from wmbench.harness.live.metrics import FrameClock, sample_memory
from wmbench.harness.run.episode import decide_safely
from wmbench.harness.video.recorder import VideoRecorder
from wmbench.harness.video.replay import render_episode
from wmbench.protocol.observation import BrainInput
from wmbench.protocol.trace import BrainRecord, TraceDict
from wmbench.scoring.live_run import (
    DEFAULT_FPS,
    NS_PER_MS,
    DecisionTiming,
    FrameRecord,
    LiveEvent,
    LiveResult,
    LiveTick,
    MemorySample,
    frame_stats,
    median,
    percentile,
)

#: Frame rates that divide the 240 Hz physics and make a 0.5 s decision slot a whole number of frames.
LIVE_FPS_CHOICES: tuple[int, ...] = (30, 60, 120, 240)
#: Wall seconds between periodic memory samples (others are taken after each despawn, at start and end).
MEMORY_SAMPLE_S = 0.5
#: How long ``run_live`` waits for a brain instance it was given to finish a decision in flight at the end.
BRAIN_JOIN_TIMEOUT_S = 60.0
_EPS = 1e-9

FrameWork = Callable[[Any], None]


# ------------------------------------------------------------------------------------------------ the brain


@dataclass(frozen=True)
class _Request:
    scene: BrainInput
    snapshot_ns: int
    snapshot_t: float


@dataclass(frozen=True)
class _Answer:
    request: _Request
    reply: BrainReply
    reply_ns: int


class _BrainWorker:
    """The brain in its own thread: one scene in, one reply out, one at a time."""

    def __init__(self, brain: Brain, close_when_done: bool) -> None:
        self.brain = brain
        self._close = close_when_done
        self._inbox: queue.SimpleQueue[_Request | None] = queue.SimpleQueue()
        self._outbox: queue.SimpleQueue[_Answer] = queue.SimpleQueue()
        #: set whenever an answer is posted, so the frame loop can apply it at once instead of at the next tick
        self.answered = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="wmbench-live-brain", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def ask(self, request: _Request) -> None:
        self._inbox.put(request)

    def poll(self) -> _Answer | None:
        try:
            return self._outbox.get_nowait()
        except queue.Empty:
            return None

    def stop(self, wait_s: float) -> bool:
        """Ask the thread to end after its current decision; wait up to ``wait_s``. True if it ended."""
        if self._thread.ident is None:  # never started (the run failed before it could)
            if self._close:
                self.brain.close()
            return True
        self._inbox.put(None)
        self._thread.join(timeout=max(0.0, wait_s))
        return not self._thread.is_alive()

    def _loop(self) -> None:
        try:
            while True:
                request = self._inbox.get()
                if request is None:
                    return
                reply = decide_safely(self.brain, request.scene)
                self._outbox.put(_Answer(request, reply, time.perf_counter_ns()))
                self.answered.set()
        finally:
            if self._close:
                self.brain.close()


def _resolve_brain(brain: str | Brain, options: Mapping[str, Any] | None) -> tuple[Brain, str, bool]:
    """(brain, label, owned): a spec is built here (and closed by the worker), an instance is borrowed."""
    if isinstance(brain, str):
        return get_brain(brain, **dict(options or {})), brain, True
    return brain, str(getattr(brain, "name", type(brain).__name__)), False


# ------------------------------------------------------------------------------------------------ the run


def run_live(
    scenario: str,
    brain: str | Brain,
    body: str = "smpl",
    fps: int = DEFAULT_FPS,
    seed: int = 0,
    duration: float | None = None,
    record: str | Path | None = None,
    on_frame: Callable[[LiveTick], None] | None = None,
    *,
    gui: bool = False,
    frame_work: FrameWork | None = None,
    brain_options: Mapping[str, Any] | None = None,
    brain_label: str | None = None,
    keep_trace: bool = False,
    observation: str = "scene",
    pace: PaceMode = BODY_PACE,
) -> LiveResult:
    """Run one scenario in real time (see the module card) and return its :class:`LiveResult`.

    ``brain`` is a spec (built with ``brain_options`` and closed afterwards) or a Brain instance (borrowed).
    ``record`` writes an mp4 (needs the ``video`` extra), rendered from the trace after the run
    (:mod:`wmbench.harness.video.replay`), so recording does not change the frame timing. ``on_frame`` is called
    after every frame with a :class:`LiveTick`; ``frame_work(env)`` runs inside every frame's timed work.
    ``observation`` is what the brain is shown (:mod:`wmbench.protocol.observation`; an image mode renders the
    strip inside the frame that asks the brain, so its cost shows in the frame timing). Raises ``ValueError``
    for a bad ``fps``, ``duration`` or ``observation``; a failure during the run is returned in ``error``.
    ``pace`` is the env's (:mod:`wmbench.envs.pacing`): a bench scene on a slow body plays at the body's pace
    unless it is ``"scene"`` (the ``--unpaced`` diagnostic); the trace records the pace played.
    """
    if fps not in LIVE_FPS_CHOICES:
        raise ValueError(f"live fps must be one of {LIVE_FPS_CHOICES} (it must divide the 240 Hz physics), "
                         f"got {fps!r}")
    if duration is not None and not (duration > 0 and math.isfinite(duration)):
        raise ValueError(f"duration must be a positive number of seconds or None, got {duration!r}")

    if record is not None:  # the video is rendered from the trace after the run (harness/video/replay.py)

        VideoRecorder(record)  # fails now, before anything runs, if the extra is missing
    render_mode = "human" if gui else None
    instance, label, owned = _resolve_brain(brain, brain_options)
    try:
        env = WMBenchEnv(scenario, body=body, render_mode=render_mode, frame_rate=fps, observation=observation,
                         pace=pace)
    except BaseException:  # cleanup only (close the brain we built), then re-raised
        if owned:
            instance.close()
        raise
    loop = _LiveLoop(env, instance, fps, duration, on_frame, frame_work)
    worker = _BrainWorker(instance, close_when_done=owned)
    try:
        loop.prepare(seed)
        worker.start()
        loop.run(worker)
    except Exception as exc:  # a run that breaks is reported, never a crash of the caller
        loop.error = f"{type(exc).__name__}: {exc}"
    finally:
        worker.stop(0.0 if owned else BRAIN_JOIN_TIMEOUT_S)
        env.close()
    if record is not None and loop.trace is not None:
        try:
            render_episode(loop.trace, record)
        except Exception as exc:  # the measurement stands; say why there is no video
            loop.error = loop.error or f"rendering the video failed: {type(exc).__name__}: {exc}"
    return loop.result(scenario, brain_label or label, body, seed, keep_trace)


class _LiveLoop:
    """The frame loop's state: the clock, the decision in flight, and everything recorded."""

    def __init__(self, env: WMBenchEnv, brain: Brain, fps: int, duration: float | None,
                 on_frame: Callable[[LiveTick], None] | None, frame_work: FrameWork | None) -> None:
        self.env, self.brain, self.fps = env, brain, fps
        self.max_frames = None if duration is None else max(1, round(duration * fps))
        self.on_frame, self.frame_work = on_frame, frame_work
        self.clock = FrameClock(fps)
        self.frames: list[FrameRecord] = []
        self.late_count = 0
        self.decisions: list[DecisionTiming] = []
        self.events: list[LiveEvent] = []
        self.memory: list[MemorySample] = []
        self.in_flight = False
        self.pending: tuple[_Answer, Any, int] | None = None  # a reply applied while waiting for a tick
        self.next_slot = 0.0
        self.caught = False
        self.error: str | None = None
        self.wall_s = 0.0
        self.trace: TraceDict | None = None

    def prepare(self, seed: int) -> None:
        self.env.reset(seed=seed)
        self.env.trace.meta["mode"] = "live"
        self.brain.reset(brain_seed(seed))

    def run(self, worker: _BrainWorker) -> None:
        env, clock = self.env, self.clock
        clock.start()
        self.memory.append(sample_memory(0.0, 0.0, "start"))
        self._ask(worker)
        next_memory_ms = MEMORY_SAMPLE_S * 1000
        try:
            while not env.terminated and (self.max_frames is None or len(self.frames) < self.max_frames):
                start = clock.now_ns()
                applying = self.pending or self._apply_newest(worker)
                self.pending = None
                fired = env.advance_frame()
                if self.frame_work is not None:
                    self.frame_work(env)
                if env.render_mode == "human":
                    env.render()
                end = clock.now_ns()
                end_ms = clock.ms(end)
                if applying is not None:
                    self._timed(applying, end_ms)
                self._log_events(fired, end_ms)
                next_memory_ms = self._sample_memory(fired, end_ms, next_memory_ms)
                if not self.in_flight and not env.terminated and env.sim_time >= self.next_slot - _EPS:
                    self._ask(worker)
                frame = clock.frame_done(start, end, idle=lambda deadline: self._idle(worker, deadline))
                self.frames.append(frame)
                self.late_count += frame.late
                if self.on_frame is not None:
                    self.on_frame(self._tick(frame, fired))
        finally:
            self.wall_s = (clock.now_ns() - clock.t0_ns) / 1e9
            self.memory.append(sample_memory(clock.ms(clock.now_ns()), env.sim_time, "end"))
            try:
                env.finish_decision()
            except Exception as exc:  # a broken world: keep what was measured, say why the trace stops here
                self.error = self.error or f"closing the last decision failed: {type(exc).__name__}: {exc}"
            self.trace = env.trace.to_dict()

    # -------------------------------------------------------------------------------------------- steps

    def _ask(self, worker: _BrainWorker) -> None:
        """Show the brain the scene now; the next slot is the first decision slot after now."""
        env = self.env
        scene = env.observe()
        worker.ask(_Request(scene, self.clock.now_ns(), env.sim_time))
        self.in_flight = True
        dt = env.decision_dt
        self.next_slot = (math.floor(env.sim_time / dt + _EPS) + 1) * dt

    def _idle(self, worker: _BrainWorker, deadline_ns: int) -> None:
        """Wait for the frame's deadline; a reply arriving meanwhile is applied at once (the body's intent is
        set now and the next frame moves with it — the sim itself is the same as applying it at the tick)."""
        clock = self.clock
        while (remaining := deadline_ns - clock.now_ns()) > 0:
            if self.pending is None and worker.answered.wait(remaining / 1e9):
                worker.answered.clear()
                self.pending = self._apply_newest(worker)
            elif self.pending is not None:
                time.sleep(remaining / 1e9)

    def _apply_newest(self, worker: _BrainWorker) -> tuple[_Answer, Any, int] | None:
        answer = worker.poll()
        if answer is None:
            return None
        reply = answer.reply
        meta = BrainRecord(**reply.meta(), snapshot_t=round(answer.request.snapshot_t, 6), live=True)
        applied = self.env.apply_reply(reply.text if reply.error is None else "", brain_meta=meta)
        return answer, applied, self.clock.now_ns()

    def _timed(self, applying: tuple[_Answer, Any, int], applied_ms: float) -> None:
        answer, applied, intent_set_ns = applying
        snapshot_ms = self.clock.ms(answer.request.snapshot_ns)
        intent = applied.intent.to_dict()
        intent.pop("source", None)
        self.decisions.append(DecisionTiming(
            index=len(self.decisions), snapshot_ms=snapshot_ms,
            snapshot_t=round(answer.request.snapshot_t, 6), reply_ms=self.clock.ms(answer.reply_ns),
            applied_ms=applied_ms, intent_set_ms=self.clock.ms(intent_set_ns),
            applied_t=round(self.env.sim_time, 6), latency_ms=round(applied_ms - snapshot_ms, 3),
            brain_ms=round((answer.reply_ns - answer.request.snapshot_ns) / NS_PER_MS, 3),
            motion=applied.parse.get("motion"), intent=intent, error=answer.reply.error,
        ))
        self.in_flight = False

    def _log_events(self, fired: Sequence[Any], wall_ms: float) -> None:
        for e in fired:
            self.events.append(LiveEvent(wall_ms, e.t, e.kind, e.detail))
            if e.kind == "caught":
                self.caught = True

    def _sample_memory(self, fired: Sequence[Any], wall_ms: float, due_ms: float) -> float:
        """Sample after a despawn and periodically; returns when the next periodic sample is due."""
        despawns = [e.kind for e in fired if e.kind.startswith("despawn:")]
        if despawns:
            self.memory.append(sample_memory(wall_ms, self.env.sim_time, f"after {despawns[0]}"))
        elif wall_ms >= due_ms:
            self.memory.append(sample_memory(wall_ms, self.env.sim_time, "periodic"))
            return wall_ms + MEMORY_SAMPLE_S * 1000
        return due_ms

    def _tick(self, frame: FrameRecord, fired: Sequence[Any]) -> LiveTick:
        last = self.decisions[-1].latency_ms if self.decisions else None
        return LiveTick(frame, self.env.sim_time, (frame.start_ms + frame.work_ms) / 1000, len(self.frames),
                        self.late_count, len(self.decisions), last, tuple(e.kind for e in fired))

    # -------------------------------------------------------------------------------------------- result

    def result(self, scenario: str, brain: str, body: str, seed: int, keep_trace: bool) -> LiveResult:
        stats = frame_stats(self.frames, self.wall_s)
        latencies = [d.latency_ms for d in self.decisions]
        p50, p95 = median(latencies), percentile(latencies, 95.0)
        return LiveResult(
            scenario=scenario, brain=brain, body=body, seed=seed, fps_target=self.fps, fps=stats.fps,
            work_fps=stats.work_fps, late_frame_rate=stats.late_frame_rate,
            dropped_frame_rate=stats.dropped_frame_rate,
            cognitive_latency_ms=None if p50 is None else round(p50, 3),
            cognitive_latency_p95_ms=None if p95 is None else round(p95, 3),
            wall_s=round(self.wall_s, 4), sim_s=round(self.env.sim_time, 6), late_frames=stats.late,
            skipped_frames=stats.skipped, caught=self.caught, ended=bool(self.env.terminated),
            frames=tuple(self.frames), decisions=tuple(self.decisions), events=tuple(self.events),
            memory=tuple(self.memory), error=self.error, trace=self.trace if keep_trace else None,
        )


def live_summary_line(tick: LiveTick) -> str:
    """The once-a-second progress line of ``wmbench live``."""
    fps = tick.frames / tick.wall_s if tick.wall_s > 0 else 0.0
    late = 100.0 * tick.late_frames / tick.frames if tick.frames else 0.0
    lat = "-" if tick.last_latency_ms is None else f"{tick.last_latency_ms:.0f} ms"
    return (f"t={tick.t:5.1f}s  fps={fps:5.1f}  late={late:4.1f}%  decisions={tick.decisions:3d}  "
            f"last latency={lat}")
