"""The work a run overlaps with its waiting (lines scored as written, plots drawn early in helper processes)
changes no score and no report: a real API run against a server on 127.0.0.1, with and without it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.brain.fault_servers import GOOD_TEXT, FaultServer
from wmbench.harness import suite as runner
from wmbench.harness.report.overlap import RunOverlap
from wmbench.harness.report.writer import write_reports
from wmbench.harness.run.results import EpisodeLog, read_scores
from wmbench.harness.run.scores import IncrementalScores
from wmbench.harness.run.selection import EpisodeSpec
from wmbench.harness.suite import run_suite

pytest.importorskip("openai")
pytest.importorskip("matplotlib")

#: S22 (C05) and S31 (C07) are in the intensity plot, S18 and S01 are not
SCENARIOS = "S01,S18,S22,S31"
REPORT_FILES = ("scores.json", "report.md", "report.html", "leaderboard_entry.json", "plots/pillar_radar.png",
                "plots/category_bars.png", "plots/intensity.png")


class _Recorded(RunOverlap):
    """A RunOverlap that keeps itself and when the intensity plot was submitted (lines written by then)."""

    made: list[_Recorded] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.written_lines: list[tuple[str, int]] = []
        self.intensity_after: list[list[tuple[str, int]]] = []
        _Recorded.made.append(self)

    def written(self, scenario: str, seed: int, text: str) -> None:
        self.written_lines.append((scenario, seed))
        super().written(scenario, seed, text)

    def _submit_intensity(self) -> None:
        self.intensity_after.append(list(self.written_lines))
        super()._submit_intensity()


def _run(out: Path, url: str, overlap: bool) -> None:
    run_suite("openai/fake", "smpl", SCENARIOS, 1, 1, out, progress=False, live=False, measurers={},
              brain_options={"base_url": url, "api_key": "EMPTY", "cache": False}, max_connections=2,
              overlap=overlap)


def test_an_overlapped_api_run_writes_the_scores_and_report_of_one_without(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "RunOverlap", _Recorded)
    _Recorded.made.clear()
    with FaultServer.reply(GOOD_TEXT) as server:
        _run(tmp_path / "overlap", server.url, overlap=True)
        _run(tmp_path / "plain", server.url, overlap=False)
    overlapped, plain = _Recorded.made
    # the overlap happened: every line scored as it was written and taken by the scoring step, the plots drawn
    # by the helper processes, the intensity plot submitted once its last episode (S22 or S31) was written
    assert overlapped.scores is not None and overlapped.scores.added == overlapped.scores.taken == 4
    assert overlapped.plots is not None and overlapped.plots.submitted >= 3
    [lines_then] = overlapped.intensity_after
    assert {"S22", "S31"} <= {sid for sid, _ in lines_then} and lines_then[-1][0] in ("S22", "S31")
    assert plain.scores is None and plain.plots is None and plain.intensity_after == []
    # scores.json of the two runs: the same bytes (it holds no wall times)
    assert (tmp_path / "overlap/scores.json").read_bytes() == (tmp_path / "plain/scores.json").read_bytes()
    # the report drawn during the run == the report drawn afterwards in this process (the old path), same dir
    written = {name: (tmp_path / "overlap" / name).read_bytes() for name in REPORT_FILES}
    write_reports(tmp_path / "overlap", read_scores(tmp_path / "overlap"))
    assert {name: (tmp_path / "overlap" / name).read_bytes() for name in REPORT_FILES} == written


def test_incremental_scores_are_the_scores_of_the_lines_read_back(tmp_path):
    with FaultServer.reply(GOOD_TEXT) as server:
        _run(tmp_path / "run", server.url, overlap=False)
    log = EpisodeLog(tmp_path / "run" / "episodes.jsonl")
    texts = (tmp_path / "run" / "episodes.jsonl").read_text(encoding="utf-8").splitlines()
    cache = IncrementalScores()
    assert all(cache.add(text) for text in texts[1:])  # the first line is left to be scored at the end
    assert not cache.add('{"scenario": "S99", "seed": 0')  # a cut line is not scored here (nor raised)
    from wmbench.harness.run.scores import _ScoredLine

    lines = list(log.iter_lines())
    assert cache.take(lines[0]) is None
    for line in lines[1:]:
        assert cache.take(line) == _ScoredLine.of(line)
        assert cache.take(line) is None  # taken once
    assert (cache.added, cache.taken) == (len(lines) - 1, len(lines) - 1)
    json.loads(texts[0])  # the lines are the JSON a read parses


def test_the_intensity_plot_waits_for_its_last_episode(tmp_path):
    episodes = tmp_path / "episodes.jsonl"
    todo = [EpisodeSpec("S22", 0), EpisodeSpec("S01", 0), EpisodeSpec("S31", 0)]
    overlap = _Recorded(episodes, todo, plots=True)
    try:
        assert overlap.plots is None  # the workers start with the first episode written, not before
        overlap.written("S22", 0, "{}")
        assert overlap.plots is not None and overlap.intensity_after == []
        overlap.written("S01", 0, "{}")
        assert overlap.intensity_after == []
        overlap.written("S31", 0, "{}")
        assert overlap.intensity_after == [[("S22", 0), ("S01", 0), ("S31", 0)]]
    finally:
        overlap.close()
    resumed = _Recorded(episodes, [EpisodeSpec("S01", 1)], plots=True)  # nothing plotted left to run
    try:
        resumed.written("S01", 1, "{}")
        assert len(resumed.intensity_after) == 1
    finally:
        resumed.close()


def test_ctrl_c_during_an_api_run_leaves_no_plot_worker_behind(tmp_path, monkeypatch):
    from wmbench.harness.suite import RunInterrupted

    class _Interrupted(_Recorded):
        def written(self, scenario: str, seed: int, text: str) -> None:
            super().written(scenario, seed, text)  # the plot workers start here, with the first line
            raise KeyboardInterrupt

    monkeypatch.setattr(runner, "RunOverlap", _Interrupted)
    _Recorded.made.clear()
    with FaultServer.reply(GOOD_TEXT) as server, pytest.raises(RunInterrupted):
        _run(tmp_path / "run", server.url, overlap=True)
    [overlap] = _Recorded.made
    assert overlap.plots is not None and overlap.plots._procs  # they had started
    assert all(proc.poll() is not None for proc in overlap.plots._procs)  # and are gone, waited for
