"""DiffusionGenerator: the learned motion generator — streaming chunks from the shipped diffusion model.

Card
----
- **Model.** The denoiser trained by ``wmbench train-motion`` on DeepMimic mocap plus augmentation (see
  ``weights/DATA_CARD.md``), loaded from ``weights/denoiser.npz`` (or from the folder the environment
  variable :data:`WEIGHTS_ENV` names, e.g. a model you trained). Inference runs in numpy (``backend =
  "numpy"``, the default: no torch), through onnxruntime on ``weights/denoiser.onnx`` (``backend = "onnx"``;
  CUDA when onnxruntime lists it, else CPU) or in torch (``backend = "torch"``, CUDA when torch sees a GPU;
  needs the ``motion`` extra).
- **Streaming.** Frames come in chunks of ``CHUNK`` (16 = 0.53 s at 30 fps). Each chunk is sampled with
  :data:`~wmbench.body.motion.diffusion.train.SAMPLE_STEPS` DDIM steps from seeded noise, conditioned on the
  last ``CONTEXT`` frames shown (so it continues the motion), the intent vector and the MOTION text's words.
  A new intent discards the frames not yet shown: the next frame already comes from a chunk conditioned on
  it (the switch is immediate and blends through the context).
- **Candidate selection** (live stream, round 6; the default since round 7, see :data:`LIVE_CANDIDATES`). With
  ``candidates`` > 1 each chunk of the live stream is chosen among that many sampled together from the
  stream's seeded generator for the same context and intent: after DDIM step :data:`SELECT_STEP` only the
  one whose predicted clean chunk the contact critic (``contact_critic.critic_score``: how far feet near
  the floor slide over the body's ground track, plus a little of the joints' acceleration) scores best is
  denoised to the end. A general
  physical-plausibility check: no text or intent is named, and the model's own samples are chosen among,
  not changed. :meth:`DiffusionGenerator.clip` samples one chunk (``candidates`` is the live setting).
- **Conditioning while streaming.** The body owns the root: it turns to face its travel when the intent
  says so, so the relative heading is 0 then, else the intent's heading (a back-step). A body that is held
  in place (ground speed under :data:`BLOCKED_SPEED` while the intent moves, e.g. against a wall) is
  conditioned on standing still, so the legs stop instead of walking on the spot. A MOTION line with words
  the model never saw is read through the open-vocabulary text encoder (``text_encoder.model_text``): the
  words become those of the nearest motion the model knows.
- **Clip.** :meth:`DiffusionGenerator.clip` integrates the model's *own* root rotation and root velocity, so
  a clip's realised direction, speed and turn are the model's; each chunk is conditioned on the travel
  heading relative to the facing the model has reached (closed loop: a model that turns too little is
  still asked to turn).
- **Frame rate and playback rate.** The model runs at 30 fps; the live stream plays its frames at the rate
  that makes its planted feet keep pace with the body's ground speed (:class:`PlaybackWarp`, motion-matching
  style playback-rate warping, within [:data:`WARP_MIN`, :data:`WARP_MAX`]) and at the body's own frame
  rate, interpolating between model frames at the body's frame times (:meth:`clip` is resampled to the
  body's rate, not warped: there the model's own root moves the body).
- **Post-process** (``postprocess.py``): shown frames are low-passed, knees kept within their flexion
  limit, an upright kneel lifted to a crouch, and feet in contact pinned by two-bone leg IK: ``clip`` on its
  global frames after a partial root lock (``postprocess.lock_feet``, ``pin_feet``), the live stream
  causally on the ground track of the body's own speed along the intent's travel direction
  (``postprocess.LivePinner``), after the playback-rate warp has matched the stride to that speed; what the
  warp's clamped cadence cannot supply the pinner makes up by landing each swing further along the travel
  (stride lengthening, motion6).
- **Labels.** ``posture`` from the styles and the trunk lean (``stream_generator.posture_label``);
  ``gait_phase`` from the fore-aft spread of the ankles (0 = left foot furthest ahead).

Simplification: the model knows five speed classes, not the body's exact speed.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from wmbench.body.intent.record import MotionIntent
from wmbench.body.motion.contract import MotionFrame
from wmbench.body.motion.diffusion.blas_threads import single_blas_thread
from wmbench.body.motion.diffusion.contact_critic import critic_score, foot_positions
from wmbench.body.motion.diffusion.dataset import CHUNK, FRAME_DIM, MODEL_FPS, intent_vector, tokenize
from wmbench.body.motion.diffusion.denoiser_numpy import DenoiseFn, NumpyDenoiser, PruneFn, ddim_sample
from wmbench.body.motion.diffusion.onnx_backend import OnnxDenoiser
from wmbench.body.motion.diffusion.postprocess import (
    FrameSmoother,
    LivePinner,
    lift_kneel,
    limit_knees,
    lock_feet,
    pin_feet,
)
from wmbench.body.motion.diffusion.text_encoder import model_text
from wmbench.body.motion.stream import StreamGenerator, posture_label
from wmbench.body.skeleton import (
    DEFAULT_SKELETON,
    FOOT_CONTACT_HEIGHT,
    FOOT_CONTACT_JOINTS,
    JOINT_NAMES,
    N_JOINTS,
    Skeleton,
)
from wmbench.core.errors import ConfigError

#: The shipped model.
WEIGHTS_DIR = Path(__file__).parent / "weights"
#: Environment variable naming another weights folder (one written by ``wmbench train-motion``).
WEIGHTS_ENV = "WMBENCH_DIFFUSION_WEIGHTS"
#: Below this ground speed (m/s) a body whose intent moves is treated as held in place.
BLOCKED_SPEED = 0.25
_LEFT_ANKLE, _RIGHT_ANKLE = JOINT_NAMES.index("left_ankle"), JOINT_NAMES.index("right_ankle")
_SPINE3, _PELVIS = JOINT_NAMES.index("spine3"), 0


class MotionModel:
    """The shipped (or another trained) model: weights, normalisation, schedule and vocabulary from
    ``weights_dir``; ``backend`` "numpy" or "onnx"."""

    def __init__(self, weights_dir: Path = WEIGHTS_DIR, backend: str = "numpy") -> None:
        weights_dir = Path(weights_dir)
        npz = weights_dir / "denoiser.npz"
        if not npz.is_file():
            raise FileNotFoundError(f"no diffusion motion model at {npz}; train one with `wmbench train-motion`")
        data, meta = _read_weights(weights_dir)
        self.config = meta["denoiser"]
        self.vocabulary: dict[str, int] = meta["vocabulary"]
        self.known_words = frozenset(self.vocabulary)
        self.mean, self.std = data["mean"], data["std"]
        self.rest_context = data["rest_context"]
        self.timesteps, self.alphas_cumprod = data["timesteps"], data["alphas_cumprod"]
        self.final_alpha_cumprod = float(data["final_alpha_cumprod"])
        check_onnx_file(weights_dir / "denoiser.onnx")  # a broken export is reported, whatever the backend
        self.backend = backend
        self.providers: list[str] = []
        if backend == "numpy":
            self.denoise: DenoiseFn = NumpyDenoiser(
                {k[2:]: data[k] for k in data if k.startswith("w/")}, self.config)
        elif backend == "torch":
            from wmbench.body.motion.diffusion.denoiser_torch import TorchDenoiser

            torch_model = TorchDenoiser({k[2:]: data[k] for k in data if k.startswith("w/")}, self.config)
            self.providers = [str(torch_model.device)]
            self.denoise = torch_model
        elif backend == "onnx":
            onnx_model = OnnxDenoiser(weights_dir / "denoiser.onnx")
            self.providers = onnx_model.providers
            self.denoise = onnx_model
        else:
            raise ValueError(f"backend must be 'numpy', 'onnx' or 'torch', got {backend!r}")

    def sample_chunk(self, context: np.ndarray, cond: np.ndarray, tokens: np.ndarray, noise: np.ndarray
                     ) -> np.ndarray:
        """(CHUNK, D) normalised frames continuing ``context`` (CONTEXT, D) under ``cond`` and ``tokens``."""
        return self.sample_candidates(context, cond, tokens, noise[None])[0]

    def sample_candidates(self, context: np.ndarray, cond: np.ndarray, tokens: np.ndarray, noise: np.ndarray,
                          prune: PruneFn | None = None) -> np.ndarray:
        """(B', CHUNK, D) normalised candidate chunks, one per row of ``noise`` (B, CHUNK, D) that ``prune``
        keeps (``denoiser_numpy.ddim_sample``), all continuing ``context`` under ``cond`` and ``tokens``,
        sampled together. A row equals :meth:`sample_chunk` of its own noise up to float rounding."""
        b = len(noise)
        args = (self.denoise, np.asarray(noise, dtype=np.float32), np.repeat(context[None], b, 0).astype(np.float32),
                np.repeat(cond[None], b, 0), np.repeat(tokens[None], b, 0), self.timesteps, self.alphas_cumprod,
                self.final_alpha_cumprod, prune)
        if self.backend == "numpy":
            with single_blas_thread():
                return ddim_sample(*args)
        return ddim_sample(*args)

    def denormalise(self, frames: np.ndarray) -> np.ndarray:
        return frames * self.std + self.mean


class MotionWeightsError(ConfigError):
    """A diffusion weights folder whose files cannot be read; the message names the file and the fix."""


#: Arrays ``denoiser.npz`` must hold (besides the ``w/...`` weights).
NPZ_ARRAYS = ("mean", "std", "rest_context", "timesteps", "alphas_cumprod", "final_alpha_cumprod")


def _read_weights(folder: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays of ``denoiser.npz`` and the parsed ``config.json`` of ``folder``; MotionWeightsError (one
    line: which file, what is wrong, how to get a good one) for a truncated, garbage or incomplete file."""
    retrain = "retrain with `wmbench train-motion`, or unset WMBENCH_DIFFUSION_WEIGHTS for the shipped model"
    npz = folder / "denoiser.npz"
    try:
        with np.load(npz) as archive:
            data = {name: archive[name] for name in archive.files}
    except Exception as err:  # np.load on damaged bytes: BadZipFile, ValueError, OSError, EOFError, ...
        raise MotionWeightsError(f"{npz} is not a readable weights file ({type(err).__name__}: {err}); "
                                 f"{retrain}") from None
    missing = [name for name in NPZ_ARRAYS if name not in data]
    if missing:
        raise MotionWeightsError(f"{npz} lacks the arrays {', '.join(missing)}; {retrain}")
    config = folder / "config.json"
    try:
        meta = json.loads(config.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MotionWeightsError(f"no config.json beside {npz}; expected the config.json that "
                                 f"`wmbench train-motion` writes with the weights; {retrain}") from None
    except (OSError, ValueError) as err:
        raise MotionWeightsError(f"{config} is not readable JSON ({type(err).__name__}: {err}); {retrain}"
                                 ) from None
    if not isinstance(meta, dict) or not isinstance(meta.get("denoiser"), dict) \
            or not isinstance(meta.get("vocabulary"), dict):
        raise MotionWeightsError(f"{config} lacks the 'denoiser' and 'vocabulary' objects; {retrain}")
    return data, meta


def check_onnx_file(path: Path) -> None:
    """MotionWeightsError when ``path`` exists but cannot be an ONNX model. Simplified: a cheap check of the
    protobuf's first field (an ONNX ModelProto starts with ``ir_version``, tag byte 0x08), not a parse; the
    ``onnx`` backend parses it for real (and reports a failure the same way)."""
    if not path.is_file():
        return
    with open(path, "rb") as f:
        head = f.read(1)
    if head != b"\x08":
        raise MotionWeightsError(f"{path} is not an ONNX model (starts with {head!r}, expected the ir_version "
                                 "field 0x08); re-export with `wmbench train-motion`, or delete it")


def shipped_model(backend: str = "numpy") -> MotionModel:
    """The model the generator uses: the folder in :data:`WEIGHTS_ENV` if set, else the shipped one (loaded
    once per folder and backend)."""
    return _load_model(os.environ.get(WEIGHTS_ENV) or str(WEIGHTS_DIR), backend)


@lru_cache(maxsize=4)
def _load_model(folder: str, backend: str) -> MotionModel:
    return MotionModel(Path(folder), backend)


def frame_to_joints(frame: np.ndarray, pin: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """A (FRAME_DIM,) frame vector -> (22, 3) root-local joints (pelvis floor point at the origin, facing +z),
    knees within their limits (``postprocess.limit_knees``), feet pinned by ``pin`` when given (the live
    stream's ``LivePinner``), then a kneel lifted to a crouch (``postprocess.lift_kneel``; after the pin, so a
    pinned foot cannot pull a knee back down to the floor)."""
    joints = np.empty((N_JOINTS, 3))
    joints[0] = (0.0, frame[3], 0.0)
    joints[1:] = frame[4:FRAME_DIM].reshape(N_JOINTS - 1, 3)
    joints = limit_knees(joints)
    return lift_kneel(pin(joints) if pin is not None else joints)


def _trunk_lean(joints: np.ndarray) -> float:
    up = joints[_SPINE3] - joints[_PELVIS]
    return math.atan2(up[2], max(up[1], 1e-6))


#: Bounds of the live stream's playback rate (model frames per body frame, relative to the frame-rate ratio).
WARP_MIN, WARP_MAX = 0.7, 1.6
#: Planted-foot samples (foot joints x model frames) the model's stride speed is averaged over, and the fewest
#: that give an estimate (until then the rate stays where it is).
WARP_SAMPLES, WARP_MIN_SAMPLES = 24, 6
#: Weight of the target in the per-frame approach of the playback rate to it.
WARP_FOLLOW = 0.1
#: Model frames over which a foot joint's lowest height is its floor (as the live pinner's second).
WARP_FLOOR_FRAMES = 30


class PlaybackWarp:
    """Playback-rate warping of the live stream (classic motion-matching rate warping).

    The body owns the root and moves it at its own ground speed; the model's feet step at the model's own
    pace. While a foot is planted it must slide backwards under the root exactly as fast as the root moves,
    so the stream plays the model's frames ``rate`` times as fast as recorded, with
    ``rate = body speed / model's planted-foot speed`` (clamped to [:data:`WARP_MIN`, :data:`WARP_MAX`] and
    approached at :data:`WARP_FOLLOW` per frame, so the cadence never jumps). The model's planted-foot speed
    is the mean over the last :data:`WARP_SAMPLES` samples of how fast its low foot joints (within
    ``FOOT_CONTACT_HEIGHT`` of their lowest height over the last :data:`WARP_FLOOR_FRAMES` model frames, in
    two consecutive raw model frames) move against the travel direction (m/s at the model's 30 fps). A new
    intent (:meth:`restart`) forgets the samples: another gait has another stride. A stride too short for the
    body's speed is played faster (more steps per second), one too long slower; what is left after the clamp
    is for the foot pinner. Standing (speed 0) plays at the recorded rate.
    The part of the body's speed the clamped rate cannot supply (``body speed - stride speed x rate``) goes
    to the live pinner, which lengthens the stride by it (``postprocess.LivePinner``). Simplified: the rate
    follows the speed along the intent's travel direction only (the body's turning is not known here)."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self.current = 1.0
        self.heights: list[np.ndarray] = []
        self.last: np.ndarray | None = None
        self.last_low = np.zeros(len(FOOT_CONTACT_JOINTS), dtype=bool)

    def restart(self) -> None:
        """Forget the stride samples (a new intent); the rate and the floor heights carry on."""
        self.samples = []

    @property
    def stride_speed(self) -> float | None:
        """The model's planted-foot speed against the travel (m/s), or None before enough samples."""
        return float(np.mean(self.samples)) if len(self.samples) >= WARP_MIN_SAMPLES else None

    def observe(self, raw: np.ndarray, direction: tuple[float, float]) -> None:
        """Take one raw (denormalised) model frame into the estimate; ``direction`` is the travel direction
        (x, z) in the root frame."""
        feet = raw[4:FRAME_DIM].reshape(N_JOINTS - 1, 3)[[j - 1 for j in FOOT_CONTACT_JOINTS]]
        self.heights = [*self.heights[max(0, len(self.heights) + 1 - WARP_FLOOR_FRAMES):], feet[:, 1]]
        low = feet[:, 1] < np.min(self.heights, axis=0) + FOOT_CONTACT_HEIGHT
        if self.last is not None:
            both = low & self.last_low
            if both.any():
                step = (self.last[:, [0, 2]] - feet[:, [0, 2]]) @ np.asarray(direction) * MODEL_FPS
                self.samples = [*self.samples, *step[both].tolist()][-WARP_SAMPLES:]
        self.last, self.last_low = feet, low

    def rate(self, speed: float) -> float:
        """The playback rate for this frame at the body's ``speed`` (m/s; 0 while standing or held)."""
        target = self.current
        stride = self.stride_speed
        if speed <= 0.0:
            target = 1.0
        elif stride is not None:
            target = min(max(speed / stride if stride > 1e-3 else WARP_MAX, WARP_MIN), WARP_MAX)
        self.current += WARP_FOLLOW * (target - self.current)
        return self.current


def catmull_rom(p0: np.ndarray, p1: np.ndarray, p2: np.ndarray, p3: np.ndarray, t: float) -> np.ndarray:
    """The uniform Catmull-Rom spline through ``p1`` (t = 0) and ``p2`` (t = 1), shaped by ``p0`` and ``p3``:
    a frame between two model frames whose velocity is continuous across them. The live stream uses it when
    the body's frame rate is above the model's (linear interpolation kinks the velocity at every model frame:
    at 60 fps the loop's jerk was 695 m/s^3 with it, 457 with this spline; procedural 412). At 30 fps and below
    the stream interpolates linearly between the newest two frames: there the spline measured 240 against 227
    (procedural 230) and would add a model frame of latency."""
    t2, t3 = t * t, t * t * t
    return 0.5 * ((2.0 * p1) + (p2 - p0) * t + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2
                  + (3.0 * p1 - p0 - 3.0 * p2 + p3) * t3)


#: Candidate chunks the live stream samples per chunk by default. Round 6 chose among 8 with the feet alone
#: and kept it opt-in: over 8 seeds of the robot tests' mixed sequence a servo overshot its limit by up to
#: 0.047 rad (tolerance 0.02). With the critic's smoothness term (round 7) the largest is 0.017 and the
#: character's loop skating 0.233 -> 0.213 (docs "Round 7"); ``DiffusionGenerator(candidates=1)`` samples one.
LIVE_CANDIDATES = 8
#: After this DDIM step (0-based, of 4) only the candidate the contact critic scores best goes on.
SELECT_STEP = 1


class _Stream:
    """One running stream of chunks (see the module card)."""

    def __init__(self, model: MotionModel, seed: int, fps: float = MODEL_FPS, candidates: int = 1) -> None:
        self.model = model
        self.rate = MODEL_FPS / fps
        self.tau = 1.0
        #: the last four model frames (None until the first step); the body's frame time falls between the
        #: middle two (Catmull-Rom, bodies faster than 30 fps) or the last two (linear, 30 fps and below)
        self.span: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self.rng = np.random.default_rng(seed)
        self.history = np.array(model.rest_context, dtype=np.float32)
        self.smoother = FrameSmoother()
        self.pinner = LivePinner(fps)
        self.fps = fps
        self.pending: list[np.ndarray] = []
        self.intent = MotionIntent.still()
        self.held = False
        self.last_ahead = 0.0
        self.phase = 0.0
        self.warp = PlaybackWarp()
        #: the body's ground speed along the travel this frame (0 while standing or held), for the critic
        self.ground = 0.0
        self.candidates = max(1, int(candidates))

    def set_intent(self, intent: MotionIntent, immediate: bool = False) -> None:
        self.intent = intent
        self.pending = []
        self.warp.restart()

    def _condition(self, relative_heading: float) -> tuple[np.ndarray, np.ndarray]:
        intent = self.intent
        if self.held and intent.moving:
            intent = MotionIntent.still(intent.source, intent.styles)
        text = model_text(intent.source, self.model.known_words)
        return intent_vector(intent, relative_heading), tokenize(text, self.model.vocabulary)

    def next_raw(self, relative_heading: float) -> np.ndarray:
        """The next frame vector (denormalised, low-passed: ``postprocess.FrameSmoother``), sampling a new chunk
        when none is pending; the model's context keeps the raw sample."""
        if not self.pending:
            cond, tokens = self._condition(relative_heading)
            direction = (math.sin(relative_heading), math.cos(relative_heading))
            self.pending = list(self._sample(cond, tokens, direction))
            for sample in self.pending:  # the playback rate reads the stride of the frames about to be shown
                self.warp.observe(self.model.denormalise(sample), direction)
        frame = self.pending.pop(0)
        self.history = np.concatenate((self.history[1:], frame[None]))
        return self.smoother(self.model.denormalise(frame))

    def _sample(self, cond: np.ndarray, tokens: np.ndarray, direction: tuple[float, float]) -> np.ndarray:
        """The next chunk (CHUNK, D), normalised: one sample from seeded noise, or, with ``candidates`` > 1 (the
        live stream), the contact critic's choice among that many (see the module card)."""
        model = self.model
        if self.candidates == 1:
            noise = self.rng.standard_normal((CHUNK, FRAME_DIM)).astype(np.float32)
            return model.sample_chunk(self.history, cond, tokens, noise)
        noise = self.rng.standard_normal((self.candidates, CHUNK, FRAME_DIM)).astype(np.float32)
        previous = model.denormalise(self.history[-1])
        floor = (np.min(self.warp.heights, axis=0) if self.warp.heights
                 else foot_positions(model.denormalise(self.history))[..., 1].min(axis=0))
        # the body's travel per model frame, in the root frame: what a planted foot slides back by
        ground_step = np.asarray(direction) * self.ground / (MODEL_FPS * self.warp.current)

        def keep_best(step: int, clean: np.ndarray) -> np.ndarray | None:
            if step != SELECT_STEP:
                return None
            return np.argsort(critic_score(model.denormalise(clean), previous, floor, ground_step),
                              kind="stable")[:1]

        return model.sample_candidates(self.history, cond, tokens, noise, keep_best)[0]

    def step(self, speed: float) -> MotionFrame:
        held = self.intent.moving and speed < BLOCKED_SPEED
        if held != self.held:
            self.held, self.pending = held, []
            self.warp.restart()
        heading = 0.0 if self.intent.face_travel else self.intent.heading
        # the root's travel over this frame, in its own frame (+x left, +z ahead), for the live foot pinner
        direction = (math.sin(heading), math.cos(heading))
        travel = (speed / self.fps * direction[0], speed / self.fps * direction[1])
        # the model's frames are played at the rate that makes its planted feet keep pace with the body's
        # ground speed (``PlaybackWarp``), and interpolated at the body's frame times
        if self.span is None:
            first = self.next_raw(heading)
            self.span = (first, first, first, first)
        ground = speed if self.intent.moving and not self.held else 0.0
        self.ground = ground
        rate = self.warp.rate(ground)
        self.tau += self.rate * rate
        # what the cadence could not supply, a longer stride does (``postprocess.LivePinner``)
        stride = self.warp.stride_speed
        shortfall = 0.0 if stride is None or ground <= 0.0 else max(0.0, ground - stride * rate)
        while self.tau >= 1.0:
            self.span = (*self.span[1:], self.next_raw(heading))
            self.tau -= 1.0
        if self.rate < 1.0:   # the body's frames are denser than the model's: a smooth interpolant
            return self.to_frame(catmull_rom(*self.span, self.tau), travel, shortfall)
        before, after = self.span[2:]
        return self.to_frame(before + (after - before) * self.tau, travel, shortfall)

    def to_frame(self, raw: np.ndarray, travel: tuple[float, float], shortfall: float = 0.0) -> MotionFrame:
        joints = frame_to_joints(raw, lambda pose: self.pinner(pose, travel, shortfall))
        ahead = float(joints[_LEFT_ANKLE, 2] - joints[_RIGHT_ANKLE, 2])
        self.phase = (math.atan2(ahead - self.last_ahead, ahead) / (2 * math.pi)) % 1.0
        self.last_ahead = ahead
        joints.setflags(write=False)
        return MotionFrame(joints, self.phase, posture_label(self.intent.styles, _trunk_lean(joints)))


class DiffusionGenerator(StreamGenerator):
    """The learned motion generator (see the module card). Implements ``MotionGenerator`` around a stream of
    sampled chunks; ``clip`` lets the root move by the model's own velocity. ``candidates``: chunks the live
    stream samples per chunk for the contact critic to choose among (default :data:`LIVE_CANDIDATES`)."""

    name = "diffusion"

    def __init__(self, fps: float = 30.0, skeleton: Skeleton = DEFAULT_SKELETON, seed: int = 0,
                 backend: str = "numpy", model: MotionModel | None = None,
                 candidates: int | None = None) -> None:
        candidates = LIVE_CANDIDATES if candidates is None else candidates
        if isinstance(candidates, bool) or int(candidates) != candidates or candidates < 1:
            raise ValueError(f"candidates must be a positive integer, got {candidates!r}")
        self.model = model or shipped_model(backend)
        self.candidates = int(candidates)
        super().__init__(fps, skeleton, seed)

    def _new_stream(self) -> _Stream:
        return _Stream(self.model, self._seed, self.fps, self.candidates)

    def clip(self, intent: MotionIntent, n_frames: int) -> np.ndarray:
        """Global frames of ``intent`` from a standing start; the root moves by the model's own velocity
        (see the module card)."""
        if not isinstance(intent, MotionIntent):
            raise TypeError(f"clip expects a MotionIntent, got {type(intent).__name__}")
        if int(n_frames) != n_frames or n_frames < 1:
            raise ValueError(f"n_frames must be a positive integer, got {n_frames!r}")
        n_model = math.ceil((int(n_frames) - 1) * MODEL_FPS / self.fps) + 1
        stream = _Stream(self.model, self._seed)
        stream.set_intent(intent)
        travel = intent.heading if intent.moving else 0.0
        facing, root_x, root_z = 0.0, 0.0, 0.0
        out = np.empty((n_model, N_JOINTS, 3))
        for i in range(n_model):
            raw = stream.next_raw(travel - facing)
            local = frame_to_joints(raw)
            c, s = math.cos(facing), math.sin(facing)
            out[i, :, 0] = c * local[:, 0] + s * local[:, 2] + root_x
            out[i, :, 1] = local[:, 1]
            out[i, :, 2] = c * local[:, 2] - s * local[:, 0] + root_z
            facing -= 2.0 * float(raw[0])  # the model's root rotation (HumanML3D stores minus half the turn)
            vx, vz = float(raw[1]), float(raw[2])  # root step in the (next) root frame
            c, s = math.cos(facing), math.sin(facing)
            root_x += c * vx + s * vz
            root_z += c * vz - s * vx
        out = pin_feet(lock_feet(out), MODEL_FPS)
        if self.fps == MODEL_FPS:
            return out
        times = np.arange(int(n_frames)) * MODEL_FPS / self.fps
        flat = out.reshape(n_model, -1)
        return np.stack([np.interp(times, np.arange(n_model), flat[:, k]) for k in range(flat.shape[1])],
                        axis=1).reshape(int(n_frames), N_JOINTS, 3)

