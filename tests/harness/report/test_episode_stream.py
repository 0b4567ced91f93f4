"""The report step streams over episodes.jsonl: the same scores as scoring the whole list, lines never held,
and transcripts capped for large runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wmbench.harness.report.episode_stream import EpisodeStream
from wmbench.harness.report.transcript import episode_transcripts, shown_episodes
from wmbench.harness.report.writer import intensity_series, load_run, rebuild_scores
from wmbench.harness.run.results import EPISODES_FILE, EpisodeLog
from wmbench.harness.run.scores import score_lines
from wmbench.harness.suite import run_suite
from wmbench.scoring.scores_file import scores_to_json


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("stream") / "run"
    # S29/S30 are a paired rule (rescored against each other), S21 a C05 intensity plot
    run_suite("reference", "smpl", "S30,S29,S21,S01", [1, 0], 1, out, progress=False, measurers={}, live=False,
              reports=False)
    log = out / EPISODES_FILE  # out of order, as a resumed or parallel run writes them
    log.write_text("".join(reversed(log.read_text().splitlines(keepends=True))))
    return out


def test_streamed_rebuild_equals_scoring_the_sorted_list(run_dir: Path) -> None:
    run = load_run(run_dir)
    assert isinstance(run.lines, EpisodeStream)  # the run's lines are not held in memory
    lines = sorted(EpisodeLog(run_dir / EPISODES_FILE).read(), key=lambda x: (x["scenario"], x["seed"]))
    assert [x["scenario"] for x in EpisodeLog(run_dir / EPISODES_FILE).read()] != [x["scenario"] for x in lines]
    expected = score_lines(lines)
    streamed = rebuild_scores(run)
    for key in ("scenarios", "categories", "pillars", "wm_score", "ci", "hidden_inconsistency_rate"):
        assert json.dumps(streamed[key], sort_keys=True) == json.dumps(expected[key], sort_keys=True), key
    assert scores_to_json(rebuild_scores(load_run(run_dir))) == scores_to_json(streamed)  # re-iterable


def test_slim_evidence_keeps_every_aggregate(run_dir: Path) -> None:
    full = rebuild_scores(load_run(run_dir))
    slim = rebuild_scores(load_run(run_dir), keep_evidence=lambda scenario, seed: False)
    for key in ("categories", "pillars", "wm_score", "ci", "hidden_inconsistency_rate", "grade"):
        assert slim[key] == full[key], key
    for sid, entry in full["scenarios"].items():
        assert (slim["scenarios"][sid]["score"], slim["scenarios"][sid]["explanation"],
                slim["scenarios"][sid]["per_seed"]) == (entry["score"], entry["explanation"], entry["per_seed"])
    assert any(ev.get("decisions") for ev in full["scenarios"]["S01"]["evidence"])
    assert not any(ev.get("decisions") for ev in slim["scenarios"]["S01"]["evidence"])


def test_intensity_series_takes_the_lowest_seed_in_any_file_order(run_dir: Path) -> None:
    lines = EpisodeLog(run_dir / EPISODES_FILE).read()
    assert intensity_series(lines) == intensity_series(list(reversed(lines)))
    assert set(intensity_series(EpisodeStream(run_dir / EPISODES_FILE))["C05"]) == {"S21"}


def test_transcripts_all_when_small_lowest_seeds_of_each_scenario_when_large(run_dir: Path) -> None:
    stream = EpisodeStream(run_dir / EPISODES_FILE)
    scores = rebuild_scores(load_run(run_dir))
    assert len(episode_transcripts(stream, scores)) == 8
    capped = episode_transcripts(stream, scores, limit=4)
    assert [(t.scenario, t.seed) for t in capped] == [("S01", 0), ("S21", 0), ("S29", 0), ("S30", 0)]
    keys = [(f"S{i:02d}", seed) for i in range(1, 41) for seed in range(500)]
    shown = shown_episodes(keys, limit=200)
    assert len(shown) == 200 and ("S40", 4) in shown and ("S01", 5) not in shown


def test_a_small_file_is_parsed_once_per_stream_until_it_changes(run_dir: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from wmbench.harness.report import episode_stream

    path = tmp_path / EPISODES_FILE
    path.write_bytes((run_dir / EPISODES_FILE).read_bytes())
    reads: list[int] = []
    real = EpisodeLog.iter_lines

    def counted(self: EpisodeLog):  # type: ignore[no-untyped-def]
        reads.append(1)
        return real(self)

    monkeypatch.setattr(EpisodeLog, "iter_lines", counted)
    stream = EpisodeStream(path)
    first = [line for line in stream]  # (list() would also ask len(), a pass of its own)
    assert [line for line in stream] == first and len(stream) == len(first) and len(reads) == 1  # kept
    with open(path, "a", encoding="utf-8") as f:  # the file changed: read again
        f.write(json.dumps({**first[0], "seed": 7}) + "\n")
    assert [line["seed"] for line in stream][-1] == 7 and len(reads) == 2
    monkeypatch.setattr(episode_stream, "KEPT_BYTES", 10)  # a big file: read on every pass, nothing kept
    assert [line for line in stream] == [line for line in stream] and len(reads) == 4
