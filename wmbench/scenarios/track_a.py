"""Official WM Bench Track-A records (``wm_bench.jsonl``): read, validate, and turn into wmbench worlds.

Card
----
The public WM Bench dataset ships one JSON object per line::

    {"id": "S001", "cat": "C01", "name": "...",
     "scene_context": {"walls": {"left": 2.0, "right": null, "front": 3.0}, "ground": "flat",
                       "npc_nearby": false, "npc_type": null, "npc_behavior": null, "npc_distance": null,
                       "npc_direction": null, "sound": null, "recent_decisions": [], "last_prediction": null},
     "ground_truth": {"predict": {"left": "danger(wall)", ...}, "motion_keywords": ["..."]}}

- :func:`read_track_a` reads such a file; every bad record is one line of a :class:`TrackAError` (line number,
  field, what was expected, what arrived). Ids are three-digit upstream ids ``S001``..``S999``; they are a
  namespace of their own: upstream ``S003`` is *not* wmbench's ``S03``. :func:`is_upstream_id` tells them apart
  and :func:`~wmbench.scenarios.registry.select` refuses an upstream id given without its file.
- :func:`physical_scenario` builds a wmbench :class:`~wmbench.scenarios.records.Scenario` from a record's
  ``scene_context`` (walls at the stated distances, the stated NPC), registered under the id ``TA-C01-S001``
  (never an ``Sxx`` id, so no scorer can mistake it for a wmbench scenario; the category is in the id, so a
  trace is scored by its category's rule even where the record is not registered: :func:`physical_category`).
  What a record cannot specify and how it is filled is listed in ``docs/official.md`` and :data:`FILLED_IN`.
- :func:`record_sha256`: the sha256 of a record's canonical JSON (sorted keys, no spaces), for bundles.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from wmbench.core.directions import DIRECTION_VECTORS, GRAMMAR_ORDER, SCENE_TO_GRAMMAR, Direction
from wmbench.core.entities import BEHAVIORS, NPC_KINDS, Behavior, NpcKind
from wmbench.core.errors import ConfigError, UnknownNameError
from wmbench.core.taxonomy import CATEGORY_PILLARS, OFFICIAL_SCENARIO_COUNT, TRACE_SCORED_CATEGORIES
from wmbench.scenarios.records import Expectations, NpcSpec, Phase, PriorDecision, Scenario, Wall

#: An upstream (official dataset) id: ``S`` and exactly three digits.
UPSTREAM_ID_RE = re.compile(r"^S\d{3}$")
#: wmbench's own ids, as a dataset export (``wmbench export --dataset``) writes them.
WMBENCH_ID_RE = re.compile(r"^S\d{2}$")
#: wmbench's id of the physical world built from upstream record ``S001`` (C01) is ``TA-C01-S001``.
PHYSICAL_PREFIX = "TA-"
PHYSICAL_ID_RE = re.compile(r"^TA-(C\d{2})-S\d{2,3}$")
#: Categories a record can be run for (C09/C10 measure the running system; Track A has them N/A).
TRACK_A_CATEGORIES: tuple[str, ...] = TRACE_SCORED_CATEGORIES
#: The official ``ground_truth.predict`` directions (``front`` is read as ``fwd``).
PREDICT_KEYS: tuple[str, ...] = GRAMMAR_ORDER
_VERDICT_RE = re.compile(r"^\s*(safe|danger)\s*(?:\(\s*([a-z_ ]+?)\s*\))?\s*$", re.IGNORECASE)
#: Seconds a physical Track-A episode lasts, by category (a record is a snapshot; it has no duration).
PHYSICAL_DURATION_S: Mapping[str, float] = {"C05": 8.0, "C07": 8.0}
DEFAULT_PHYSICAL_DURATION_S = 5.0
#: Extent (m) of a wall built from a ``walls`` distance: a record gives only the distance.
PHYSICAL_WALL_LENGTH = 8.0
#: What a record cannot specify and how :func:`physical_scenario` fills it (also in docs/official.md).
FILLED_IN: Mapping[str, str] = {
    "wall extent": f"each wall is {PHYSICAL_WALL_LENGTH:g} m long, 2 m high, centred on the protagonist's axis",
    "walls.back": "not in the official scene: no wall behind",
    "NPC speed": "the behaviour's default speed (core/entities.BEHAVIOR_SPEEDS)",
    "NPC timeline": "none: the NPC keeps its stated behaviour for the whole episode",
    "more than one NPC": "the official scene names one NPC; exactly that one is placed",
    "sound": "not placed: wmbench derives the sound from the NPC it simulates",
    "last_prediction": "not carried: the first decision sees null (the brain's own PREDICT follows)",
    "duration": f"{DEFAULT_PHYSICAL_DURATION_S:g} s "
                + "(" + ", ".join(f"{c} {s:g} s" for c, s in PHYSICAL_DURATION_S.items()) + ")",
    "ground": "flat (the only official value)",
}


class TrackAError(ConfigError):
    """A Track-A file wmbench cannot read; one line per bad record (line, field, expected, got)."""


class UpstreamIdError(UnknownNameError):
    """An upstream id (``S003``) asked of wmbench's registry: not a wmbench scenario, never aliased to ``S03``."""

    def __init__(self, name: str) -> None:
        up = name.strip().upper()
        number = int(up[1:])
        hint = f" or did you mean S{number:02d}?" if 1 <= number <= OFFICIAL_SCENARIO_COUNT else ""
        message = (f"{name!r} is an upstream WM Bench Track-A id (S001..S100), not a wmbench scenario (S01..S50); "
                   f"pass the Track-A file instead (--scenarios path/to/wm_bench.jsonl){hint}")
        Exception.__init__(self, message)
        self.kind, self.name, self.known = "scenario", name, ()


@dataclass(frozen=True)
class OfficialRecord:
    """One upstream record as read (``raw`` is the whole JSON object, kept for hashing and export)."""

    id: str
    category: str
    name: str
    scene_context: Mapping[str, Any]
    predict: Mapping[str, tuple[str, str | None]]   # direction -> (verdict, reason or None)
    motion_keywords: tuple[str, ...]
    line: int
    raw: Mapping[str, Any]

    @property
    def physical_id(self) -> str:
        return f"{PHYSICAL_PREFIX}{self.category}-{self.id}"


def is_upstream_id(token: str) -> bool:
    """True for a three-digit upstream id (``S001``), which never names a wmbench scenario (``S01``)."""
    return bool(UPSTREAM_ID_RE.match(token.strip().upper()))


def physical_category(scenario_id: str) -> str | None:
    """``TA-C03-S021`` -> ``C03`` (the category of a Track-A world, read from its id); None for other ids."""
    match = PHYSICAL_ID_RE.match(scenario_id.strip().upper())
    return match.group(1) if match else None


def looks_like_track_a(token: str) -> bool:
    """True when a ``--scenarios`` token names a file or dataset directory (``*.jsonl``/``*.json``, or an
    existing path with a ``/``)."""
    token = token.strip()
    return token.lower().endswith((".jsonl", ".json")) or ("/" in token and Path(token).exists())


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 kept: the form hashed and compared."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record_sha256(record: OfficialRecord | Mapping[str, Any]) -> str:
    raw = record.raw if isinstance(record, OfficialRecord) else record
    return hashlib.sha256(canonical_json(raw).encode()).hexdigest()


def read_track_a(path: Path | str) -> tuple[OfficialRecord, ...]:
    """Every record of a Track-A ``.jsonl`` file (a ``.json`` list is read too), in file order.

    Raises :class:`TrackAError` listing every bad record (one line each) or a file that cannot be read."""
    path = Path(path)
    if path.is_dir():
        return read_dataset_dir(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TrackAError(f"Track-A file {path} not found; expected a wm_bench.jsonl file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise TrackAError(f"Track-A file {path} cannot be read: {err}") from None
    items: list[tuple[int, Any]] = []
    problems: list[tuple[int, str]] = []  # (line, message), reported in line order
    stripped = text.lstrip()
    if path.suffix.lower() == ".json" and stripped.startswith("["):
        try:
            items = list(enumerate(json.loads(text), start=1))
        except ValueError as err:
            raise TrackAError(f"{path}: expected a JSON list of records, got unreadable JSON ({err})") from None
    else:
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                items.append((number, json.loads(line)))
            except ValueError as err:
                problems.append((number, f"{path}:{number}: expected one JSON object per line, got unreadable "
                                         f"JSON ({err.args[0]})"))
    records: list[OfficialRecord] = []
    seen: dict[str, int] = {}
    for number, item in items:
        try:
            record = _record(item, number)
        except _Bad as bad:
            problems.append((number, f"{path}:{number}: {bad}"))
            continue
        if record.id in seen:
            problems.append((number, f"{path}:{number}: id: expected a unique id, got {record.id!r} again "
                                     f"(first on line {seen[record.id]})"))
            continue
        seen[record.id] = number
        records.append(record)
    if not records and not problems:
        problems.append((0, f"{path}: expected at least one record, got an empty file"))
    if problems:
        ordered = [text for _, text in sorted(problems)]
        shown = ordered[:20] + ([f"... and {len(ordered) - 20} more"] if len(ordered) > 20 else [])
        raise TrackAError(f"{len(problems)} bad Track-A record(s):\n" + "\n".join(shown))
    return tuple(records)


class _Bad(TrackAError):
    """One problem of one record (internal; collected into one TrackAError for the file)."""


def read_dataset_dir(path: Path) -> tuple[OfficialRecord, ...]:
    """The records of a dataset export (``wmbench export --dataset DIR``): every ``scenarios/*.json`` record
    that carries ``scene_context`` and ``ground_truth``; its ids are wmbench's own (``S01``), kept as they are."""
    files = sorted((path / "scenarios").glob("*.json"))
    if not files:
        raise TrackAError(f"{path}: expected a dataset export with scenarios/*.json, got none")
    records: list[OfficialRecord] = []
    problems: list[str] = []
    for file in files:
        try:
            items = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            problems.append(f"{file}: expected a JSON list of scenario records, got unreadable JSON ({err})")
            continue
        for number, item in enumerate(items if isinstance(items, list) else [], start=1):
            if not isinstance(item, dict) or "scene_context" not in item:
                continue  # C09/C10 records carry no scene
            try:
                records.append(_record({**item, "cat": item.get("cat", item.get("category"))}, number,
                                       id_re=WMBENCH_ID_RE))
            except _Bad as bad:
                problems.append(f"{file}:record {number}: {bad}")
    if problems:
        raise TrackAError(f"{len(problems)} bad dataset record(s):\n" + "\n".join(problems[:20]))
    return tuple(records)


def _record(item: Any, number: int, id_re: re.Pattern[str] = UPSTREAM_ID_RE) -> OfficialRecord:
    if not isinstance(item, dict):
        raise _Bad(f"expected a JSON object, got {type(item).__name__}")
    rid = item.get("id")
    if not isinstance(rid, str) or not id_re.match(rid):
        hint = " (did you mean an upstream id like S001? wmbench's own S01..S50 are not Track-A records)" \
            if isinstance(rid, str) and re.match(r"^S\d{1,2}$", rid) else ""
        raise _Bad(f"id: expected an upstream id 'S' + three digits (S001), got {rid!r}{hint}")
    cat = item.get("cat")
    if cat not in CATEGORY_PILLARS:
        raise _Bad(f"cat: expected a category C01..C10, got {cat!r}")
    name = item.get("name", "")
    if not isinstance(name, str):
        raise _Bad(f"name: expected a string, got {type(name).__name__}")
    scene = item.get("scene_context")
    if not isinstance(scene, dict):
        raise _Bad(f"scene_context: expected an object, got {type(scene).__name__}")
    _check_scene(scene)
    truth = item.get("ground_truth")
    if not isinstance(truth, dict):
        raise _Bad(f"ground_truth: expected an object, got {type(truth).__name__}")
    predict = _predict(truth.get("predict"))
    keywords = truth.get("motion_keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) and k.strip() for k in keywords):
        raise _Bad(f"ground_truth.motion_keywords: expected a list of non-empty strings, got {keywords!r}")
    return OfficialRecord(rid, str(cat), name, scene, predict, tuple(k.strip() for k in keywords), number, item)


def _check_scene(scene: Mapping[str, Any]) -> None:
    walls = scene.get("walls")
    if not isinstance(walls, dict):
        raise _Bad(f"scene_context.walls: expected an object {{left, right, front}}, got {walls!r}")
    for key in ("left", "right", "front"):
        value = walls.get(key)
        if value is not None and not _distance(value):
            raise _Bad(f"scene_context.walls.{key}: expected metres > 0 or null, got {value!r}")
    npc_type = scene.get("npc_type")
    if npc_type is not None and npc_type not in NPC_KINDS:
        raise _Bad(f"scene_context.npc_type: expected one of {', '.join(NPC_KINDS)} or null, got {npc_type!r}")
    behavior = scene.get("npc_behavior")
    if behavior is not None and behavior not in BEHAVIORS:
        raise _Bad(f"scene_context.npc_behavior: expected one of {', '.join(BEHAVIORS)} or null, "
                   f"got {behavior!r}")
    distance = scene.get("npc_distance")
    if distance is not None and not _distance(distance):
        raise _Bad(f"scene_context.npc_distance: expected metres > 0 or null, got {distance!r}")
    direction = scene.get("npc_direction")
    if direction is not None and direction not in SCENE_TO_GRAMMAR:
        raise _Bad(f"scene_context.npc_direction: expected front, left, right, back or null, got {direction!r}")
    if npc_type is not None and (distance is None or direction is None):
        raise _Bad("scene_context: an npc_type needs npc_distance and npc_direction, got "
                   f"distance {distance!r}, direction {direction!r}")
    for key in ("sound", "last_prediction"):
        if scene.get(key) is not None and not isinstance(scene.get(key), str):
            raise _Bad(f"scene_context.{key}: expected a string or null, got {scene.get(key)!r}")
    recent = scene.get("recent_decisions", [])
    if not isinstance(recent, list):
        raise _Bad(f"scene_context.recent_decisions: expected a list, got {type(recent).__name__}")
    for i, entry in enumerate(recent):
        if not isinstance(entry, dict) or not isinstance(entry.get("motion", ""), str):
            raise _Bad(f"scene_context.recent_decisions[{i}]: expected an object with a motion string, "
                       f"got {entry!r}")
        where = entry.get("direction")
        if where is not None and where not in SCENE_TO_GRAMMAR and where not in DIRECTION_VECTORS:
            raise _Bad(f"scene_context.recent_decisions[{i}].direction: expected left, right, front/fwd, back "
                       f"or null, got {where!r}")


def _distance(value: object) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and value > 0)


def _predict(value: object) -> dict[str, tuple[str, str | None]]:
    if not isinstance(value, dict) or not value:
        raise _Bad(f"ground_truth.predict: expected an object like {{\"left\": \"safe(open)\"}}, got {value!r}")
    out: dict[str, tuple[str, str | None]] = {}
    for key, verdict in value.items():
        direction = "fwd" if key == "front" else key
        if direction not in PREDICT_KEYS:
            raise _Bad(f"ground_truth.predict: expected directions {', '.join(PREDICT_KEYS)} (front = fwd), "
                       f"got {key!r}")
        match = _VERDICT_RE.match(verdict) if isinstance(verdict, str) else None
        if match is None:
            raise _Bad(f"ground_truth.predict.{key}: expected safe(reason) or danger(reason), got {verdict!r}")
        out[direction] = (match.group(1).lower(), match.group(2).lower() if match.group(2) else None)
    return out


# ------------------------------------------------------------------------------------------------ physical
def physical_scenario(record: OfficialRecord) -> Scenario:
    """The record's ``scene_context`` as a one-phase wmbench world (see :data:`FILLED_IN` for what is filled).

    Raises :class:`TrackAError` for a C09/C10 record: those measure the running system, not a scene."""
    if record.category not in TRACK_A_CATEGORIES:
        raise TrackAError(f"{record.id} ({record.category}): expected a C01..C08 record for a physical run; "
                          "C09/C10 are measured by wmbench's own S41..S50, not from a scene_context")
    scene = record.scene_context
    walls = tuple(Wall.facing(_grammar(key), float(distance), length=PHYSICAL_WALL_LENGTH)
                  for key, distance in cast(Mapping[str, Any], scene["walls"]).items()
                  if key in ("left", "right", "front") and distance is not None)
    npcs: tuple[NpcSpec, ...] = ()
    if scene.get("npc_type") is not None:
        ux, uy = DIRECTION_VECTORS[_grammar(str(scene["npc_direction"]))]
        distance = float(scene["npc_distance"])
        npcs = (NpcSpec(name="npc", kind=cast(NpcKind, scene["npc_type"]), position=(ux * distance, uy * distance),
                        behavior=cast(Behavior, scene.get("npc_behavior") or "stop")),)
    prior = tuple(
        PriorDecision(t=-float(len(scene.get("recent_decisions", [])) - i), motion=str(d.get("motion", "")),
                      direction=_grammar(d["direction"]) if d.get("direction") else None,
                      outcome=str(d.get("outcome", "")))
        for i, d in enumerate(scene.get("recent_decisions", [])))
    safe = tuple(cast(Direction, d) for d, (verdict, _) in record.predict.items() if verdict == "safe")
    duration = PHYSICAL_DURATION_S.get(record.category, DEFAULT_PHYSICAL_DURATION_S)
    return Scenario(
        id=record.physical_id, category=record.category, name=record.name or record.id,
        setup=f"Upstream Track-A record {record.id} built as a world from its scene_context.",
        phases=(Phase(name="track_a", duration=duration, walls=walls, npcs=npcs, prior_decisions=prior,
                      jitter=0.0),),
        expectations=Expectations(safe_directions=safe),
        card=f"{record.physical_id} · {record.name} ({record.category}) — upstream record {record.id}, "
             f"line {record.line}; filled in: " + "; ".join(f"{k}: {v}" for k, v in FILLED_IN.items()),
    )


def _grammar(word: str) -> Direction:
    return SCENE_TO_GRAMMAR.get(word, cast(Direction, word))
