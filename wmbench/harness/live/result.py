"""What a live run produced: :class:`LiveResult` (headline numbers plus the per-frame, per-decision, event
and memory records, JSON round trip) and :class:`LiveTick` (progress handed to ``on_frame``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from wmbench.harness.live.metrics import (
    DecisionTiming,
    FrameRecord,
    LiveEvent,
    MemorySample,
    frames_from_columns,
    frames_to_columns,
)


@dataclass(frozen=True)
class LiveTick:
    """What ``on_frame`` receives after each frame: progress so far."""

    frame: FrameRecord
    t: float
    wall_s: float
    frames: int
    late_frames: int
    decisions: int
    last_latency_ms: float | None
    events: tuple[str, ...]


@dataclass(frozen=True)
class LiveResult:
    """A finished live run: headline numbers, then the per-frame, per-decision, event and memory records."""

    scenario: str
    brain: str
    body: str
    seed: int
    fps_target: int
    fps: float
    work_fps: float | None
    late_frame_rate: float
    dropped_frame_rate: float
    cognitive_latency_ms: float | None
    cognitive_latency_p95_ms: float | None
    wall_s: float
    sim_s: float
    late_frames: int
    skipped_frames: int
    caught: bool
    ended: bool
    frames: tuple[FrameRecord, ...] = ()
    decisions: tuple[DecisionTiming, ...] = ()
    events: tuple[LiveEvent, ...] = ()
    memory: tuple[MemorySample, ...] = ()
    error: str | None = None
    trace: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def n_frames(self) -> int:
        return len(self.frames)

    def summary(self) -> dict[str, Any]:
        """The headline numbers only (what ``live.json`` shows first and what the CLI prints)."""
        return {
            "scenario": self.scenario, "brain": self.brain, "body": self.body, "seed": self.seed,
            "fps_target": self.fps_target, "fps": self.fps, "work_fps": self.work_fps,
            "late_frame_rate": self.late_frame_rate, "dropped_frame_rate": self.dropped_frame_rate,
            "cognitive_latency_ms": self.cognitive_latency_ms,
            "cognitive_latency_p95_ms": self.cognitive_latency_p95_ms,
            "frames": self.n_frames, "late_frames": self.late_frames, "skipped_frames": self.skipped_frames,
            "decisions": len(self.decisions), "wall_s": self.wall_s, "sim_s": self.sim_s,
            "caught": self.caught, "ended": self.ended, "error": self.error,
        }

    def to_dict(self, include_trace: bool = False) -> dict[str, Any]:
        d = self.summary()
        d["frame_records"] = frames_to_columns(self.frames)
        d["decision_records"] = [x.to_dict() for x in self.decisions]
        d["event_records"] = [[e.wall_ms, e.t, e.kind, e.detail] for e in self.events]
        d["memory_records"] = [[m.wall_ms, m.t, m.rss_bytes, m.gpu_bytes, m.label] for m in self.memory]
        if include_trace:
            d["trace"] = self.trace
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> LiveResult:
        """Read back :meth:`to_dict` (as stored in ``live.json``)."""
        return cls(
            scenario=str(d["scenario"]), brain=str(d["brain"]), body=str(d["body"]), seed=int(d["seed"]),
            fps_target=int(d["fps_target"]), fps=float(d["fps"]), work_fps=d.get("work_fps"),
            late_frame_rate=float(d["late_frame_rate"]), dropped_frame_rate=float(d["dropped_frame_rate"]),
            cognitive_latency_ms=d.get("cognitive_latency_ms"),
            cognitive_latency_p95_ms=d.get("cognitive_latency_p95_ms"),
            wall_s=float(d["wall_s"]), sim_s=float(d["sim_s"]), late_frames=int(d.get("late_frames", 0)),
            skipped_frames=int(d.get("skipped_frames", 0)), caught=bool(d.get("caught")),
            ended=bool(d.get("ended")),
            frames=frames_from_columns(d.get("frame_records") or {}),
            decisions=tuple(DecisionTiming.from_dict(x) for x in d.get("decision_records", ())),
            events=tuple(LiveEvent(float(w), float(t), str(k), str(det))
                         for w, t, k, det in d.get("event_records", ())),
            memory=tuple(MemorySample(float(w), float(t), int(r), None if g is None else int(g), str(label))
                         for w, t, r, g, label in d.get("memory_records", ())),
            error=d.get("error"), trace=d.get("trace"),
        )
