"""Third-party plugins: a real installed package adds a brain and a body through entry points.

The module fixture pip-installs ``tests/plugins/wmbench_demo_plugin`` into a temporary folder (``pip install
--target``: no deps, no build isolation, no index; a few seconds), never into the user's ``.venv`` (where its
names would then show up in user-facing lists and errors), and puts that folder on ``sys.path`` for this
module only: entry points are found through the ``.dist-info`` there, as for any installed package.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from wmbench.brain import registry
from wmbench.brain.base import Brain
from wmbench.brain.baselines import NullBrain
from wmbench.brain.errors import PluginLoadError
from wmbench.brain.grammar import parse_reply
from wmbench.brain.registry import get_brain, list_brains

from .provider_fixtures import calm_scene, example_scene

PLUGIN_DIR = Path(__file__).resolve().parents[1] / "plugins" / "wmbench_demo_plugin"
DISTRIBUTION = "wmbench-demo-plugin"
GROUP = registry.PLUGIN_GROUP


@pytest.fixture(scope="module")
def demo_plugin(tmp_path_factory):
    tools = pytest.importorskip("setuptools", reason="building the demo plugin needs setuptools>=68 ('dev' extra)")
    if int(tools.__version__.split(".")[0]) < 68:
        pytest.skip(f"building the demo plugin needs setuptools>=68 (the 'dev' extra), found {tools.__version__}")
    target = tmp_path_factory.mktemp("demo-plugin-site")
    build = tmp_path_factory.mktemp("demo-plugin-build")
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
               "--no-index", "--target", str(target), str(PLUGIN_DIR)]
    # pip builds in a copy of the plugin folder, so the checkout gets no build/ or egg-info litter
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=build)
    if result.returncode != 0:
        pytest.fail(f"installing the demo plugin failed:\n{result.stdout}\n{result.stderr}")
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    try:
        yield DISTRIBUTION
    finally:
        sys.path.remove(str(target))
        for name in [m for m in sys.modules if m.split(".")[0] == "wmbench_demo_plugin"]:
            del sys.modules[name]
        importlib.invalidate_caches()


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
