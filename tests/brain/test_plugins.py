"""Third-party plugins: a real installed package adds a brain and a body through entry points.

The module fixture installs ``tests/plugins/wmbench_demo_plugin`` into a temporary folder for this module only,
never into the user's ``.venv`` (:mod:`tests.plugins.demo_install`).
"""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from tests.plugins.demo_install import installed_demo_plugin
from wmbench.brain import registry
from wmbench.brain.base import Brain
from wmbench.brain.baselines import NullBrain
from wmbench.brain.errors import PluginLoadError
from wmbench.brain.registry import get_brain, list_brains
from wmbench.protocol.grammar import parse_reply

from .provider_fixtures import calm_scene, example_scene

GROUP = registry.PLUGIN_GROUP


@pytest.fixture(scope="module")
def demo_plugin(tmp_path_factory):
    with installed_demo_plugin(tmp_path_factory.mktemp("demo-plugin-site"),
                               tmp_path_factory.mktemp("demo-plugin-build")) as distribution:
        yield distribution


def test_demo_plugin_is_not_in_the_users_environment():
    """Outside the fixture the plugin's names are unknown (it was never installed into the venv)."""
    assert "demo-echo" not in list_brains()


def test_plugin_brain_is_listed_and_built_from_its_entry_point(demo_plugin):
    assert "demo-echo" in list_brains()
    brain = get_brain("demo-echo")
    assert isinstance(brain, Brain)
    assert type(brain).__module__ == "wmbench_demo_plugin.brain"
    reply = brain.decide(example_scene())  # walls left and front
    decision = parse_reply(reply.text)
    assert decision.ok
    expected = {"left": "danger", "right": "safe", "fwd": "danger", "back": "safe"}
    assert decision.prediction.verdicts() == expected
    assert reply.latency_s >= 0.0


def test_plugin_spec_argument_and_options_are_passed(demo_plugin):
    assert parse_reply(get_brain("demo-echo:a person jogs to the left").decide(calm_scene()).text).motion == (
        "a person jogs to the left")
    assert get_brain("demo-echo", motion="a person crouches").decide(calm_scene()).text.endswith(
        "MOTION: a person crouches")


def test_plugin_body_is_found_by_the_body_registry(demo_plugin):
    body_registry = pytest.importorskip("wmbench.body.registry")
    from wmbench.body.base import Body

    assert "demo-body" in body_registry.available_bodies()
    body = body_registry.get_body("demo-body")
    assert isinstance(body, Body)
    assert type(body).__module__ == "wmbench_demo_plugin.body"
    assert body.name == "demo-body" and body.needs_physics is False


# -- registry behaviour with synthetic entry points (no installation needed) -----------------------------

def with_entry_points(monkeypatch, *entry_points: EntryPoint) -> None:
    monkeypatch.setattr(registry, "_plugin_entry_points", lambda: list(entry_points))


def test_class_entry_points_are_called_with_options_only(monkeypatch):
    with_entry_points(monkeypatch, EntryPoint("my-null", "wmbench.brain.baselines:NullBrain", GROUP))
    assert "my-null" in list_brains()
    assert isinstance(get_brain("my-null"), NullBrain)


def test_builtin_names_win_over_plugins(monkeypatch):
    with_entry_points(monkeypatch, EntryPoint("null", "wmbench.brain.baselines:RandomBrain", GROUP))
    assert isinstance(get_brain("null"), NullBrain)
    assert list_brains().count("null") == 1


@pytest.mark.parametrize(
    ("value", "message"),
    [("no_such_module_xyz:make", "could not be loaded: ModuleNotFoundError"),
     ("builtins:dict", "returned dict, which is not a Brain"),
     ("wmbench.brain.registry:PLUGIN_GROUP", "must load a class or a function")],
)
def test_broken_plugins_say_which_and_why(monkeypatch, value, message):
    with_entry_points(monkeypatch, EntryPoint("broken", value, GROUP))
    with pytest.raises(PluginLoadError, match=message) as info:
        get_brain("broken")
    assert "plugin 'broken'" in str(info.value)
