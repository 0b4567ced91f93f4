"""The shared registry helper: registered values, lazy "module:attr" targets, entry-point plugins, one-line
errors. Every wmbench registry is checked to be built on it (generated from the list of registries)."""

from __future__ import annotations

import importlib.util
import sys
from importlib.metadata import EntryPoint

import pytest

from wmbench.body.motion.registry import GENERATOR_REGISTRY
from wmbench.body.registry import BODIES
from wmbench.brain.registry import BRAINS
from wmbench.core import registry as core_registry
from wmbench.core.errors import PluginLoadError, UnknownNameError, WMBenchError
from wmbench.core.registry import Registry
from wmbench.scenarios.registry import SCENARIOS

GROUP = "wmbench.test_things"


def plugins(monkeypatch: pytest.MonkeyPatch, *entry_points: EntryPoint) -> None:
    """Make ``entry_points(group=GROUP)`` return exactly ``entry_points``."""
    monkeypatch.setattr(core_registry, "entry_points",
                        lambda group: [ep for ep in entry_points if ep.group == group])


def test_registered_values_come_back_by_normalised_name() -> None:
    things: Registry[int] = Registry("thing")
    things.register("One", 1)
    assert things.get(" one ") == 1 and "ONE" in things and things.names() == ("one",)


def test_lazy_targets_are_imported_only_when_asked_for() -> None:
    sys.modules.pop("tests.core.lazy_target", None)
    things: Registry[object] = Registry("thing")
    things.register_lazy("wave", "tests.core.lazy_target:WAVE")
    assert "tests.core.lazy_target" not in sys.modules
    assert things.get("wave") == "~~~"
    assert things.target("wave") == "tests.core.lazy_target:WAVE"


def test_unknown_name_is_one_line_naming_what_was_expected() -> None:
    bodies: Registry[str] = Registry("body")
    for name in ("smpl", "robot", "drone"):
        bodies.register(name, name)
    with pytest.raises(UnknownNameError) as err:
        bodies.get("quadrupd")
    assert str(err.value) == "unknown body 'quadrupd'; expected one of: drone, robot, smpl"
    assert isinstance(err.value, WMBenchError) and isinstance(err.value, ValueError)


def test_duplicates_fail_unless_overwritten() -> None:
    things: Registry[int] = Registry("thing")
    things.register("a", 1)
    with pytest.raises(ValueError, match="thing 'a' is already registered"):
        things.register("A", 2)
    things.register("a", 3, overwrite=True)
    assert things.get("a") == 3 and things.names() == ("a",)


def test_missing_module_of_a_lazy_target_names_the_target() -> None:
    things: Registry[object] = Registry("thing")
    things.register_lazy("ghost", "no_such_module_xyz:Ghost")
    with pytest.raises(PluginLoadError, match=r"^thing 'ghost' is registered as 'no_such_module_xyz:Ghost' but"):
        things.get("ghost")


def test_plugins_come_after_registered_names_and_never_shadow_them(monkeypatch: pytest.MonkeyPatch) -> None:
    things: Registry[object] = Registry("thing", GROUP)
    things.register("zeta", "built-in")
    plugins(monkeypatch, EntryPoint("wave", "tests.core.lazy_target:WAVE", GROUP),
            EntryPoint("zeta", "tests.core.lazy_target:WAVE", GROUP),
            EntryPoint("alpha", "tests.core.lazy_target:WAVE", "other.group"))
    assert things.names() == ("zeta", "wave")
    assert things.get("wave") == "~~~" and things.get("zeta") == "built-in"
    with pytest.raises(UnknownNameError, match=r"expected one of: wave, zeta$"):
        things.get("alpha")


def test_broken_plugin_names_its_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    things: Registry[object] = Registry("thing", GROUP)
    plugins(monkeypatch, EntryPoint("broken", "tests.core.lazy_target:MISSING", GROUP))
    with pytest.raises(PluginLoadError) as err:
        things.get("broken")
    assert str(err.value).startswith(f"thing 'broken' (entry point {GROUP}: broken = "
                                     "tests.core.lazy_target:MISSING) failed to load: AttributeError")
    assert "\n" not in str(err.value)


def test_copy_is_independent() -> None:
    things: Registry[int] = Registry("thing")
    things.register("a", 1)
    twin = things.copy()
    twin.register("b", 2)
    twin.unregister("a")
    assert things.names() == ("a",) and twin.names() == ("b",)


#: Every registry wmbench has, with the entry-point group its plugins use (None: no plugins).
WMBENCH_REGISTRIES = {
    "body": (BODIES, "wmbench.bodies"),
    "motion generator": (GENERATOR_REGISTRY, "wmbench.motion_generators"),
    "brain": (BRAINS, "wmbench.brains"),
    "scenario": (SCENARIOS, None),
}


@pytest.mark.parametrize("kind", WMBENCH_REGISTRIES)
def test_every_wmbench_registry_is_the_shared_helper(kind: str) -> None:
    found, group = WMBENCH_REGISTRIES[kind]
    assert isinstance(found, Registry) and found.kind == kind and found.group == group
    assert found.registered(), f"the {kind} registry is empty"
    for name in found.registered():  # lazy targets must name a module that exists (found, not imported)
        target = found.target(name)
        if target is None:
            assert found.get(name) is not None
        else:
            assert importlib.util.find_spec(target.partition(":")[0]) is not None, target
    with pytest.raises(UnknownNameError, match=f"^unknown {kind} 'no-such-name'; expected one of: "):
        found.get("no-such-name")
