"""The open-vocabulary text encoder: numpy replays the trained BERT, held-out phrasings find their motion,
and the diffusion generator is conditioned on the nearest known motion for words it never saw."""

from __future__ import annotations

import numpy as np
import pytest

from wmbench.body.motion.diffusion import text_encoder as te
from wmbench.body.motion.diffusion.generator import shipped_model
from wmbench.body.motion.diffusion.text_phrasings import MOTION_CLASSES, hard_held_out, split_phrasings
from wmbench.body.motion.diffusion.text_train import evaluate


@pytest.fixture(scope="module")
def encoder() -> te.TextEncoder:
    shipped = te.shipped_encoder()
    assert shipped is not None, "the shipped weights folder lacks text_encoder.npz"
    return shipped


def test_held_out_phrasings_map_to_their_motion(encoder):
    _, held = split_phrasings()
    train_texts = {t for t, _ in split_phrasings()[0]}
    assert held and not any(text in train_texts for text, _ in held)
    hits = [encoder.nearest(text).motion == motion for text, motion in held]
    assert np.mean(hits) >= 0.9
    assert set(encoder.classes) == set(MOTION_CLASSES)


def test_unknown_words_are_read_as_the_nearest_known_motion_and_known_lines_are_kept():
    known = shipped_model().known_words
    assert te.model_text("a person walks forward", known) == "a person walks forward"
    assert te.model_text("jumps over the log", known) == MOTION_CLASSES["jump"]
    assert te.model_text("boxes the air", known) == MOTION_CLASSES["punch"]
    # nothing near enough: the line keeps its own words, it is not turned into "stand still"
    assert te.model_text("waves both arms", known) == "waves both arms"


def test_a_line_that_names_its_motion_is_not_replaced_by_a_contradicting_guess():
    """Regression (issue 26, hard held-out set): the prompt's own advice "step back calmly with hands raised"
    was conditioned on "a person punches forward"."""
    known = shipped_model().known_words
    line = "a person steps back calmly with hands raised, eyes on the stranger"
    assert te.shipped_encoder().nearest(line).motion == "punch"   # the encoder's guess is still wrong ...
    assert te.model_text(line, known) == line                      # ... but the line keeps its own words
    # a guess that agrees with the named motion is still used
    assert te.model_text("a person hurtles forward in blind panic", known) == MOTION_CLASSES["sprint"]


def test_the_hard_held_out_set_is_unseen_and_harder():
    train, held = split_phrasings()
    seen = {t for t, _ in train} | {t for t, _ in held}
    hard = hard_held_out()
    assert len(hard) == 4 * len(MOTION_CLASSES) and not any(t in seen for t, _ in hard)
    assert {c for _, c in hard} == set(MOTION_CLASSES)
    scores = evaluate(te.shipped_encoder())
    # harder by construction: far more words the encoder never saw than in the first held-out set
    assert scores["hard"]["unknown_words"] > 3 * scores["held_out"]["unknown_words"] + 0.1
    assert scores["hard"]["top1"] <= scores["held_out"]["top1"] and scores["hard"]["top3"] >= scores["hard"]["top1"]


def test_every_caption_word_is_known_to_the_diffusion_model():
    known = shipped_model().known_words
    for caption in MOTION_CLASSES.values():
        assert all(w in known for w in caption.split()), caption


def test_numpy_forward_matches_transformers(encoder):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from wmbench.body.motion.diffusion.text_train import HEADS, LAYERS, WIDTH

    config = transformers.BertConfig(
        vocab_size=len(encoder.vocabulary) + 3, hidden_size=WIDTH, num_hidden_layers=LAYERS,
        num_attention_heads=HEADS, intermediate_size=2 * WIDTH, max_position_embeddings=te.MAX_TOKENS,
        hidden_act="gelu_new", pad_token_id=te.PAD, type_vocab_size=1)
    bert = transformers.BertModel(config, add_pooling_layer=False).eval()
    state = {k: torch.as_tensor(v) for k, v in encoder.w.items() if k not in ("proj.weight", "proj.bias", "classes")}
    bert.load_state_dict({k: v.float() for k, v in state.items()}, strict=False)
    texts = ["hops over the gap", "a person crawls on all fours", "zzz unknown words"]
    ids = torch.as_tensor(np.stack([te.encode_ids(t, encoder.vocabulary) for t in texts]))
    mask = (ids != te.PAD).long()
    with torch.no_grad():
        h = bert(input_ids=ids, attention_mask=mask).last_hidden_state.double().numpy()
    m = mask.numpy()[..., None]
    pooled = (h * m).sum(1) / m.sum(1)
    z = pooled @ encoder.w["proj.weight"].T + encoder.w["proj.bias"]
    z /= np.linalg.norm(z, axis=1, keepdims=True)
    assert np.allclose(encoder.embed(texts), z, atol=1e-5)
