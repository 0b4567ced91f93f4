"""Body registry: built-ins resolved lazily, plugins through entry points, clear errors."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from wmbench.body import registry
from wmbench.body.base import Body
from wmbench.body.character.smpl import SmplCharacter
from wmbench.body.registry import BODY_NAMES, available_bodies, get_body
from wmbench.core import registry as core_registry
from wmbench.core.errors import PluginLoadError, UnknownNameError


class ToyBody(SmplCharacter):
    name = "toy"


def test_builtin_names():
    assert BODY_NAMES[:3] == ("smpl", "robot", "drone")  # the shipped three first; a new built-in goes after


def test_smpl_resolves_to_the_character():
    body = get_body("smpl")
    assert isinstance(body, SmplCharacter) and isinstance(body, Body)
    assert get_body(" SMPL ").name == "smpl"


@pytest.mark.parametrize("name", ["robot", "drone"])
def test_other_builtins_resolve_or_say_they_are_missing(name):
    try:
        body = get_body(name)
    except ImportError as exc:
        assert name in str(exc) and registry.BUILTIN_BODIES[name] in str(exc)
    else:
        assert isinstance(body, Body) and body.name == name


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(UnknownNameError) as err:
        get_body("quadrupd")
    assert str(err.value) == f"unknown body 'quadrupd'; expected one of: {', '.join(sorted(available_bodies()))}"
    assert all(name in str(err.value) for name in ("drone", "robot", "smpl"))
    assert isinstance(err.value, KeyError)  # 0.2 callers caught KeyError


def test_entry_point_plugins_are_found(monkeypatch):
    plugin = EntryPoint(name="toy", value=f"{__name__}:ToyBody", group=registry.ENTRY_POINT_GROUP)

    def fake_entry_points(group):
        return [plugin] if group == registry.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(core_registry, "entry_points", fake_entry_points)
    assert "toy" in available_bodies()
    assert isinstance(get_body("toy"), ToyBody)


def test_broken_plugin_names_itself(monkeypatch):
    plugin = EntryPoint(name="broken", value="no_such_module_xyz:Body", group=registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(core_registry, "entry_points", lambda group: [plugin])
    with pytest.raises(PluginLoadError, match=r"^body 'broken' \(entry point wmbench.bodies: broken = "
                       r"no_such_module_xyz:Body\) failed to load: ModuleNotFoundError"):
        get_body("broken")


def test_kwargs_reach_the_constructor():
    marker = object()
    body = get_body("smpl", generator_factory=lambda fps: marker)
    assert body._factory(30) is marker
