"""Issue 24 items 3 and 9: ``wmbench video`` reads run files as untrusted input (real files, real processes).

The renderer is replaced by one that writes a small file where it is told to (the ``video`` extra is not
needed to see *where* a video would go)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wmbench.harness.cli import vision_commands
from wmbench.harness.cli.main import main

LINE = {"scenario": "S01", "seed": 0, "body": "smpl", "brain": "null", "trace": {"decisions": []},
        "summary": {}, "error": None}


@pytest.fixture
def written(monkeypatch):
    """Where the (fake) renderer wrote."""
    paths: list[Path] = []

    def fake_render(trace, out, scenario=None):
        out = Path(out)
        out.write_bytes(b"mp4")
        paths.append(out.resolve())
        return out

    monkeypatch.setattr(vision_commands, "render_episode", fake_render)
    return paths


def _run_dir(root: Path, *lines: bytes) -> Path:
    run = root / "deep" / "er" / "run"
    run.mkdir(parents=True)
    (run / "episodes.jsonl").write_bytes(b"".join(line + b"\n" for line in lines))
    return run


def test_a_scenario_name_from_the_file_cannot_write_outside_the_run_dir(tmp_path, written, capsys):
    hostile = json.dumps({**LINE, "scenario": "../../../ESCAPED"}).encode()
    run = _run_dir(tmp_path, hostile)
    assert main(["video", str(run), "../../../ESCAPED"]) == 2
    assert "unknown scenario" in capsys.readouterr().err
    assert written == []
    assert not list(tmp_path.rglob("ESCAPED*"))


def test_the_video_goes_under_the_run_dir_named_by_the_registry(tmp_path, written):
    run = _run_dir(tmp_path, json.dumps(LINE).encode())
    assert main(["video", str(run), "s01"]) == 0
    assert written == [(run / "videos" / "S01-s0.mp4").resolve()]


@pytest.mark.parametrize("bad", [b"\xff\xfe not utf-8", b"[1, 2, 3]", b'"a string"', b"42",
                                 json.dumps({**LINE, "seed": "zero"}).encode()])
def test_unreadable_lines_are_skipped_with_one_line_not_a_traceback(tmp_path, written, capsys, bad):
    run = _run_dir(tmp_path, bad, json.dumps(LINE).encode())
    assert main(["video", str(run), "S01"]) == 0
    err = capsys.readouterr().err
    assert "1 unreadable line(s)" in err and "Traceback" not in err
    assert written == [(run / "videos" / "S01-s0.mp4").resolve()]


def test_only_unreadable_lines_is_a_usage_error(tmp_path, written, capsys):
    run = _run_dir(tmp_path, b"\xff\xfe", b"[]")
    assert main(["video", str(run), "S01"]) == 2
    assert "no finished episode of S01" in capsys.readouterr().err


def test_out_a_directory_or_under_a_file_is_one_line(tmp_path, written, capsys):
    run = _run_dir(tmp_path, json.dumps(LINE).encode())
    (tmp_path / "afile").write_text("x")
    assert main(["video", str(run), "S01", "--out", str(tmp_path)]) == 2
    assert "is a directory; expected the path of an .mp4 file" in capsys.readouterr().err
    assert main(["video", str(run), "S01", "--out", str(tmp_path / "afile" / "v.mp4")]) == 2
    assert "is a file; expected a directory there" in capsys.readouterr().err
    assert written == []


def test_real_process_non_utf8_run_file_exits_2_without_traceback(tmp_path):
    run = _run_dir(tmp_path, b"\xff\xfe\xfd", b"[1]")
    done = subprocess.run([sys.executable, "-m", "wmbench.harness.cli.main", "video", str(run), "S01"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("wmbench video: error: no finished episode of S01")


#: what imageio-ffmpeg raises when ffmpeg cannot write its output: the reason, then ffmpeg's whole report
FFMPEG_FAILURE = ("[Errno 32] Broken pipe\n\nFFMPEG COMMAND:\nffmpeg -y -f rawvideo -i - out.mp4\n\n"
                  "FFMPEG STDERR OUTPUT:\n")


@pytest.fixture
def ffmpeg_fails(monkeypatch):
    """The renderer's calls; each fails the way imageio-ffmpeg does when its ffmpeg cannot write."""
    calls: list[Path] = []

    def failing_render(trace, out, scenario=None):
        calls.append(Path(out))
        raise OSError(FFMPEG_FAILURE)

    monkeypatch.setattr(vision_commands, "render_episode", failing_render)
    return calls


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc: a folder no file can be created in")
def test_out_where_no_file_can_be_made_is_one_line_before_rendering(tmp_path, ffmpeg_fails, capsys):
    # /proc is a directory (mkdir passes) in which no file can be created: before, rendering started and
    # ffmpeg's multi-line report became the error
    run = _run_dir(tmp_path, json.dumps(LINE).encode())
    assert main(["video", str(run), "S01", "--out", "/proc/wmbench-video.mp4"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wmbench video: error: cannot write --out /proc/wmbench-video.mp4: ") and \
        len(err.strip().splitlines()) == 1, err
    assert ffmpeg_fails == []


def test_a_writer_failing_mid_video_is_one_line(tmp_path, ffmpeg_fails, capsys):
    run = _run_dir(tmp_path, json.dumps(LINE).encode())
    assert main(["video", str(run), "S01"]) == 2
    err = capsys.readouterr().err
    assert "cannot write the video" in err and "Broken pipe" in err and len(err.strip().splitlines()) == 1, err
    assert len(ffmpeg_fails) == 1
