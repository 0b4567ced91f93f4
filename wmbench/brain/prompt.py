"""The default system prompt and the chat messages a text brain is sent.

:data:`DEFAULT_SYSTEM_PROMPT` states the official WM Bench rules in our own words (read the scene JSON,
answer with exactly a PREDICT line and a MOTION line, walls and beasts mean danger, a person within 2 m is
danger(human), a creature's reason carries its type, behaviour and distance, never move toward danger, use the
recent decisions, scale the emotion with the threat). :func:`build_messages` turns a scene_context
into ``[system, user]`` messages whose user content is the scene as compact JSON, keys in contract order.
:func:`load_system_prompt` reads a user's own prompt file instead.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from wmbench.protocol.observation import BrainInput
from wmbench.protocol.scene import SCENE_KEYS, WALL_KEYS

DEFAULT_SYSTEM_PROMPT = """\
You are the cognitive core of an embodied character standing in a physical world. Each turn you receive a \
scene_context JSON object describing what the character senses right now, and you decide what the character \
predicts and how it moves next.

Reading the scene (all directions are relative to where the character is facing):
- walls: distance in metres to the nearest wall on the left, right, front (and back); null means no wall
  is close.
- npc_nearby, npc_type (beast, woman, man), npc_behavior (stop, approach, charge, wander, ...), npc_distance,
  npc_direction: the most threatening creature or person in range. npcs lists all of them.
- sound: what can be heard, even from something out of sight.
- recent_decisions: your last few moves and what happened (moved, blocked by wall, escaped, caught).
- last_prediction: your previous PREDICT line.

Answer with exactly two lines and nothing else:
PREDICT: left=<verdict>, right=<verdict>, fwd=<verdict>, back=<verdict>
MOTION: <one sentence describing the character's movement>

Rules for PREDICT (front in the scene is fwd in your answer):
- A direction with a wall distance is danger(wall); a direction whose wall is null is safe(open).
- The direction a beast is in is danger(beast), whatever the walls say there. A beast you only hear (sound,
  out of sight) may be marked danger(beast) in the direction of the sound.
- A person within 2 m in a direction makes it danger(human); a person farther away is not a danger.
- Name a creature or person only where one is; never danger(beast) in a direction without one.
- Give every one of the four directions a verdict: safe(reason) or danger(reason).
- Where a creature or person is, the reason carries its type, what it is doing and how far it is:
  fwd=danger(beast, charging, 5m) or left=safe(human, standing, 6m).

Rules for MOTION:
- Never move toward a direction you marked danger. Choose a safe direction, and say it plainly: to the left,
  to the right, forward, or back (backs away / turns around). If nothing is safe, pick the least bad option.
- Check recent_decisions: do not repeat a direction that got you blocked or caught; prefer one that worked.
- Write one expressive sentence for a motion-generation model: the gait (freezes, walks, jogs, runs,
  sprints), the direction, and the emotion and body language that fit the moment.
- Scale the intensity with the threat. A charging beast: sprint away in terror, desperate and frantic. An
  approaching beast: retreat quickly and warily. A person coming close: step back calmly with hands raised.
  When the threat has just gone: stay vigilant, then relax gradually, exhaling with relief. Nothing around:
  walk naturally.

Example. Scene: {"walls":{"left":2.1,"right":null,"front":null,"back":1.5},"npc_nearby":true,\
"npc_type":"beast","npc_behavior":"charge","npc_distance":5.2,"npc_direction":"front",...}
PREDICT: left=danger(wall), right=safe(open), fwd=danger(beast, charging, 5.2m), back=danger(wall)
MOTION: a person sprints to the right in terror, arms pumping, glancing back over the shoulder at the beast
"""


def load_system_prompt(path: str | Path) -> str:
    """Read a user's system-prompt file (UTF-8). Raises a clear error if it is missing or empty."""
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"system prompt file not found: {str(file)!r} (expected a UTF-8 text file)")
    text = file.read_text(encoding="utf-8").strip()
    if not text:
        raise ValueError(f"system prompt file {str(file)!r} is empty; expected the prompt text")
    return text


def _plain(value: Any) -> Any:
    """JSON-safe copy: tuples -> lists, numpy -> Python numbers/lists, NaN/inf -> null."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):   # numpy scalars and arrays
        return _plain(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _ordered(d: dict, order: tuple[str, ...]) -> dict:
    """``d`` with the keys of ``order`` first (in that order), then any others as they came."""
    return {**{k: d[k] for k in order if k in d}, **{k: v for k, v in d.items() if k not in order}}


_NPC_KEYS = ("type", "behavior", "distance", "direction", "speed")
_DECISION_KEYS = ("t", "motion", "direction", "outcome")


def scene_to_json(scene: BrainInput) -> str:
    """The scene as compact JSON, keys in contract order (official, then extensions, then anything else)."""
    plain = _ordered(_plain(scene), SCENE_KEYS)
    if isinstance(plain.get("walls"), dict):
        plain["walls"] = _ordered(plain["walls"], WALL_KEYS)
    for key, order in (("npcs", _NPC_KEYS), ("recent_decisions", _DECISION_KEYS)):
        if isinstance(plain.get(key), list):
            plain[key] = [_ordered(e, order) if isinstance(e, dict) else e for e in plain[key]]
    return json.dumps(plain, separators=(",", ":"), ensure_ascii=False)


def build_messages(scene: BrainInput, system_prompt: str | None = None) -> list[dict[str, str]]:
    """``[{"role": "system", ...}, {"role": "user", "content": <scene JSON>}]`` for a chat-style brain.

    ``system_prompt`` None means :data:`DEFAULT_SYSTEM_PROMPT`."""
    if not isinstance(scene, dict):
        raise TypeError(f"scene must be a scene_context dict, got {type(scene).__name__}")
    prompt = DEFAULT_SYSTEM_PROMPT if system_prompt is None else system_prompt
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValueError(f"system_prompt must be non-empty text (or None for the default), got {prompt!r}")
    return [{"role": "system", "content": prompt}, {"role": "user", "content": scene_to_json(scene)}]
