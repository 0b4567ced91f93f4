"""onnx/<path>: the tiny GPT-2 exported with a KV cache gives the same greedy tokens as hf/<path>."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.extras import missing_modules

if missing_modules("onnx"):  # imported below at module level: skip before that import fails
    pytest.skip(f"needs the 'onnx' extra (missing {', '.join(missing_modules('onnx'))}): "
                f"pip install -e '.[onnx]'", allow_module_level=True)

import onnxruntime

from tests.brain.provider_fixtures import calm_scene, corridor_scene, example_scene
from tests.brain.tiny_models import tiny_gpt2_dir  # noqa: F401 — pytest fixture
from wmbench.brain.providers.onnx_export import META_FILE, export_onnx
from wmbench.brain.providers.onnx_lm import CPU_PROVIDERS, CUDA_PROVIDERS, ONNXBrain, default_providers
from wmbench.brain.registry import get_brain

MAX_NEW = 12


@pytest.fixture(scope="module")
def exported(tiny_gpt2_dir, tmp_path_factory):  # noqa: F811
    out_dir = tmp_path_factory.mktemp("tiny-gpt2-onnx")
    return export_onnx(tiny_gpt2_dir, out_dir)


@pytest.fixture(scope="module")
def brains(tiny_gpt2_dir, exported):  # noqa: F811
    hf = get_brain(f"hf/{tiny_gpt2_dir}", max_new_tokens=MAX_NEW, device="cpu")
    onnx = get_brain(f"onnx/{exported.out_dir}", max_new_tokens=MAX_NEW)
    yield hf, onnx
    hf.close()
    onnx.close()


def test_export_writes_a_validated_folder(exported):
    out = Path(exported.out_dir)
    for name in ("model.onnx", "config.json", "tokenizer.json", META_FILE):
        assert (out / name).is_file(), name
    assert exported.max_abs_logit_diff < 1e-3
    assert (exported.num_layers, exported.num_kv_heads, exported.head_dim) == (2, 2, 16)
    meta = json.loads((out / META_FILE).read_text())
    assert meta["num_layers"] == 2 and meta["source"]


def test_session_reports_the_providers_it_really_got(brains):
    _, onnx = brains
    assert isinstance(onnx, ONNXBrain)
    assert onnx.providers == tuple(onnx.session.get_providers())
    assert onnx.providers and set(onnx.providers) <= set(onnx.requested_providers)
    assert onnx.providers[-1] == "CPUExecutionProvider"
    assert onnx.requested_providers == default_providers(onnxruntime.get_available_providers())


def test_default_providers_come_from_onnxruntime_not_torch(monkeypatch):
    """Issue 24 item 25: the CPU-only torch pin says "no GPU" on a GPU machine; onnxruntime's list decides."""
    import types

    fake_torch = types.SimpleNamespace(cuda=types.SimpleNamespace(is_available=lambda: False))
    monkeypatch.setitem(sys.modules, "torch", fake_torch)  # as the CPU-only torch build answers on a GPU host
    assert default_providers(["CPUExecutionProvider"]) == CPU_PROVIDERS
    assert default_providers(["CUDAExecutionProvider", "CPUExecutionProvider"]) == CUDA_PROVIDERS


def test_the_session_asks_onnxruntime_and_records_what_it_really_got(brains, monkeypatch):
    """With onnxruntime claiming CUDA (on this CPU machine), the brain requests CUDA first and reports the
    CPU fallback the session really got — the path the GPU measurement takes, testable on CPU."""
    _hf, onnx = brains
    monkeypatch.setattr(onnxruntime, "get_available_providers",
                        lambda: ["CUDAExecutionProvider", "CPUExecutionProvider"])
    claimed = ONNXBrain(onnx.model)
    try:
        assert claimed.requested_providers == CUDA_PROVIDERS
        assert claimed.providers == tuple(claimed.session.get_providers())
        assert claimed.providers[-1] == "CPUExecutionProvider"  # a CPU machine: the session fell back
    finally:
        claimed.close()


@pytest.mark.parametrize("scene_factory", [example_scene, calm_scene, corridor_scene])
def test_same_greedy_tokens_as_hf(brains, scene_factory):
    hf, onnx = brains
    scene = scene_factory()
    prompt = hf.prompt_ids(scene)
    assert onnx.prompt_ids(scene) == prompt
    hf_tokens = hf.generate_ids(prompt)
    onnx_tokens = onnx.generate_ids(prompt)
    assert len(set(hf_tokens)) > 2  # varied tokens, so agreement means something
    assert onnx_tokens == hf_tokens
    hf_reply, onnx_reply = hf.decide(scene), onnx.decide(scene)
    assert onnx_reply.error is None
    assert onnx_reply.text == hf_reply.text
    assert (onnx_reply.prompt_tokens, onnx_reply.completion_tokens) == (len(prompt), len(hf_tokens))
    assert onnx_reply.provider == "onnx" and onnx_reply.latency_s > 0.0


def test_short_prompts_match_too(brains):
    hf, onnx = brains
    for prompt in ([5], [17, 42, 99, 3], list(range(30, 60))):
        assert onnx.generate_ids(prompt, max_new_tokens=6) == hf.generate_ids(prompt, max_new_tokens=6)


def test_folder_without_model_onnx_says_how_to_make_one(tiny_gpt2_dir):  # noqa: F811
    with pytest.raises(FileNotFoundError, match=r"python -m wmbench\.brain\.providers\.onnx_export"):
        get_brain(f"onnx/{tiny_gpt2_dir}")
