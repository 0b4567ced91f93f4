"""The shipped denoiser gives the same numbers in numpy, torch and onnxruntime; the numpy DDIM sampler takes
the same steps as diffusers' DDIMScheduler; onnxruntime's provider is chosen from its own list."""

from __future__ import annotations

import numpy as np
import pytest

from wmbench.body.motion.diffusion.denoiser_numpy import ddim_sample
from wmbench.body.motion.diffusion.generator import WEIGHTS_DIR, MotionModel, shipped_model
from wmbench.body.motion.diffusion.onnx_backend import choose_providers


def _inputs(model: MotionModel, batch: int = 3, seed: int = 0):
    rng = np.random.default_rng(seed)
    c = model.config
    return (rng.standard_normal((batch, c["chunk"], c["frame_dim"])).astype(np.float32),
            rng.integers(0, 1000, batch).astype(np.int64),
            rng.standard_normal((batch, c["context"], c["frame_dim"])).astype(np.float32),
            (rng.random((batch, c["cond_dim"])) < 0.3).astype(np.float32),
            rng.integers(0, c["vocabulary"], (batch, c["max_words"])).astype(np.int64))


def test_numpy_forward_matches_torch():
    pytest.importorskip("torch")
    numpy_model = shipped_model("numpy")
    torch_model = MotionModel(WEIGHTS_DIR, "torch")
    args = _inputs(numpy_model)
    expected = torch_model.denoise(*args)
    got = numpy_model.denoise(*args)
    assert got.shape == expected.shape == args[0].shape
    assert np.abs(got - expected).max() < 1e-4 * max(1.0, np.abs(expected).max())


def test_onnx_export_matches_numpy_through_onnxruntime():
    pytest.importorskip("onnxruntime")
    onnx_model = MotionModel(WEIGHTS_DIR, "onnx")
    assert onnx_model.providers and onnx_model.providers[-1] == "CPUExecutionProvider"
    args = _inputs(onnx_model, batch=2, seed=1)
    assert np.abs(onnx_model.denoise(*args) - shipped_model("numpy").denoise(*args)).max() < 1e-4


def test_numpy_ddim_takes_the_same_steps_as_diffusers():
    torch = pytest.importorskip("torch")
    diffusers = pytest.importorskip("diffusers")
    model = shipped_model("numpy")
    noise, _, context, cond, tokens = _inputs(model, batch=1, seed=2)
    ours = ddim_sample(model.denoise, noise, context, cond, tokens, model.timesteps, model.alphas_cumprod,
                       model.final_alpha_cumprod)
    scheduler = diffusers.DDIMScheduler(num_train_timesteps=1000, beta_schedule="squaredcos_cap_v2",
                                        prediction_type="sample", clip_sample=False,
                                        timestep_spacing="trailing")
    scheduler.set_timesteps(len(model.timesteps))
    assert list(scheduler.timesteps.numpy()) == list(model.timesteps)
    x = torch.as_tensor(noise)
    for t in scheduler.timesteps:
        x0 = torch.as_tensor(model.denoise(x.numpy(), np.full(1, int(t), np.int64), context, cond, tokens))
        x = scheduler.step(x0, t, x, eta=0.0).prev_sample
    assert np.abs(x.numpy() - ours).max() < 1e-4


def test_provider_choice_comes_from_onnxruntimes_list():
    assert choose_providers(["TensorrtExecutionProvider", "CUDAExecutionProvider", "CPUExecutionProvider"]) == [
        "CUDAExecutionProvider", "CPUExecutionProvider"]
    assert choose_providers(["AzureExecutionProvider", "CPUExecutionProvider"]) == ["CPUExecutionProvider"]
    assert choose_providers([]) == ["CPUExecutionProvider"]


def test_ddim_pruning_keeps_the_named_candidates_as_if_sampled_alone():
    """Candidate selection (motion7) samples several chunks together and drops rows after a step: the rows
    kept end exactly where each would have ended sampled alone, and the hook sees every row until it prunes."""
    model = shipped_model("numpy")
    noise, _, context, cond, tokens = _inputs(model, batch=4, seed=3)
    seen: list[tuple[int, int]] = []

    def prune(step: int, clean: np.ndarray) -> np.ndarray | None:
        seen.append((step, len(clean)))
        return np.array([2, 0]) if step == 1 else None

    schedule = (model.timesteps, model.alphas_cumprod, model.final_alpha_cumprod)
    kept = ddim_sample(model.denoise, noise, context, cond, tokens, *schedule, prune=prune)
    assert seen == [(0, 4), (1, 4), (2, 2)]   # not called after the last step: nothing is left to prune
    for row, source in enumerate((2, 0)):
        alone = ddim_sample(model.denoise, noise[source:source + 1], context[source:source + 1],
                            cond[source:source + 1], tokens[source:source + 1], *schedule)
        assert np.abs(kept[row] - alone[0]).max() < 1e-4
