"""The body registry: a name -> a :class:`~wmbench.body.base.Body` class (or factory), on the shared
:class:`~wmbench.core.registry.Registry`.

Built-in bodies are resolved lazily from ``"module:Class"`` strings, so importing the registry imports no body
(and a body whose module is missing fails only when asked for, with a message that says so). Third-party
bodies register through the ``wmbench.bodies`` entry-point group (check them with
:func:`wmbench.body.check_body`)::

    [project.entry-points."wmbench.bodies"]
    hexapod = "my_pkg.hexapod:Hexapod"

    env = gym.make("WMBench-S12-v0", body="hexapod")

Unknown names raise :class:`~wmbench.core.errors.UnknownNameError` (``unknown body 'quadrupd'; expected one
of: ...``), broken plugins :class:`~wmbench.core.errors.PluginLoadError` naming the entry point.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wmbench.body.base import Body
from wmbench.core.errors import ConfigError
from wmbench.core.registry import Registry

ENTRY_POINT_GROUP = "wmbench.bodies"
#: Built-in body name -> "module:Class".
BUILTIN_BODIES: dict[str, str] = {
    "smpl": "wmbench.body.character.smpl:SmplCharacter",
    "robot": "wmbench.body.robot.servo_robot:ServoRobot",
    "drone": "wmbench.body.drone.quadrotor:Quadrotor",
}
BODY_NAMES: tuple[str, ...] = tuple(BUILTIN_BODIES)
#: Every body: the built-ins, then ``wmbench.bodies`` entry points.
BODIES: Registry[Callable[..., Body]] = Registry("body", ENTRY_POINT_GROUP)
for _name, _target in BUILTIN_BODIES.items():
    BODIES.register_lazy(_name, _target)


def available_bodies() -> tuple[str, ...]:
    """Built-in names followed by the names registered through entry points (sorted)."""
    return BODIES.names()


def resolve_body_class(name: str) -> Callable[..., Body]:
    """The class (or factory) registered under ``name`` (built-in first, then entry points)."""
    return BODIES.get(name)


def get_body(name: str, **kwargs: Any) -> Body:
    """A fresh body for ``name`` (``smpl``, ``robot``, ``drone`` or a plugin), built with ``kwargs``."""
    if not isinstance(name, str):
        raise ConfigError(f"body name must be a string, got {type(name).__name__}")
    return resolve_body_class(name)(**kwargs)
