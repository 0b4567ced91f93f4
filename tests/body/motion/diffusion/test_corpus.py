"""Every DeepMimic clip converted, captioned and split by kind (data only; nothing is retrained)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from wmbench.body.motion.diffusion import corpus
from wmbench.body.motion.diffusion.deepmimic import motions_dir
from wmbench.body.skeleton import DEFAULT_SKELETON


@pytest.fixture(scope="module")
def clips() -> list[corpus.CorpusClip]:
    return corpus.corpus_clips()


def test_every_humanoid_clip_in_pybullet_data_is_converted(clips):
    shipped = sorted(p.stem.removeprefix("humanoid3d_") for p in motions_dir().glob("humanoid3d_*.txt"))
    assert sorted(c.name for c in clips) == shipped and len(shipped) == 15
    for clip in clips:
        assert clip.joints.shape[1:] == (22, 3) and clip.seconds > 0.5 and np.all(np.isfinite(clip.joints))
        lengths = DEFAULT_SKELETON.measure_bone_lengths(clip.joints)
        assert np.allclose(lengths[..., 1:], DEFAULT_SKELETON.bone_lengths()[1:], atol=1e-6)


def test_captions_and_the_held_out_split_by_kind(clips):
    for clip in clips:
        assert len(set(clip.captions)) >= 3
        assert clip.held_out == (clip.kind in corpus.HELD_OUT_KINDS)
    held = {c.kind for c in clips if c.held_out}
    trained = {c.kind for c in clips if not c.held_out}
    assert held == corpus.HELD_OUT_KINDS and not held & trained  # whole kinds, never split across


def test_written_corpus_holds_every_clip_and_its_card(clips, tmp_path):
    path = tmp_path / "corpus.npz"
    corpus.write_corpus(clips, path)
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        assert set(meta) == {c.name for c in clips}
        assert np.array_equal(data["joints/cartwheel"], next(c for c in clips if c.name == "cartwheel").joints)
    assert meta["spin"]["held_out"] is True and meta["walk"]["kind"] == "locomotion"
    minutes = corpus.minutes_per_kind(clips)
    assert sum(minutes.values()) == pytest.approx(sum(c.seconds for c in clips) / 60.0)
