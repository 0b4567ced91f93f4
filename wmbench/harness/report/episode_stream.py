"""A run's episode lines as a re-iterable stream: each pass reads ``episodes.jsonl`` again, one line at a time.

The report step reads a run's lines several times (scores, intensity plots, transcripts); holding them all
costs ~150 KB of Python objects per episode (a 20,000-episode run would need gigabytes). An
:class:`EpisodeStream` holds only the path: ``for line in stream`` yields the lines of
:meth:`~wmbench.harness.run.results.EpisodeLog.iter_lines` (first occurrence of each key, file order), and a
consumer keeps only what it needs. ``EpisodeStream.of(lines)`` wraps lines already in memory (tests).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from wmbench.harness.run.results import EpisodeLine, EpisodeLog


class EpisodeStream:
    """Re-iterable episode lines of one ``episodes.jsonl`` (or of a list given with :meth:`of`)."""

    def __init__(self, path: Path | str | None, lines: Sequence[EpisodeLine] | None = None) -> None:
        self.path = None if path is None else Path(path)
        self._lines = lines

    @classmethod
    def of(cls, lines: Iterable[EpisodeLine]) -> EpisodeStream:
        return cls(None, list(lines))

    def __iter__(self) -> Iterator[EpisodeLine]:
        if self._lines is not None:
            return iter(self._lines)
        if self.path is None or not self.path.exists():
            return iter(())
        return EpisodeLog(self.path).iter_lines()

    def __len__(self) -> int:
        return sum(1 for _ in self)
