"""What a live run produced, as the C09 rules read it (:mod:`wmbench.scoring.c09`).

Card
----
- Records: :class:`FrameRecord` (one frame: its slot, work and lateness), :class:`DecisionTiming` (one
  decision: scene snapshot, reply, first frame moving with it), :class:`LiveEvent` (timeline events),
  :class:`MemorySample`; all times in milliseconds since the run started (how they are measured:
  :mod:`wmbench.harness.live.metrics`).
- Summaries: :func:`percentile`, :func:`median`, :func:`frame_stats` (``fps``, ``work_fps``, late and dropped
  frame rates); frames stored as columns (:func:`frames_to_columns`).
- :class:`LiveResult`: the headline numbers plus every record, with a JSON round trip (``live.json``);
  :class:`LiveTick`: progress handed to ``on_frame`` after each frame.
- :data:`DEFAULT_FPS`: the target frame rate of a live run unless one is chosen (the C09 rules name it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from wmbench.protocol.trace import TraceDict

#: the target frame rate a live run is paced at unless another is chosen
DEFAULT_FPS = 60
NS_PER_MS = 1_000_000
DIGITS = 3


@dataclass(frozen=True)
class FrameRecord:
    """One produced frame: when it started (ms since the run began), how long its work took, whether it ended
    after its deadline, and how many whole slots were skipped because of it."""

    index: int
    start_ms: float
    work_ms: float
    late: bool
    skipped_after: int = 0


@dataclass(frozen=True)
class DecisionTiming:
    """One brain decision in a live run (times in ms since the run began, sim times in s)."""

    index: int
    snapshot_ms: float
    snapshot_t: float
    reply_ms: float
    applied_ms: float
    applied_t: float
    latency_ms: float
    brain_ms: float
    motion: str | None
    intent: dict[str, Any]
    error: str | None = None
    #: when the reply was applied (the body's intent set), ms since the run began; the first frame moving
    #: with it ends at ``applied_ms``
    intent_set_ms: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> DecisionTiming:
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass(frozen=True)
class LiveEvent:
    """A sim event with the wall time (ms since the run began) of the frame that fired it."""

    wall_ms: float
    t: float
    kind: str
    detail: str = ""


@dataclass(frozen=True)
class MemorySample:
    """Process memory at one moment: RSS bytes, GPU bytes (None without a GPU in use), why it was taken."""

    wall_ms: float
    t: float
    rss_bytes: int
    gpu_bytes: int | None
    label: str

    @property
    def total_bytes(self) -> int:
        return self.rss_bytes + (self.gpu_bytes or 0)


# ------------------------------------------------------------------------------------------------ summaries


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0–100, linear interpolation) of ``values``; None when empty."""
    data = sorted(float(v) for v in values)
    if not data:
        return None
    pos = (len(data) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def median(values: Sequence[float]) -> float | None:
    return percentile(values, 50.0)


@dataclass(frozen=True)
class FrameStats:
    """Rates over a run's frames (see the module card)."""

    frames: int
    late: int
    skipped: int
    wall_s: float
    fps: float
    work_fps: float | None
    mean_work_ms: float | None
    p95_work_ms: float | None
    late_frame_rate: float
    dropped_frame_rate: float


def frame_stats(frames: Sequence[FrameRecord], wall_s: float) -> FrameStats:
    n = len(frames)
    late = sum(1 for f in frames if f.late)
    skipped = sum(f.skipped_after for f in frames)
    work = [f.work_ms for f in frames]
    mean_work = sum(work) / n if n else None
    return FrameStats(
        frames=n, late=late, skipped=skipped, wall_s=round(wall_s, 4),
        fps=round(n / wall_s, 3) if wall_s > 0 else 0.0,
        work_fps=round(1000.0 / mean_work, 1) if mean_work else None,
        mean_work_ms=None if mean_work is None else round(mean_work, 4),
        p95_work_ms=_r(percentile(work, 95.0)),
        late_frame_rate=round(late / n, 5) if n else 0.0,
        dropped_frame_rate=round((late + skipped) / (n + skipped), 5) if n + skipped else 0.0,
    )


def _r(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


# ------------------------------------------------------------------------------------------------ to JSON


def frames_to_columns(frames: Sequence[FrameRecord]) -> dict[str, list[float]]:
    """Frames as compact columns for JSON (``late`` as 0/1)."""
    return {
        "start_ms": [f.start_ms for f in frames], "work_ms": [f.work_ms for f in frames],
        "late": [int(f.late) for f in frames], "skipped_after": [f.skipped_after for f in frames],
    }


def frames_from_columns(columns: Mapping[str, Sequence[Any]]) -> tuple[FrameRecord, ...]:
    starts, works = columns.get("start_ms", []), columns.get("work_ms", [])
    late, skipped = columns.get("late", []), columns.get("skipped_after", [])
    return tuple(FrameRecord(i, float(starts[i]), float(works[i]), bool(late[i]), int(skipped[i]))
                 for i in range(min(len(starts), len(works), len(late), len(skipped))))


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
    trace: TraceDict | None = field(default=None, compare=False, repr=False)

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
