"""One registry helper for everything pluggable: brains, bodies, motion generators, scenarios, measurers.

Card
----
- A :class:`Registry` maps a *name* to a value of type ``T`` (a class, a factory function, a record). Built-ins
  are registered either as the value itself (:meth:`Registry.register`) or lazily as a ``"module:attr"`` string
  (:meth:`Registry.register_lazy`), imported the first time it is asked for: importing a registry imports none
  of what it names, and a missing module fails only when that name is used.
- Installed distributions add entries through an **entry-point group** (``wmbench.bodies``,
  ``wmbench.motion_generators``, ``wmbench.brains``); registered names win over plugins of the same name.
- Names are normalised by the registry's ``normalise`` function (default: stripped, lower case) on both sides.
- :meth:`Registry.names` lists the registered names in registration order, then plugin names (sorted).
- Misses raise :class:`~wmbench.core.errors.UnknownNameError` (``unknown body 'quadrupd'; expected one of:
  drone, robot, smpl``); loading failures raise :class:`~wmbench.core.errors.PluginLoadError` naming the entry
  point or the ``"module:attr"`` target. Both are one line and derive from ``WMBenchError``.

The registry imports nothing of wmbench but :mod:`wmbench.core.errors` (``core`` stays a leaf).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from importlib.metadata import EntryPoint, entry_points
from typing import Generic, TypeVar

from wmbench.core.errors import PluginLoadError, UnknownNameError

T = TypeVar("T")


def lower_name(name: str) -> str:
    """The default normalisation: surrounding whitespace removed, lower case."""
    return name.strip().lower()


def load_target(target: str) -> object:
    """The object a ``"module:attr"`` (or ``"module:attr.sub"``) string names; ImportError/AttributeError as
    Python raises them (callers wrap them with what they were loading)."""
    module_name, separator, attribute = target.partition(":")
    if not separator or not module_name or not attribute:
        raise ValueError(f"a lazy registry target must look like 'module:attr', got {target!r}")
    value: object = importlib.import_module(module_name)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


class Registry(Generic[T]):
    """Name -> value of type ``T``, with lazy built-ins and entry-point plugins (see the module card).

    ``kind`` is the word used in messages (``"body"``, ``"motion generator"``); ``group`` the entry-point
    group of plugins (None: no plugins); ``normalise`` maps a user's spelling to the registered key.
    """

    def __init__(self, kind: str, group: str | None = None,
                 normalise: Callable[[str], str] = lower_name) -> None:
        self.kind = kind
        self.group = group
        self.normalise = normalise
        self._values: dict[str, T] = {}
        self._lazy: dict[str, str] = {}
        self._order: list[str] = []

    # ------------------------------------------------------------------ filling it
    def register(self, name: str, value: T, *, overwrite: bool = False) -> T:
        """Add ``value`` under ``name``; a second registration of a name fails unless ``overwrite``."""
        key = self._claim(name, overwrite)
        self._values[key] = value
        return value

    def register_lazy(self, name: str, target: str, *, overwrite: bool = False) -> None:
        """Add ``name`` as a ``"module:attr"`` string, imported the first time :meth:`get` asks for it."""
        if not isinstance(target, str) or ":" not in target:
            raise ValueError(f"{self.kind} {name!r}: a lazy target must be 'module:attr', got {target!r}")
        key = self._claim(name, overwrite)
        self._lazy[key] = target

    def unregister(self, name: str) -> None:
        """Remove a registered name (user scenarios in tests, a measurer replaced by hand); unknown names raise."""
        key = self._key(name)
        if key not in self._order:
            raise UnknownNameError(self.kind, name, self.names())
        self._order.remove(key)
        self._values.pop(key, None)
        self._lazy.pop(key, None)

    def copy(self) -> Registry[T]:
        """An independent registry with the same entries (tests that register things use one)."""
        twin: Registry[T] = Registry(self.kind, self.group, self.normalise)
        twin._values, twin._lazy, twin._order = dict(self._values), dict(self._lazy), list(self._order)
        return twin

    # ------------------------------------------------------------------ reading it
    def names(self) -> tuple[str, ...]:
        """Registered names in registration order, then installed plugin names not shadowed by them (sorted)."""
        plugins = sorted({self.normalise(ep.name) for ep in self.entry_points()} - set(self._order))
        return (*self._order, *plugins)

    def registered(self) -> tuple[str, ...]:
        """Only the registered (built-in and user-added) names, in registration order: no plugin lookup."""
        return tuple(self._order)

    def get(self, name: str) -> T:
        """The value for ``name``: a registered one (lazy targets imported now), else an entry point's."""
        key = self._key(name)
        if key in self._values:
            return self._values[key]
        if key in self._lazy:
            return self._load_lazy(key)
        entry_point = self.entry_point(name)
        if entry_point is not None:
            return self.load_entry_point(entry_point)
        raise UnknownNameError(self.kind, name, self.names())

    def target(self, name: str) -> str | None:
        """The ``"module:attr"`` string a name was registered lazily with (None for values and plugins)."""
        return self._lazy.get(self._key(name))

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        key = self.normalise(name)
        return key in self._order or self.entry_point(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    # ------------------------------------------------------------------ plugins
    def entry_points(self) -> tuple[EntryPoint, ...]:
        """The installed entry points of this registry's group (none without a group)."""
        return () if self.group is None else tuple(entry_points(group=self.group))

    def entry_point(self, name: str) -> EntryPoint | None:
        """The installed entry point called ``name`` (normalised on both sides), if any."""
        key = self.normalise(name)
        for entry_point in self.entry_points():
            if self.normalise(entry_point.name) == key:
                return entry_point
        return None

    def load_entry_point(self, entry_point: EntryPoint) -> T:
        """What an entry point loads; any failure becomes a PluginLoadError naming the entry point."""
        try:
            value: T = entry_point.load()
        except Exception as exc:  # a broken plugin must say which one
            raise PluginLoadError(
                f"{self.kind} {entry_point.name!r} (entry point {entry_point.group}: {entry_point.name} = "
                f"{entry_point.value}) failed to load: {type(exc).__name__}: {exc}") from exc
        return value

    # ------------------------------------------------------------------ internals
    def _key(self, name: str) -> str:
        if not isinstance(name, str):
            raise UnknownNameError(self.kind, repr(name), self.names())
        return self.normalise(name)

    def _claim(self, name: str, overwrite: bool) -> str:
        key = self._key(name)
        if not key:
            raise ValueError(f"a {self.kind} name must be a non-empty string, got {name!r}")
        if key in self._order:
            if not overwrite:
                raise ValueError(f"{self.kind} {key!r} is already registered")
            self._values.pop(key, None)
            self._lazy.pop(key, None)
        else:
            self._order.append(key)
        return key

    def _load_lazy(self, key: str) -> T:
        target = self._lazy[key]
        try:
            value: T = load_target(target)  # type: ignore[assignment]
        except ModuleNotFoundError as exc:
            raise PluginLoadError(
                f"{self.kind} {key!r} is registered as {target!r} but its module could not be imported ({exc}); "
                f"this {self.kind} may not be available in this installation") from exc
        except AttributeError as exc:
            raise PluginLoadError(f"{self.kind} {key!r}: {target!r} does not exist ({exc})") from exc
        self._values[key] = value  # cached; the target string stays readable through target()
        return value
