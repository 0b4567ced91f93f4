"""Live-mode measuring: the frame clock and memory samples (the records they fill and their summaries are
:mod:`wmbench.scoring.live_run`).

Card
----
- **Frame clock.** Frame ``k`` of a run owns the wall-clock slot ``[t0 + k/fps, t0 + (k+1)/fps)``; its
  *deadline* is the slot's end. A frame whose work ends after its deadline is **late**. After an on-time frame
  the clock sleeps until the deadline; after a late one the next frame starts at once (catching up). When a
  frame overruns by one or more whole slots, those slots are **skipped** (the schedule moves on to the next
  slot boundary instead of bursting frames to catch up); skipped slots are never produced.
- **Rates.** ``fps`` = frames produced / wall seconds of the run (the paced rate: at most the target when the
  loop keeps up); ``work_fps`` = 1000 / mean frame work in ms (what the loop could do unpaced);
  ``late_frame_rate`` = late frames / frames; ``dropped_frame_rate`` = (late frames + skipped slots) /
  (frames + skipped slots).
- **Latency** of a decision = wall time from the snapshot of the scene the brain was shown to the end of the
  first frame that moved the body with its new MOTION (``brain_ms``, the brain's own part: snapshot to reply).
- **Memory.** Process RSS from ``psutil`` when installed, else ``/proc/self/statm`` (Linux), else the peak RSS
  from ``resource`` (a simplification: peak, not current); GPU memory allocated by torch when torch is already
  imported and CUDA is initialised (never imported just to look), else None.
All times are from :func:`time.perf_counter_ns`, stored as milliseconds since the run started.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from wmbench.scoring.live_run import DIGITS, NS_PER_MS, FrameRecord, MemorySample

NS_PER_S = 1_000_000_000


# ------------------------------------------------------------------------------------------------ clock


class FrameClock:
    """Paces frames at ``fps`` and classifies each (see the module card). Clock and sleep are injectable."""

    def __init__(self, fps: float, now_ns: Callable[[], int] = time.perf_counter_ns,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if fps <= 0:
            raise ValueError(f"fps must be > 0, got {fps}")
        self.period_ns = round(NS_PER_S / fps)
        self._now, self._sleep = now_ns, sleep
        self.t0_ns = 0
        self._deadline_ns = 0
        self._index = 0
        self.skipped = 0

    def start(self) -> int:
        """Start the schedule now; frame 0's deadline is one period away. Returns the start time (ns)."""
        self.t0_ns = self._now()
        self._deadline_ns = self.t0_ns + self.period_ns
        self._index = 0
        self.skipped = 0
        return self.t0_ns

    def now_ns(self) -> int:
        return self._now()

    def ms(self, t_ns: int) -> float:
        """A perf_counter_ns time as ms since :meth:`start`."""
        return round((t_ns - self.t0_ns) / NS_PER_MS, DIGITS)

    def frame_done(self, start_ns: int, end_ns: int | None = None,
                   idle: Callable[[int], None] | None = None) -> FrameRecord:
        """Record the frame that started at ``start_ns`` and ended now (or at ``end_ns``), then wait for the
        next slot (on time) or move the schedule on (late; whole slots overrun are skipped). ``idle``, when
        given, is called with the deadline (ns) instead of sleeping and must return at the deadline."""
        end = self._now() if end_ns is None else end_ns
        deadline = self._deadline_ns
        late = end > deadline
        skipped = 0
        if late:
            skipped = int((end - deadline) // self.period_ns)
            self.skipped += skipped
            self._deadline_ns = deadline + (skipped + 1) * self.period_ns
        else:
            if idle is not None:
                idle(deadline)
            elif (wait := deadline - self._now()) > 0:
                self._sleep(wait / NS_PER_S)
            self._deadline_ns = deadline + self.period_ns
        work_ms = round((end - start_ns) / NS_PER_MS, DIGITS)
        record = FrameRecord(self._index, self.ms(start_ns), work_ms, late, skipped)
        self._index += 1
        return record


# ------------------------------------------------------------------------------------------------ memory


def rss_bytes() -> int:
    """Resident set size of this process (bytes); see the module card for the sources."""
    try:
        import psutil  # optional

        return int(psutil.Process().memory_info().rss)
    except ImportError:
        pass
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(peak if sys.platform == "darwin" else peak * 1024)


def gpu_bytes() -> int | None:
    """GPU memory allocated by torch in this process, or None when no CUDA context is in use."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    try:
        if not (torch.cuda.is_available() and torch.cuda.is_initialized()):
            return None
        return int(sum(torch.cuda.memory_allocated(i) for i in range(torch.cuda.device_count())))
    except Exception:  # a broken CUDA setup must not stop a measurement
        return None


def gpu_name() -> str | None:
    """The name of the CUDA device torch uses, or None."""
    torch = sys.modules.get("torch")
    try:
        if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
            return str(torch.cuda.get_device_name(0))
    except Exception:  # the machine's CUDA driver/runtime is broken: the device is simply not named
        return None
    return None


def sample_memory(wall_ms: float, t: float, label: str) -> MemorySample:
    return MemorySample(wall_ms, round(t, 6), rss_bytes(), gpu_bytes(), label)
