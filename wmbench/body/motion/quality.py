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
  sliding a viewer sees. Simplified: no turning (every text keeps one direction). :func:`loop_metrics` gives
  the jerk of the same frames beside it.
- **Distance to mocap** (:func:`frechet_distance`): a small FID-like statistic, stated as such — the Fréchet
  distance between Gaussians fitted to per-frame pose features (root-local joints plus their velocities,
  projected on the top :data:`PCA_COMPONENTS` principal components of the mocap frames) of a generator's
  clip and of a DeepMimic clip of the same speed class. No learned feature network (unlike FID): it compares
  pose-and-velocity statistics only.
- **What makes a distance** (:func:`distance_breakdown`, :func:`gait_statistics`): the distance split into its
  mean and covariance terms and recomputed per feature group (root height; leg, arm and trunk positions;
  leg, arm and trunk-and-pelvis velocities; each in its own PCA basis of the reference), next to plain gait
  numbers of a clip (ground speed, cadence, stride, pelvis height, arm swing, foot lift, knee flexion, trunk
  lean), so a gap can be named (``python -m benchmarks.motion_table --breakdown``). Diagnostic only: no
  score reads it.
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
from wmbench.body.skeleton import FOOT_CONTACT_HEIGHT, FOOT_CONTACT_JOINTS, JOINT_NAMES
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
    return loop_metrics(generator, seed)[0]


def loop_metrics(generator: MotionGenerator, seed: int = 0) -> tuple[float, float]:
    """(foot skating m/s, jerk m/s^3) of :func:`stream_clip` over :data:`FIDELITY_TEXTS` (3 s each after
    1 s; means over the texts): what the body shows in the loop, where the body owns the root."""
    fps = generator.fps
    skip, n = int(fps), int((1.0 + CLIP_SECONDS) * fps)
    clips = [stream_clip(generator, t, n, seed)[skip:] for t in FIDELITY_TEXTS]
    return float(np.mean([foot_skating(c, fps) for c in clips])), float(np.mean([jerk(c, fps) for c in clips]))


#: Joint groups of :func:`distance_breakdown` (names of ``skeleton.JOINT_NAMES`` containing these words).
_GROUP_WORDS: dict[str, tuple[str, ...]] = {
    "legs": ("hip", "knee", "ankle", "foot"), "arms": ("collar", "shoulder", "elbow", "wrist"),
    "trunk": ("spine", "neck", "head")}


def _group_joints(group: str) -> list[int]:
    return [i for i, name in enumerate(JOINT_NAMES) if any(word in name for word in _GROUP_WORDS[group])]


def _feature_columns() -> dict[str, list[int]]:
    """Columns of :func:`pose_features` per group: [root height (1), ric (joints 1..21 x 3), local velocity
    (joints 0..21 x 3)]."""
    def positions(joints: list[int]) -> list[int]:
        return [1 + 3 * (j - 1) + k for j in joints if j > 0 for k in range(3)]

    def velocities(joints: list[int]) -> list[int]:
        return [64 + 3 * j + k for j in joints for k in range(3)]

    legs, arms, trunk = (_group_joints(g) for g in ("legs", "arms", "trunk"))
    return {"root height": [0], "leg positions": positions(legs), "arm positions": positions(arms),
            "trunk positions": positions(trunk), "leg velocities": velocities(legs),
            "arm velocities": velocities(arms), "trunk+pelvis velocities": velocities([0, *trunk])}


@dataclass(frozen=True)
class DistanceBreakdown:
    """What a Fréchet distance is made of (see the module card): ``total`` (as :func:`frechet_distance`),
    its ``mean_term`` (squared distance of the means) and ``covariance_term`` (the rest), and
    ``per_group``: the distance recomputed on each feature group alone, in that group's own PCA basis (up to
    :data:`PCA_COMPONENTS` components of the reference frames)."""

    total: float
    mean_term: float
    covariance_term: float
    per_group: dict[str, float]


def distance_breakdown(a: np.ndarray, reference: np.ndarray, basis: np.ndarray, centre: np.ndarray
                       ) -> DistanceBreakdown:
    """The breakdown of ``frechet_distance(a, reference, basis, centre)`` (feature rows of
    :func:`pose_features`)."""
    total = frechet_distance(a, reference, basis, centre)
    mean_term = float(np.sum((((a - centre) @ basis.T).mean(0) - ((reference - centre) @ basis.T).mean(0)) ** 2))
    groups: dict[str, float] = {}
    for name, cols in _feature_columns().items():
        ga, gr = a[:, cols], reference[:, cols]
        g_centre = gr.mean(0)
        _, _, vt = np.linalg.svd(gr - g_centre, full_matrices=False)
        g_basis = vt[:min(PCA_COMPONENTS, len(cols))]
        if len(g_basis) == 1:  # one column: the 1-D Fréchet distance (np.cov of one column is a scalar)
            pa, pr = (ga - g_centre) @ g_basis.T, (gr - g_centre) @ g_basis.T
            groups[name] = float((pa.mean() - pr.mean()) ** 2 + (pa.std() - pr.std()) ** 2)
        else:
            groups[name] = frechet_distance(ga, gr, g_basis, g_centre)
    return DistanceBreakdown(total, mean_term, total - mean_term, groups)


@dataclass(frozen=True)
class GaitStatistics:
    """Plain gait numbers of a global clip (see :func:`gait_statistics`)."""

    speed: float
    cadence: float
    stride: float
    pelvis_height: float
    arm_swing: float
    foot_lift: float
    knee_flexion: float
    trunk_lean: float

    def to_dict(self) -> dict[str, float]:
        return asdict(self)


_L_ANKLE, _R_ANKLE = JOINT_NAMES.index("left_ankle"), JOINT_NAMES.index("right_ankle")
_WRISTS = (JOINT_NAMES.index("left_wrist"), JOINT_NAMES.index("right_wrist"))
_KNEE_CHAINS = tuple((JOINT_NAMES.index(f"{side}_hip"), JOINT_NAMES.index(f"{side}_knee"),
                      JOINT_NAMES.index(f"{side}_ankle")) for side in ("left", "right"))
_SPINE3 = JOINT_NAMES.index("spine3")


def gait_statistics(clip: np.ndarray, fps: float) -> GaitStatistics:
    """Gait numbers of a global (T, 22, 3) clip, read in the root frame of ``pose_features``' recovery
    (HumanML3D ``ric``): ``speed`` (m/s, the pelvis's start-to-end ground distance over the time),
    ``cadence`` (steps/s: sign changes of the ankles' fore-aft spread), ``stride`` (m: two steps at that
    speed), ``pelvis_height`` (m, mean), ``arm_swing`` (m: fore-aft range of the wrists, mean of both),
    ``foot_lift`` (m: the ankles' height range, mean of both), ``knee_flexion`` (degrees, mean over both
    knees and frames) and ``trunk_lean`` (degrees: mean forward tilt of the pelvis-to-spine3 line)."""
    f = joints_to_features(clip, fps=fps)
    n = len(f)
    ric = np.concatenate((np.zeros((n, 1, 3)), f[:, LAYOUT.ric].reshape(n, -1, 3)), axis=1)
    ric[:, 0, 1] = f[:, LAYOUT.root_height][:, 0]
    seconds = max(len(clip) - 1, 1) / fps
    speed = float(np.linalg.norm(clip[-1, 0, [0, 2]] - clip[0, 0, [0, 2]]) / seconds)
    spread = ric[:, _L_ANKLE, 2] - ric[:, _R_ANKLE, 2]
    signs = np.sign(spread[np.abs(spread) > 1e-3])
    cadence = float(np.count_nonzero(np.diff(signs)) / seconds)
    flex = []
    for hip, knee, ankle in _KNEE_CHAINS:
        thigh, shin = ric[:, knee] - ric[:, hip], ric[:, ankle] - ric[:, knee]
        cos = np.sum(thigh * shin, axis=1) / np.maximum(
            np.linalg.norm(thigh, axis=1) * np.linalg.norm(shin, axis=1), 1e-9)
        flex.append(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))
    up = ric[:, _SPINE3] - ric[:, 0]
    return GaitStatistics(
        speed=speed, cadence=cadence, stride=2.0 * speed / cadence if cadence > 0 else 0.0,
        pelvis_height=float(ric[:, 0, 1].mean()),
        arm_swing=float(np.mean([np.ptp(ric[:, w, 2]) for w in _WRISTS])),
        foot_lift=float(np.mean([np.ptp(ric[:, a, 1]) for a in (_L_ANKLE, _R_ANKLE)])),
        knee_flexion=float(np.mean(flex)), trunk_lean=float(np.degrees(np.arctan2(up[:, 2], up[:, 1])).mean()))
