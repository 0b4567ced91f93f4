"""Chat messages for every observation mode: images as standard content parts, and back again.

Card
----
- :func:`observation_messages` (used by the ``openai`` provider): a scene without images gives exactly
  :func:`wmbench.brain.prompt.build_messages`'s messages. A scene with ``image`` (a data URL, see
  :mod:`wmbench.protocol.observation`) gives a user message of content parts — first the JSON text part
  (the scene without the pictures), then one ``{"type": "image_url", "image_url": {"url": <data URL>}}``
  part for the strip and, with ``map`` (``image_map=True``), a second one for the map — the format
  OpenAI-compatible servers accept for vision models.
- The system prompt gains a short paragraph for the mode (:data:`MODE_NOTES`) whenever the scene names one
  (``observation`` key: ``image``, ``scene+image``, ``rays``), so a model is told how to read what it gets.
  A user's own system prompt is extended the same way.
- :func:`scene_with_images` (used by ``wmbench serve``): the reverse — image parts of the last user message
  go back into the scene as ``image`` (and ``map``), so a served brain sees what an in-process brain would. A part that
  is not a data URL is a clear ``ValueError`` (the server answers 400), never a silent drop.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from wmbench.brain.prompt import build_messages
from wmbench.protocol.observation import IMAGE_KEY, MAP_KEY, BrainInput, as_brain_input

#: The pictures a scene may carry, in the order their content parts are sent.
PICTURE_KEYS = (IMAGE_KEY, MAP_KEY)
MAP_NOTE = (
    "A second picture is attached: a map seen from straight above, 16 m across, with you at its centre and "
    "the direction you face pointing up (same colours).")

MODE_NOTES: dict[str, str] = {
    "image": (
        "Observation mode: image. You do not get the walls/npc JSON. The attached picture is a 360-degree "
        "strip seen from the character's eyes, four 90-degree views side by side: LEFT | FRONT | RIGHT | BACK "
        "(the second quarter is straight ahead). Walls are teal, a beast is orange-brown, a woman purple, a man "
        "blue; the sandy floor has a 1 m grid. Judge distance from where a thing touches the floor: the lower "
        "in the picture, the closer (a wall within about 6 m counts as danger(wall)). The JSON text still "
        "gives t, recent_decisions and last_prediction."),
    "scene+image": (
        "Observation mode: scene+image. You get the scene JSON and a 360-degree picture from the character's "
        "eyes: LEFT | FRONT | RIGHT | BACK views side by side (walls teal, beast orange-brown, woman purple, "
        "man blue)."),
    "rays": (
        "Observation mode: rays. Instead of walls/npc fields you get the raw range sensor: rays[i] is the "
        "distance in metres (10 = nothing within range) of ray i, ray 0 straight ahead and each next ray "
        "ray_step_deg further counter-clockwise (to the left); ray_hits[i] says what it hit: 0 nothing, 1 wall, "
        "2 beast, 3 human. front is rays near 0 degrees, left near 90, back near 180, right near 270."),
}


def observation_messages(scene: BrainInput, system_prompt: str | None = None) -> list[dict[str, Any]]:
    """The chat messages for ``scene`` in its observation mode (see the card)."""
    if not isinstance(scene, dict):
        raise TypeError(f"scene must be a scene_context dict, got {type(scene).__name__}")
    keyed: Mapping[str, object] = scene
    pictures = [(key, keyed[key]) for key in PICTURE_KEYS if keyed.get(key) is not None]
    text_scene = text_only(scene)
    messages: list[dict[str, Any]] = build_messages(text_scene, system_prompt=system_prompt)
    note = MODE_NOTES.get(str(scene.get("observation", "")))
    if note and MAP_KEY in dict(pictures):
        note = f"{note} {MAP_NOTE}"
    if note:
        messages[0] = {"role": "system", "content": f"{messages[0]['content'].rstrip()}\n\n{note}\n"}
    if pictures:
        if IMAGE_KEY not in dict(pictures):
            raise ValueError("scene['map'] needs scene['image'] (the map is the second picture)")
        parts: list[dict[str, Any]] = [{"type": "text", "text": messages[1]["content"]}]
        for key, url in pictures:
            if not isinstance(url, str) or not url.startswith("data:image/"):
                raise ValueError(f"scene[{key!r}] must be an image data URL, got {str(url)[:40]!r}")
            parts.append({"type": "image_url", "image_url": {"url": url}})
        messages[1] = {"role": "user", "content": parts}
    return messages


def text_only(scene: BrainInput) -> BrainInput:
    """``scene`` without its pictures (what earlier turns of a multi-turn chat repeat as text)."""
    return as_brain_input({k: v for k, v in scene.items() if k not in PICTURE_KEYS})


def scene_with_images(scene: BrainInput, content: Any) -> BrainInput:
    """``scene`` plus the image of ``content`` (a user message's content parts) as ``image``; a text-only
    content returns ``scene`` unchanged. Raises ValueError for an image part without a data URL."""
    if not isinstance(content, list):
        return scene
    urls = []
    for part in content:
        if not isinstance(part, dict) or part.get("type") != "image_url":
            continue
        holder = part.get("image_url")
        url = holder.get("url") if isinstance(holder, dict) else holder
        if not isinstance(url, str) or not url.startswith("data:image/"):
            raise ValueError("image parts must carry a data URL ('data:image/png;base64,...'); got "
                             f"{json.dumps(url)[:60]}")
        urls.append(url)
    if not urls:
        return scene
    if len(urls) > len(PICTURE_KEYS):
        raise ValueError(f"expected at most {len(PICTURE_KEYS)} image parts (the egocentric strip, then the "
                         f"map), got {len(urls)}")
    return as_brain_input({**scene, **dict(zip(PICTURE_KEYS, urls))})
