"""The motion-generator registry: built-ins, a real installed entry-point plug-in, the selected generator."""

from __future__ import annotations

import numpy as np
import pytest

from tests.plugins.demo_install import installed_demo_plugin
from wmbench.body.intent.reader import parse_motion
from wmbench.body.motion import registry as generators
from wmbench.body.motion.procedural.generator import ProceduralGenerator


@pytest.fixture(scope="module")
def demo_plugin(tmp_path_factory):
    with installed_demo_plugin(tmp_path_factory.mktemp("demo-plugin-site"),
                               tmp_path_factory.mktemp("demo-plugin-build")) as distribution:
        yield distribution


def test_plugin_generator_is_unknown_outside_the_fixture():
    assert "demo-motion" not in generators.available_generators()


def test_builtin_generators_are_listed_and_built():
    assert generators.available_generators()[:3] == ("procedural", "keyframe", "diffusion")
    for name in ("procedural", "keyframe", "diffusion"):
        generator = generators.get_generator(name, 30)
        assert generator.name == name
        generator.set_intent(parse_motion("a person walks forward"))
        assert generator.next_frame(1.4).joints.shape == (22, 3)


def test_unknown_generator_names_the_available_ones():
    with pytest.raises(KeyError, match=r"^unknown motion generator 'nope'; expected one of: diffusion, humanml3d, "
                                      r"keyframe, procedural$"):
        generators.get_generator("nope")


def test_entry_point_plugin_is_listed_built_and_selectable(demo_plugin, monkeypatch):
    monkeypatch.setenv(generators.MOTION_MODEL_ENV, "procedural")  # restored (unset) after the test
    assert "demo-motion" in generators.available_generators()
    plugin = generators.get_generator("demo-motion", 30)
    assert type(plugin).__module__ == "wmbench_demo_plugin.motion"
    plugin.set_intent(parse_motion("a person walks forward"))
    reference = ProceduralGenerator(30)
    reference.set_intent(parse_motion("a person walks forward"))
    assert np.allclose(plugin.next_frame(1.4).joints, 0.8 * reference.next_frame(1.4).joints)
    # selected: bodies built afterwards use it, and the leaderboard line names it
    assert generators.select_generator("demo-motion") == "demo-motion"
    assert type(generators.default_generator(30)).__name__ == "DemoMotion"
    assert generators.describe_generator() == "demo-motion: motion-generator plugin"


def test_selection_defaults_to_procedural_and_rejects_unknown_names(monkeypatch):
    monkeypatch.setenv(generators.MOTION_MODEL_ENV, "procedural")  # restored (unset) after the test
    monkeypatch.delenv(generators.MOTION_MODEL_ENV)
    assert generators.selected_generator_name() == "procedural"
    assert isinstance(generators.default_generator(30), ProceduralGenerator)
    with pytest.raises(KeyError):
        generators.select_generator("no-such-model")
    assert generators.MOTION_MODEL_ENV not in __import__("os").environ
    generators.select_generator("Diffusion")
    assert generators.selected_generator_name() == "diffusion"
    assert type(generators.default_generator(30)).__name__ == "DiffusionGenerator"
