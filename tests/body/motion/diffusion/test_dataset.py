"""The training set: every training clip of the corpus, none held out, real mocap the majority."""

from __future__ import annotations

import numpy as np

from wmbench.body.motion.diffusion import dataset as ds
from wmbench.body.motion.diffusion.corpus import CLIP_KINDS, HELD_OUT_KINDS


def test_corpus_segments_use_every_training_clip_and_no_held_out_one():
    segments = ds.corpus_segments()
    used = {s.name.split("-")[0] for s in segments}
    assert used == {name for name, kind in CLIP_KINDS.items() if kind not in HELD_OUT_KINDS}
    assert all(s.source == "mocap" for s in segments)
    # words are never dropped for clips whose intent cannot say what they are (a kick parses as a walk)
    assert all(s.needs_words == (CLIP_KINDS[s.name.split("-")[0]] != "locomotion") for s in segments)
    assert any(s.text == "a person kicks forward" and s.needs_words for s in segments)


def test_procedural_stride_thins_augmentation_only():
    segments = ds.corpus_segments()[:4] + ds.procedural_segments(seconds=2.0)[:4]
    vocabulary = ds.build_vocabulary([s.text for s in segments])
    dense = ds.make_windows(segments, vocabulary, np.random.default_rng(0), stride=1, transitions=0)
    thin = ds.make_windows(segments, vocabulary, np.random.default_rng(0), stride=1, transitions=0,
                           procedural_stride=4)
    assert thin.mocap.sum() == dense.mocap.sum()
    assert (~thin.mocap).sum() < 0.3 * (~dense.mocap).sum()
    assert thin.needs_words is not None and thin.needs_words.dtype == bool
