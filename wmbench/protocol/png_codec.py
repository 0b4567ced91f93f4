"""PNG without Pillow: the image observation must work in a lean install (numpy and zlib only).

Card
----
- :func:`encode_png`: an (H, W, 3) uint8 array -> PNG bytes (8-bit RGB, no interlace, filter 0 on every row,
  zlib level 6). Deterministic: the same pixels give the same bytes.
- :func:`decode_png`: PNG bytes -> (H, W, 3) uint8, for 8-bit greyscale, RGB and RGBA, not interlaced, any of
  the five row filters (the ones other encoders choose). Anything else is a ``ValueError`` saying what
  arrived; :func:`wmbench.protocol.observation.decode_data_url` prefers Pillow when it is installed (it
  reads JPEG and every PNG variant) and falls back to this. The zlib stream is inflated at most to the size
  the header declares (plus one byte), so a small file cannot inflate to gigabytes behind a small header.
- :func:`png_header`: the IHDR facts (width, height, bit depth, colour type, interlace) read from the first
  33 bytes *without decoding*, and :func:`decoded_bytes`, the memory a full decode of such a PNG needs — what
  ``wmbench serve`` checks before any pixel is inflated (issue 24 item 1).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 6: 4}  # colour type -> samples per pixel
_ANY_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # every PNG colour type (for sizing, any decoder)


@dataclass(frozen=True)
class PngHeader:
    """A PNG's IHDR chunk: what a decoder would allocate, known before decoding."""

    width: int
    height: int
    bit_depth: int
    colour_type: int
    interlace: int


def png_header(data: bytes) -> PngHeader:
    """The IHDR of PNG ``data`` (no pixel is decoded); ValueError when ``data`` does not start like a PNG."""
    if not data.startswith(SIGNATURE):
        raise ValueError(f"not a PNG (got {data[:8]!r}; without Pillow only PNG images can be read: "
                         "pip install pillow)")
    if len(data) < len(SIGNATURE) + 8 + 13 or data[12:16] != b"IHDR":
        raise ValueError("PNG without an IHDR chunk first")
    width, height, depth, colour, _comp, _filt, interlace = struct.unpack(">IIBBBBB", data[16:29])
    if colour not in _ANY_CHANNELS or depth not in (1, 2, 4, 8, 16):
        raise ValueError(f"PNG of colour type {colour}, bit depth {depth}: not a valid PNG header")
    return PngHeader(width, height, depth, colour, interlace)


def decoded_bytes(header: PngHeader) -> int:
    """Bytes a decode of ``header``'s image needs: the inflated rows plus the (H, W, 3) result."""
    row = (header.width * _ANY_CHANNELS[header.colour_type] * header.bit_depth + 7) // 8 + 1
    return header.height * row + header.width * header.height * 3


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(image: np.ndarray) -> bytes:
    """PNG bytes of an (H, W, 3) uint8 image."""
    rgb = np.ascontiguousarray(np.asarray(image, dtype=np.uint8))
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ValueError(f"expected an (H, W, 3) uint8 image, got shape {rgb.shape}")
    height, width = rgb.shape[:2]
    rows = np.concatenate([np.zeros((height, 1), dtype=np.uint8), rgb.reshape(height, width * 3)], axis=1)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 6))
            + _chunk(b"IEND", b""))


def decode_png(data: bytes) -> np.ndarray:
    """(H, W, 3) uint8 pixels of an 8-bit, non-interlaced greyscale/RGB/RGBA PNG."""
    if not data.startswith(SIGNATURE):
        raise ValueError("not a PNG (without Pillow only PNG images can be read: pip install pillow)")
    pos, header, idat = len(SIGNATURE), None, []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None:
        raise ValueError("PNG has no IHDR chunk")
    width, height, depth, colour, _comp, _filt, interlace = header
    if depth != 8 or colour not in _CHANNELS or interlace:
        raise ValueError(f"PNG of bit depth {depth}, colour type {colour}, interlace {interlace}; without Pillow "
                         "only 8-bit greyscale/RGB/RGBA, non-interlaced PNGs can be read")
    bpp = _CHANNELS[colour]
    stride = width * bpp
    # inflate no further than the header allows (+1 byte to notice more): a zlib bomb costs its declared size
    raw = np.frombuffer(zlib.decompressobj().decompress(b"".join(idat), height * (stride + 1) + 1),
                        dtype=np.uint8)
    if raw.size != height * (stride + 1):
        raise ValueError(f"PNG data holds {raw.size} bytes; {width}x{height} needs {height * (stride + 1)}")
    rows = raw.reshape(height, stride + 1)
    out = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.uint8)
    for y in range(height):
        out[y] = _unfilter(int(rows[y, 0]), rows[y, 1:], previous, bpp)
        previous = out[y]
    pixels = out.reshape(height, width, bpp)
    if bpp == 1:
        return np.repeat(pixels, 3, axis=2)
    return np.ascontiguousarray(pixels[:, :, :3])


def _unfilter(kind: int, row: np.ndarray, up: np.ndarray, bpp: int) -> np.ndarray:
    if kind == 0:
        return row.copy()
    if kind == 2:
        summed: np.ndarray = (row.astype(np.uint16) + up).astype(np.uint8)
        return summed
    if kind not in (1, 3, 4):
        raise ValueError(f"PNG row filter {kind} is not one of 0-4")
    out = np.zeros(len(row), dtype=np.int32)
    r, u = row.astype(np.int32), up.astype(np.int32)
    for i in range(len(row)):  # Sub, Average and Paeth depend on the pixel just reconstructed
        a = out[i - bpp] if i >= bpp else 0
        c = u[i - bpp] if i >= bpp else 0
        if kind == 1:
            pred = a
        elif kind == 3:
            pred = (a + u[i]) // 2
        else:
            p = a + u[i] - c
            pa, pb, pc = abs(p - a), abs(p - u[i]), abs(p - c)
            pred = a if pa <= pb and pa <= pc else (u[i] if pb <= pc else c)
        out[i] = (r[i] + pred) & 0xFF
    return out.astype(np.uint8)
