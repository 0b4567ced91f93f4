"""check_body: every registered body passes (plugins included: the demo plugin's body, installed for this
module); deliberately broken bodies fail with one clear line per violation."""

from __future__ import annotations

import math
import random

import pybullet as p
import pytest

from tests.plugins.demo_install import installed_demo_plugin
from wmbench.body import BODIES, BodyBase, BodyContractError, check_body, get_body
from wmbench.body.base import BodyState, FrameReport, Vec3, WorldHandle
from wmbench.body.character.smpl import SmplCharacter
from wmbench.body.checker import require_body
from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.humanml3d.adapter import MODEL_ENV as HUMANML3D_MODEL_ENV
from wmbench.body.motion.registry import GENERATOR_REGISTRY, available_generators
from wmbench.body.registry import available_bodies
from wmbench.core.errors import WMBenchError


@pytest.fixture(scope="module")
def demo_plugin(tmp_path_factory):
    with installed_demo_plugin(tmp_path_factory.mktemp("demo-plugin-site"),
                               tmp_path_factory.mktemp("demo-plugin-build")) as distribution:
        yield distribution


@pytest.mark.parametrize("name", available_bodies())
def test_every_registered_body_passes(name):
    check_body(get_body(name))


def test_every_plugin_body_passes(demo_plugin):
    plugin_bodies = [n for n in available_bodies() if n not in BODIES.registered()]
    assert "demo-body" in plugin_bodies
    for name in plugin_bodies:
        check_body(get_body(name))


@pytest.mark.parametrize("generator", available_generators())
def test_the_character_passes_with_every_registered_motion_generator(generator, monkeypatch):
    monkeypatch.setenv(HUMANML3D_MODEL_ENV, "tests.body.motion.humanml3d.test_adapter:TinyT2M")  # humanml3d's model
    check_body(SmplCharacter(generator=generator))  # the root is the body's own; limbs come from the generator


def test_every_plugin_motion_generator_drives_the_character(demo_plugin):
    plugin_generators = [g for g in available_generators() if g not in GENERATOR_REGISTRY.registered()]
    assert "demo-motion" in plugin_generators
    for generator in plugin_generators:
        check_body(SmplCharacter(generator=generator))


class Sphere(BodyBase):
    """A kinematic 0.3 m sphere gliding where the intent points (the knobs below break it on purpose)."""

    name = "sphere"
    speed_factor = 1.0   # x the intent's speed
    turn = 0.0           # added to the travel direction (rad)
    noise = 0.0          # random jitter per frame (m): breaks determinism
    leak = False         # remove() forgets to delete the PyBullet body

    def __init__(self) -> None:
        self._world: WorldHandle | None = None
        self._id = -1
        self._xy = (0.0, 0.0)
        self._heading = 0.0
        self._intent = MotionIntent.still()
        self._speed = 0.0
        self._rng = random.Random()

    def spawn(self, world: WorldHandle, position: Vec3, heading: float) -> None:
        self._world = world
        shape = p.createCollisionShape(p.GEOM_SPHERE, radius=0.3, physicsClientId=world.client)
        self._id = p.createMultiBody(0.0, shape, basePosition=position, physicsClientId=world.client)
        self.reset_pose(position, heading)

    def reset_pose(self, position: Vec3, heading: float) -> None:
        self._xy, self._heading, self._speed = (position[0], position[1]), heading, 0.0

    def apply_intent(self, intent: MotionIntent) -> None:
        self._intent = intent

    def on_frame(self) -> FrameReport:
        assert self._world is not None
        self._speed = self._intent.speed * self.speed_factor
        travel = self._heading + self._intent.heading + self.turn
        step = self._speed * self._world.frame_dt
        jitter = self._rng.uniform(-self.noise, self.noise)
        self._xy = (self._xy[0] + step * math.cos(travel) + jitter, self._xy[1] + step * math.sin(travel))
        return FrameReport()

    def state(self) -> BodyState:
        return BodyState(position=(*self._xy, 0.0), heading=self._heading, velocity=(0.0, 0.0, 0.0),
                         speed=self._speed)

    def body_ids(self) -> frozenset[int]:
        return frozenset({self._id}) if self._id >= 0 else frozenset()

    def remove(self) -> None:
        if self._world is not None and self._id >= 0 and not self.leak:
            p.removeBody(self._id, physicsClientId=self._world.client)
        self._id = -1


def test_the_sound_sphere_passes():
    check_body(Sphere())  # the baseline of the broken variants below: each breaks exactly one thing


def violations_of(body) -> tuple[str, ...]:
    with pytest.raises(BodyContractError) as err:
        check_body(body)
    assert isinstance(err.value, WMBenchError)
    lines = str(err.value).splitlines()
    assert lines[0].startswith(f"body {body.name!r} breaks the Body contract")
    assert lines[1:] == [f"  - {v}" for v in err.value.violations]  # one line per violation
    return err.value.violations


class Incomplete:
    """Declares the 0.1 members only: no envelope, no sync_visuals."""

    name = "incomplete"
    needs_physics = False
    sensor_height = 1.2

    def spawn(self, world, position, heading): ...
    def reset_pose(self, position, heading): ...
    def apply_intent(self, intent): ...
    def on_frame(self): ...
    def on_physics_step(self): ...
    def state(self): ...
    def body_ids(self): ...
    def remove(self): ...


def test_missing_members_are_named():
    assert violations_of(Incomplete()) == ("missing attribute 'envelope'", "missing method sync_visuals()")
    with pytest.raises(BodyContractError, match=r"derive from wmbench\.body\.BodyBase"):
        require_body(Incomplete())


def test_a_body_that_goes_the_wrong_way_is_named_per_intent():
    body = Sphere()
    body.turn = math.pi
    found = violations_of(body)
    assert "intent 'walk fwd' moved the root back, expected fwd" in found
    assert "intent 'walk left' moved the root right, expected left" in found
    assert len(found) == 7  # four speed classes ahead and three directions


def test_a_body_faster_than_its_envelope_fails():
    body = Sphere()
    body.speed_factor = 2.0
    found = violations_of(body)
    assert any(v.startswith("intent 'sprint fwd' moved at 13.00 m/s, above its envelope (6.5 m/s") for v in found)


def test_a_bad_envelope_fails_before_any_simulation():
    body = Sphere()
    body.envelope = {"still": 0.0, "walk": 2.0, "jog": 1.0, "run": 4.5, "sprint": 6.5}
    (only,) = violations_of(body)
    assert only.startswith("envelope speeds must rise strictly from still to sprint")


def test_a_body_that_is_not_reproducible_after_reset_pose_fails():
    body = Sphere()
    body.noise = 0.01
    assert any(v.startswith("the same intents after reset_pose gave different states") for v in violations_of(body))


def test_a_body_that_leaks_pybullet_bodies_fails():
    body = Sphere()
    body.leak = True
    assert violations_of(body) == ("remove() left 1 PyBullet bodies in the world",)
