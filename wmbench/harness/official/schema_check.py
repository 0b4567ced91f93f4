"""The JSON Schemas wmbench publishes, and a small validator for the subset of JSON Schema they use.

Card
----
Schemas (hand-written, shipped in ``wmbench/harness/official/schemas/``, draft 2020-12):
``scores.schema.json`` (``scores.json``), ``leaderboard_entry.schema.json`` (the leaderboard entry, both tracks)
and ``submission.schema.json`` (the official submission file). :func:`schema_problems` checks data against one
of them with no dependency: it implements the keywords those files use (``type`` incl. lists, ``required``,
``properties``, ``additionalProperties`` (bool or schema), ``items``, ``enum``, ``minimum``, ``maximum``,
``minLength``, ``pattern``, local ``$ref``); any other keyword in a schema is a :class:`SchemaError`, so
the validator cannot silently skip a rule. The tests also validate with the ``jsonschema`` package (dev
extra) to show both agree.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from wmbench.core.errors import ConfigError

SCHEMA_DIR = Path(__file__).with_name("schemas")
SCHEMA_FILES: Mapping[str, str] = {"scores": "scores.schema.json", "leaderboard_entry": "leaderboard_entry.schema.json",
                                   "submission": "submission.schema.json"}
_KNOWN = frozenset({"$schema", "$id", "title", "description", "$defs", "type", "required", "properties",
                    "additionalProperties", "items", "enum", "minimum", "maximum", "minLength", "pattern", "$ref"})
_TYPES: Mapping[str, tuple[type, ...]] = {"object": (dict,), "array": (list,), "string": (str,),
                                          "integer": (int,), "number": (int, float), "boolean": (bool,),
                                          "null": (type(None),)}


class SchemaError(ConfigError):
    """An unknown schema name or a schema keyword this validator does not implement."""


@cache
def load_schema(kind: str) -> Mapping[str, Any]:
    if kind not in SCHEMA_FILES:
        raise SchemaError(f"unknown schema {kind!r}; expected one of {', '.join(SCHEMA_FILES)}")
    return json.loads((SCHEMA_DIR / SCHEMA_FILES[kind]).read_text(encoding="utf-8"))


def schema_problems(kind: str, data: Any) -> list[str]:
    """Every way ``data`` breaks schema ``kind`` (``scores``, ``leaderboard_entry``, ``submission``): one line
    each, naming the path (``c01_to_c10.C03``); empty when it follows it."""
    root = load_schema(kind)
    problems: list[str] = []
    _check(data, root, root, "$", problems)
    return problems


def _check(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str, out: list[str]) -> None:
    unknown = set(schema) - _KNOWN
    if unknown:
        raise SchemaError(f"schema keyword(s) {sorted(unknown)} at {where} are not implemented by this validator")
    if "$ref" in schema:
        ref = str(schema["$ref"])
        if not ref.startswith("#/$defs/"):
            raise SchemaError(f"only local '#/$defs/...' references are implemented, got {ref!r} at {where}")
        _check(value, root["$defs"][ref.removeprefix("#/$defs/")], root, where, out)
        return
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is_type(value, name) for name in names):
            out.append(f"{where}: expected {' or '.join(names)}, got {_type_name(value)}")
            return
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{where}: expected one of {schema['enum']}, got {value!r}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            out.append(f"{where}: expected at least {schema['minimum']}, got {value}")
        if "maximum" in schema and value > schema["maximum"]:
            out.append(f"{where}: expected at most {schema['maximum']}, got {value}")
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            out.append(f"{where}: expected at least {schema['minLength']} characters, got {len(value)}")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            out.append(f"{where}: expected text matching {schema['pattern']!r}, got {value!r}")
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                out.append(f"{where}: missing required key {key!r}")
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                _check(item, properties[key], root, f"{where}.{key}", out)
            elif extra is False:
                out.append(f"{where}: unexpected key {key!r}")
            elif isinstance(extra, dict):
                _check(item, extra, root, f"{where}.{key}", out)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            _check(item, schema["items"], root, f"{where}[{i}]", out)


def _is_type(value: object, name: str) -> bool:
    if isinstance(value, bool) and name in ("integer", "number"):
        return False
    if name == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES[name])


def _type_name(value: object) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null",
            int: "integer", float: "number"}.get(type(value), type(value).__name__)
