"""``live.json``: the live measurements of a run directory (or of one ``wmbench live`` run).

::

    {"format": "wmbench-live/1",
     "fps": 59.9, "late_frame_rate": 0.0, "cognitive_latency_ms": 17.1, "cognitive_latency_p95_ms": 17.3,
     "dropped_frame_rate": 0.0, "frames": 1800, "decisions": 40,          # over every run in the file
     "hardware": {"gpu": "...", "cpu": "...", "python": "3.11.9"},
     "scenarios": {"S41": {<LiveResult.to_dict()>}, ...}}

The top-level numbers aggregate every stored run: ``fps`` is the mean of the runs' FPS, ``late_frame_rate``
and ``dropped_frame_rate`` pool all frames, the latencies pool all decisions (median and 95th percentile).
The file is rewritten atomically after each run, so a killed run keeps every measurement it finished and a
rerun reuses them (same brain, body, seed and target FPS) instead of measuring again.
"""

from __future__ import annotations

import platform
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wmbench.harness.live.metrics import gpu_name
from wmbench.harness.run.results import read_json, write_json
from wmbench.scoring.live_run import LiveResult, median, percentile

LIVE_FILE = "live.json"
LIVE_FORMAT = "wmbench-live/1"


def hardware_info() -> dict[str, str]:
    """What the measurements ran on: the GPU torch uses (or ``none``), the CPU model, Python."""
    return {"gpu": gpu_name() or "none", "cpu": cpu_model(), "python": platform.python_version()}


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def aggregate(results: Mapping[str, LiveResult]) -> dict[str, Any]:
    """The pooled headline numbers over ``results`` (see the module card); None where there is no data."""
    runs = [r for r in results.values() if r.frames]
    frames = sum(r.n_frames for r in runs)
    late = sum(r.late_frames for r in runs)
    skipped = sum(r.skipped_frames for r in runs)
    latencies = [d.latency_ms for r in results.values() for d in r.decisions]
    p50, p95 = median(latencies), percentile(latencies, 95.0)
    return {
        "fps": round(sum(r.fps for r in runs) / len(runs), 3) if runs else None,
        "late_frame_rate": round(late / frames, 5) if frames else None,
        "dropped_frame_rate": round((late + skipped) / (frames + skipped), 5) if frames else None,
        "cognitive_latency_ms": None if p50 is None else round(p50, 3),
        "cognitive_latency_p95_ms": None if p95 is None else round(p95, 3),
        "frames": frames,
        "decisions": len(latencies),
    }


class LiveStore:
    """Read and update ``live.json`` (see the module card)."""

    def __init__(self, path: Path | str) -> None:
        path = Path(path)
        self.path = path / LIVE_FILE if path.is_dir() or not path.suffix else path
        self._data = self._read()

    def _read(self) -> dict[str, Any]:
        if not self.path.exists():
            return {}
        try:
            data = read_json(self.path)
        except (OSError, ValueError) as err:
            warnings.warn(f"{self.path}: unreadable live measurements ({err}); they will be measured again",
                          stacklevel=3)
            return {}
        return data if isinstance(data, dict) else {}

    def results(self) -> dict[str, LiveResult]:
        """Every stored run by scenario id (unreadable entries are skipped with a warning)."""
        return self._parse(self._data.get("scenarios") or {})

    def _parse(self, scenarios: Mapping[str, Any]) -> dict[str, LiveResult]:
        out: dict[str, LiveResult] = {}
        for sid, entry in scenarios.items():
            try:
                out[sid] = LiveResult.from_dict(entry)
            except (KeyError, TypeError, ValueError) as err:
                warnings.warn(f"{self.path}: skipping unreadable live entry {sid} ({err})", stacklevel=3)
        return out

    def reusable(self, scenario: str, brain: str, body: str, seed: int, fps: int) -> LiveResult | None:
        """The stored run of ``scenario`` if it was measured the same way and without error, else None."""
        found = self.results().get(scenario)
        if found is None or found.error or not found.frames:
            return None
        same = (found.brain, found.body, found.seed, found.fps_target) == (brain, body, seed, fps)
        return found if same else None

    def put(self, result: LiveResult, include_trace: bool = False) -> None:
        """Store ``result`` under its scenario and rewrite the file (atomically)."""
        scenarios = dict(self._data.get("scenarios") or {})
        scenarios[result.scenario] = result.to_dict(include_trace=include_trace)
        self._data = {"format": LIVE_FORMAT, **aggregate(self._parse(scenarios)),
                      "hardware": self._data.get("hardware") or hardware_info(), "scenarios": scenarios}
        write_json(self.path, self._data)

    @property
    def data(self) -> dict[str, Any]:
        return dict(self._data)
