"""Train the open-vocabulary text encoder (``text_encoder.py``) and export it for numpy inference.

Card
----
- **Data**: :func:`~wmbench.body.motion.diffusion.text_phrasings.split_phrasings` (canonical captions, the
  training phrasings, one phrasing per lexicon verb); the held-out phrasings are used only for R-precision.
- **Model**: ``transformers.BertModel`` from a ``BertConfig`` (no pretrained weights, no download), width 64,
  2 layers, 2 heads, ``gelu_new``; mean pooling, a linear projection, unit vectors; class logits are
  ``SCALE`` x cosine to one learned unit vector per class (cross-entropy). AdamW, seeded.
- **R-precision** (as the text-to-motion anchors report it, over the class set): for each held-out phrasing
  the classes are ranked by cosine; R@1 and R@3 are the fractions whose true class is first / in the top 3.
  :func:`evaluate` reports it on both held-out sets (the second, ``HARD_HELD_OUT``, with unseen synonyms and
  long MOTION lines) with the share of words the encoder reads as [UNK].
- **Outputs** (``out_dir``): ``text_encoder.npz`` (all weights + class vectors), ``text_encoder.json``
  (vocabulary, classes, captions, sizes, R-precision, the command).

Run: ``python -m wmbench.body.motion.diffusion.text_train [OUT_DIR] [--steps N]`` (needs torch + transformers:
the ``motion`` and ``hf`` extras). ``--evaluate`` (numpy only) prints R@1/R@3 and the unknown-word share of the
encoder in OUT_DIR on the training texts, the held-out phrasings and the hard held-out set
(``text_phrasings.HARD_HELD_OUT``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from wmbench.body.motion.diffusion.text_encoder import (
    CLS,
    ENCODER_DIR,
    MAX_TOKENS,
    PAD,
    UNK,
    TextEncoder,
    encode_ids,
    normalise_words,
)
from wmbench.body.motion.diffusion.text_phrasings import MOTION_CLASSES, hard_held_out, split_phrasings

SCALE = 10.0
WIDTH, LAYERS, HEADS = 64, 2, 2


def r_precision(encoder: TextEncoder, held: list[tuple[str, str]]) -> tuple[float, float]:
    """(R@1, R@3) of ``held`` (text, class) over the encoder's classes."""
    sims = encoder.embed([t for t, _ in held]) @ encoder.class_vectors().T
    order = np.argsort(-sims, axis=1)
    truth = np.array([encoder.classes.index(c) for _, c in held])
    return float(np.mean(order[:, 0] == truth)), float(np.mean((order[:, :3] == truth[:, None]).any(1)))


def unknown_word_share(encoder: TextEncoder, texts: list[str]) -> float:
    """Fraction of the encoder's word forms of ``texts`` that are not in its vocabulary (read as [UNK])."""
    forms = [w for t in texts for w in normalise_words(t)]
    return float(np.mean([w not in encoder.vocabulary for w in forms])) if forms else 0.0


def evaluate(encoder: TextEncoder) -> dict[str, dict[str, float]]:
    """R@1, R@3 and the unknown-word share of ``encoder`` on both held-out sets (``held_out``: the last
    phrasings of each class; ``hard``: ``text_phrasings.HARD_HELD_OUT``) and, for reference, on its training
    texts."""
    train_set, held = split_phrasings()
    out = {}
    for name, rows in (("train", train_set), ("held_out", held), ("hard", hard_held_out())):
        r1, r3 = r_precision(encoder, rows)
        out[name] = {"texts": len(rows), "top1": round(r1, 3), "top3": round(r3, 3),
                     "unknown_words": round(unknown_word_share(encoder, [t for t, _ in rows]), 3)}
    return out


def train(out_dir: Path, steps: int = 600, seed: int = 0, command: str = "") -> dict:
    import torch
    from transformers import BertConfig, BertModel

    torch.set_num_threads(1)  # a tiny model: more threads only contend on a shared box
    train_set, held = split_phrasings()
    vocab_words = sorted({w for t, _ in train_set for w in normalise_words(t)})
    vocabulary = {w: i + 3 for i, w in enumerate(vocab_words)}
    classes = list(MOTION_CLASSES)
    ids = torch.as_tensor(np.stack([encode_ids(t, vocabulary) for t, _ in train_set]))
    labels = torch.as_tensor([classes.index(c) for _, c in train_set])
    torch.manual_seed(seed)
    config = BertConfig(vocab_size=len(vocabulary) + 3, hidden_size=WIDTH, num_hidden_layers=LAYERS,
                        num_attention_heads=HEADS, intermediate_size=2 * WIDTH, max_position_embeddings=MAX_TOKENS,
                        hidden_act="gelu_new", pad_token_id=PAD, type_vocab_size=1)
    bert = BertModel(config, add_pooling_layer=False)
    proj = torch.nn.Linear(WIDTH, WIDTH)
    class_vecs = torch.nn.Parameter(torch.randn(len(classes), WIDTH) * 0.1)
    params = [*bert.parameters(), *proj.parameters(), class_vecs]
    opt = torch.optim.AdamW(params, lr=2e-3, weight_decay=0.01)
    gen = torch.Generator().manual_seed(seed)

    def embed(batch: torch.Tensor) -> torch.Tensor:
        mask = (batch != PAD).long()
        h = bert(input_ids=batch, attention_mask=mask).last_hidden_state
        pooled = (h * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return torch.nn.functional.normalize(proj(pooled), dim=1)

    start = time.perf_counter()
    bert.train()
    for _ in range(steps):
        idx = torch.randint(0, len(ids), (64,), generator=gen)
        batch = ids[idx].clone()
        # word dropout to [UNK]: the encoder learns to read a phrase with an unknown word in it
        drop = (torch.rand(batch.shape, generator=gen) < 0.1) & (batch > CLS)
        batch[drop] = UNK
        logits = SCALE * embed(batch) @ torch.nn.functional.normalize(class_vecs, dim=1).T
        loss = torch.nn.functional.cross_entropy(logits, labels[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    seconds = time.perf_counter() - start
    bert.eval()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    arrays = {k: v.detach().numpy().astype(np.float32) for k, v in bert.state_dict().items()
              if not k.endswith("position_ids")}
    arrays["proj.weight"] = proj.weight.detach().numpy().astype(np.float32)
    arrays["proj.bias"] = proj.bias.detach().numpy().astype(np.float32)
    arrays["classes"] = class_vecs.detach().numpy().astype(np.float32)
    np.savez_compressed(out_dir / "text_encoder.npz", **arrays)
    meta = {"vocabulary": vocabulary, "classes": classes, "captions": MOTION_CLASSES, "layers": LAYERS,
            "heads": HEADS, "width": WIDTH, "steps": steps, "seed": seed, "train_seconds": round(seconds, 1),
            "train_texts": len(train_set), "held_out_texts": len(held), "final_loss": round(float(loss.detach()), 4),
            "command": command}
    (out_dir / "text_encoder.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    r1, r3 = r_precision(TextEncoder(out_dir), held)
    meta["r_precision"] = {"top1": round(r1, 3), "top3": round(r3, 3)}
    (out_dir / "text_encoder.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    return meta


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="text_train")
    parser.add_argument("out", nargs="?", type=Path, default=ENCODER_DIR)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--evaluate", action="store_true",
                        help="do not train: print R-precision of the encoder in OUT on both held-out sets")
    args = parser.parse_args(argv)
    if args.evaluate:
        for name, row in evaluate(TextEncoder(args.out)).items():
            print(f"{name}: {row['texts']} texts, R@1 {row['top1']:.3f}, R@3 {row['top3']:.3f}, "
                  f"unknown words {row['unknown_words']:.0%}")
        return 0
    meta = train(args.out, args.steps, args.seed,
                 f"python -m wmbench.body.motion.diffusion.text_train OUT --steps {args.steps} --seed {args.seed}")
    print(f"trained {meta['steps']} steps in {meta['train_seconds']} s on {meta['train_texts']} texts; "
          f"R@1 {meta['r_precision']['top1']}, R@3 {meta['r_precision']['top3']} on {meta['held_out_texts']} "
          "held-out phrasings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
