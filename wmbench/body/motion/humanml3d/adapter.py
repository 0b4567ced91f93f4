"""HumanML3DGenerator: the door for real text-to-motion models that emit HumanML3D-format frames.

Card
----
- **The model interface.** A :class:`TextToMotionModel` is any callable ``model(text, n_frames, seed)`` that
  returns an ``(n_frames, 263)`` array of HumanML3D features at :data:`HUMANML3D_FPS` (20 fps): MDM, T2M-GPT
  or FloodDiffusion wrapped by the user around a checkpoint they already have. ``seed`` is an ``int`` drawn
  from the generator's seeded stream; a model that samples must use it (same seed = same trace). wmbench
  ships no such model and downloads nothing.
- **Where the model comes from.** ``HumanML3DGenerator(fps, model=...)`` in code, or the registered name
  ``humanml3d`` (``--motion-model humanml3d``), which loads the model named by the environment variable
  :data:`MODEL_ENV`: ``"package.module:attr"`` or ``"/path/to/file.py:attr"``. ``attr`` is the callable model
  itself, or a class built with no arguments. A third-party package can instead register its own
  ``wmbench.motion_generators`` entry point whose class subclasses :class:`HumanML3DGenerator`.
- **263 -> 22 joints.** :func:`~wmbench.body.motion.humanml3d.features.features_to_joints` (the recovery of the root
  from its
  velocities and of the joints from ``ric``) for :meth:`HumanML3DGenerator.clip`; while streaming, the frames
  are root-local already: ``ric`` is the joints relative to the root's floor point in the root frame, which is
  what a :class:`~wmbench.body.motion.contract.MotionFrame` holds, and the pelvis gets ``root_height``.
- **20 fps -> the body's rate.** Frames are linearly interpolated at the body's frame times (30 fps by default).
- **Streaming.** A new intent asks the model for :attr:`HumanML3DGenerator.horizon_s` seconds of the MOTION
  text (``intent.source``; a held body or a text-less intent asks for :data:`STILL_TEXT`); when those frames
  run out it asks again with a fresh seed. Every new chunk is cross-faded from the pose last shown over
  :data:`BLEND_S` seconds, so a switch never jumps.
- **Labels.** ``posture`` from the intent's styles and the trunk lean; ``gait_phase`` from the fore-aft spread
  of the ankles (0 = left foot furthest ahead), as for the diffusion generator.

Simplifications: the model's own root velocity is used by :meth:`clip` only; while streaming the body owns its
root and speed (as with every generator); the model is not told the intent's speed class or heading beyond
what the MOTION text says.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.contract import MotionFrame
from wmbench.body.motion.humanml3d.features import LAYOUT, N_FEATURES, features_to_joints
from wmbench.body.motion.stream import StreamGenerator, posture_label
from wmbench.body.skeleton import DEFAULT_SKELETON, JOINT_NAMES, N_JOINTS, Skeleton
from wmbench.core.errors import ConfigError

#: Frame rate of HumanML3D features (and of every model trained on them).
HUMANML3D_FPS = 20.0
#: Environment variable naming the model the registered ``humanml3d`` generator loads.
MODEL_ENV = "WMBENCH_HUMANML3D_MODEL"
#: Text asked for when the intent has none or the body is held in place.
STILL_TEXT = "a person stands still"
#: Cross-fade (seconds) from the last pose shown into each new chunk.
BLEND_S = 0.2
#: Below this ground speed (m/s) a body whose intent moves is treated as held in place.
BLOCKED_SPEED = 0.25
_LEFT_ANKLE, _RIGHT_ANKLE = JOINT_NAMES.index("left_ankle"), JOINT_NAMES.index("right_ankle")
_SPINE3 = JOINT_NAMES.index("spine3")


@runtime_checkable
class TextToMotionModel(Protocol):
    """A text-to-motion model in HumanML3D format: ``(text, n_frames, seed) -> (n_frames, 263)`` at 20 fps."""

    def __call__(self, text: str, n_frames: int, seed: int) -> np.ndarray: ...


def load_model(spec: str) -> TextToMotionModel:
    """The model named by ``spec`` (``"package.module:attr"`` or ``"/path/file.py:attr"``); a class is built
    with no arguments. Raises :class:`~wmbench.core.errors.ConfigError` with what was expected."""
    module_name, sep, attr = spec.strip().rpartition(":")
    if not sep or not module_name or not attr:
        raise ConfigError(f"a HumanML3D model must be named 'package.module:attr' or '/path/file.py:attr', "
                          f"got {spec!r}")
    if module_name.endswith(".py"):
        path = Path(module_name)
        if not path.is_file():
            raise ConfigError(f"HumanML3D model file {str(path)!r} does not exist (from {spec!r})")
        loader_spec = importlib.util.spec_from_file_location(f"_wmbench_t2m_{path.stem}", path)
        if loader_spec is None or loader_spec.loader is None:
            raise ConfigError(f"cannot import {str(path)!r} as a Python module (from {spec!r})")
        module = importlib.util.module_from_spec(loader_spec)
        loader_spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise ConfigError(f"cannot import HumanML3D model module {module_name!r}: {exc}") from exc
    if not hasattr(module, attr):
        raise ConfigError(f"HumanML3D model module {module_name!r} has no attribute {attr!r}")
    target = getattr(module, attr)
    model = target() if isinstance(target, type) else target
    if not callable(model):
        raise ConfigError(f"HumanML3D model {spec!r} is not callable; expected model(text, n_frames, seed)")
    return model


def model_from_environment() -> TextToMotionModel:
    """The model :data:`MODEL_ENV` names; a clear error when it is unset."""
    spec = os.environ.get(MODEL_ENV, "").strip()
    if not spec:
        raise ConfigError(f"the humanml3d motion generator needs a model: set {MODEL_ENV} to "
                          f"'package.module:attr' or '/path/file.py:attr' (see docs/motion_models.md)")
    return load_model(spec)


def check_features(features: object, n_frames: int, text: str) -> np.ndarray:
    """A model's reply as a float ``(n_frames, 263)`` array, or a ConfigError saying what arrived."""
    arr = np.asarray(features, dtype=float)
    if arr.ndim != 2 or arr.shape[1] != N_FEATURES or arr.shape[0] < 1:
        raise ConfigError(f"a HumanML3D model must return (n_frames, {N_FEATURES}) features, got shape "
                          f"{arr.shape} for {text!r}")
    if not np.all(np.isfinite(arr)):
        raise ConfigError(f"the HumanML3D model returned NaN or infinite features for {text!r}")
    return arr[:n_frames]


def local_joints(features: np.ndarray) -> np.ndarray:
    """(T, 263) features -> (T, 22, 3) root-local joints (pelvis floor point at the origin, facing +z)."""
    n = len(features)
    joints = np.zeros((n, N_JOINTS, 3))
    joints[:, 1:] = features[:, LAYOUT.ric].reshape(n, N_JOINTS - 1, 3)
    joints[:, 0, 1] = features[:, LAYOUT.root_height][:, 0]
    return joints


def resample(frames: np.ndarray, source_fps: float, target_fps: float) -> np.ndarray:
    """(T, ...) frames at ``source_fps`` linearly interpolated at ``target_fps`` frame times over the same
    span (the last output frame is at or before the last input frame)."""
    n = len(frames)
    if n == 1 or source_fps == target_fps:
        return frames.copy()
    n_out = math.floor((n - 1) * target_fps / source_fps + 1e-9) + 1
    times = np.arange(n_out) * source_fps / target_fps
    flat = frames.reshape(n, -1)
    out = np.stack([np.interp(times, np.arange(n), flat[:, k]) for k in range(flat.shape[1])], axis=1)
    return out.reshape((n_out, *frames.shape[1:]))


class _Stream:
    """One running stream of model chunks (see the module card)."""

    def __init__(self, model: TextToMotionModel, seed: int, fps: float, horizon_s: float) -> None:
        self.model = model
        self.fps = fps
        self.n_model = max(2, round(horizon_s * HUMANML3D_FPS))
        self.rng = np.random.default_rng(seed)
        self.intent = MotionIntent.still()
        self.held = False
        self.pending: list[np.ndarray] = []
        self.last: np.ndarray | None = None
        self.last_ahead = 0.0
        self.phase = 0.0

    def text(self) -> str:
        if self.held or not self.intent.source.strip():
            return STILL_TEXT
        return self.intent.source.strip()

    def set_intent(self, intent: MotionIntent, immediate: bool = False) -> None:
        self.intent = intent
        self.pending = []

    def _refill(self) -> None:
        text = self.text()
        seed = int(self.rng.integers(0, 2**31 - 1))
        features = check_features(self.model(text, self.n_model, seed), self.n_model, text)
        frames = resample(local_joints(features), HUMANML3D_FPS, self.fps)
        if self.last is not None:  # cross-fade from the pose last shown
            n_blend = min(len(frames), max(1, round(BLEND_S * self.fps)))
            for i in range(n_blend):
                w = (i + 1) / (n_blend + 1)
                frames[i] = (1.0 - w) * self.last + w * frames[i]
        self.pending = list(frames)

    def step(self, speed: float) -> MotionFrame:
        held = self.intent.moving and speed < BLOCKED_SPEED
        if held != self.held:
            self.held, self.pending = held, []
        if not self.pending:
            self._refill()
        joints = self.pending.pop(0)
        self.last = joints
        ahead = float(joints[_LEFT_ANKLE, 2] - joints[_RIGHT_ANKLE, 2])
        self.phase = (math.atan2(ahead - self.last_ahead, ahead) / (2 * math.pi)) % 1.0
        self.last_ahead = ahead
        up = joints[_SPINE3] - joints[0]
        lean = math.atan2(up[2], max(up[1], 1e-6))
        out = joints.copy()
        out.setflags(write=False)
        return MotionFrame(out, self.phase, posture_label(self.intent.styles, lean))


class HumanML3DGenerator(StreamGenerator):
    """A HumanML3D-format text-to-motion model as a wmbench motion generator (see the module card).
    ``model`` defaults to the one :data:`MODEL_ENV` names; ``horizon_s`` is the length of each request."""

    name = "humanml3d"

    def __init__(self, fps: float = 30.0, skeleton: Skeleton = DEFAULT_SKELETON, seed: int = 0,
                 model: TextToMotionModel | None = None, horizon_s: float = 2.0) -> None:
        if not horizon_s > 0:
            raise ConfigError(f"horizon_s must be positive seconds, got {horizon_s!r}")
        self.model = model if model is not None else model_from_environment()
        self.horizon_s = float(horizon_s)
        super().__init__(fps, skeleton, seed)

    def _new_stream(self) -> _Stream:
        return _Stream(self.model, self._seed, self.fps, self.horizon_s)

    def clip(self, intent: MotionIntent, n_frames: int) -> np.ndarray:
        """Global frames of ``intent``: the model's own root motion (:func:`features_to_joints`) for the
        MOTION text, resampled to ``fps``; the model is asked for enough 20 fps frames to cover
        ``n_frames`` (held on its last frame if it returns fewer)."""
        if not isinstance(intent, MotionIntent):
            raise TypeError(f"clip expects a MotionIntent, got {type(intent).__name__}")
        if int(n_frames) != n_frames or n_frames < 1:
            raise ValueError(f"n_frames must be a positive integer, got {n_frames!r}")
        n_model = math.ceil((int(n_frames) - 1) * HUMANML3D_FPS / self.fps) + 1
        text = intent.source.strip() or STILL_TEXT
        seed = int(np.random.default_rng(self._seed).integers(0, 2**31 - 1))
        joints = features_to_joints(check_features(self.model(text, n_model, seed), n_model, text))
        out = resample(joints, HUMANML3D_FPS, self.fps)
        if len(out) < n_frames:
            out = np.concatenate((out, np.repeat(out[-1:], int(n_frames) - len(out), axis=0)))
        return out[: int(n_frames)]
