"""The body registry: a name -> a :class:`~wmbench.body.base.Body` instance.

Built-in bodies are resolved lazily from ``"module:Class"`` strings, so importing the registry imports no body
(and a body whose module is missing fails only when asked for, with a message that says so). Third-party
bodies register through the ``wmbench.bodies`` entry-point group::

    [project.entry-points."wmbench.bodies"]
    hexapod = "my_pkg.hexapod:Hexapod"

    env = gym.make("WMBench-S12-v0", body="hexapod")
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from wmbench.body.base import Body

ENTRY_POINT_GROUP = "wmbench.bodies"
#: Built-in body name -> "module:Class".
BUILTIN_BODIES: dict[str, str] = {
    "smpl": "wmbench.body.smpl_character:SmplCharacter",
    "robot": "wmbench.body.robot:ServoRobot",
    "drone": "wmbench.body.drone:Quadrotor",
}
BODY_NAMES: tuple[str, ...] = tuple(BUILTIN_BODIES)


def available_bodies() -> tuple[str, ...]:
    """Built-in names followed by the names registered through entry points (sorted)."""
    plugins = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in BUILTIN_BODIES)
    return BODY_NAMES + tuple(plugins)


def resolve_body_class(name: str) -> type:
    """The class registered under ``name`` (built-in first, then entry points)."""
    key = name.strip().lower()
    if key in BUILTIN_BODIES:
        return _load(BUILTIN_BODIES[key], key)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == key or ep.name == name:
            try:
                return ep.load()
            except Exception as exc:  # a broken plugin must say which one
                raise ImportError(f"body {name!r} (entry point {ep.value!r}) failed to load: {exc}") from exc
    raise KeyError(f"unknown body {name!r}; expected one of {', '.join(available_bodies())}")


def get_body(name: str, **kwargs: Any) -> Body:
    """A fresh body for ``name`` (``smpl``, ``robot``, ``drone`` or a plugin), built with ``kwargs``."""
    if not isinstance(name, str):
        raise TypeError(f"body name must be a string, got {type(name).__name__}")
    return resolve_body_class(name)(**kwargs)


def _load(target: str, name: str) -> type:
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise ImportError(
            f"body {name!r} is registered as {target!r} but its module could not be imported ({exc}); "
            "this body may not be available in this version of wmbench"
        ) from exc
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ImportError(f"body {name!r}: module {module_name!r} has no class {attr!r}") from None
