"""Motion-quality metrics of a motion generator: intent fidelity, foot skating, jerk, distance to mocap.

Card
----
Every metric reads the *global* clips a generator renders with ``clip(intent, n)`` (y up, 30 fps):

- **Intent fidelity** (:func:`intent_fidelity`): over :data:`FIDELITY_TEXTS` (speed classes x directions,
  a back-step, standing), the fraction of clips whose realised travel sector (``describe_clip``) and speed
  class (nearest class speed) both match the intent the text parses to. For ``procedural`` and ``keyframe``
  the clip's root path is prescribed by the generator from the intent, so their fidelity is by construction;
  a learned generator's root motion is its own.
- **Foot skating** (:func:`foot_skating`): mean horizontal speed (m/s) of the foot joints while they are
  planted (within ``FOOT_CONTACT_HEIGHT`` of the floor), over the fidelity clips. Lower is better.
- **Jerk** (:func:`jerk`): mean magnitude of the third time-derivative of all joint positions (m/s^3), over
  the fidelity clips. Lower is smoother.
- **Foot skating in the loop** (:func:`loop_foot_skating`): the same measure on what the body shows while
  streaming — ``next_frame(speed)``'s root-local frames placed on a root that travels along the intent's
  direction at its class speed (ramped up over 0.5 s, as the body's root controller does; the first second
  is skipped). ``clip`` lets a learned model move its own root; in the loop the body owns it, so this is the
  sliding a viewer sees. Simplified: no turning (every text keeps one direction).
- **Distance to mocap** (:func:`frechet_distance`): a small FID-like statistic, stated as such — the Fréchet
  distance between Gaussians fitted to per-frame pose features (root-local joints plus their velocities,
  projected on the top :data:`PCA_COMPONENTS` principal components of the mocap frames) of a generator's
  clip and of a DeepMimic clip of the same speed class. No learned feature network (unlike FID): it compares
  pose-and-velocity statistics only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from wmbench.body.envelope import classify_speed
from wmbench.body.intent.reader import parse_motion
from wmbench.body.motion.contract import MotionGenerator
from wmbench.body.motion.diffusion.corpus import CAPTIONS, CLIP_KINDS, HELD_OUT_KINDS
from wmbench.body.motion.diffusion.deepmimic import load_clip
from wmbench.body.motion.humanml3d.features import LAYOUT, joints_to_features
from wmbench.body.motion.registry import describe_clip
from wmbench.body.skeleton import FOOT_CONTACT_HEIGHT, FOOT_CONTACT_JOINTS
from wmbench.core.speed import SPEED_CLASS_SPEEDS

#: MOTION texts the fidelity, skating and jerk metrics render (3 s each).
FIDELITY_TEXTS: tuple[str, ...] = (
    "a person walks forward", "a person walks to the left", "a person walks to the right",
    "a person jogs forward", "a person jogs to the left", "a person runs forward", "a person runs to the right",
    "a person sprints forward in terror", "a person sprints to the left in terror",
    "a person steps back defensively, arms raised", "a person backs away slowly", "a person stands still",
)
#: Principal components of the distance's feature space.
PCA_COMPONENTS = 8
#: Seconds per rendered clip.
CLIP_SECONDS = 3.0


@dataclass(frozen=True)
class MotionQuality:
    """One generator's numbers (see the module card)."""

    generator: str
    intent_fidelity: float
    direction_accuracy: float
    speed_accuracy: float
    foot_skating: float
    jerk: float
    distance_walk: float
    distance_run: float

    def to_dict(self) -> dict:
        return asdict(self)


def foot_skating(clip: np.ndarray, fps: float) -> float:
    """Mean horizontal speed (m/s) of planted foot joints in a global (T, 22, 3) clip."""
    feet = clip[:, list(FOOT_CONTACT_JOINTS)]
    planted = feet[:-1, :, 1] < feet[..., 1].min(axis=0) + FOOT_CONTACT_HEIGHT
    speed = np.linalg.norm(np.diff(feet[..., [0, 2]], axis=0), axis=-1) * fps
    return float(speed[planted].mean()) if planted.any() else 0.0


def jerk(clip: np.ndarray, fps: float) -> float:
    """Mean |d^3 x / dt^3| (m/s^3) over joints and frames of a (T, 22, 3) clip."""
    if len(clip) < 4:
        return 0.0
    return float(np.linalg.norm(np.diff(clip, n=3, axis=0), axis=-1).mean() * fps ** 3)


def pose_features(clip: np.ndarray, fps: float) -> np.ndarray:
    """(T - 1, 130) per-frame features: root height, root-local joints (ric) and local joint velocities
    (m/s)."""
    f = joints_to_features(clip, fps=fps)
    return np.concatenate((f[:, LAYOUT.root_height], f[:, LAYOUT.ric], f[:, LAYOUT.local_velocity] * fps), axis=1)


def frechet_distance(a: np.ndarray, b: np.ndarray, basis: np.ndarray, centre: np.ndarray) -> float:
    """Fréchet distance between Gaussians of feature rows ``a`` and ``b`` projected on ``basis`` (k, F)."""
    pa, pb = (a - centre) @ basis.T, (b - centre) @ basis.T
    ma, mb = pa.mean(0), pb.mean(0)
    ca, cb = np.cov(pa, rowvar=False), np.cov(pb, rowvar=False)
    eig = np.linalg.eigvals(ca @ cb)
    cross = np.sqrt(np.clip(eig.real, 0.0, None)).sum()
    return float(np.sum((ma - mb) ** 2) + np.trace(ca) + np.trace(cb) - 2.0 * cross)


def mocap_reference(fps: float = 30.0) -> dict[str, np.ndarray]:
    """Per-frame features of the DeepMimic walk (trained on by the diffusion model) and run (held out)
    cycles, each tiled to about 4 s."""
    return {"walk": pose_features(load_clip("walk", fps, cycles=3).joints, fps),
            "run": pose_features(load_clip("run", fps, cycles=5).joints, fps)}


def _basis(reference: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    pooled = np.concatenate(list(reference.values()))
    centre = pooled.mean(0)
    _, _, vt = np.linalg.svd(pooled - centre, full_matrices=False)
    return vt[:PCA_COMPONENTS], centre


def intent_fidelity(clips: Sequence[np.ndarray], texts: Sequence[str], fps: float) -> tuple[float, float, float]:
    """(both, direction, speed) match fractions of ``clips`` rendered from ``texts``."""
    direction_ok, speed_ok = [], []
    for clip, text in zip(clips, texts):
        intent = parse_motion(text)
        reading = describe_clip(clip, fps)
        want_direction = intent.direction if intent.moving else None
        direction_ok.append(reading.direction == want_direction)
        speed_ok.append(classify_speed(reading.speed, SPEED_CLASS_SPEEDS) == intent.speed_class.value)
    both = [d and s for d, s in zip(direction_ok, speed_ok)]
    return float(np.mean(both)), float(np.mean(direction_ok)), float(np.mean(speed_ok))


def measure_generator(generator: MotionGenerator, reference: dict[str, np.ndarray] | None = None,
                      seed: int = 0) -> MotionQuality:
    """All metrics of ``generator`` (reset to ``seed``; ``reference`` from :func:`mocap_reference`)."""
    fps = generator.fps
    reference = reference or mocap_reference(fps)
    basis, centre = _basis(reference)
    n = int(CLIP_SECONDS * fps)
    generator.reset(seed)
    clips = [generator.clip(parse_motion(text), n) for text in FIDELITY_TEXTS]
    both, direction, speed = intent_fidelity(clips, FIDELITY_TEXTS, fps)
    walk = pose_features(generator.clip(parse_motion("a person walks forward"), 4 * int(fps)), fps)
    run = pose_features(generator.clip(parse_motion("a person jogs forward"), 4 * int(fps)), fps)
    return MotionQuality(
        generator=str(getattr(generator, "name", type(generator).__name__)), intent_fidelity=both,
        direction_accuracy=direction, speed_accuracy=speed,
        foot_skating=float(np.mean([foot_skating(c, fps) for c in clips])),
        jerk=float(np.mean([jerk(c, fps) for c in clips])),
        distance_walk=frechet_distance(walk, reference["walk"], basis, centre),
        distance_run=frechet_distance(run, reference["run"], basis, centre))


def held_out_distances(generator: MotionGenerator, seed: int = 0) -> dict[str, float]:
    """Fréchet distance (same features as :func:`frechet_distance`) per held-out motion kind of the DeepMimic
    corpus (``corpus.HELD_OUT_KINDS``: clips no shipped model trained on): the generator's 4 s clip of the
    kind's canonical caption (parsed as a MOTION line) against every frame of that kind's clips; the PCA basis
    is fitted on the walk, run and held-out frames together. A generator that cannot do the kind renders
    what the caption parses to (often standing), and the distance says how far that is from the real motion."""
    fps = generator.fps
    reference = {kind: np.concatenate([pose_features(load_clip(name, fps).joints, fps)
                                       for name, k in CLIP_KINDS.items() if k == kind])
                 for kind in sorted(HELD_OUT_KINDS)}
    basis, centre = _basis({**mocap_reference(fps), **reference})
    out: dict[str, float] = {}
    for kind, frames in reference.items():
        first = next(name for name, k in CLIP_KINDS.items() if k == kind)
        generator.reset(seed)
        clip = generator.clip(parse_motion(CAPTIONS[first][0]), 4 * int(fps))
        out[kind] = frechet_distance(pose_features(clip, fps), frames, basis, centre)
    return out


def stream_clip(generator: MotionGenerator, text: str, n_frames: int, seed: int = 0) -> np.ndarray:
    """(n_frames, 22, 3) frames ``generator`` streams for ``text`` (``reset(seed)``, ``set_intent``,
    ``next_frame(speed)``), placed on a root travelling as the body's would (see the module card)."""
    fps = generator.fps
    intent = parse_motion(text)
    generator.reset(seed)
    generator.set_intent(intent)
    target = SPEED_CLASS_SPEEDS[intent.speed_class.value] if intent.moving else 0.0
    heading = 0.0 if intent.face_travel else intent.heading
    out = np.empty((n_frames, 22, 3))
    x = z = speed = 0.0
    for i in range(n_frames):
        speed = min(target, speed + target / (0.5 * fps))
        frame = np.array(generator.next_frame(speed).joints, dtype=float)
        frame[:, 0] += x
        frame[:, 2] += z
        out[i] = frame
        x += math.sin(heading) * speed / fps
        z += math.cos(heading) * speed / fps
    return out


def loop_foot_skating(generator: MotionGenerator, seed: int = 0) -> float:
    """Mean foot skating (m/s) of :func:`stream_clip` over :data:`FIDELITY_TEXTS` (3 s each after 1 s)."""
    fps = generator.fps
    skip, n = int(fps), int((1.0 + CLIP_SECONDS) * fps)
    return float(np.mean([foot_skating(stream_clip(generator, t, n, seed)[skip:], fps) for t in FIDELITY_TEXTS]))
