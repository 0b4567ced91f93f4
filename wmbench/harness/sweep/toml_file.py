"""Reading sweep and run files (TOML), and turning a run directory's ``run.json`` back into a run file.

Card
----
- :func:`read_sweep` — a TOML file (or its text) -> :class:`~wmbench.harness.sweep.model.SweepSpec`. A grid
  names ``brains`` (a list of specs, or ``[[brains]]`` tables with ``spec``/``options``/``label``),
  ``bodies``, ``observations`` and ``motion_models``; a *run file* may name one of each instead (``brain``,
  ``brain_options``, ``body``, ``observation``, ``motion_model``) and is a sweep of one cell. Every mistake is
  one :class:`SweepFileError` line: the file, the key, what was expected, what arrived, and "did you mean"
  for a misspelt key.
- :func:`run_config_from_run_json` — a run directory's ``run.json`` (what ``wmbench run`` records) -> the
  run file's TOML text that replays it (``wmbench run --config``). Redacted options stay ``<redacted>``:
  keys come from the environment, never from a file.
- Python 3.11's :mod:`tomllib` reads TOML; on 3.10 the ``tomli`` package (a dependency there) does.
"""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wmbench.core.errors import ConfigError
from wmbench.envs.pacing import SCENE_PACE
from wmbench.harness.sweep.model import DEFAULT_MOTION_MODEL, DEFAULT_OBSERVATION, BrainEntry, SweepSpec

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: Keys of a sweep (or run) file, with what each must hold (for messages).
TOP_KEYS: dict[str, str] = {
    "name": "a string", "out": "a directory path", "scenarios": "a selection such as 'C01,S12' or 'all'",
    "instances": "a count of instances per scenario", "seeds": "a list of integer seeds",
    "live": "true or false", "unpaced": "true or false", "executor": "'local' or 'ray'", "ray_address": "a Ray address",
    "workers": "an integer >= 1", "max_connections": "an integer >= 1", "latency_s": "seconds > 0",
    "brains": "a list of brain specs or [[brains]] tables", "bodies": "a list of bodies",
    "observations": "a list of observation modes", "motion_models": "a list of motion models",
    "brain": "a brain spec", "brain_options": "a table of brain options", "body": "a body",
    "observation": "an observation mode", "motion_model": "a motion model",
}
BRAIN_KEYS: dict[str, str] = {"spec": "a brain spec", "options": "a table of options", "label": "a string"}


class SweepFileError(ConfigError):
    """A sweep or run file that cannot be used; one line naming the file, the key and what was expected."""


def read_sweep(source: Path | str, *, text: str | None = None) -> SweepSpec:
    """The sweep described by the TOML file ``source`` (or by ``text``, ``source`` then only names it)."""
    where = str(source)
    try:
        raw = text if text is not None else Path(source).read_text(encoding="utf-8")
    except OSError as err:
        raise SweepFileError(f"{where}: cannot read it ({err.strerror or err})") from None  # a sweep or a run file
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as err:
        raise SweepFileError(f"{where}: not valid TOML ({err})") from None
    return sweep_from_mapping(data, where)


def sweep_from_mapping(data: Mapping[str, Any], where: str) -> SweepSpec:
    """:func:`read_sweep` for already-parsed data (``where`` names its source in messages)."""
    _check_keys(data, TOP_KEYS, where, "")
    for single, plural in (("brain", "brains"), ("body", "bodies"), ("observation", "observations"),
                           ("motion_model", "motion_models")):
        if single in data and plural in data:
            raise SweepFileError(f"{where}: both {single!r} and {plural!r} are set; expected one of them")
    if "brain_options" in data and "brain" not in data:
        raise SweepFileError(f"{where}: 'brain_options' needs 'brain' (a [[brains]] table takes 'options')")
    if "instances" in data and "seeds" in data:
        raise SweepFileError(f"{where}: both 'instances' and 'seeds' are set; expected one of them")
    brains = _brains(data, where)
    spec = SweepSpec(
        brains=brains,
        bodies=_names(data, "body", "bodies", ("smpl",), where),
        observations=_names(data, "observation", "observations", (DEFAULT_OBSERVATION,), where),
        motion_models=_names(data, "motion_model", "motion_models", (DEFAULT_MOTION_MODEL,), where),
        scenarios=_typed(data, "scenarios", str, "all", where),
        instances=_count(data, "instances", None, where),
        seeds=_seeds(data, where),
        live=_typed(data, "live", bool, False, where),
        unpaced=_typed(data, "unpaced", bool, False, where),
        out=Path(_typed(data, "out", str, "runs/sweep", where)),
        name=_typed(data, "name", str, "sweep", where),
        executor=_typed(data, "executor", str, "local", where),
        ray_address=_typed(data, "ray_address", str, None, where),
        workers=_count(data, "workers", 2, where) or 2,
        max_connections=_count(data, "max_connections", 8, where) or 8,
        latency_s=_positive(data, "latency_s", 1.0, where),
    )
    names = [cell.name for cell in spec.cells()]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise SweepFileError(f"{where}: two cells would share the directory {dup!r}; give the brains "
                             f"distinct 'label's")
    return spec


# ------------------------------------------------------------------------------------------------ fields


def _check_keys(data: Mapping[str, Any], allowed: Mapping[str, str], where: str, prefix: str) -> None:
    for key in data:
        if key not in allowed:
            close = difflib.get_close_matches(key, list(allowed), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; expected one of: {', '.join(allowed)}"
            raise SweepFileError(f"{where}: unknown key {prefix}{key!r}{hint}")


def _wrong(where: str, key: str, value: object) -> SweepFileError:
    what = TOP_KEYS.get(key) or BRAIN_KEYS.get(key.rsplit(".", 1)[-1], "another value")
    return SweepFileError(f"{where}: {key!r} must be {what}, got {value!r}")


def _typed(data: Mapping[str, Any], key: str, kind: type, default: Any, where: str) -> Any:
    if key not in data:
        return default
    value = data[key]
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise _wrong(where, key, value)
    if isinstance(value, str) and not value.strip():
        raise _wrong(where, key, value)
    return value


def _count(data: Mapping[str, Any], key: str, default: int | None, where: str) -> int | None:
    value = _typed(data, key, int, default, where)
    if value is not None and value < 1:
        raise _wrong(where, key, value)
    return value


def _positive(data: Mapping[str, Any], key: str, default: float, where: str) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise _wrong(where, key, value)
    return float(value)


def _seeds(data: Mapping[str, Any], where: str) -> tuple[int, ...] | None:
    if "seeds" not in data:
        return None
    value = data["seeds"]
    if (not isinstance(value, list) or not value
            or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in value)):
        raise _wrong(where, "seeds", value)
    return tuple(dict.fromkeys(value))


def _names(data: Mapping[str, Any], single: str, plural: str, default: tuple[str, ...], where: str
           ) -> tuple[str, ...]:
    if single in data:
        return (_typed(data, single, str, None, where).strip(),)
    if plural not in data:
        return default
    value = data[plural]
    if not isinstance(value, list) or not value or any(not isinstance(v, str) or not v.strip() for v in value):
        raise _wrong(where, plural, value)
    return tuple(dict.fromkeys(v.strip() for v in value))


def _brains(data: Mapping[str, Any], where: str) -> tuple[BrainEntry, ...]:
    if "brain" in data:
        options = data.get("brain_options", {})
        if not isinstance(options, dict):
            raise _wrong(where, "brain_options", options)
        return (BrainEntry(_typed(data, "brain", str, None, where).strip(), dict(options)),)
    value = data.get("brains")
    if value is None:
        raise SweepFileError(f"{where}: no brain; expected 'brains = [\"reference\", ...]' or 'brain = \"...\"'")
    if not isinstance(value, list) or not value:
        raise _wrong(where, "brains", value)
    entries: list[BrainEntry] = []
    for i, item in enumerate(value):
        if isinstance(item, str) and item.strip():
            entries.append(BrainEntry(item.strip()))
            continue
        if not isinstance(item, dict):
            raise _wrong(where, f"brains[{i}]", item)
        _check_keys(item, BRAIN_KEYS, where, f"brains[{i}].")
        spec = item.get("spec")
        if not isinstance(spec, str) or not spec.strip():
            raise SweepFileError(f"{where}: brains[{i}] needs 'spec', a brain spec such as 'reference'; "
                                 f"got {spec!r}")
        options = item.get("options", {})
        if not isinstance(options, dict):
            raise _wrong(where, f"brains[{i}].options", options)
        label = item.get("label", "")
        if not isinstance(label, str):
            raise _wrong(where, f"brains[{i}].label", label)
        entries.append(BrainEntry(spec.strip(), dict(options), label.strip()))
    return tuple(entries)


def load_run_config(path: Path | str) -> SweepSpec:
    """A run's settings from a run file (TOML), a ``run.json`` or a run directory (its ``run.json``)."""
    path = Path(path)
    if path.is_dir():
        path = path / "run.json"
    if path.suffix == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise SweepFileError(f"{path}: expected a readable run.json, got {err}") from None
        if not isinstance(data, dict):
            raise SweepFileError(f"{path}: expected a JSON object (run.json), got {type(data).__name__}")
        return read_sweep(path, text=run_config_from_run_json(data))
    return read_sweep(path)


# ------------------------------------------------------------------------------------------------ writing


def run_config_from_run_json(run_json: Mapping[str, Any], out: Path | str | None = None) -> str:
    """The run file (TOML text) that replays the run ``run_json`` records (see the module card)."""
    env_kwargs = run_json.get("env_kwargs") or {}
    data: dict[str, Any] = {
        "brain": run_json.get("brain", "reference"),
        "body": run_json.get("body", "smpl"),
        "observation": env_kwargs.get("observation", DEFAULT_OBSERVATION),
        "motion_model": run_json.get("motion_model") or DEFAULT_MOTION_MODEL,
        "scenarios": ",".join(run_json.get("scenarios") or []) or run_json.get("selection", "all"),
        "seeds": list(run_json.get("seeds") or [0]),
        "workers": int(run_json.get("workers") or 1),
    }
    if env_kwargs.get("pace") == SCENE_PACE:  # an --unpaced run replays unpaced
        data["unpaced"] = True
    if out is not None:
        data["out"] = str(out)
    lines = [f"# replays the run recorded in run.json (wmbench {run_json.get('version', '?')})"]
    lines += [f"{key} = {toml_value(value)}" for key, value in data.items()]
    options = run_json.get("brain_options") or {}
    lines.append(f"brain_options = {toml_value(dict(options))}")
    return "\n".join(lines) + "\n"


def toml_value(value: Any) -> str:
    """``value`` as a TOML value (strings, numbers, booleans, lists and inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value)  # JSON's escapes are valid in a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"cannot write {type(value).__name__} {value!r} as TOML")
