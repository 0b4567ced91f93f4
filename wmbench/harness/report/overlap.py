"""What a run does while its episodes wait: score each line as it is written, draw the plots that are ready.

Card
----
After the last reply of a latency-bound run (an API brain) every second of CPU is wall time the run did not
need to spend: scoring all the lines and drawing the report's plots used to start there. A
:class:`RunOverlap` moves that work into the waiting:

- **Scoring as lines are written.** :meth:`RunOverlap.written` gets each line's text right after it is
  appended to ``episodes.jsonl`` and scores it (:class:`~wmbench.harness.run.scores.IncrementalScores`);
  :func:`~wmbench.harness.run.scores.score_run` takes those scores instead of scoring the lines again.
  Every run does this (it is the same work, done earlier).
- **Plots drawn early, elsewhere** (``plots=True``: the runner asks for it for API brains when it writes
  reports). :class:`~wmbench.harness.report.plot_workers.PlotWorkers` start when the first episode is
  written (not at once: every episode builds its world at the start), so matplotlib is loaded in other
  processes while the episodes wait; once the last episode of the intensity plot's
  scenarios (:data:`~wmbench.harness.report.writer.INTENSITY_CATEGORIES`) is written, that plot is submitted
  from ``episodes.jsonl`` as it then stands, and the report's own submit of the same data finds it drawn.
  The plots that need the final scores (radar, bars) are drawn side by side by the workers at the end.

Nothing here changes a score or a report: the same functions run on the same data, earlier or elsewhere
(``tests/harness/report/test_overlap.py`` compares against a run without it).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path

from wmbench.harness.report.episode_stream import EpisodeStream
from wmbench.harness.report.plot_workers import PlotWorkers
from wmbench.harness.report.writer import INTENSITY_CATEGORIES, intensity_series
from wmbench.harness.run.scores import IncrementalScores
from wmbench.harness.run.selection import EpisodeSpec
from wmbench.scenarios import get_scenario

#: Plot worker processes of a run that draws its plots elsewhere: the radar and the bars side by side at the
#: end (the intensity plot is drawn earlier).
PLOT_WORKERS = 2


class RunOverlap:
    """Scoring and plotting done while a run's episodes wait (see the module card)."""

    def __init__(self, episodes_path: Path | str, todo: Sequence[EpisodeSpec], plots: bool = False,
                 scores: bool = True) -> None:
        self.episodes_path = Path(episodes_path)
        #: None: scored after the run, as before the overlap (``scores=False``)
        self.scores: IncrementalScores | None = IncrementalScores() if scores else None
        self._want_plots = plots and scores
        #: started with the first episode written: their imports (a second of CPU each) then do not slow the
        #: episodes' start, when every episode builds its world at once
        self.plots: PlotWorkers | None = None
        #: the episodes still to come that the intensity plot reads (their scenario's category is plotted)
        self._intensity_left = {(spec.scenario, spec.seed) for spec in todo if _plotted(spec.scenario)}

    def written(self, scenario: str, seed: int, text: str) -> None:
        """The line of episode (``scenario``, ``seed``) was just appended as ``text``."""
        if self.scores is not None:
            self.scores.add(text)
        if self._want_plots and self.plots is None:
            self.plots = PlotWorkers(PLOT_WORKERS)
            if not self._intensity_left:  # nothing of it left to run (a resumed run): its data is final now
                self._submit_intensity()
        if self.plots is not None and (scenario, seed) in self._intensity_left:
            self._intensity_left.discard((scenario, seed))
            if not self._intensity_left:
                self._submit_intensity()

    def close(self) -> None:
        """Let the plot workers go (idempotent)."""
        if self.plots is not None:
            self.plots.close()

    def _submit_intensity(self) -> None:
        assert self.plots is not None
        try:
            self.plots.submit("intensity_over_time", intensity_series(EpisodeStream(self.episodes_path)))
        except Exception as err:  # an early draw is an optimisation: the report draws it anyway
            warnings.warn(f"could not start the intensity plot early ({type(err).__name__}: {err})", stacklevel=2)


def _plotted(scenario: str) -> bool:
    try:
        return get_scenario(scenario).category in INTENSITY_CATEGORIES
    except KeyError:
        return False
