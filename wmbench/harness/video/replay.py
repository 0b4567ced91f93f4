"""Replay: render a finished episode from its trace — chase and top-down side by side, captions below.

::

    render_episode(trace_dict, Path("s21.mp4"))        # what ``wmbench video RUN SCENARIO`` and --record do

Card
----
- **Input**: a trace dict (``episodes.jsonl`` line's ``trace``, or a live run's) with its pose log
  (``meta["poses"]``, :mod:`wmbench.envs.pose_log`). A trace without one (recorded before the pose log
  existed) is a :class:`ReplayError` saying so.
- **World**: a fresh ``DIRECT`` PyBullet world with the phase's walls (as logged by the run; the scenario
  record's for older logs), the NPCs
  built as in the run (:mod:`wmbench.envs.npc`) and moved to their logged poses; the protagonist is a
  stand-in (a yellow capsule with a nose towards its heading; the log holds no joint angles).
- **Frame** (per pose sample, at the log's rate, default 15 FPS): left the chase view framed to include the
  nearest beast (else NPC), right the top-down view centred on the protagonist with trails (protagonist
  yellow, beasts orange, humans blue) and each NPC's facing; a caption band *under* the pictures with the
  time, the scenario, the PREDICT and MOTION of the decision being acted out, and the events of the last
  second — nothing is written over the action.
- Rendering happens after the run, so a live run's frame timing is the same with and without ``--record``.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pybullet as p

from wmbench.body.multibody import yaw_quaternion
from wmbench.core.errors import ConfigError
from wmbench.core.progress import progress_bar
from wmbench.envs import cameras
from wmbench.envs.npc import NPC_SHAPES, _build_beast, _build_human
from wmbench.envs.world import World
from wmbench.harness.video.recorder import VideoRecorder
from wmbench.protocol.trace import TraceDict
from wmbench.scenarios.records import Scenario, Wall
from wmbench.scenarios.registry import get_scenario

VIEW = cameras.ViewSpec(320, 240)
TOP_VIEW = cameras.ViewSpec(240, 240)
CAPTION_LINES = 7
LINE_HEIGHT = 12
#: Height of the caption band: 240 + 96 = 336, a multiple of the encoder's 16-pixel blocks.
CAPTION_BAND_PX = 96
PROTAGONIST_COLOR = (0.95, 0.80, 0.15, 1.0)
TRAIL_COLORS = {"protagonist": (230, 180, 20), "beast": (200, 90, 20), "human": (60, 80, 200)}
EVENT_SHOW_S = 1.0


class ReplayError(ConfigError):
    """The trace cannot be replayed (no pose log, unknown scenario)."""


@dataclass(frozen=True)
class PoseSample:
    """One logged instant: time, phase, protagonist pose and the NPCs present."""

    t: float
    phase: int
    x: float
    y: float
    heading: float
    npcs: tuple[tuple[str, str, float, float, float], ...]


def pose_samples(trace: TraceDict) -> tuple[float, list[PoseSample]]:
    """The log's rate (samples per sim second) and its samples; ReplayError without a pose log."""
    log = (trace.get("meta") or {}).get("poses")
    if not isinstance(log, dict) or not log.get("frames"):
        raise ReplayError(f"trace of {trace.get('scenario_id')!r} has no pose log (meta['poses']); it was "
                          "recorded before pose logging, or the episode never ran — rerun it to render it")
    samples = [PoseSample(float(f[0]), int(f[1]), float(f[2]), float(f[3]), float(f[4]),
                          tuple((str(n[0]), str(n[1]), float(n[2]), float(n[3]), float(n[4])) for n in f[5]))
               for f in log["frames"]]
    return float(log.get("hz") or 15.0), samples


class _Stage:
    """The replay world: walls of the current phase, NPC bodies by name, the protagonist stand-in."""

    def __init__(self, scenario: Scenario, logged_walls: Mapping[str, Any] | None = None) -> None:
        self.scenario = scenario
        self.logged_walls = dict(logged_walls or {})
        self.world = World(1 / 30, 1 / 240)
        self.client = self.world.client
        self.phase = -1
        self.npc_ids: dict[str, int] = {}
        self.protagonist = self._build_protagonist()

    def _build_protagonist(self) -> int:
        cid = self.client
        body = p.createVisualShape(p.GEOM_CAPSULE, radius=0.25, length=1.2, rgbaColor=PROTAGONIST_COLOR,
                                   physicsClientId=cid)
        nose = p.createVisualShape(p.GEOM_BOX, halfExtents=(0.15, 0.06, 0.06), rgbaColor=(0.2, 0.2, 0.2, 1),
                                   physicsClientId=cid)
        return p.createMultiBody(0, -1, body, (0, 0, 0.85), linkMasses=[0], linkCollisionShapeIndices=[-1],
                                 linkVisualShapeIndices=[nose], linkPositions=[(0.3, 0, 0.55)],
                                 linkOrientations=[(0, 0, 0, 1)], linkInertialFramePositions=[(0, 0, 0)],
                                 linkInertialFrameOrientations=[(0, 0, 0, 1)], linkParentIndices=[0],
                                 linkJointTypes=[p.JOINT_FIXED], linkJointAxis=[(0, 0, 1)],
                                 physicsClientId=cid)

    def pose(self, sample: PoseSample) -> None:
        cid = self.client
        if sample.phase != self.phase:
            self.world.set_walls(self._walls(sample.phase))
            self.phase = sample.phase
        present = {n[0] for n in sample.npcs}
        for name in [n for n in self.npc_ids if n not in present]:
            p.removeBody(self.npc_ids.pop(name), physicsClientId=cid)
        for name, kind, x, y, yaw in sample.npcs:
            if name not in self.npc_ids:
                builder = _build_beast if kind == "beast" else _build_human
                self.npc_ids[name] = builder(cid, _Placed(kind, x, y))
            p.resetBasePositionAndOrientation(self.npc_ids[name], (x, y, NPC_SHAPES[kind].centre_height),
                                              yaw_quaternion(yaw), physicsClientId=cid)
        p.resetBasePositionAndOrientation(self.protagonist, (sample.x, sample.y, 0.85),
                                          yaw_quaternion(sample.heading), physicsClientId=cid)

    def _walls(self, phase: int) -> tuple[Wall, ...]:
        """The walls the run built for ``phase`` (from the pose log), else the scenario record's."""
        logged = self.logged_walls.get(str(phase))
        if logged is None:
            if not 0 <= phase < len(self.scenario.phases):
                raise ReplayError(f"pose log names phase {phase}; {self.scenario.id} has "
                                  f"{len(self.scenario.phases)}")
            return tuple(self.scenario.phases[phase].walls)
        return tuple(Wall((float(cx), float(cy)), (float(sx), float(sy)), float(h), str(name))
                     for name, cx, cy, sx, sy, h in logged)

    def close(self) -> None:
        self.world.close()


@dataclass(frozen=True)
class _Placed:
    """What the NPC builders read: kind and position."""

    kind: str
    x: float
    y: float


def nearest_threat(sample: PoseSample) -> tuple[float, float] | None:
    """xy of the nearest beast, else of the nearest NPC, else None."""
    if not sample.npcs:
        return None
    best = min(sample.npcs, key=lambda n: (n[1] != "beast", math.hypot(n[2] - sample.x, n[3] - sample.y)))
    return (best[2], best[3])


def captions(trace: TraceDict, t: float) -> tuple[str, str, str]:
    """PREDICT and MOTION of the decision being acted out at ``t``, and the events of the last second."""
    current = None
    for d in trace.get("decisions", ()):
        if float(d.get("t", 0.0)) <= t + 1e-9:
            current = d
    predict, motion = "PREDICT: (waiting for the brain)", "MOTION: (standing)"
    if current is not None:
        parse = current.get("parse") or {}
        items = parse.get("prediction") or {}
        shown = ", ".join(f"{k}={v[0]}({v[1]})" if v[1] else f"{k}={v[0]}" for k, v in items.items())
        predict = f"PREDICT: {shown or '-'}"
        motion = f"MOTION: {parse.get('motion') or '-'}"
    recent = [e["kind"] for e in trace.get("events", ()) if t - EVENT_SHOW_S < float(e["t"]) <= t + 1e-9]
    return predict, motion, "events: " + (", ".join(recent) if recent else "-")


def compose_frame(chase: np.ndarray, top: cameras.TopDownFrame, trails: Mapping[str, Sequence[Any]],
                  sample: PoseSample, lines: Sequence[str]) -> np.ndarray:
    """Chase | top-down (with trails) side by side, a caption band below (Pillow)."""
    from PIL import Image, ImageDraw

    top_img = Image.fromarray(top.image)
    draw = ImageDraw.Draw(top_img)
    for key, points in trails.items():
        kind = key.split(":", 1)[0]
        colour = TRAIL_COLORS["protagonist" if kind == "protagonist" else kind]
        pixels = [top.to_px(x, y) for x, y in points]
        if len(pixels) > 1:
            draw.line(pixels, fill=colour, width=2)
    for name, kind, x, y, yaw in sample.npcs:
        cx, cy = top.to_px(x, y)
        colour = TRAIL_COLORS["beast" if kind == "beast" else "human"]
        draw.line([(cx, cy), (cx + 8 * math.cos(yaw), cy - 8 * math.sin(yaw))], fill=(0, 0, 0), width=2)
        draw.text((cx + 5, cy + 3), name, fill=colour)
    px, py = top.to_px(sample.x, sample.y)
    draw.ellipse((px - 5, py - 5, px + 5, py + 5), fill=TRAIL_COLORS["protagonist"], outline=(0, 0, 0))
    draw.line([(px, py), (px + 10 * math.cos(sample.heading), py - 10 * math.sin(sample.heading))],
              fill=(0, 0, 0), width=2)
    width = chase.shape[1] + top.image.shape[1]
    height = max(chase.shape[0], top.image.shape[0])
    wrapped = [part for line in lines for part in (textwrap.wrap(line, width // 6 - 2) or [""])][:CAPTION_LINES]
    band = CAPTION_BAND_PX
    canvas = Image.new("RGB", (width, height + band), (24, 24, 28))
    canvas.paste(Image.fromarray(chase), (0, 0))
    canvas.paste(top_img, (chase.shape[1], 0))
    text = ImageDraw.Draw(canvas)
    for i, line in enumerate(wrapped):
        text.text((6, height + 4 + i * LINE_HEIGHT), line, fill=(235, 235, 235))
    return np.asarray(canvas)


def render_frames(trace: TraceDict, scenario: Scenario | None = None, every: int = 1):
    """Yield composed frames (numpy RGB) of the episode, one per ``every``-th pose sample."""
    _hz, samples = pose_samples(trace)
    try:
        record = scenario or get_scenario(str(trace.get("scenario_id")))
    except (KeyError, ValueError) as err:
        raise ReplayError(f"cannot replay: {err}") from None
    stage = _Stage(record, (trace.get("meta") or {}).get("poses", {}).get("walls"))
    trails: dict[str, list[tuple[float, float]]] = {}
    try:
        for i, sample in enumerate(samples):
            trails.setdefault("protagonist", []).append((sample.x, sample.y))
            for name, kind, x, y, _yaw in sample.npcs:
                trails.setdefault(f"{'beast' if kind == 'beast' else 'human'}:{name}", []).append((x, y))
            if i % every:
                continue
            stage.pose(sample)
            chase = cameras.chase(stage.client, sample.x, sample.y, sample.heading, nearest_threat(sample), VIEW)
            top = cameras.top_down(stage.client, (sample.x, sample.y), TOP_VIEW)
            head = f"t={sample.t:5.2f}s  {record.id} {record.name}  phase {sample.phase + 1}/{len(record.phases)}"
            yield compose_frame(chase, top, trails, sample, (head, *captions(trace, sample.t)))
    finally:
        stage.close()


def render_episode(trace: TraceDict, out: str | Path, scenario: Scenario | None = None,
                   progress: bool = True) -> Path:
    """Write the episode's video to ``out`` (mp4, needs the ``video`` extra); returns the path. ``progress``:
    a bar on stderr (a line per 10 % when stderr is not a terminal)."""
    hz, samples = pose_samples(trace)
    recorder = VideoRecorder(out, fps=max(1, round(hz)), upscale=1)
    bar = progress_bar(len(samples), f"rendering {Path(out).name}", "frame", enabled=progress)
    try:
        for frame in render_frames(trace, scenario):
            recorder.add(frame)
            bar.update(1)
    finally:
        bar.close()
        path = recorder.close()
    if path is None:
        raise ReplayError("the pose log held no frame to render")
    return path
