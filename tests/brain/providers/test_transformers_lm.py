"""hf/<path>: a tiny local GPT-2 (random weights) loaded through the registry; prompts and greedy decoding."""

from __future__ import annotations

import pytest

from tests.brain.provider_fixtures import calm_scene, corridor_scene, example_scene
from tests.brain.tiny_models import tiny_gpt2_chat_dir, tiny_gpt2_dir  # noqa: F401 — pytest fixtures
from tests.extras import needs_extra
from wmbench.brain.errors import BrainSpecError
from wmbench.brain.prompt import DEFAULT_SYSTEM_PROMPT, build_messages
from wmbench.brain.providers.local_lm import prompt_token_ids, render_prompt
from wmbench.brain.providers.transformers_lm import HFBrain
from wmbench.brain.registry import get_brain

pytestmark = needs_extra("hf")

MAX_NEW = 8


@pytest.fixture(scope="module")
def hf_brain(tiny_gpt2_dir):  # noqa: F811
    brain = get_brain(f"hf/{tiny_gpt2_dir}", max_new_tokens=MAX_NEW, device="cpu")
    yield brain
    brain.close()


def test_tiny_model_loads_through_the_registry_and_answers(hf_brain, tiny_gpt2_dir):  # noqa: F811
    assert isinstance(hf_brain, HFBrain)
    assert hf_brain.name == f"hf/{tiny_gpt2_dir}"
    reply = hf_brain.decide(example_scene())
    assert reply.error is None
    assert isinstance(reply.text, str) and reply.text  # gibberish: becomes a parse error downstream
    assert reply.provider == "hf" and reply.model == str(tiny_gpt2_dir)
    assert 1 <= reply.completion_tokens <= MAX_NEW
    assert reply.prompt_tokens == len(hf_brain.prompt_ids(example_scene()))
    assert reply.latency_s > 0.0


def test_greedy_decoding_is_deterministic_and_scene_dependent(hf_brain):
    texts = [hf_brain.decide(scene).text for scene in (example_scene(), example_scene(), calm_scene())]
    assert texts[0] == texts[1]
    prompt_a, prompt_b = hf_brain.prompt_ids(example_scene()), hf_brain.prompt_ids(corridor_scene())
    assert prompt_a != prompt_b


def test_plain_prompt_layout_without_chat_template(hf_brain):
    messages = build_messages(calm_scene())
    text = render_prompt(hf_brain.tokenizer, messages)
    assert text == f"{DEFAULT_SYSTEM_PROMPT}\n\n{messages[1]['content']}\n\nassistant:"


def test_chat_template_is_used_when_the_tokenizer_has_one(tiny_gpt2_chat_dir):  # noqa: F811
    brain = get_brain(f"hf/{tiny_gpt2_chat_dir}", max_new_tokens=4, device="cpu", system_prompt="Be brief.")
    text = render_prompt(brain.tokenizer, build_messages(calm_scene(), system_prompt="Be brief."))
    assert text.startswith("<|system|>\nBe brief.\n<|user|>\n{")
    assert text.endswith("<|assistant|>\n")
    reply = brain.decide(calm_scene())
    assert reply.error is None and reply.completion_tokens <= 4


def test_long_prompts_keep_their_tail(hf_brain):
    messages = build_messages(example_scene())
    full = prompt_token_ids(hf_brain.tokenizer, messages, 10**6)
    tail = prompt_token_ids(hf_brain.tokenizer, messages, 50)
    assert len(full) > 50 and tail == full[-50:]
    with pytest.raises(ValueError, match="no room"):
        prompt_token_ids(hf_brain.tokenizer, messages, 0)


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        get_brain(f"hf/{tmp_path / 'absent'}")
    with pytest.raises(BrainSpecError):
        get_brain("hf/")
