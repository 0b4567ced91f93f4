"""Open-vocabulary text encoder: unseen MOTION phrasings -> the nearest motion the diffusion model knows.

Card
----
- **Model.** A tiny BERT (``transformers.BertModel``: 2 layers, width 64, 2 heads, ``gelu_new``) trained here
  by ``text_train.py`` on the phrasings of :mod:`~wmbench.body.motion.diffusion.text_phrasings` (no download:
  its word-level vocabulary and weights are built from those texts). Mean-pooled token states are projected
  and L2-normalised; each motion class has a learned unit vector, and a text's class is the nearest one by
  cosine.
- **Inference is numpy** (:class:`TextEncoder`): the BERT forward pass is replayed op for op from the
  exported weights (``weights/text_encoder.npz`` + ``text_encoder.json``), so the main job needs no torch;
  ``tests/body/motion/diffusion/test_text_encoder.py`` checks it against ``transformers`` when installed.
- **Tokens.** Lower-cased words, lemmatised like the MOTION reader (``phrases.lemma_words``: ``sprints`` ->
  ``sprint``), a plural/3rd-person ``s`` stripped, filler words dropped; unknown words become ``[UNK]``.
- **Use** (:func:`model_text`): the diffusion generator conditions its text encoder on the MOTION line's words;
  when the line has words the model never saw, it is conditioned on the canonical caption of the nearest
  class instead (e.g. "hops over the gap" -> "a person jumps forward"), when the cosine is at least
  :data:`MIN_COSINE`; below that the line's own known words are used. A line that itself names a motion
  with a verb (:data:`VERB_CLASSES`: "steps back ...", "walks ... side to side") keeps its own known words
  when the encoder's nearest class is none of the motions it names (the hard held-out set showed "steps
  back calmly with hands raised, eyes on the stranger" read as a punch). Direction and speed still come
  from the parsed intent.

Simplified: a word-level model trained on a few hundred hand-written phrasings: it generalises over
inflections, word order and the words it has seen, not to words it never saw.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from wmbench.body.intent.phrases import lemma_words
from wmbench.body.motion.diffusion.dataset import words
from wmbench.body.motion.diffusion.text_phrasings import LEXICON_CLASSES

#: Where the shipped encoder lives (beside the diffusion weights).
ENCODER_DIR = Path(__file__).parent / "weights"
#: Token ids with a fixed meaning.
PAD, UNK, CLS = 0, 1, 2
#: Most tokens read (the [CLS] token included).
MAX_TOKENS = 16
#: Below this cosine to the nearest class, an unknown phrasing keeps its own words.
MIN_COSINE = 0.5
_LN_EPS = 1e-12
#: Verb lemmas that name a motion class outright: the MOTION lexicon's gait verbs and the DeepMimic verbs.
VERB_CLASSES: dict[str, str] = {**LEXICON_CLASSES, **{v: v for v in (
    "jump", "crawl", "roll", "kick", "punch", "cartwheel", "backflip")}}


def normalise_words(text: str) -> list[str]:
    """The encoder's word forms of ``text`` (see the module card)."""
    out = []
    for word in lemma_words(text):
        if not word.isalpha():
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


def encode_ids(text: str, vocabulary: dict[str, int]) -> np.ndarray:
    """(MAX_TOKENS,) int64 ids: [CLS] then the words (unknown -> [UNK]), 0-padded."""
    ids = [CLS, *[vocabulary.get(w, UNK) for w in normalise_words(text)][:MAX_TOKENS - 1]]
    out = np.zeros(MAX_TOKENS, dtype=np.int64)
    out[:len(ids)] = ids
    return out


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + _LN_EPS) * w + b


def _gelu_new(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


@dataclass(frozen=True)
class Match:
    """The nearest motion class of a text: ``motion`` (class), ``caption`` (its canonical caption),
    ``cosine``."""

    motion: str
    caption: str
    cosine: float


class TextEncoder:
    """The exported encoder (see the module card): ``embed`` texts, ``nearest`` class."""

    def __init__(self, folder: Path = ENCODER_DIR) -> None:
        with np.load(Path(folder) / "text_encoder.npz") as data:
            self.w = {k: data[k].astype(np.float64) for k in data.files}
        meta = json.loads((Path(folder) / "text_encoder.json").read_text(encoding="utf-8"))
        self.vocabulary: dict[str, int] = meta["vocabulary"]
        self.classes: list[str] = meta["classes"]
        self.captions: dict[str, str] = meta["captions"]
        self.layers, self.heads = int(meta["layers"]), int(meta["heads"])

    def embed(self, texts: list[str]) -> np.ndarray:
        """(N, D) unit vectors of ``texts``."""
        ids = np.stack([encode_ids(t, self.vocabulary) for t in texts])
        w = self.w
        mask = ids != PAD
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:ids.shape[1]] \
            + w["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        n, t, d = x.shape
        hd = d // self.heads
        bias = np.where(mask, 0.0, np.finfo(np.float64).min)[:, None, None, :]
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def lin(v: np.ndarray, name: str, p: str = p) -> np.ndarray:
                return v @ w[p + name + ".weight"].T + w[p + name + ".bias"]

            q, k, v = (lin(x, f"attention.self.{m}").reshape(n, t, self.heads, hd).transpose(0, 2, 1, 3)
                       for m in ("query", "key", "value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(hd) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            attn = scores / scores.sum(-1, keepdims=True)
            ctx = (attn @ v).transpose(0, 2, 1, 3).reshape(n, t, d)
            x = _layer_norm(lin(ctx, "attention.output.dense") + x, w[p + "attention.output.LayerNorm.weight"],
                            w[p + "attention.output.LayerNorm.bias"])
            h = _gelu_new(lin(x, "intermediate.dense"))
            x = _layer_norm(lin(h, "output.dense") + x, w[p + "output.LayerNorm.weight"],
                            w[p + "output.LayerNorm.bias"])
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        z = pooled @ w["proj.weight"].T + w["proj.bias"]
        return z / np.linalg.norm(z, axis=1, keepdims=True)

    def class_vectors(self) -> np.ndarray:
        c = self.w["classes"]
        return c / np.linalg.norm(c, axis=1, keepdims=True)

    def nearest(self, text: str) -> Match:
        """The class nearest to ``text``."""
        sims = self.embed([text])[0] @ self.class_vectors().T
        k = int(np.argmax(sims))
        return Match(self.classes[k], self.captions[self.classes[k]], float(sims[k]))


@lru_cache(maxsize=2)
def shipped_encoder(folder: str = str(ENCODER_DIR)) -> TextEncoder | None:
    """The shipped encoder, or None when its files are absent."""
    if not (Path(folder) / "text_encoder.npz").is_file():
        return None
    return TextEncoder(Path(folder))


@lru_cache(maxsize=512)
def model_text(text: str, known_words: frozenset[str]) -> str:
    """The text the diffusion model is conditioned on for a MOTION line (see the module card)."""
    ws = [w for w in words(text) if w not in ("a", "an", "the", "person", "someone")]
    if all(w in known_words for w in ws):
        return text
    encoder = shipped_encoder()
    if encoder is None:
        return text
    match = encoder.nearest(text)
    named = {VERB_CLASSES[w] for w in normalise_words(text) if w in VERB_CLASSES}
    if named and match.motion not in named:  # the line names its motion; the encoder's guess contradicts it
        return text
    return match.caption if match.cosine >= MIN_COSINE else text
