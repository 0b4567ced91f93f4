"""Video: a short live episode records a non-empty mp4 (rendered from its trace) with PREDICT/MOTION captions."""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest

from tests.extras import needs_extra
from wmbench.harness.video.recorder import MissingVideoExtraError, VideoRecorder

HAVE_VIDEO = all(importlib.util.find_spec(m) is not None for m in ("imageio", "imageio_ffmpeg", "PIL"))
needs_video = pytest.mark.skipif(not HAVE_VIDEO, reason="the 'video' extra (imageio, imageio-ffmpeg) or "
                                                         "Pillow is not installed")


@needs_video
def test_a_short_live_episode_records_an_mp4_from_its_trace(tmp_path):
    import imageio

    from wmbench.harness.live.loop import run_live

    path = tmp_path / "s42.mp4"
    result = run_live("S42", "reference", fps=30, duration=1.0, record=path, keep_trace=True)
    assert result.error is None and path.stat().st_size > 1000
    reader = imageio.get_reader(str(path))
    frames = np.stack(list(iter(reader)))  # (list(reader) would size itself by len() = "inf" frames)
    reader.close()
    samples = result.trace["meta"]["poses"]["frames"]
    assert frames.shape[0] == len(samples) >= 15   # one video frame per pose sample (15 per sim second)
    assert frames.shape[1:] == (336, 560, 3)       # chase 320 + top-down 240 wide, captions band below
    bottom, top = frames[-1, -40:].mean(), frames[-1, :40].mean()
    assert bottom < top  # the dark caption band with the text, under the pictures


@needs_video
def test_overlay_writes_text_in_a_band_and_scales_up():
    recorder = VideoRecorder("unused.mp4")
    frame = np.full((240, 320, 3), 200, dtype=np.uint8)
    out = recorder.overlay(frame, ["PREDICT: left=safe(open)", "MOTION: " + "walks calmly " * 20])
    assert out.shape == (480, 640, 3)
    band = out[-60:]
    assert band.max() > 230                      # white text ...
    assert band.mean() < 150                     # ... on a dark band
    assert (out[:100] == 200).all()              # the top of the frame is untouched
    assert recorder.close() is None              # nothing added: no file


@needs_extra("video")  # with imageio itself missing the message names imageio instead (checked elsewhere)
def test_missing_extra_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)  # makes its import fail
    with pytest.raises(MissingVideoExtraError, match=r"'video' extra.*wmbench\[video\].*imageio_ffmpeg"):
        VideoRecorder("x.mp4")
