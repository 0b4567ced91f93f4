"""Third-party plugins: a real installed package adds a brain and a body through entry points.

The module fixture pip-installs ``tests/plugins/wmbench_demo_plugin`` into the running venv (editable, no
deps, no build isolation, no index: a few seconds, skipped when that checkout is already installed) and makes
it importable in this process without a restart.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import site
import subprocess
import sys
import sysconfig
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


def installed_from_this_checkout() -> bool:
    try:
        dist = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return False
    direct_url = json.loads(dist.read_text("direct_url.json") or "{}")
    editable = direct_url.get("dir_info", {}).get("editable", False)
    return editable and direct_url.get("url", "").removeprefix("file://") == str(PLUGIN_DIR)


@pytest.fixture(scope="module")
def demo_plugin():
    if not installed_from_this_checkout():
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                   "--no-index", "--editable", str(PLUGIN_DIR)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            pytest.fail(f"installing the demo plugin failed:\n{result.stdout}\n{result.stderr}")
    # The editable install's .pth file is only read at start-up: read it now, and forget stale finder caches.
    site.addsitedir(sysconfig.get_paths()["purelib"])
    importlib.invalidate_caches()
    assert installed_from_this_checkout()
    return DISTRIBUTION


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
