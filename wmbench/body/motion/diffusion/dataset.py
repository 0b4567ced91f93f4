"""The training set of the diffusion motion model: real DeepMimic mocap plus labelled augmentation.

Card
----
- **Frame vector.** Each frame is the first :data:`FRAME_DIM` = 67 numbers of a HumanML3D feature row
  (``wmbench.body.motion.humanml3d.features``): root rotation velocity, root linear velocity (root frame), root
  height and
  ``ric`` (joints 1..21 relative to the root's floor point, in the root frame) — the part the standard
  recovery uses, so a generated frame is directly a root-local 22-joint pose plus the root's motion. The
  facing is smoothed over :data:`FACING_SMOOTHING_S` (HumanML3D: 1 s) so the root frame follows turns.
- **Labels.** Every segment has a MOTION-style text; its intent is what ``parse_motion`` reads from that
  text (the same parser the harness uses), so labels and run-time conditioning cannot disagree. The intent
  becomes the condition vector (:func:`intent_vector`); the words go to the model's text encoder
  (:func:`tokenize`).
- **Real mocap** (``source = "mocap"``, :func:`corpus_segments`): every DeepMimic clip of the training kinds
  under each of its captions, as recorded and mirrored; walk and run tiled and time-warped within their class;
  the walk played in reverse (a back-step, facing kept). (:func:`mocap_segments`: the walk-only set the first
  shipped model used.)
- **Held out** by kind (``corpus.HELD_OUT_KINDS``: turn, dance): never trained on;
  ``quality.held_out_distances`` compares generated motion with them.
- **Augmented** (``source = "procedural"``, thinned by ``make_windows(procedural_stride=...)`` so real mocap
  stays the majority): the procedural generator renders the intents the clips lack —
  jog/run/sprint, turns, sidesteps, standing, and the styles (fear, caution, crouch, freeze, defensive,
  relief, glance back). An intent that faces its travel is rendered turning towards it at
  :data:`TURN_RATE` (as ``DiffusionGenerator.clip`` turns), so every frame carries the travel heading
  relative to the facing *at that frame*; a sidestep or back-step keeps the facing.
- **Transitions**: pairs of segments joined with a :data:`CROSSFADE` frame cross-fade in feature space; the
  windows after the join carry the second label, so the model learns to switch when the intent changes.
- **Windows**: :data:`CONTEXT` frames of context followed by a :data:`CHUNK` frame target.

:func:`data_card` writes what is real and what is augmented, with counts, for the shipped card.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from wmbench.body.intent.reader import parse_motion
from wmbench.body.intent.record import STYLE_TAGS, MotionIntent
from wmbench.body.motion.diffusion.corpus import CAPTIONS, CLIP_KINDS, CORPUS_FPS, HELD_OUT_KINDS
from wmbench.body.motion.diffusion.deepmimic import load_clip
from wmbench.body.motion.humanml3d.features import joints_to_features
from wmbench.body.motion.procedural.generator import ProceduralGenerator
from wmbench.body.skeleton import FOOT_CONTACT_JOINTS, MIRROR_PAIRS
from wmbench.core.speed import SpeedClass

#: Numbers per frame: root rot velocity 1, root linear velocity 2, root height 1, ric 63.
FRAME_DIM = 67
#: Columns of the frame vector holding each foot joint's root-local (x, y, z), in ``FOOT_CONTACT_JOINTS`` order
#: (``ric`` starts at column 4 with joint 1): a (4, 3) index array.
FOOT_COLUMNS = np.array([[4 + 3 * (j - 1) + k for k in range(3)] for j in FOOT_CONTACT_JOINTS])
#: Frames of context the model continues from, and frames it generates per chunk.
CONTEXT, CHUNK = 8, 16
#: Frame rate the model was trained at (the corpus's); bodies at other rates are interpolated from it.
MODEL_FPS = CORPUS_FPS
#: Frames over which two segments are cross-faded in a transition.
CROSSFADE = 8
#: Smoothing (s) of the facing that defines the root frame. HumanML3D uses 1 s; a turning clip needs the
#: root frame to follow the body's real facing, so the model's root rotation is usable.
FACING_SMOOTHING_S = 0.2
#: Turn rate (rad/s) of the facing in segments whose intent faces its travel (the generators' clip rate).
TURN_RATE = 3.0
#: Style tags in the condition vector's order.
STYLE_ORDER: tuple[str, ...] = tuple(sorted(STYLE_TAGS))
#: Length of the condition vector: speed class one-hot, (moving, cos, sin) of the relative travel heading,
#: face_travel, style multi-hot.
COND_DIM = len(SpeedClass) + 3 + 1 + len(STYLE_ORDER)
#: Maximum words the text encoder reads.
MAX_WORDS = 16
#: Text templates: direction phrases and style phrases the procedural segments are described with.
_DIRECTIONS = {"fwd": ("forward", "ahead"), "left": ("to the left",), "right": ("to the right",),
               "back": ("backward",)}
_VERBS = {"walk": ("walks", "steps"), "jog": ("jogs",), "run": ("runs",), "sprint": ("sprints", "dashes")}
_STYLED = (
    ("", ()), ("calmly", ()), ("in terror", ()), ("cautiously", ()), ("in fear, glancing back over the shoulder", ()),
    ("with relief", ("walk",)), ("crouching low", ("walk", "jog")), ("in a hurry", ()),
)
_STILL_TEXTS = ("a person stands still", "a person freezes in place", "a person stands still with relief",
                "a person stands still, crouching low", "a person stands still, arms raised defensively",
                "a person stands still calmly", "a person stands still, watching cautiously")
_BACKSTEP_TEXTS = ("a person steps back defensively, arms raised", "a person backs away slowly",
                   "a person steps back cautiously", "a person steps back quickly",
                   "a person sidesteps to the left", "a person sidesteps to the right",
                   "a person sidesteps to the left cautiously", "a person sidesteps to the right cautiously")


@dataclass(frozen=True, eq=False)
class Segment:
    """One labelled piece of motion: ``frames`` (T, FRAME_DIM) feature rows at the data's fps, ``text`` its
    description, ``intent`` what ``parse_motion`` reads from it, ``relative_heading`` (T,) the travel
    direction relative to the facing at each frame (rad), ``source`` "mocap" or "procedural", ``name`` where
    it came from."""

    frames: np.ndarray
    text: str
    intent: MotionIntent
    relative_heading: np.ndarray
    source: str
    name: str
    #: the words carry motion the intent cannot express (a jump, a crawl, a kick ...): never train this
    #: segment with its words dropped, or the bare intent (e.g. "walk fwd") would learn to jump
    needs_words: bool = False


@dataclass(frozen=True, eq=False)
class Windows:
    """Training windows: ``context`` (N, CONTEXT, D), ``target`` (N, CHUNK, D), ``cond`` (N, COND_DIM),
    ``tokens`` (N, MAX_WORDS) word ids (0 = padding), ``mocap`` (N,) whether the target is real mocap,
    ``needs_words`` (N,) whether the words must never be dropped (see :class:`Segment`)."""

    context: np.ndarray
    target: np.ndarray
    cond: np.ndarray
    tokens: np.ndarray
    mocap: np.ndarray
    needs_words: np.ndarray | None = None


def intent_vector(intent: MotionIntent, relative_heading: float) -> np.ndarray:
    """The condition vector of ``intent`` travelling at ``relative_heading`` (rad) from the facing."""
    v = np.zeros(COND_DIM, dtype=np.float32)
    v[intent.speed_class.rank] = 1.0
    n = len(SpeedClass)
    if intent.moving:
        v[n:n + 3] = (1.0, math.cos(relative_heading), math.sin(relative_heading))
    v[n + 3] = 1.0 if intent.face_travel else 0.0
    for style in intent.styles:
        if style in STYLE_ORDER:
            v[n + 4 + STYLE_ORDER.index(style)] = 1.0
    return v


def words(text: str) -> list[str]:
    """Lower-case words of ``text`` (letters only)."""
    return re.findall(r"[a-z]+", str(text).lower())


def tokenize(text: str, vocabulary: dict[str, int]) -> np.ndarray:
    """(MAX_WORDS,) int64 ids of the known words of ``text`` (unknown words are skipped; 0 pads)."""
    ids = [vocabulary[w] for w in words(text) if w in vocabulary][:MAX_WORDS]
    out = np.zeros(MAX_WORDS, dtype=np.int64)
    out[:len(ids)] = ids
    return out


def build_vocabulary(texts: list[str]) -> dict[str, int]:
    """Word -> id (1-based, sorted) over ``texts``."""
    return {w: i + 1 for i, w in enumerate(sorted({w for t in texts for w in words(t)}))}


def mirror_joints(joints: np.ndarray) -> np.ndarray:
    """(T, 22, 3) joints mirrored across the x = 0 plane, left and right joints swapped."""
    out = np.array(joints, dtype=float)
    out[..., 0] *= -1.0
    for left, right in MIRROR_PAIRS:
        out[:, [left, right]] = out[:, [right, left]]
    return out


def time_warp(joints: np.ndarray, factor: float) -> np.ndarray:
    """The motion played ``factor`` times faster (linear interpolation of positions)."""
    t_src = np.arange(len(joints))
    t_new = np.arange(0.0, len(joints) - 1, factor)
    flat = joints.reshape(len(joints), -1)
    out = np.stack([np.interp(t_new, t_src, flat[:, k]) for k in range(flat.shape[1])], axis=1)
    return out.reshape(len(t_new), *joints.shape[1:])


def features(joints: np.ndarray, fps: float) -> np.ndarray:
    """(T, 22, 3) global joints -> (T - 1, FRAME_DIM) frame vectors (facing smoothed over
    :data:`FACING_SMOOTHING_S`)."""
    return joints_to_features(joints, fps=fps, facing_smoothing_s=FACING_SMOOTHING_S)[:, :FRAME_DIM].astype(
        np.float32)


def _segment(joints: np.ndarray, fps: float, text: str, relative_heading: float | np.ndarray, source: str,
             name: str, needs_words: bool = False) -> Segment:
    frames = features(joints, fps)
    heading = np.broadcast_to(np.asarray(relative_heading, dtype=float), (len(joints),))[:len(frames)]
    return Segment(frames, text, parse_motion(text), np.array(heading), source, name, needs_words)


def facing_path(intent: MotionIntent, n_frames: int, fps: float) -> np.ndarray:
    """(n,) facing (rad) of a clip of ``intent`` from facing 0: turning towards the travel direction at
    :data:`TURN_RATE` when the intent faces its travel, else constant."""
    goal = intent.heading if (intent.moving and intent.face_travel) else 0.0
    step = TURN_RATE / fps
    return np.sign(goal) * np.minimum(np.arange(n_frames) * step, abs(goal))


def mocap_segments(fps: float = 30.0, cycles: int = 6) -> list[Segment]:
    """The real-mocap segments (walk cycle: as recorded, time-warped within the walk class, mirrored,
    reversed)."""
    walk = load_clip("walk", fps, cycles=cycles).joints
    out: list[Segment] = []
    for mirrored in (False, True):
        base = mirror_joints(walk) if mirrored else np.asarray(walk)
        tag = "walk" + ("-mirrored" if mirrored else "")
        for factor, text in ((1.0, "a person walks forward calmly"), (1.25, "a person walks forward"),
                             (1.45, "a person walks ahead")):
            out.append(_segment(time_warp(base, factor), fps, text, 0.0, "mocap", f"{tag}-x{factor}"))
        for factor, text in ((1.0, "a person backs away slowly"), (1.3, "a person steps back")):
            reverse = time_warp(base, factor)[::-1].copy()
            out.append(_segment(reverse, fps, text, math.pi, "mocap", f"{tag}-reversed-x{factor}"))
    return out


#: Corpus clips tiled (looping locomotion), and the time-warp factors each trained clip is played at.
_TILED = {"walk": 6, "run": 8}
_WARPS = {"walk": (1.0, 1.25), "run": (0.85, 1.0)}
#: Locomotion kinds whose parsed intent describes the clip (their words may be dropped in training).
_LOCOMOTION = frozenset({"locomotion"})


def corpus_segments(fps: float = 30.0) -> list[Segment]:
    """Every training clip of the DeepMimic corpus (:mod:`~wmbench.body.motion.diffusion.corpus`; the
    held-out kinds excluded), each under every caption, as recorded and mirrored, walk and run tiled and
    time-warped within their class; plus the walk reversed (a back-step, facing kept)."""
    out: list[Segment] = []
    for name, kind in CLIP_KINDS.items():
        if kind in HELD_OUT_KINDS:
            continue
        clip = np.asarray(load_clip(name, fps, cycles=_TILED.get(name, 1)).joints)
        for mirrored in (False, True):
            base = mirror_joints(clip) if mirrored else clip
            tag = name + ("-mirrored" if mirrored else "")
            for factor in _WARPS.get(name, (1.0,)):
                warped = time_warp(base, factor) if factor != 1.0 else base
                for k, text in enumerate(CAPTIONS[name]):
                    out.append(_segment(warped, fps, text, 0.0, "mocap", f"{tag}-x{factor}-c{k}",
                                        needs_words=kind not in _LOCOMOTION))
            for factor, text in ((1.0, "a person backs away slowly"), (1.3, "a person steps back")):
                if name == "walk":
                    reverse = time_warp(base, factor)[::-1].copy()
                    out.append(_segment(reverse, fps, text, math.pi, "mocap", f"{tag}-reversed-x{factor}"))
    return out


def procedural_texts() -> list[str]:
    """The MOTION-style texts of the procedural segments."""
    texts = list(_STILL_TEXTS) + list(_BACKSTEP_TEXTS)
    for speed, verbs in _VERBS.items():
        for phrases in _DIRECTIONS.values():
            for k, (style, speeds) in enumerate(_STYLED):
                if speeds and speed not in speeds:
                    continue
                verb = verbs[k % len(verbs)]
                phrase = phrases[k % len(phrases)]
                texts.append(f"a person {verb} {phrase}" + (f" {style}" if style else ""))
    return texts


def procedural_segments(fps: float = 30.0, seconds: float = 3.0, seed: int = 0) -> list[Segment]:
    """Augmentation: every procedural text rendered by the procedural generator (turning towards the travel
    when the intent faces it, see :func:`facing_path`)."""
    generator = ProceduralGenerator(fps, seed=seed)
    generator.clip_turn_rate = TURN_RATE
    out = []
    n = int(seconds * fps) + 1
    for i, text in enumerate(procedural_texts()):
        intent = parse_motion(text)
        generator.reset(seed + i)
        joints = generator.clip(intent, n)
        heading = (intent.heading if intent.moving else 0.0) - facing_path(intent, n, fps)
        out.append(_segment(joints, fps, text, heading, "procedural", f"procedural-{i}"))
    return out


def all_segments(fps: float = 30.0, seed: int = 0, corpus: bool = True) -> list[Segment]:
    """Real mocap (every training clip of the corpus; ``corpus=False``: the walk cycle only, the set the
    first shipped model was trained on) followed by the procedural augmentation."""
    return (corpus_segments(fps) if corpus else mocap_segments(fps)) + procedural_segments(fps, seed=seed)


def make_windows(segments: list[Segment], vocabulary: dict[str, int], rng: np.random.Generator,
                 stride: int = 2, transitions: int = 400, procedural_stride: int | None = None) -> Windows:
    """Context/target windows of every segment (every ``stride`` frames; procedural segments every
    ``procedural_stride``, default ``stride``, so augmentation can be thinned) plus ``transitions`` windows
    that cross from one random segment into another (second label), drawn with ``rng``."""
    ctx, tgt, cond, tok, real, keep = [], [], [], [], [], []

    def add(frames: np.ndarray, start: int, seg: Segment, heading: float) -> None:
        ctx.append(frames[start:start + CONTEXT])
        tgt.append(frames[start + CONTEXT:start + CONTEXT + CHUNK])
        cond.append(intent_vector(seg.intent, heading))
        tok.append(tokenize(seg.text, vocabulary))
        real.append(seg.source == "mocap")
        keep.append(seg.needs_words)

    span = CONTEXT + CHUNK
    for seg in segments:
        step = stride if seg.source == "mocap" or procedural_stride is None else procedural_stride
        for start in range(0, len(seg.frames) - span + 1, step):
            add(seg.frames, start, seg, float(seg.relative_heading[start + CONTEXT]))
    long_enough = [s for s in segments if len(s.frames) >= span + CROSSFADE + 1]
    for _ in range(transitions):
        a, b = (long_enough[int(i)] for i in rng.integers(len(long_enough), size=2))
        cut_a = int(rng.integers(CONTEXT, len(a.frames) - CROSSFADE))
        start_b = int(rng.integers(0, len(b.frames) - span - CROSSFADE))
        w = np.linspace(0.0, 1.0, CROSSFADE)[:, None]
        fade = (1 - w) * a.frames[cut_a:cut_a + CROSSFADE] + w * b.frames[start_b:start_b + CROSSFADE]
        joined = np.concatenate((a.frames[cut_a - CONTEXT:cut_a], fade, b.frames[start_b + CROSSFADE:]))
        add(joined, 0, b, float(b.relative_heading[start_b + CROSSFADE]))
    return Windows(np.stack(ctx), np.stack(tgt), np.stack(cond), np.stack(tok), np.array(real), np.array(keep))


def data_card(segments: list[Segment], windows: Windows) -> str:
    """A short Markdown data card: what is real mocap, what is augmented, how much of each, what is held
    out."""
    lines = ["# Data card: wmbench diffusion motion model", "",
             "Source: DeepMimic humanoid clips shipped in `pybullet_data` (`data/motions/humanoid3d_*.txt`),",
             "retargeted by forward kinematics of `humanoid/humanoid.urdf` to wmbench's 22-joint skeleton",
             "(`wmbench.body.motion.diffusion.deepmimic`, `corpus.py`), 30 fps, 67-dim HumanML3D-style frame",
             "vectors; plus renders of wmbench's procedural generator as augmentation.", "",
             "| clip | kind | segments (captions x mirror x time-warp) | frames | captions |", "|---|---|---|---|---|"]
    by_clip: dict[str, list[Segment]] = {}
    for seg in segments:
        key = seg.name.split("-")[0] if seg.source == "mocap" else "procedural"
        by_clip.setdefault(key, []).append(seg)
    for key, segs in by_clip.items():
        kind = CLIP_KINDS.get(key, "augmentation")
        texts = "; ".join(sorted({s.text for s in segs}))
        if key == "procedural":
            texts = f"{len(texts.split('; '))} MOTION-style texts (`procedural_texts()`)"
        lines.append(f"| {key} | {kind} | {len(segs)} | {sum(len(s.frames) for s in segs)} | {texts} |")
    n_real = int(windows.mocap.sum())
    n = len(windows.target)
    held = ", ".join(f"{name} ({kind})" for name, kind in CLIP_KINDS.items() if kind in HELD_OUT_KINDS)
    lines += ["", f"Windows: {n}: **{n_real} real mocap ({100 * n_real / n:.0f} %)**, {n - n_real} procedural "
              f"augmentation ({100 * (n - n_real) / n:.0f} %); transitions are cross-faded pairs of random "
              "segments (counted by the second segment's source).", "",
              f"Held out by kind, never trained on: {held}.",
              "Real mocap: every other clip under each of its three captions, as recorded and mirrored; walk",
              "and run tiled and time-warped within their speed class; the walk also reversed (a back-step).",
              "Clips whose words carry motion the intent cannot express (jump, crawl, strikes, acrobatics,",
              "get-ups) never have their words dropped in training, so the bare intent keeps its meaning.",
              "Augmented: the procedural generator's renders of jog/sprint, turns, sidesteps, standing and the",
              "styles, thinned (every 4th window) so they do not dominate."]
    return "\n".join(lines) + "\n"
