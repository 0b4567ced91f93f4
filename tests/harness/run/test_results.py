"""episodes.jsonl append/flush/resume, run.json, and redaction of secrets."""

from __future__ import annotations

import json
import os

import pytest

from wmbench.core.redaction import REDACTED, Redactor
from wmbench.harness.run.episode import EpisodeResult
from wmbench.harness.run.results import (
    RUN_FILE,
    EpisodeKey,
    EpisodeLog,
    episode_line,
    read_json,
    write_json,
    write_run_config,
)


def _result(scenario: str = "S01", seed: int = 0, *, error: str | None = None) -> EpisodeResult:
    trace = {"scenario_id": scenario, "seed": seed, "body": "smpl", "decisions": [
        {"parse": {"ok": True}}, {"parse": {"ok": False}},
    ], "events": [{"t": 0.5, "kind": "collision:wall", "detail": ""}, {"t": 1.0, "kind": "collision:wall"}],
        "phase_starts": [0], "meta": {}}
    return EpisodeResult(scenario=scenario, seed=seed, body="smpl", brain="null", trace=trace, wall_s=0.25,
                         n_decisions=2, failed_decisions=0, parse_errors=1, error=error)


@pytest.fixture
def log(tmp_path):
    return EpisodeLog(tmp_path / "episodes.jsonl", Redactor(environ={}))


def test_line_holds_the_documented_fields():
    line = episode_line(_result())
    assert set(line) == {"scenario", "seed", "instance", "body", "brain", "trace", "summary", "error"}
    assert line["summary"] == {"decisions": 2, "events": {"collision:wall": 2}, "parse_errors": 1,
                               "failed_decisions": 0, "wall_s": 0.25}


def test_append_writes_one_fsynced_line_per_episode(log, monkeypatch):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    log.append(_result("S01"))
    log.append(_result("S06", error="RuntimeError: boom"))
    assert len(synced) == 2
    raw = log.path.read_text().splitlines()
    assert len(raw) == 2 and all(json.loads(r) for r in raw)
    assert [line["scenario"] for line in log.read()] == ["S01", "S06"]
    assert log.read()[1]["error"] == "RuntimeError: boom"
    assert log.done_keys() == {EpisodeKey("S01", 0, "smpl", "null"), EpisodeKey("S06", 0, "smpl", "null")}


def test_truncated_last_line_is_ignored_and_cut_before_the_next_append(log):
    log.append(_result("S01"))
    full = json.dumps(episode_line(_result("S06")))
    with open(log.path, "a") as f:
        f.write(full[: len(full) // 2])  # a run killed mid-write
    assert log.done_keys() == {EpisodeKey("S01", 0, "smpl", "null")}
    log.append(_result("S06"))  # the rerun of the lost episode
    lines = log.path.read_text().splitlines()
    assert [json.loads(x)["scenario"] for x in lines] == ["S01", "S06"]


def test_file_that_is_only_a_partial_line_reads_empty_and_recovers(log):
    log.path.write_text('{"scenario": "S0')
    assert log.read() == [] and log.done_keys() == set()
    log.append(_result("S02"))
    assert [line["scenario"] for line in log.read()] == ["S02"]


def test_damaged_middle_line_is_skipped_with_a_warning(log):
    log.append(_result("S01"))
    with open(log.path, "a") as f:
        f.write("not json at all\n")
    log.append(_result("S02"))
    with pytest.warns(UserWarning, match="skipping unreadable episode line"):
        assert [line["scenario"] for line in log.read()] == ["S01", "S02"]


def test_duplicate_keys_read_once(log):
    log.append(_result("S01"))
    log.append(_result("S01"))
    with pytest.warns(UserWarning, match="1 duplicate episode line"):
        assert len(log.read()) == 1
    assert log.duplicates == 1


def test_the_first_line_of_an_episode_is_its_result(log):
    """The documented rule: of two lines for one (scenario, seed), the first is kept, whatever the second says."""
    first, second = _result("S01"), _result("S01", error="the second copy")
    log.append(first)
    log.append(second)
    with pytest.warns(UserWarning, match="duplicate"):
        (kept,) = log.read()
    assert kept["error"] == first.error


def test_missing_file_reads_empty(tmp_path):
    assert EpisodeLog(tmp_path / "none.jsonl").read() == []


def test_redactor_removes_env_secrets_option_secrets_and_key_shapes():
    environ = {"OPENAI_API_KEY": "envsecret123", "HOME": "/home/me", "TOKENIZERS_PARALLELISM": "false",
               "SSH_AUTH_SOCK": "/tmp/ssh-agent.sock"}
    redactor = Redactor.for_options({"api_key": "my-own-secret-value", "temperature": 0}, environ=environ)
    text = ("a envsecret123 b my-own-secret-value c sk-proj-abcdefghijkl d Bearer abc.def-123456 e /home/me "
            '"parallel": false /tmp/ssh-agent.sock')
    cleaned = redactor.text(text)
    for secret in ("envsecret123", "my-own-secret-value", "sk-proj-abcdefghijkl", "abc.def-123456"):
        assert secret not in cleaned
    assert cleaned.count(REDACTED) == 4 and "/home/me" in cleaned
    assert '"parallel": false /tmp/ssh-agent.sock' in cleaned  # ordinary values stay
    config = {"brain_options": {"api_key": "short", "temperature": 0.5}, "note": "x sk-abcdefghij"}
    data = redactor.data(config)
    assert data == {"brain_options": {"api_key": REDACTED, "temperature": 0.5}, "note": f"x {REDACTED}"}


def test_episode_lines_are_redacted(tmp_path):
    log = EpisodeLog(tmp_path / "e.jsonl", Redactor(["sekrit-value-1"], environ={}))
    log.append(_result(error="AuthenticationError: bad key sekrit-value-1 / sk-abcdefghijklmnop"))
    raw = log.path.read_text()
    assert "sekrit-value-1" not in raw and "sk-abcdefghijklmnop" not in raw
    assert log.read()[0]["error"].count(REDACTED) == 2


def test_run_config_is_redacted_and_resume_keeps_the_first_start(tmp_path):
    redactor = Redactor.for_options({"api_key": "sk-live-1234567890"}, environ={})
    config = {"brain": "openai/x", "body": "smpl", "brain_options": {"api_key": "sk-live-1234567890"},
              "started": "2026-01-01T00:00:00"}
    write_run_config(tmp_path, config, redactor)
    assert "sk-live" not in (tmp_path / RUN_FILE).read_text()
    again = write_run_config(tmp_path, {**config, "started": "2026-01-02T00:00:00"}, redactor)
    assert again["started"] == "2026-01-01T00:00:00" and again["resumed"] == ["2026-01-02T00:00:00"]
    assert read_json(tmp_path / RUN_FILE) == again


def test_values_strict_json_cannot_hold_are_made_plain_instead_of_crashing_the_run(log):
    import numpy as np

    result = _result("S01")
    result.trace["decisions"][0]["brain"] = {"latency_s": float("nan"), "prompt_tokens": np.int64(7),
                                             "extra": np.array([1.5, float("inf")]), "obj": object}
    with pytest.warns(UserWarning, match="not plain JSON"):
        log.append(result)
    log.append(_result("S06"))
    lines = log.read()
    assert [line["scenario"] for line in lines] == ["S01", "S06"]
    brain = lines[0]["trace"]["decisions"][0]["brain"]
    assert brain["latency_s"] is None and brain["prompt_tokens"] == 7 and brain["extra"] == [1.5, None]
    assert brain["obj"] == str(object)
    assert "ValueError" in lines[0]["sanitized"] and "sanitized" not in lines[1]


@pytest.mark.parametrize("field", ["brain", "body", "brain_options", "env_kwargs"])
def test_run_config_refuses_to_mix_runs(tmp_path, field):
    base = {"brain": "null", "body": "smpl", "brain_options": {}, "env_kwargs": {}, "started": "t0"}
    write_run_config(tmp_path, base, Redactor(environ={}))
    changed = {**base, field: {"x": 1} if field in ("brain_options", "env_kwargs") else "other"}
    with pytest.raises(ValueError, match=field):
        write_run_config(tmp_path, changed, Redactor(environ={}))


def test_run_json_without_env_kwargs_resumes_with_none_and_refuses_some(tmp_path):
    write_json(tmp_path / RUN_FILE, {"brain": "null", "body": "smpl", "brain_options": {}, "started": "t0"})
    base = {"brain": "null", "body": "smpl", "brain_options": {}, "started": "t1"}
    assert write_run_config(tmp_path, {**base, "env_kwargs": {}}, Redactor(environ={}))["started"] == "t0"
    with pytest.raises(ValueError, match="env_kwargs"):
        write_run_config(tmp_path, {**base, "env_kwargs": {"frame_rate": 30}}, Redactor(environ={}))


def test_write_json_is_atomic_and_leaves_no_temp_file(tmp_path):
    path = write_json(tmp_path / "scores.json", {"a": 1})
    assert read_json(path) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["scores.json"]
