"""A run's episode lines as a re-iterable stream: each pass reads ``episodes.jsonl`` again, one line at a time.

The report step reads a run's lines several times (scores, intensity plots, transcripts); holding them all
costs ~150 KB of Python objects per episode (a 20,000-episode run would need gigabytes). An
:class:`EpisodeStream` holds only the path: ``for line in stream`` yields the lines of
:meth:`~wmbench.harness.run.results.EpisodeLog.iter_lines` (first occurrence of each key, file order), and a
consumer keeps only what it needs. ``EpisodeStream.of(lines)`` wraps lines already in memory (tests).

A small file (at most :data:`KEPT_BYTES`, a run of a few dozen episodes) is parsed once and its lines kept
for the next passes while the file stays as it was (same size and modification time): the report of such a
run parses it once instead of four times, on the critical path of an API run. The memory that costs is
bounded by the constant, so the report step stays flat at any size; the lines are shared between passes,
so a consumer must not change them (none does: they read).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from wmbench.harness.run.results import EpisodeLine, EpisodeLog

#: The largest episodes.jsonl whose parsed lines a stream keeps between passes (see the module card).
KEPT_BYTES = 4 << 20


class EpisodeStream:
    """Re-iterable episode lines of one ``episodes.jsonl`` (or of a list given with :meth:`of`)."""

    def __init__(self, path: Path | str | None, lines: Sequence[EpisodeLine] | None = None) -> None:
        self.path = None if path is None else Path(path)
        self._lines = lines
        self._kept: tuple[tuple[int, int], list[EpisodeLine]] | None = None  # ((size, mtime_ns), lines)

    @classmethod
    def of(cls, lines: Iterable[EpisodeLine]) -> EpisodeStream:
        return cls(None, list(lines))

    def __iter__(self) -> Iterator[EpisodeLine]:
        if self._lines is not None:
            return iter(self._lines)
        if self.path is None or not self.path.exists():
            return iter(())
        stat = self.path.stat()
        if stat.st_size > KEPT_BYTES:
            return EpisodeLog(self.path).iter_lines()
        stamp = (stat.st_size, stat.st_mtime_ns)
        if self._kept is None or self._kept[0] != stamp:
            self._kept = (stamp, list(EpisodeLog(self.path).iter_lines()))
        return iter(self._kept[1])

    def __len__(self) -> int:
        return sum(1 for _ in self)
