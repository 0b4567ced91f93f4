"""KeyframeGenerator: protocol, bone lengths, speed classes, determinism, agreeing with the procedural one."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from wmbench.body.intent.reader import parse_motion
from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.contract import POSTURES, MotionGenerator
from wmbench.body.motion.keyframe.generator import KeyframeGenerator
from wmbench.body.motion.keyframe.poses import CADENCE_TABLE, CHANNELS, RUN_KEYS, WALK_KEYS, cadence, catmull_rom_cyclic
from wmbench.body.motion.registry import GENERATORS, describe_clip, generator_factory, get_generator
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES
from wmbench.core.speed import SpeedClass

SPEED_TEXTS = ("stands still", "walks forward", "jogs forward", "runs forward", "sprints forward")
AGREEMENT_TEXTS = (
    "a person sprints to the right in terror", "walks slowly backward keeping eyes on the beast", "jogs left",
    "freezes, watching", "runs forward", "crouches and creeps left", "calmly walks to the left",
    "steps back defensively", "bolts back in panic, glancing over the shoulder", "walks forward",
)


def frames(gen, intent, n=45):
    gen.set_intent(intent)
    return [gen.next_frame(intent.speed) for _ in range(n)]


def test_implements_the_protocol_and_is_registered():
    gen = KeyframeGenerator(30)
    assert isinstance(gen, MotionGenerator) and gen.name == "keyframe" and gen.fps == 30.0
    assert set(GENERATORS) == {"procedural", "keyframe", "diffusion", "humanml3d"}
    assert isinstance(get_generator("keyframe"), KeyframeGenerator)
    assert isinstance(generator_factory("keyframe")(20), KeyframeGenerator)
    with pytest.raises(KeyError, match="procedural"):
        get_generator("no-such-model")


def test_key_data_is_complete():
    assert len(WALK_KEYS) == len(RUN_KEYS) == 4
    assert all(set(k) == set(WALK_KEYS[0]) for k in WALK_KEYS + RUN_KEYS)
    speeds = [s for s, _ in CADENCE_TABLE]
    cadences = [c for _, c in CADENCE_TABLE]
    assert speeds == sorted(speeds) and cadences == sorted(cadences)
    assert cadence(1.4) == pytest.approx(110.0) and cadence(6.5) == pytest.approx(182.0)


def test_catmull_rom_passes_through_its_keys():
    keys = np.random.default_rng(0).normal(size=(8, len(CHANNELS)))
    for i in range(8):
        assert np.allclose(catmull_rom_cyclic(keys, i / 8), keys[i])
    mid = catmull_rom_cyclic(keys, 0.5 / 8)
    assert np.all(mid >= np.minimum(keys[0], keys[1]) - 2) and np.all(mid <= np.maximum(keys[0], keys[1]) + 2)


@pytest.mark.parametrize("text", ["stands", "walks forward", "sprints left in terror", "crouches low",
                                  "freezes", "raises arms defensively", "steps back, eyes on the beast",
                                  "sighs with relief", "runs back glancing over the shoulder"])
def test_bone_lengths_are_preserved_and_feet_stay_on_the_floor(text):
    out = np.array([f.joints for f in frames(KeyframeGenerator(30), parse_motion(text))])
    lengths = DEFAULT_SKELETON.measure_bone_lengths(out)
    assert np.allclose(lengths, DEFAULT_SKELETON.bone_lengths(), atol=1e-9)
    feet = out[:, [JOINT_NAMES.index(j) for j in ("left_ankle", "right_ankle", "left_foot", "right_foot")], 1]
    grounded = feet.min(axis=1) < 0.09  # a foot on the ground (runs have flight phases)
    assert feet.min() > 0.015 and grounded.mean() > 0.5
    assert np.allclose(out[:, 0, [0, 2]], 0.0)  # root-local


def test_speed_classes_are_ordered_by_cadence_and_limb_work():
    gen = KeyframeGenerator(30)
    readings = [describe_clip(gen.clip(parse_motion(t), 60), 30) for t in SPEED_TEXTS]
    limb = [r.limb_speed for r in readings]
    assert limb == sorted(limb) and limb[0] < 0.05  # standing: only breathing
    assert [r.speed for r in readings] == pytest.approx([c.speed for c in SpeedClass])


def test_postures_are_labelled():
    gen = KeyframeGenerator(30)
    cases = (("crouches low", "crouch"), ("freezes", "freeze"), ("raises arms defensively", "defensive"),
             ("sighs with relief", "slump"), ("sprints forward in terror", "lean_forward"))
    for text, label in cases:
        assert frames(gen, parse_motion(text))[-1].posture == label
        assert label in POSTURES


def test_deterministic_per_seed():
    intent = parse_motion("walks left cautiously, glancing back")
    a = [f.joints for f in frames(KeyframeGenerator(30, seed=3), intent)]
    b = [f.joints for f in frames(KeyframeGenerator(30, seed=3), intent)]
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    gen = KeyframeGenerator(30, seed=3)
    assert np.array_equal(gen.clip(intent, 20), gen.clip(intent, 20))


def test_transitions_blend_smoothly():
    gen = KeyframeGenerator(30)
    standing = frames(gen, parse_motion("stands"), 10)[-1].joints
    out = np.array([standing] + [f.joints for f in frames(gen, parse_motion("crouches low"), 12)])
    steps = np.abs(np.diff(out, axis=0)).max(axis=(1, 2))
    total = np.abs(out[-1] - standing).max()
    assert total > 0.2 and steps.max() < total / 4  # no pops: the overlay blends in over 0.25 s


def test_back_steps_play_the_cycle_backwards():
    gen = KeyframeGenerator(30)
    intent = MotionIntent("back", math.pi, SpeedClass.WALK, frozenset({"backstep"}), face_travel=False)
    back = frames(gen, intent, 6)
    phases = [f.gait_phase for f in back]
    assert all((b - a) % 1.0 > 0.5 for a, b in itertools.pairwise(phases))


@pytest.mark.parametrize("text", AGREEMENT_TEXTS)
def test_both_generators_read_the_same_direction(text):
    intent = parse_motion(text)
    readings = {name: describe_clip(get_generator(name).clip(intent, 60), 30) for name in GENERATORS}
    procedural, keyframe = readings["procedural"], readings["keyframe"]
    assert procedural.direction == keyframe.direction == (intent.direction if intent.moving else None)
    assert math.cos(procedural.facing - keyframe.facing) > 0.95


def test_both_generators_order_speed_classes_alike():
    ranks = {}
    for name in GENERATORS:
        gen = get_generator(name)
        limb = [describe_clip(gen.clip(parse_motion(t), 60), 30).limb_speed for t in SPEED_TEXTS]
        ranks[name] = list(np.argsort(limb))
    assert ranks["procedural"] == ranks["keyframe"] == list(range(len(SPEED_TEXTS)))


def test_bad_input():
    with pytest.raises(ValueError, match="fps"):
        KeyframeGenerator(0)
    with pytest.raises(TypeError, match="MotionIntent"):
        KeyframeGenerator().set_intent("run")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n_frames"):
        KeyframeGenerator().clip(MotionIntent.still(), 0)
    assert KeyframeGenerator().next_frame(float("nan")).joints.shape == (22, 3)


def test_the_character_plays_the_keyframe_generator_by_name():
    from wmbench.body.registry import get_body
    from wmbench.envs.world import World

    world = World(frame_dt=1 / 30, physics_dt=1 / 240)
    try:
        body = get_body("smpl", generator="keyframe")
        body.spawn(world, (0.0, 0.0, 0.0), 0.0)
        body.apply_intent(parse_motion("crouches low"))
        for _ in range(15):
            body.on_frame()
        assert isinstance(body._generator, KeyframeGenerator) and body.state().posture == "crouch"
        with pytest.raises(KeyError, match="keyframe"):
            get_body("smpl", generator="mocap")
    finally:
        world.close()
