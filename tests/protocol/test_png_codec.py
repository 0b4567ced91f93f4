"""The stdlib PNG codec behind the image observation (it must work without Pillow)."""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest

from wmbench.protocol.observation import decode_data_url, encode_png_data_url
from wmbench.protocol.png_codec import decode_png, encode_png


def test_round_trip_without_pillow(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # as in a lean install
    image = np.random.default_rng(0).integers(0, 256, (24, 96, 3), dtype=np.uint8)
    assert np.array_equal(decode_data_url(encode_png_data_url(image)), image)
    with pytest.raises(ValueError, match="without Pillow only PNG"):
        decode_data_url("data:image/jpeg;base64,/9j/4AAQSkZJRg==")


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_reads_what_pillow_writes_with_every_row_filter(mode):
    image_module = pytest.importorskip("PIL.Image")
    pixels = np.random.default_rng(1).integers(0, 256, (19, 23, 3), dtype=np.uint8)
    pixels[:, :12] = pixels[:, :1]  # smooth areas make Pillow's adaptive filter pick Sub/Up/Average/Paeth
    source = image_module.fromarray(pixels).convert(mode)
    buffer = io.BytesIO()
    source.save(buffer, format="PNG", optimize=True)
    assert np.array_equal(decode_png(buffer.getvalue()), np.asarray(source.convert("RGB")))
    assert np.array_equal(np.asarray(image_module.open(io.BytesIO(encode_png(pixels)))), pixels)
