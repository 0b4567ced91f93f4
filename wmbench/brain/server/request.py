"""What a chat request to ``wmbench serve`` may be, and the scene it carries: limits checked before parsing.

Card
----
- :func:`scene_from_messages`: the scene_context of the last user message — the whole message, or the first
  JSON object inside it — with image parts put back into the scene; :class:`BadRequest` when there is none.
- :func:`json_depth` / :func:`check_depth`: how deeply a JSON text nests, by a linear scan before any parsing
  (at most :data:`MAX_JSON_DEPTH`).
- :func:`image_decode_cost`: the bytes the image parts would need decoded, from their PNG headers alone.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from http import HTTPStatus
from typing import Any

import numpy as np

from wmbench.brain.providers.observation_message import PICTURE_KEYS, scene_with_images
from wmbench.core.errors import ConfigError
from wmbench.protocol.observation import BrainInput, as_brain_input
from wmbench.protocol.png_codec import decoded_bytes, png_header

MAX_BODY_BYTES = 4 * 1024 * 1024
MAX_JSON_DEPTH = 64
#: Largest width or height an image part may declare (the widest panorama is 4 x 1024 px).
MAX_IMAGE_SIDE = 4096
#: Decode memory one request's images may need (two pictures of the largest allowed size fit).
MAX_REQUEST_DECODED_BYTES = 96 * 1024 * 1024
#: How many ``{`` positions the scene search tries in a message (each try is a decode from there).
MAX_SCENE_STARTS = 16
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKETS = bytes(b for b in range(256) if b not in b"{}[]")


class BadRequest(ConfigError):
    """A request the server cannot answer; the message goes back to the client with a 4xx status."""

    def __init__(self, message: str, status: HTTPStatus = HTTPStatus.BAD_REQUEST) -> None:
        super().__init__(message)
        self.status = status


def scene_from_messages(messages: Any) -> BrainInput:
    """The scene_context carried by the last user message (see module card); BadRequest if there is none."""
    if not isinstance(messages, list) or not messages:
        raise BadRequest(f"'messages' must be a non-empty list of chat messages, got {_preview(messages)}")
    users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
    if not users:
        raise BadRequest("no message with role 'user': expected the last user message to hold the scene JSON")
    content = _text_of(users[-1].get("content"))
    check_depth(content, "the scene JSON in the last user message")
    scene = _first_json_object(content)
    if scene is None:
        raise BadRequest(
            "the last user message must be the scene_context as a JSON object "
            f"(e.g. {{\"walls\": {{...}}, \"npc_nearby\": false, ...}}); got {_preview(content)}")
    try:  # image modes: the image part goes back into the scene (brain/providers/observation_message.py)
        return scene_with_images(as_brain_input(scene), users[-1].get("content"))
    except ValueError as err:
        raise BadRequest(str(err)) from None


def json_depth(data: bytes | str) -> int:
    """How deeply the brackets of a JSON text nest, strings skipped — without parsing it (linear, numpy)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    brackets = _JSON_STRING.sub(b"", raw).translate(None, _BRACKETS)
    if not brackets:
        return 0
    codes = np.frombuffer(brackets, dtype=np.uint8)
    steps = np.where((codes == ord("{")) | (codes == ord("[")), 1, -1)
    return int(np.cumsum(steps).max())


def check_depth(data: bytes | str, what: str) -> None:
    """BadRequest if ``data`` nests deeper than :data:`MAX_JSON_DEPTH`."""
    depth = json_depth(data)
    if depth > MAX_JSON_DEPTH:
        raise BadRequest(f"{what} nests {depth} levels deep; expected at most {MAX_JSON_DEPTH}")


def image_decode_cost(scene: BrainInput) -> int:
    """Bytes decoding the scene's image parts would need, from their PNG headers only (see module card);
    BadRequest for a part that is not a PNG, or declares a side over :data:`MAX_IMAGE_SIDE`, or needs more
    than :data:`MAX_REQUEST_DECODED_BYTES` in all."""
    total = 0
    for key in PICTURE_KEYS:
        url = scene.get(key)
        if not isinstance(url, str):
            continue
        head = url.split(",", 1)[1][:64] if "," in url else ""
        try:
            header = png_header(base64.b64decode(head[: len(head) // 4 * 4]))
        except (ValueError, binascii.Error) as err:
            raise BadRequest(f"image part {key!r} must be a base64 PNG data URL: {err}") from None
        if not (0 < header.width <= MAX_IMAGE_SIDE and 0 < header.height <= MAX_IMAGE_SIDE):
            raise BadRequest(f"image part {key!r} declares {header.width}x{header.height} pixels; expected 1 to "
                             f"{MAX_IMAGE_SIDE} a side", HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        total += decoded_bytes(header)
    if total > MAX_REQUEST_DECODED_BYTES:
        raise BadRequest(f"the request's images need {total} bytes to decode; expected at most "
                         f"{MAX_REQUEST_DECODED_BYTES}", HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
    return total


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: [{"type": "text", "text": "..."}]
        parts = [p for p in content if isinstance(p, dict) and p.get("type") == "text"]
        return "\n".join(str(p.get("text", "")) for p in parts)
    raise BadRequest(f"message content must be text, got {_preview(content)}")


def _first_json_object(text: str) -> dict[str, Any] | None:
    try:
        whole = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deep for the decoder
        whole = None
    if isinstance(whole, dict):
        return whole
    decoder = json.JSONDecoder()
    start = text.find("{")
    tries = 0
    while start != -1 and tries < MAX_SCENE_STARTS:
        tries += 1
        try:
            value, _ = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    return None


def _preview(value: object, limit: int = 80) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _word_count(text: str) -> int:
    return len(text.split())
