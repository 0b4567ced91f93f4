"""The motion-generator registry and a reading of what a generated clip does (for C10 S49).

``GENERATORS`` maps a name to ``"module:Class"`` (resolved lazily): ``procedural`` (the parametric gait),
``keyframe`` (authored key poses), ``diffusion`` (the learned text-to-motion model of
:mod:`wmbench.body.motion.diffusion`, numpy inference from shipped weights) and ``humanml3d`` (a user's
HumanML3D-format model, :mod:`wmbench.body.motion.humanml3d.adapter`). Third-party generators register
through the ``wmbench.motion_generators`` entry-point group (a class built as ``Class(fps, **kwargs)``)::

    [project.entry-points."wmbench.motion_generators"]
    mymodel = "my_pkg.motion:MyGenerator"

Bodies that animate the skeleton take a :data:`GeneratorFactory` (``fps -> generator``);
:func:`resolve_generator_factory` picks theirs from their two optional arguments, else the *selected*
generator: :func:`select_generator` (what ``--motion-model`` calls) stores the name in the environment
variable :data:`MOTION_MODEL_ENV`, so worker processes started by the run inherit it; unset means
``procedural``.

:func:`describe_clip` reads a clip the way an observer would — where the pelvis went relative to the initial
facing, how fast, and which way the body faces at the end (from the hip and shoulder lines) — so two
generators can be compared on the same MOTION text without trusting their internals.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from wmbench.body.motion.contract import MotionGenerator
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.skeleton import JOINT_NAMES
from wmbench.core.directions import sector_word
from wmbench.core.registry import Registry
from wmbench.core.thresholds import MOVED_DISTANCE_M

#: Generator name -> "module:Class".
GENERATORS: dict[str, str] = {
    "procedural": "wmbench.body.motion.procedural.generator:ProceduralGenerator",
    "keyframe": "wmbench.body.motion.keyframe.generator:KeyframeGenerator",
    "diffusion": "wmbench.body.motion.diffusion.generator:DiffusionGenerator",
    "humanml3d": "wmbench.body.motion.humanml3d.adapter:HumanML3DGenerator",
}
#: Entry-point group of third-party motion generators.
ENTRY_POINT_GROUP = "wmbench.motion_generators"
#: Every motion generator: the built-ins (lazy), then ``wmbench.motion_generators`` entry points.
GENERATOR_REGISTRY: Registry[Callable[..., MotionGenerator]] = Registry("motion generator", ENTRY_POINT_GROUP)
for _name, _target in GENERATORS.items():
    GENERATOR_REGISTRY.register_lazy(_name, _target)
#: Environment variable holding the selected generator's name (set by :func:`select_generator`).
MOTION_MODEL_ENV = "WMBENCH_MOTION_MODEL"
#: One line per built-in generator, for the leaderboard's ``motion_model`` field and the report.
DESCRIPTIONS: dict[str, str] = {
    "procedural": "wmbench procedural gait generator",
    "keyframe": "wmbench keyframe generator (authored key poses)",
    "diffusion": "wmbench diffusion text-to-motion model (MDM-style transformer, DDIM 4 steps, "
                 "trained on DeepMimic mocap + augmentation)",
    "humanml3d": "a HumanML3D-format (263-dim, 20 fps) text-to-motion model named by WMBENCH_HUMANML3D_MODEL",
}
#: ``fps -> generator``: what a body calls for a fresh generator each time it is placed.
GeneratorFactory = Callable[[int], MotionGenerator]


def available_generators() -> tuple[str, ...]:
    """Built-in names followed by the names registered through entry points (sorted)."""
    return GENERATOR_REGISTRY.names()


def generator_class(name: str) -> Callable[..., MotionGenerator]:
    """The class registered as ``name`` (built-in first, then the entry points); raises
    :class:`~wmbench.core.errors.UnknownNameError` or :class:`~wmbench.core.errors.PluginLoadError`."""
    return GENERATOR_REGISTRY.get(name)


def get_generator(name: str, fps: float = 30.0, **kwargs) -> MotionGenerator:
    """A fresh generator registered under ``name``."""
    return generator_class(name)(fps, **kwargs)


def selected_generator_name() -> str:
    """The generator bodies use by default: :data:`MOTION_MODEL_ENV`, else ``procedural``."""
    return (os.environ.get(MOTION_MODEL_ENV) or "procedural").strip().lower()


def select_generator(name: str) -> str:
    """Make ``name`` the default generator of this process and of the processes it starts (checked now: an
    unknown name or a generator that cannot be built raises here, not mid-run). Returns the name."""
    key = name.strip().lower()
    get_generator(key, 30.0)
    os.environ[MOTION_MODEL_ENV] = key
    return key


def selected_generator(fps: float, seed: int = 0) -> MotionGenerator:
    """A fresh instance of the selected generator, reset to ``seed``."""
    generator = get_generator(selected_generator_name(), fps)
    generator.reset(seed)
    return generator


def describe_generator(name: str | None = None) -> str:
    """One line naming the generator (the selected one by default) for the leaderboard and the report."""
    key = (name or selected_generator_name()).strip().lower()
    return f"{key}: {DESCRIPTIONS[key]}" if key in DESCRIPTIONS else f"{key}: motion-generator plugin"


def generator_factory(name: str) -> Callable[[int], MotionGenerator]:
    """``fps -> generator`` for bodies that build a generator per spawn (e.g. ``SmplCharacter``)."""
    get_generator(name, 30.0)  # fail now, not at spawn time
    return lambda fps: get_generator(name, fps)


def default_generator(fps: int) -> MotionGenerator:
    """The selected generator at ``fps`` (the default of every body; procedural unless selected)."""
    name = selected_generator_name()
    if name == "procedural":
        return ProceduralGenerator(fps)
    return get_generator(name, fps)


def resolve_generator_factory(factory: GeneratorFactory | None = None, name: str | None = None
                              ) -> GeneratorFactory:
    """A body's factory: ``factory`` if given, else the generator registered as ``name`` (such as
    ``"keyframe"``; an unknown name fails now), else :func:`default_generator`."""
    if name is not None:
        factory = factory or generator_factory(name)
    return factory or default_generator


@dataclass(frozen=True)
class ClipMotion:
    """What a clip does: the settled travel ``direction`` (fwd/left/right/back of the pelvis's displacement
    over the clip's second half, relative to the initial facing; None if it stays put), mean ``speed`` (m/s)
    of the pelvis's floor point, ``limb_speed`` (mean speed of ankles and wrists relative to the pelvis, m/s:
    how hard the limbs work) and the final ``facing`` (rad, 0 = initial facing, + = turned left)."""

    direction: str | None
    speed: float
    limb_speed: float
    facing: float


def describe_clip(clip: np.ndarray, fps: float) -> ClipMotion:
    """Read a ``(T, 22, 3)`` global motion-space clip (y up; the clip starts facing +z, left is +x)."""
    clip = np.asarray(clip, dtype=float)
    if clip.ndim != 3 or clip.shape[1:] != (len(JOINT_NAMES), 3) or clip.shape[0] < 2:
        raise ValueError(f"clip must have shape (T >= 2, 22, 3), got {clip.shape}")
    root = clip[:, 0, [0, 2]]                       # (x = left, z = forward) of the pelvis
    step = np.diff(root, axis=0)
    speed = float(np.linalg.norm(step, axis=1).sum() * fps / (len(clip) - 1))
    dx, dz = root[-1] - root[len(clip) // 2]
    direction = sector_word(math.atan2(dx, dz)) if math.hypot(dx, dz) >= MOVED_DISTANCE_M else None
    idx = {n: i for i, n in enumerate(JOINT_NAMES)}
    limbs = [idx[n] for n in ("left_ankle", "right_ankle", "left_wrist", "right_wrist")]
    relative = clip[:, limbs] - clip[:, :1]
    limb_speed = float(np.linalg.norm(np.diff(relative, axis=0), axis=-1).mean() * fps)
    last = clip[-1]
    across = (last[idx["left_hip"]] - last[idx["right_hip"]]
              + last[idx["left_shoulder"]] - last[idx["right_shoulder"]])
    # facing = up x across, with x = left and z = forward: a left-pointing across (+x) faces +z
    facing = math.atan2(-across[2], across[0])
    return ClipMotion(direction, speed, limb_speed, facing)
