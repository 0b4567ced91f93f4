"""Tiny causal language models built locally for tests (no hub access, a few seconds on a CPU).

``build_tiny_gpt2(folder)`` writes a transformers folder (``config.json``, weights, tokenizer files) holding a
2-layer GPT-2 with random weights from a fixed seed and a byte-level BPE tokenizer trained on a handful of
sentences. Its output is gibberish by design: the tests only check the plumbing (loading, prompting, greedy
decoding, ONNX parity), and gibberish becomes a parse error downstream.
"""

from __future__ import annotations

from pathlib import Path

#: A few sentences in the benchmark's vocabulary, enough for BPE to learn useful merges.
TRAINING_SENTENCES: tuple[str, ...] = (
    "PREDICT: left=safe(open), right=danger(wall), fwd=danger(beast), back=safe(open)",
    "MOTION: a person sprints to the right in terror, glancing back over the shoulder",
    "MOTION: a person stands still, calm, breathing slowly",
    '{"walls": {"left": 2.5, "right": null, "front": 3.0, "back": null}, "ground": "flat"}',
    '"npc_nearby": true, "npc_type": "beast", "npc_behavior": "charge", "npc_distance": 4.8',
    "You are the world model of a person. Read the scene and answer with two lines.",
    "A wall distance means danger(wall); null means safe(open). Never move toward danger.",
    "system user assistant recent_decisions last_prediction sound roar footsteps",
)
END_OF_TEXT = "<|endoftext|>"
#: A minimal chat template (Jinja) for the variant that exercises ``apply_chat_template``.
CHAT_TEMPLATE = (
    "{% for message in messages %}<|{{ message['role'] }}|>\n{{ message['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)


def build_tiny_gpt2(folder: Path, *, seed: int = 0, with_chat_template: bool = False,
                    n_positions: int = 2048) -> Path:
    """Write a tiny GPT-2 (2 layers, 2 heads, 32 dims) and its tokenizer to ``folder``; return the folder."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, special_tokens=[END_OF_TEXT], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    bpe.train_from_iterator(TRAINING_SENTENCES, trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=bpe, eos_token=END_OF_TEXT, bos_token=END_OF_TEXT, pad_token=END_OF_TEXT,
        unk_token=END_OF_TEXT,
    )
    if with_chat_template:
        tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(folder)

    eos_id = tokenizer.convert_tokens_to_ids(END_OF_TEXT)
    assert isinstance(eos_id, int), f"expected one token id for {END_OF_TEXT!r}, got {eos_id!r}"
    config = GPT2Config(
        vocab_size=len(tokenizer), n_positions=n_positions, n_layer=2, n_head=2, n_embd=32,
        bos_token_id=eos_id, eos_token_id=eos_id, pad_token_id=eos_id,
        # Wider than GPT-2's 0.02 and an untied output layer: random logits then have clear winners that
        # change from token to token (tied random weights collapse to one repeated token on long prompts,
        # which would make the hf/onnx parity test trivially true).
        initializer_range=0.2, tie_word_embeddings=False,
    )
    torch.manual_seed(seed)
    model = GPT2LMHeadModel(config).eval()
    model.save_pretrained(folder)
    return folder


_BUILT: dict[tuple[str, bool], Path] = {}


def cached_tiny_gpt2(root: Path, *, with_chat_template: bool = False) -> Path:
    """Build once per process under ``root`` (test modules share it through the fixtures below)."""
    key = (str(root), with_chat_template)
    if key not in _BUILT:
        name = "tiny-gpt2-chat" if with_chat_template else "tiny-gpt2"
        _BUILT[key] = build_tiny_gpt2(Path(root) / name, with_chat_template=with_chat_template)
    return _BUILT[key]


try:
    import pytest
except ImportError:  # pragma: no cover — only the fixtures need pytest
    _HAS_PYTEST = False
else:
    _HAS_PYTEST = True

if _HAS_PYTEST:

    @pytest.fixture(scope="session")
    def tiny_gpt2_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
        """A tiny GPT-2 folder without a chat template (plain prompt layout)."""
        return cached_tiny_gpt2(tmp_path_factory.getbasetemp())

    @pytest.fixture(scope="session")
    def tiny_gpt2_chat_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
        """The same tiny GPT-2 with a chat template on its tokenizer."""
        return cached_tiny_gpt2(tmp_path_factory.getbasetemp(), with_chat_template=True)
