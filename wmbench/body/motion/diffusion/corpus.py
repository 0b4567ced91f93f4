"""Every real clip: all DeepMimic clips of ``pybullet_data`` as 22-joint motion, captioned, split by kind.

Card
----
- **What.** Each clip of :data:`~wmbench.body.motion.diffusion.deepmimic.CLIP_NAMES` converted with
  :func:`~wmbench.body.motion.diffusion.deepmimic.load_clip` (the same retargeting the training set's walk
  clip uses) to ``(T, 22, 3)`` global motion-space joints at 30 fps, with its motion ``kind``
  (:data:`CLIP_KINDS`) and several captions (:data:`CAPTIONS`).
- **Held out by kind.** :data:`HELD_OUT_KINDS` names whole kinds kept out of any training set and used only
  for evaluation (every clip of that kind is held out), so an evaluation never sees a kind it trained on.
- **Run it.** ``python -m wmbench.body.motion.diffusion.corpus OUT.npz`` writes the corpus (per clip:
  ``joints/<name>``; ``meta`` a JSON string of kinds, captions, frames, seconds and the split) and prints the
  data card's numbers (minutes of real motion per kind).

The shipped diffusion model is trained on every clip of the training kinds (``dataset.corpus_segments``; 77 %
of its windows are real mocap, see ``weights/DATA_CARD.md``).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wmbench.body.motion.diffusion.deepmimic import CLIP_NAMES, load_clip

#: Frame rate of the corpus.
CORPUS_FPS = 30.0
#: clip -> motion kind
CLIP_KINDS: dict[str, str] = {
    "walk": "locomotion", "run": "locomotion", "jump": "jump", "crawl": "crawl", "roll": "acrobatics",
    "kick": "strike", "punch": "strike", "spin": "turn", "spinkick": "strike", "getup_facedown": "get_up",
    "getup_faceup": "get_up", "dance_a": "dance", "dance_b": "dance", "cartwheel": "acrobatics",
    "backflip": "acrobatics",
}
#: Kinds held out for evaluation (every clip of these kinds).
HELD_OUT_KINDS: frozenset[str] = frozenset({"turn", "dance"})
#: clip -> captions (several phrasings each; the first is the canonical one)
CAPTIONS: dict[str, tuple[str, ...]] = {
    "walk": ("a person walks forward", "someone strolls ahead at an easy pace", "walks straight on calmly"),
    "run": ("a person runs forward", "someone jogs ahead quickly", "runs straight ahead"),
    "jump": ("a person jumps forward", "someone leaps ahead with both feet", "hops forward over an obstacle"),
    "crawl": ("a person crawls on all fours", "someone crawls forward on hands and knees",
              "moves forward on all fours"),
    "roll": ("a person does a forward roll", "someone tucks and rolls forward", "rolls over on the ground"),
    "kick": ("a person kicks forward", "someone kicks out with one leg", "delivers a front kick"),
    "punch": ("a person punches forward", "someone throws a punch", "strikes ahead with a fist"),
    "spin": ("a person spins around in place", "someone turns a full circle", "pirouettes on the spot"),
    "spinkick": ("a person does a spinning kick", "someone spins and kicks", "turns and kicks out high"),
    "getup_facedown": ("a person gets up from lying face down", "someone pushes up off the floor and stands",
                       "rises from prone to standing"),
    "getup_faceup": ("a person gets up from lying on the back", "someone sits up and stands",
                     "rises from lying face up to standing"),
    "dance_a": ("a person dances", "someone dances in place", "moves to the rhythm"),
    "dance_b": ("a person dances energetically", "someone dances with big arm swings", "grooves on the spot"),
    "cartwheel": ("a person does a cartwheel", "someone cartwheels sideways", "turns a cartwheel"),
    "backflip": ("a person does a backflip", "someone flips backwards", "somersaults backwards"),
}


@dataclass(frozen=True)
class CorpusClip:
    """One converted clip: ``joints`` (T, 22, 3) global motion space at :data:`CORPUS_FPS`."""

    name: str
    kind: str
    captions: tuple[str, ...]
    joints: np.ndarray
    held_out: bool

    @property
    def seconds(self) -> float:
        return (len(self.joints) - 1) / CORPUS_FPS


def corpus_clips() -> list[CorpusClip]:
    """Every DeepMimic clip, converted (one pass of each; looping clips are not tiled)."""
    return [CorpusClip(name, CLIP_KINDS[name], CAPTIONS[name], np.asarray(load_clip(name, CORPUS_FPS).joints),
                       CLIP_KINDS[name] in HELD_OUT_KINDS) for name in CLIP_NAMES]


def minutes_per_kind(clips: list[CorpusClip]) -> dict[str, float]:
    """Minutes of real motion per kind."""
    out: dict[str, float] = {}
    for clip in clips:
        out[clip.kind] = out.get(clip.kind, 0.0) + clip.seconds / 60.0
    return out


def write_corpus(clips: list[CorpusClip], path: Path) -> None:
    """``path`` (.npz): ``joints/<name>`` per clip and ``meta`` (JSON)."""
    meta = {c.name: {"kind": c.kind, "captions": list(c.captions), "frames": len(c.joints),
                     "seconds": round(c.seconds, 3), "held_out": c.held_out} for c in clips}
    arrays = {f"joints/{c.name}": c.joints for c in clips}
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m wmbench.body.motion.diffusion.corpus OUT.npz", file=sys.stderr)
        return 2
    clips = corpus_clips()
    write_corpus(clips, Path(args[0]))
    for kind, minutes in sorted(minutes_per_kind(clips).items()):
        names = ", ".join(c.name for c in clips if c.kind == kind)
        split = "held out" if kind in HELD_OUT_KINDS else "train"
        print(f"| {kind} | {names} | {minutes * 60:.1f} s | {split} |")
    print(f"total: {sum(c.seconds for c in clips):.1f} s real motion in {len(clips)} clips")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
